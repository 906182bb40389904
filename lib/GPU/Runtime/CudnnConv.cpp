//===- CudnnConv.cpp - cuDNN's legacy convolution as a baseline -----------===//

#include "tensorop/GPU/CudnnConv.h"

#include <cuda.h>

#include <algorithm>

#ifdef TENSOROP_HAVE_CUDNN
#include <cudnn.h>
#include <dlfcn.h>
#endif

using namespace tensorop;

#ifdef TENSOROP_HAVE_CUDNN

namespace {
/// The cuDNN functions used, looked up in the dlopen'ed library with the
/// headers' own signatures.
struct Api {
#define TENSOROP_CUDNN_FUNCTIONS(X)                                            \
  X(cudnnGetVersion)                                                           \
  X(cudnnGetErrorString)                                                       \
  X(cudnnCreate)                                                               \
  X(cudnnDestroy)                                                              \
  X(cudnnSetStream)                                                            \
  X(cudnnCreateTensorDescriptor)                                               \
  X(cudnnDestroyTensorDescriptor)                                              \
  X(cudnnSetTensor4dDescriptor)                                                \
  X(cudnnCreateFilterDescriptor)                                               \
  X(cudnnDestroyFilterDescriptor)                                              \
  X(cudnnSetFilter4dDescriptor)                                                \
  X(cudnnCreateConvolutionDescriptor)                                          \
  X(cudnnDestroyConvolutionDescriptor)                                         \
  X(cudnnSetConvolution2dDescriptor)                                           \
  X(cudnnSetConvolutionMathType)                                               \
  X(cudnnGetConvolution2dForwardOutputDim)                                     \
  X(cudnnFindConvolutionForwardAlgorithmEx)                                    \
  X(cudnnConvolutionForward)
#define TENSOROP_CUDNN_MEMBER(name) decltype(&::name) name = nullptr;
  TENSOROP_CUDNN_FUNCTIONS(TENSOROP_CUDNN_MEMBER)
#undef TENSOROP_CUDNN_MEMBER
};

const char *algorithmName(cudnnConvolutionFwdAlgo_t a) {
  switch (a) {
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
    return "IMPLICIT_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
    return "IMPLICIT_PRECOMP_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
    return "GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
    return "DIRECT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
    return "FFT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
    return "FFT_TILING";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
    return "WINOGRAD";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
    return "WINOGRAD_NONFUSED";
  default:
    return "?";
  }
}
} // namespace

struct CudnnLegacyConv::State {
  void *library = nullptr;
  Api api;
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  CUdeviceptr workspace = 0;
  uint64_t in = 0, filter = 0, out = 0;
};

int CudnnLegacyConv::headerVersion() { return CUDNN_VERSION; }

CudnnLegacyConv::CudnnLegacyConv(const Conv2DShape &s, ElementType input,
                                 ElementType output, uint64_t inputPtr,
                                 uint64_t filterKRSC, uint64_t outputPtr,
                                 void *stream)
    : state(new State) {
  State &st = *state;
  st.in = inputPtr;
  st.filter = filterKRSC;
  st.out = outputPtr;
  // What the legacy descriptors cannot say is refused here, by name.
  if (s.padTop != s.padBottom || s.padLeft != s.padRight) {
    why = "cuDNN's legacy convolution descriptor takes symmetric padding "
          "only";
    return;
  }
  if (input != output &&
      !(input == ElementType::TF32 && output == ElementType::F32)) {
    why = std::string("cuDNN's legacy convolution needs input and output of "
                      "one type (got ") +
          elementTypeName(input) + " in, " + elementTypeName(output) + " out)";
    return;
  }
  cudnnDataType_t type;
  if (input == ElementType::BF16)
    type = CUDNN_DATA_BFLOAT16;
  else if (input == ElementType::F16)
    type = CUDNN_DATA_HALF;
  else if (input == ElementType::TF32)
    type = CUDNN_DATA_FLOAT; // tensor ops allowed: TF32 (see the math type)
  else {
    why = std::string("no cuDNN baseline for ") + elementTypeName(input);
    return;
  }
  for (const char *name : {"libcudnn.so.9", "libcudnn.so"})
    if ((st.library = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!st.library) {
    const char *err = dlerror();
    why = std::string("cannot open libcudnn.so.9: ") + (err ? err : "?");
    return;
  }
  Api &api = st.api;
#define TENSOROP_CUDNN_LOOKUP(name)                                            \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(st.library, #name));   \
  if (!api.name) {                                                             \
    why = "libcudnn.so.9 has no " #name;                                       \
    return;                                                                    \
  }
  TENSOROP_CUDNN_FUNCTIONS(TENSOROP_CUDNN_LOOKUP)
#undef TENSOROP_CUDNN_LOOKUP
  version = int(api.cudnnGetVersion());
  auto ok = [&](cudnnStatus_t status, const char *what) {
    if (status == CUDNN_STATUS_SUCCESS)
      return true;
    why = std::string(what) + ": " + api.cudnnGetErrorString(status);
    return false;
  };
  int n = int(s.n), c = int(s.c), h = int(s.h), w = int(s.w), f = int(s.f);
  if (!ok(api.cudnnCreate(&st.handle), "cudnnCreate") ||
      !ok(api.cudnnSetStream(st.handle, static_cast<cudaStream_t>(stream)),
          "cudnnSetStream") ||
      !ok(api.cudnnCreateTensorDescriptor(&st.x), "tensor descriptor") ||
      !ok(api.cudnnCreateTensorDescriptor(&st.y), "tensor descriptor") ||
      !ok(api.cudnnCreateFilterDescriptor(&st.w), "filter descriptor") ||
      !ok(api.cudnnCreateConvolutionDescriptor(&st.conv),
          "convolution descriptor") ||
      !ok(api.cudnnSetTensor4dDescriptor(st.x, CUDNN_TENSOR_NHWC, type, n, c,
                                         h, w),
          "input descriptor (NHWC)") ||
      // An NHWC filter in cuDNN is K x R x S x C.
      !ok(api.cudnnSetFilter4dDescriptor(st.w, type, CUDNN_TENSOR_NHWC, f, c,
                                         int(s.r), int(s.s)),
          "filter descriptor (KRSC)") ||
      !ok(api.cudnnSetConvolution2dDescriptor(
              st.conv, int(s.padTop), int(s.padLeft), int(s.strideH),
              int(s.strideW), int(s.dilationH), int(s.dilationW),
              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
          "convolution descriptor (fp32 compute)") ||
      !ok(api.cudnnSetConvolutionMathType(st.conv, CUDNN_TENSOR_OP_MATH),
          "tensor-op math"))
    return;
  int on = 0, oc = 0, oh = 0, ow = 0;
  if (!ok(api.cudnnGetConvolution2dForwardOutputDim(st.conv, st.x, st.w, &on,
                                                    &oc, &oh, &ow),
          "output dimensions"))
    return;
  if (on != n || oc != f || oh != s.outH() || ow != s.outW()) {
    why = "cuDNN computes a different output shape (" + std::to_string(on) +
          "x" + std::to_string(oh) + "x" + std::to_string(ow) + "x" +
          std::to_string(oc) + ")";
    return;
  }
  if (!ok(api.cudnnSetTensor4dDescriptor(st.y, CUDNN_TENSOR_NHWC, type, n, f,
                                         oh, ow),
          "output descriptor (NHWC)"))
    return;
  // Find times every algorithm on these buffers (it writes the output);
  // give it room for the workspace-hungry ones.
  size_t freeBytes = 0, totalBytes = 0;
  cuMemGetInfo(&freeBytes, &totalBytes);
  size_t room = std::min<size_t>(size_t(1) << 30, freeBytes / 4);
  if (cuMemAlloc(&st.workspace, room) != CUDA_SUCCESS) {
    st.workspace = 0;
    room = 0;
  }
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int returned = 0;
  if (!ok(api.cudnnFindConvolutionForwardAlgorithmEx(
              st.handle, st.x, reinterpret_cast<void *>(st.in), st.w,
              reinterpret_cast<void *>(st.filter), st.conv, st.y,
              reinterpret_cast<void *>(st.out),
              CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf,
              reinterpret_cast<void *>(st.workspace), room),
          "cudnnFindConvolutionForwardAlgorithmEx"))
    return;
  // Find times each algorithm once, first-call costs included, and can rank
  // a CUDA-core algorithm above a tensor-core one that is several times
  // faster once warm (seen on the H200). So every algorithm that runs is
  // timed again here, warm, on the stream, and the fastest is kept.
  CUevent start = nullptr, stop = nullptr;
  cuEventCreate(&start, CU_EVENT_DEFAULT);
  cuEventCreate(&stop, CU_EVENT_DEFAULT);
  auto timeAlgorithm = [&](const cudnnConvolutionFwdAlgoPerf_t &p) {
    float one = 1.0f, zero = 0.0f;
    auto call = [&] {
      return api.cudnnConvolutionForward(
          st.handle, &one, st.x, reinterpret_cast<void *>(st.in), st.w,
          reinterpret_cast<void *>(st.filter), st.conv, p.algo,
          reinterpret_cast<void *>(st.workspace), p.memory, &zero, st.y,
          reinterpret_cast<void *>(st.out));
    };
    if (api.cudnnSetConvolutionMathType(st.conv, p.mathType) !=
        CUDNN_STATUS_SUCCESS)
      return -1.0;
    for (int i = 0; i < 3; ++i)
      if (call() != CUDNN_STATUS_SUCCESS)
        return -1.0;
    const int calls = 10;
    cuEventRecord(start, static_cast<CUstream>(stream));
    for (int i = 0; i < calls; ++i)
      call();
    cuEventRecord(stop, static_cast<CUstream>(stream));
    float ms = 0;
    if (cuEventSynchronize(stop) != CUDA_SUCCESS ||
        cuEventElapsedTime(&ms, start, stop) != CUDA_SUCCESS)
      return -1.0;
    return double(ms) / calls;
  };
  int best = -1;
  double bestMs = 0;
  for (int i = 0; i < returned; ++i) {
    CudnnAlgorithmTrial t;
    t.name = algorithmName(perf[i].algo);
    t.status = api.cudnnGetErrorString(perf[i].status);
    t.ms = perf[i].time;
    t.workspaceBytes = perf[i].memory;
    t.tensorOps = perf[i].mathType != CUDNN_DEFAULT_MATH &&
                  perf[i].mathType != CUDNN_FMA_MATH;
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= room) {
      t.warmMs = timeAlgorithm(perf[i]);
      if (t.warmMs > 0 && (best < 0 || t.warmMs < bestMs)) {
        best = i;
        bestMs = t.warmMs;
      }
    }
    found.push_back(t);
  }
  cuEventDestroy(start);
  cuEventDestroy(stop);
  if (best < 0) {
    why = "cudnnFindConvolutionForwardAlgorithmEx found no algorithm that "
          "runs";
    return;
  }
  st.algo = perf[best].algo;
  workspace = perf[best].memory;
  if (!ok(api.cudnnSetConvolutionMathType(st.conv, perf[best].mathType),
          "the chosen algorithm's math type"))
    return;
  chosenTensorOps = found[best].tensorOps;
  chosen = algorithmName(st.algo);
  ready = true;
}

std::string CudnnLegacyConv::run() {
  State &st = *state;
  float one = 1.0f, zero = 0.0f;
  cudnnStatus_t status = st.api.cudnnConvolutionForward(
      st.handle, &one, st.x, reinterpret_cast<void *>(st.in), st.w,
      reinterpret_cast<void *>(st.filter), st.conv, st.algo,
      reinterpret_cast<void *>(st.workspace), workspace, &zero, st.y,
      reinterpret_cast<void *>(st.out));
  if (status == CUDNN_STATUS_SUCCESS)
    return "";
  return std::string("cudnnConvolutionForward: ") +
         st.api.cudnnGetErrorString(status);
}

CudnnLegacyConv::~CudnnLegacyConv() {
  State &st = *state;
  if (st.conv)
    st.api.cudnnDestroyConvolutionDescriptor(st.conv);
  if (st.w)
    st.api.cudnnDestroyFilterDescriptor(st.w);
  if (st.y)
    st.api.cudnnDestroyTensorDescriptor(st.y);
  if (st.x)
    st.api.cudnnDestroyTensorDescriptor(st.x);
  if (st.handle)
    st.api.cudnnDestroy(st.handle);
  if (st.workspace)
    cuMemFree(st.workspace);
  // The library stays loaded: cuDNN registers exit handlers.
}

#else // !TENSOROP_HAVE_CUDNN

struct CudnnLegacyConv::State {};

int CudnnLegacyConv::headerVersion() { return 0; }

CudnnLegacyConv::CudnnLegacyConv(const Conv2DShape &, ElementType,
                                 ElementType, uint64_t, uint64_t, uint64_t,
                                 void *)
    : why("tensorop-gpu-runner was built without cuDNN's headers (cudnn.h "
          "not found at configure time)") {}

std::string CudnnLegacyConv::run() { return why; }

CudnnLegacyConv::~CudnnLegacyConv() = default;

#endif // TENSOROP_HAVE_CUDNN
