/* The entry point of Inputs/epilogue_gemm.mlir under bare-ptr-abi=1, for
 * tools/tensorop/harness/epilogue_check.c (epilogue.test). */
void epilogue_gemm(const float *A, const float *B, const float *bias, float *C);
