//===- Operator.h - What one generated kernel computes ----------*- C++ -*-===//
//
// The target-independent description of one operator instance: its kind,
// dimensions, element types and operand layouts, the FLOP count, the C
// entry point a generated kernel exports, and the MLIR input the pipeline
// starts from. The drivers (gen, tune, bench) and every Backend take an
// Operator, so a new operator (convolution, batch, a fused epilogue) is a
// new kind here with its own fields and builders, not a new driver.
//
// Today: OpKind::Matmul, C[M x N] = op(A)[M x K] * op(B)[K x N], row-major
// contiguous operands (transposed ones only as matched in a module); and
// OpKind::Conv2D, output[N x OH x OW x F] = input[N x H x W x C] (NHWC,
// zero padding inside the kernel) convolved with filter[R x S x C x F]
// (HWCF), as linalg.conv_2d_nhwc_hwcf with strides and dilations.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_OPERATOR_H
#define TENSOROP_DRIVER_OPERATOR_H

#include "tensorop/Advisor/ConvShape.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tensorop {
struct OpRequest;
} // namespace mlir::tensorop

namespace tensorop {

enum class OpKind { Matmul, Conv2D };

/// Where the entry point's operands live: host memory (CPU kernels) or
/// device memory (GPU kernels, called with device pointers).
enum class Placement { Host, Device };

struct Operator {
  OpKind kind = OpKind::Matmul;
  /// Matmul dimensions.
  int64_t m = 0, n = 0, k = 0;
  /// Conv2D geometry.
  Conv2DShape conv;
  /// Operand layouts: A stored K x M, B stored N x K.
  bool transposeA = false, transposeB = false;
  /// The request asked for NAME_batched; `batchCount` is the count it named
  /// (0: none), the one gen verifies with.
  bool batched = false;
  int64_t batchCount = 0;
  /// The element type the request names ("f32", "bf16", "f16", "tf32",
  /// "f64", ...): the precision the math runs at. The storage types below
  /// follow from it ("tf32" is f32 storage).
  std::string dtype = "f32";
  /// The output type the request names; "" = the default for `dtype`.
  std::string requestedOutType;
  /// A matmul's fused epilogue steps ("bias_n", "relu", ...; in order;
  /// include/tensorop/Driver/EpilogueGemm.h); empty: C = A*B.
  std::vector<std::string> epilogue;
  /// The request as given ("" when the op came from a module).
  std::string requestText;
  /// The kernel name a request gets by default, e.g. gemm_97x131x67_f32.
  std::string defaultName;

  /// The operator a parsed one-line request asks for; an error for op kinds
  /// without a description yet.
  static llvm::Expected<Operator> fromRequest(const mlir::tensorop::OpRequest &r);

  /// A matmul found in a module (by a backend's matcher): `dtype` is the
  /// precision it computes in, `outType` C's type.
  static Operator matmul(int64_t m, int64_t n, int64_t k,
                         llvm::StringRef dtype, llvm::StringRef outType,
                         bool transposeA = false, bool transposeB = false);

  /// A convolution found in a module: `dtype` is the precision it computes
  /// in, `outType` the output's type.
  static Operator conv2d(const Conv2DShape &shape, llvm::StringRef dtype,
                         llvm::StringRef outType);

  /// Storage type of the inputs ("f32" for tf32).
  std::string inType() const;
  /// Storage type of the output: the requested one, else bf16/f16 for
  /// bf16/f16 inputs and f32 otherwise.
  std::string outType() const;
  /// Products summed per output element: K, or R*S*C for a convolution.
  int64_t contractionLength() const;
  /// "matmul" or "conv2d".
  llvm::StringRef kindName() const;
  /// Floating-point operations of one call (2*M*N*K for a matmul,
  /// 2*N*OH*OW*F*R*S*C for a convolution).
  double flops() const;
  /// The C type of a storage type as the generated headers spell it.
  static std::string cTypeName(llvm::StringRef type);
  /// The C declaration of the entry point `name` (no trailing newline).
  std::string entryPoint(llvm::StringRef name) const;
  /// The MLIR module `tensorop gen` builds for the function `name`: host
  /// operands for CPU kernels, device memrefs for GPU kernels. A non-empty
  /// `sketch` attribute is attached to the op so the pipeline takes it.
  std::string moduleSource(llvm::StringRef name, Placement placement,
                           llvm::StringRef sketch = "") const;
  /// Whether a CPU object of this operator gets the BLAS-like entries
  /// (NAME_ex, NAME_ws, ...): fp32 matmuls without an epilogue (the entries
  /// take float operands and no epilogue arguments).
  bool hasBlasEntries() const;
  /// The module of a CPU object gen ships: for a matmul with BLAS-like
  /// entries NAME (transposes as asked), NAME_ex, NAME_ex_ws,
  /// NAME_workspace_size, the prepacked-B entries and, when batched,
  /// NAME_batched(_ws) (lib/Runtime/GemmEntryPoints.cpp); moduleSource
  /// otherwise. `threads`: the team gen builds for (NAME_prepacked splits
  /// its panels among them).
  std::string cpuEntryPointsSource(llvm::StringRef name,
                                   llvm::StringRef sketch = "",
                                   int64_t threads = 1) const;
};

} // namespace tensorop

#endif // TENSOROP_DRIVER_OPERATOR_H
