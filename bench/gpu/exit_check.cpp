// Exit noise check: a program that uses the CUDA runtime calls a generated
// kernel's synchronous entry point once and returns from main. With the
// runtime before the lazy module (a build of an older commit, given to
// bench/gpu/build-async.sh as BASELINE_BUILD) the object's destructor ran
// after the CUDA runtime's exit handlers and printed "cuModuleUnload ...
// failed"; now nothing may be printed on stderr. It checks no result (the
// kernel is verified by async_check and tensorop-gpu-runner).
#include <cuda_runtime.h>

#include <cstdio>

#define STR2(x) #x
#define STR(x) STR2(x)
#include STR(NAME.h)

int main() {
  void *a = nullptr, *b = nullptr, *c = nullptr;
  size_t bytes = size_t(M) * N * 4 + size_t(M) * K * 4 + size_t(K) * N * 4;
  if (cudaMalloc(&a, bytes) != cudaSuccess ||
      cudaMalloc(&b, bytes) != cudaSuccess ||
      cudaMalloc(&c, bytes) != cudaSuccess) {
    std::printf("no GPU\n");
    return 2;
  }
  cudaMemset(a, 0, bytes);
  cudaMemset(b, 0, bytes);
  NAME(static_cast<const tensorop_bf16 *>(a), static_cast<const tensorop_bf16 *>(b),
       static_cast<tensorop_bf16 *>(c));
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s called; cudaDeviceSynchronize: %s; returning from main\n",
              STR(NAME), cudaGetErrorString(e));
  return e != cudaSuccess;
}
