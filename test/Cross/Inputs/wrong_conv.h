/* A convolution with the ABI of gen's header that is wrong on purpose
 * (test/Cross/conv.test): the harness must reject it. */
void wrong_conv(const float *input, const float *filter, float *output);
