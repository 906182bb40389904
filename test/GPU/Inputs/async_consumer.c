/* A C (or C++) consumer of a generated kernel's entry points on the CUDA
 * driver API, for test/GPU/async-entry.test: the header must compile in
 * both languages, and NAME and NAME_async must link from the object with
 * libtensorop_cuda_runtime and libcuda. The test only links it (no GPU
 * here); the kernel's results are checked on the GPU machine by
 * bench/gpu/async_check.cpp.
 *   cc -DNAME=... -DIT=tensorop_bf16 -DOT=float -I DIR async_consumer.c
 *      DIR/NAME.o libtensorop_cuda_runtime.a -lcuda */
#include <cuda.h>
#include <stdio.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#include STR(NAME.h)

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  CUdeviceptr a, b, c;
  const size_t bytes = 1 << 26;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
      cuCtxSetCurrent(ctx) || cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) ||
      cuMemAlloc(&a, bytes) || cuMemAlloc(&b, bytes) || cuMemAlloc(&c, bytes)) {
    printf("no GPU\n");
    return 2;
  }
  int rc = CAT(NAME, _async)((const IT *)a, (const IT *)b, (OT *)c, stream);
  CUresult done = cuStreamSynchronize(stream);
  NAME((const IT *)a, (const IT *)b, (OT *)c);
  printf("%s_async returned %d, the stream %d\n", STR(NAME), rc, (int)done);
  return rc != 0 || done != CUDA_SUCCESS;
}
