//===- Operator.cpp - What one generated kernel computes ------------------===//

#include "tensorop/Driver/Operator.h"
#include "tensorop/Driver/EpilogueConv.h"
#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Driver/EpilogueGemmBatched.h"

#include "tensorop/Advisor/Request.h"
#include "tensorop/GPU/GpuGen.h"
#include "tensorop/Runtime/ConvModule.h"
#include "tensorop/Runtime/GemmEntryPoints.h"
#include "tensorop/Runtime/JitGemm.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tensorop;

Expected<Operator> Operator::fromRequest(const mlir::tensorop::OpRequest &r) {
  if (r.op == "conv2d") {
    Operator op;
    op.kind = OpKind::Conv2D;
    op.conv = r.conv;
    op.dtype = r.dtype;
    op.requestedOutType = r.cType;
    op.epilogue = r.epilogue;
    op.requestText = r.text;
    op.defaultName = r.defaultName();
    return op;
  }
  if (r.op != "gemm")
    return createStringError("no operator description for '" + r.op + "'");
  Operator op;
  op.kind = OpKind::Matmul;
  op.m = r.m;
  op.n = r.n;
  op.k = r.k;
  op.transposeA = r.transposeA;
  op.transposeB = r.transposeB;
  op.batched = r.batched;
  op.batchCount = r.batchCount;
  op.dtype = r.dtype;
  op.requestedOutType = r.cType;
  op.epilogue = r.epilogue;
  op.requestText = r.text;
  op.defaultName = r.defaultName();
  return op;
}

Operator Operator::matmul(int64_t m, int64_t n, int64_t k, StringRef dtype,
                          StringRef outType, bool transposeA,
                          bool transposeB) {
  Operator op;
  op.kind = OpKind::Matmul;
  op.m = m;
  op.n = n;
  op.k = k;
  op.dtype = dtype.str();
  op.requestedOutType = outType.str();
  op.transposeA = transposeA;
  op.transposeB = transposeB;
  op.defaultName = formatv("gemm_{0}x{1}x{2}_{3}", m, n, k, dtype).str();
  return op;
}

Operator Operator::conv2d(const Conv2DShape &shape, StringRef dtype,
                          StringRef outType) {
  Operator op;
  op.kind = OpKind::Conv2D;
  op.conv = shape;
  op.dtype = dtype.str();
  op.requestedOutType = outType.str();
  op.defaultName =
      formatv("conv2d_n{0}_{1}x{2}x{3}_f{4}_{5}x{6}_{7}", shape.n, shape.h,
              shape.w, shape.c, shape.f, shape.r, shape.s, dtype)
          .str();
  return op;
}

std::string Operator::inType() const {
  return dtype == "tf32" ? "f32" : dtype;
}

std::string Operator::outType() const {
  if (!requestedOutType.empty())
    return requestedOutType;
  return dtype == "bf16" || dtype == "f16" ? dtype : "f32";
}

int64_t Operator::contractionLength() const {
  return kind == OpKind::Conv2D ? conv.contractionLength() : k;
}

StringRef Operator::kindName() const {
  return kind == OpKind::Conv2D ? "conv2d" : "matmul";
}

double Operator::flops() const {
  return kind == OpKind::Conv2D ? conv.flops() : 2.0 * m * n * k;
}

std::string Operator::cTypeName(StringRef type) {
  if (type == "bf16")
    return "tensorop_bf16";
  if (type == "f16")
    return "tensorop_f16";
  return "float";
}

std::string Operator::entryPoint(StringRef name) const {
  std::string in = cTypeName(inType()), out = cTypeName(outType());
  if (kind == OpKind::Conv2D && !epilogue.empty())
    return epilogueConvEntryPoint(name, epilogue);
  if (kind == OpKind::Conv2D)
    return formatv("void {0}(const {1} *input, const {1} *filter, {2} "
                   "*output);",
                   name, in, out)
        .str();
  // (CPU kernels: bias and R are f32 also where C is 16-bit; the NVIDIA
  // backend writes its own, with C's type for them.)
  if (!epilogue.empty())
    return epilogueEntryPoint(name, epilogue, in, "float", out);
  return formatv("void {0}(const {1} *A, const {1} *B, {2} *C);", name, in,
                 out)
      .str();
}

std::string Operator::moduleSource(StringRef name, Placement placement,
                                   StringRef sketch) const {
  if (kind == OpKind::Conv2D && placement == Placement::Device)
    return mlir::tensorop::gpuConvModuleSource(name, conv, inType(), outType(),
                                               sketch, dtype);
  if (kind == OpKind::Conv2D && !epilogue.empty()) {
    mlir::tensorop::ConvConsumer consumer =
        epilogueConvConsumer(conv, epilogue);
    return mlir::tensorop::convModuleSource(name, conv, sketch, &consumer);
  }
  if (kind == OpKind::Conv2D)
    return mlir::tensorop::convModuleSource(name, conv, sketch);
  if (placement == Placement::Device && !epilogue.empty())
    return epilogueGemmModuleSource(name, m, n, k, epilogue, inType(),
                                    outType());
  if (placement == Placement::Device)
    return mlir::tensorop::gpuGemmModuleSource(name, m, n, k, inType(),
                                               outType(), dtype, sketch);
  // A 16-bit C on a CPU: fp32 accumulation, rounded once as it is stored.
  // Both take the request's transposes (NAME only: hasBlasEntries()).
  if (outType() == "bf16" || outType() == "f16")
    return narrowGemmModuleSource(name, m, n, k, epilogue, inType(),
                                  outType(), transposeA, transposeB);
  if (!epilogue.empty())
    return epilogueGemmModuleSource(name, m, n, k, epilogue, inType(), "f32",
                                    transposeA, transposeB);
  return mlir::tensorop::gemmModuleSource(name, m, n, k, inType(), sketch);
}

bool Operator::hasBlasEntries() const {
  // 16-bit A and B take the same entries with an fp32 C; a 16-bit C (one
  // rounding as the kernel stores) has no alpha/beta form yet.
  return kind == OpKind::Matmul && epilogue.empty() &&
         (inType() == "f32" || inType() == "bf16" || inType() == "f16") &&
         outType() == "f32";
}

std::string Operator::cpuEntryPointsSource(StringRef name, StringRef sketch,
                                           int64_t threads) const {
  // A batch with an epilogue: NAME and NAME_batched with the epilogue's
  // arguments (EpilogueGemmBatched.h).
  if (hasBatchedEpilogueEntry(*this))
    return moduleSource(name, Placement::Host, sketch) +
           batchedEpilogueModuleSource(name, m, n, k, epilogue, inType(),
                                       transposeA, transposeB);
  if (!hasBlasEntries())
    return moduleSource(name, Placement::Host, sketch);
  mlir::tensorop::GemmEntryPointsSpec spec;
  spec.name = name.str();
  spec.m = m;
  spec.n = n;
  spec.k = k;
  spec.transposeA = transposeA;
  spec.transposeB = transposeB;
  spec.batched = batched;
  spec.sketch = sketch.str();
  spec.threads = threads;
  spec.inType = inType();
  return mlir::tensorop::gemmEntryPointsSource(spec);
}
