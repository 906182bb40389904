//===- CudnnConv.h - cuDNN's legacy convolution as a baseline ---*- C++ -*-===//
//
// The cuDNN side of tensorop-gpu-runner's convolution comparison: one
// forward convolution through cuDNN's legacy API (NHWC input and output,
// KRSC filter, fp32 compute), with the fastest of the algorithms
// cudnnFindConvolutionForwardAlgorithmEx returns as running on the real
// buffers, each timed again warm (Find's one-shot times misrank them). This is NOT cuDNN's fastest path: its graph/backend engines (as
// PyTorch's cudnn.benchmark drives them) are much faster on Hopper; the
// runner reports this baseline under that name.
//
// cuDNN is opened with dlopen at run time (libcudnn.so.9 from the library
// path), like NVML, so the runner builds without cuDNN's library and runs
// where there is none (the baseline then says why it is missing). Without
// cudnn.h at configure time the class only reports that.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_CUDNNCONV_H
#define TENSOROP_GPU_CUDNNCONV_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Verify/Numerics.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tensorop {

/// One algorithm cudnnFindConvolutionForwardAlgorithmEx tried.
struct CudnnAlgorithmTrial {
  std::string name;   ///< e.g. "IMPLICIT_PRECOMP_GEMM"
  std::string status; ///< cuDNN's status string
  double ms = 0;      ///< Find's own time for one call (first-call costs in)
  double warmMs = -1; ///< ours: mean of 10 warm calls (-1: not run)
  uint64_t workspaceBytes = 0;
  bool tensorOps = false; ///< math type allows tensor cores
};

/// The convolution planned on device buffers: input NHWC, filter KRSC
/// (F x R x S x C, cuDNN's NHWC filter layout), output NHWF; types
/// `input` for input and filter, `output` for the output.
class CudnnLegacyConv {
public:
  CudnnLegacyConv(const Conv2DShape &shape, ElementType input,
                  ElementType output, uint64_t inputPtr, uint64_t filterKRSC,
                  uint64_t outputPtr, void *stream);
  ~CudnnLegacyConv();
  CudnnLegacyConv(const CudnnLegacyConv &) = delete;
  CudnnLegacyConv &operator=(const CudnnLegacyConv &) = delete;

  /// Whether the convolution is planned and can run; else why not.
  bool available() const { return ready; }
  const std::string &reason() const { return why; }
  /// cudnnGetVersion() (e.g. 91900) and the headers' CUDNN_VERSION; 0 when
  /// unknown.
  int libraryVersion() const { return version; }
  static int headerVersion();
  /// The algorithm run() uses, and everything Find reported.
  const std::string &algorithm() const { return chosen; }
  bool algorithmUsesTensorOps() const { return chosenTensorOps; }
  const std::vector<CudnnAlgorithmTrial> &trials() const { return found; }
  uint64_t workspaceBytes() const { return workspace; }
  /// One cudnnConvolutionForward on the stream; "" or the error.
  std::string run();

  struct State; ///< the library's handles and descriptors

private:
  bool ready = false, chosenTensorOps = false;
  std::string why, chosen;
  int version = 0;
  uint64_t workspace = 0;
  std::vector<CudnnAlgorithmTrial> found;
  std::unique_ptr<State> state;
};

} // namespace tensorop

#endif // TENSOROP_GPU_CUDNNCONV_H
