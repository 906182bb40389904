//===- EpilogueGemmBatched.cpp - gen's batch of GEMMs with an epilogue ----===//
//
// NAME_batched with the epilogue's arguments. Each slice is the form the
// x86 pipeline already fuses (a matmul whose next op is the steps'
// linalg.generic on the same C view: fuse-epilogues), in the slice loop of
// the plain NAME_batched (batchedSliceLoop, lib/Runtime/GemmEntryPoints.cpp):
// the caller's strides become memref.reinterpret_cast offsets, so no slice
// is copied and the padding between matrices is never read or written.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/EpilogueGemmBatched.h"
#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Runtime/GemmEntryPoints.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/CpuGemmLowp.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace llvm;
using namespace tensorop;

bool tensorop::hasBatchedEpilogueEntry(const Operator &op) {
  return op.kind == OpKind::Matmul && op.batched && !op.epilogue.empty() &&
         (op.inType() == "f32" || op.inType() == "bf16" ||
          op.inType() == "f16") &&
         op.outType() == "f32";
}

std::string tensorop::batchedEpilogueEntryPoint(StringRef name,
                                                ArrayRef<std::string> steps,
                                                StringRef inCType) {
  const bool res = epilogueHasResidual(steps);
  return formatv("void {0}_batched(const {1} *A, const {1} *B, {2}{3}float "
                 "*C,\n    long batch, long strideA, long strideB, long "
                 "strideC{4});",
                 name, inCType,
                 epilogueHasBias(steps) ? "const float *bias, " : "",
                 res ? "const float *R, " : "", res ? ", long strideR" : "")
      .str();
}

std::string tensorop::batchedEpilogueModuleSource(
    StringRef name, int64_t m, int64_t n, int64_t k,
    ArrayRef<std::string> steps, StringRef inType, bool transposeA,
    bool transposeB) {
  const bool bias = epilogueHasBias(steps), res = epilogueHasResidual(steps);
  const bool alongM = epilogueBiasAlongM(steps);
  std::string maps;
  if (transposeA || transposeB)
    maps = mlir::tensorop::matmulIndexingMaps(transposeA, transposeB) + " ";
  const mlir::tensorop::BatchedSliceLoop loop{transposeA ? k : m,
                                              transposeA ? m : k,
                                              transposeB ? n : k,
                                              transposeB ? k : n,
                                              m,
                                              n,
                                              inType.str(),
                                              maps};
  const std::string ptr = ("memref<1x" + inType + ">").str();
  const std::string cT = mlir::tensorop::batchedSliceView("f32", m, n);
  // The steps' generic on the slice: the bias shared, R's slice i.
  std::string args, ins, insTypes, genericMaps, blockArgs, rView;
  if (bias) {
    std::string type = formatv("memref<{0}xf32>", alongM ? m : n).str();
    args += ", %bias: " + type;
    ins += "%bias";
    insTypes += type;
    genericMaps += alongM ? "affine_map<(d0, d1) -> (d0)>, "
                          : "affine_map<(d0, d1) -> (d1)>, ";
    blockArgs += "%b: f32, ";
  }
  if (res) {
    args += ", %R: memref<1xf32>";
    ins += (ins.empty() ? "" : ", ") + std::string("%rv");
    insTypes += (insTypes.empty() ? "" : ", ") + cT;
    genericMaps += "affine_map<(d0, d1) -> (d0, d1)>, ";
    blockArgs += "%r: f32, ";
    rView = formatv("    %offR = arith.muli %i, %strideR : index\n"
                    "    %rv = memref.reinterpret_cast %R to offset: [%offR], "
                    "sizes: [{0}, {1}], strides: [{1}, 1] : memref<1xf32> to "
                    "{2}\n",
                    m, n, cT)
                .str();
  }
  // epilogueStepBody indents each line by 4; the loop body needs 6.
  std::string body, indented;
  for (auto [i, step] : llvm::enumerate(steps))
    body += epilogueStepBody(step, i);
  for (StringRef line : split(StringRef(body), '\n'))
    if (!line.empty())
      indented += "  " + line.str() + "\n";
  // Right after the matmul, on the same C view: the form fuse-epilogues
  // fuses.
  std::string generic =
      ins.empty()
          ? formatv("    linalg.generic {{indexing_maps = [affine_map<(d0, "
                    "d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                    "\"parallel\"]} outs(%cv : {0}) {{\n",
                    cT)
                .str()
          : formatv("    linalg.generic {{indexing_maps = [{0}affine_map<(d0, "
                    "d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                    "\"parallel\"]} ins({1} : {2}) outs(%cv : {3}) {{\n",
                    genericMaps, ins, insTypes, cT)
                .str();
  generic += formatv("    ^bb0({0}%v0: f32):\n{1}      linalg.yield %v{2} : "
                     "f32\n    }\n",
                     blockArgs, indented, steps.size())
                 .str();
  return formatv(R"mlir(
func.func @{0}_batched(%A: {1}, %B: {1}{2}, %C: memref<1xf32>, %batch: index, %strideA: index, %strideB: index, %strideC: index{3}) {{
{4}  return
}
)mlir",
                 name, ptr, args, res ? ", %strideR: index" : "",
                 mlir::tensorop::batchedSliceLoop(loop, rView, generic))
      .str();
}

std::string tensorop::batchedEpilogueHeader(const Operator &op,
                                            StringRef name) {
  const bool bias = epilogueHasBias(op.epilogue),
             res = epilogueHasResidual(op.epilogue);
  std::string operands =
      formatv("A_i = A + i*strideA ({0}), B_i = B + i*strideB ({1}),\n"
              " *   C_i = C + i*strideC (M x N){2}",
              op.transposeA ? "K x M" : "M x K",
              op.transposeB ? "N x K" : "K x N",
              res ? ", R_i = R + i*strideR (M x N, the\n *   residual of "
                    "slice i)"
                  : "")
          .str();
  std::string shared =
      bias ? formatv("\n * The bias ({0} floats) is shared by every slice.",
                     epilogueBiasAlongM(op.epilogue) ? "M" : "N")
                 .str()
           : "";
  return formatv(R"(
/* A batch: for i in [0, batch), {0} on
 *   {1}
 * each contiguous and row-major (strides in elements): C_i is overwritten
 * with the epilogue above applied.{2}
 * The elements between two matrices (a stride longer than the matrix) are
 * never read or written; batch = 0 writes nothing. Allocation and thread
 * safety as for {0}.
 */
{3}
)",
                 name, operands, shared,
                 batchedEpilogueEntryPoint(name, op.epilogue,
                                           Operator::cTypeName(op.inType())))
      .str();
}

std::string tensorop::checkBatchedEpilogueBudget(const Operator &op) {
  const uint64_t slices = std::max<int64_t>(op.batchCount, 3);
  const uint64_t m = op.m, n = op.n, k = op.k;
  uint64_t elements = saturatingAdd(
      saturatingAdd(saturatingMul(m, k), saturatingMul(k, n)),
      saturatingMul(2, saturatingMul(m, n)));
  return checkBufferBudget(
      saturatingMul(saturatingMul(slices, elements), 8),
      formatv("verifying {0}_batched on {1} slices of {2}x{3}x{4}",
              "NAME", slices, m, n, k)
          .str());
}

namespace {
/// The padding's NaN payloads (as GemmEntryCheck.cpp's): no arithmetic or
/// conversion produces them, so they are compared bit for bit.
constexpr uint32_t kPoisonBits = 0x7fc0dead;
constexpr uint16_t kPoison16 = 0x7fad;
float poison() {
  float f;
  std::memcpy(&f, &kPoisonBits, 4);
  return f;
}

/// An M x K (or K x N) operand of one slice as the reference reads it and,
/// stored in the request's layout, as the entry reads it (f32 or 16-bit
/// bits) into `to` at `at`.
template <typename T>
void storeSlice(const float *rowMajor, int64_t rows, int64_t cols,
                bool transposed, std::vector<T> &to, size_t at,
                const std::vector<uint16_t> *bits) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      size_t from = size_t(i) * cols + j;
      size_t dst = at + (transposed ? size_t(j) * rows + i : from);
      if constexpr (std::is_same_v<T, float>)
        to[dst] = rowMajor[from];
      else
        to[dst] = (*bits)[from];
    }
}
} // namespace

BatchedEpilogueCheck tensorop::checkBatchedEpilogueGemm(
    void *fn, int64_t m, int64_t n, int64_t k, ArrayRef<std::string> steps,
    uint64_t seed, int64_t batch, int64_t pad, ElementType input,
    bool transposeA, bool transposeB) {
  BatchedEpilogueCheck result;
  EpilogueGemmCheck &out = result.check;
  result.what = formatv("batch={0}, every matrix's stride {1} elements "
                        "longer (padding NaN, compared bit for bit), C NaN "
                        "before",
                        batch, pad)
                    .str();
  SmallVector<mlir::tensorop::EpilogueStep> parsed;
  if (!mlir::tensorop::parseEpilogueSteps(steps, parsed, out.error))
    return result;
  const bool hasBias = epilogueHasBias(steps),
             hasRes = epilogueHasResidual(steps),
             alongM = epilogueBiasAlongM(steps);
  const bool half = input == ElementType::BF16 || input == ElementType::F16;
  const int64_t sizeA = m * k, sizeB = k * n, sizeC = m * n;
  const int64_t strideA = sizeA + pad, strideB = sizeB + pad,
                strideC = sizeC + pad, strideR = sizeC + 2 * pad;
  const size_t slices = size_t(std::max<int64_t>(batch, 1));
  // Every matrix of the batch in the entry's layout, the padding poisoned.
  std::vector<float> A32(half ? 0 : slices * strideA, poison()),
      B32(half ? 0 : slices * strideB, poison());
  std::vector<uint16_t> A16(half ? slices * strideA : 0, kPoison16),
      B16(half ? slices * strideB : 0, kPoison16);
  std::vector<float> C(slices * strideC, poison()),
      R(slices * strideR, poison());
  AlignedBuffer bias(alongM ? m : n);
  if (!bias.ok()) {
    out.error = "cannot allocate the verification buffers";
    return result;
  }
  fillRandom(bias.data, bias.size, seed + 2);
  // The reference's inputs (rounded as the entry reads them) per slice.
  std::vector<std::vector<float>> a(batch), b(batch), r(batch);
  for (int64_t i = 0; i < batch; ++i) {
    a[i].resize(sizeA);
    b[i].resize(sizeB);
    r[i].resize(sizeC);
    fillRandom(a[i].data(), sizeA, seed + 10 + 3 * i);
    fillRandom(b[i].data(), sizeB, seed + 11 + 3 * i);
    fillRandom(r[i].data(), sizeC, seed + 12 + 3 * i);
    std::vector<uint16_t> aBits(half ? sizeA : 0), bBits(half ? sizeB : 0);
    if (half) {
      roundTo16BitStorage(input, a[i].data(), aBits);
      roundTo16BitStorage(input, b[i].data(), bBits);
      storeSlice(a[i].data(), m, k, transposeA, A16, i * strideA, &aBits);
      storeSlice(b[i].data(), k, n, transposeB, B16, i * strideB, &bBits);
    } else {
      storeSlice(a[i].data(), m, k, transposeA, A32, i * strideA, nullptr);
      storeSlice(b[i].data(), k, n, transposeB, B32, i * strideB, nullptr);
    }
    std::copy(r[i].begin(), r[i].end(), R.begin() + i * strideR);
    std::fill(C.begin() + i * strideC, C.begin() + i * strideC + sizeC,
              std::nanf(""));
  }
  // Inputs are never written: compared whole after the call.
  const std::vector<float> A32Before = A32, B32Before = B32, RBefore = R,
                           CBefore = C;
  const std::vector<uint16_t> A16Before = A16, B16Before = B16;
  const std::vector<float> biasBefore(bias.data, bias.data + bias.size);
  const void *aIn = half ? static_cast<const void *>(A16.data())
                         : static_cast<const void *>(A32.data());
  const void *bIn = half ? static_cast<const void *>(B16.data())
                         : static_cast<const void *>(B32.data());
  using FBR = void (*)(const void *, const void *, const float *,
                       const float *, float *, long, long, long, long, long);
  using FB = void (*)(const void *, const void *, const float *, float *,
                      long, long, long, long);
  using FR = void (*)(const void *, const void *, const float *, float *,
                      long, long, long, long, long);
  using F0 = void (*)(const void *, const void *, float *, long, long, long,
                      long);
  if (hasBias && hasRes)
    reinterpret_cast<FBR>(fn)(aIn, bIn, bias.data, R.data(), C.data(), batch,
                              strideA, strideB, strideC, strideR);
  else if (hasBias)
    reinterpret_cast<FB>(fn)(aIn, bIn, bias.data, C.data(), batch, strideA,
                             strideB, strideC);
  else if (hasRes)
    reinterpret_cast<FR>(fn)(aIn, bIn, R.data(), C.data(), batch, strideA,
                             strideB, strideC, strideR);
  else
    reinterpret_cast<F0>(fn)(aIn, bIn, C.data(), batch, strideA, strideB,
                             strideC);
  auto changed = [](const auto &now, const auto &before) {
    int64_t count = 0;
    for (size_t i = 0; i < now.size(); ++i)
      count += std::memcmp(&now[i], &before[i], sizeof(now[i])) != 0;
    return count;
  };
  result.paddingChanged =
      changed(A32, A32Before) + changed(B32, B32Before) +
      changed(A16, A16Before) + changed(B16, B16Before) +
      changed(R, RBefore) +
      changed(std::vector<float>(bias.data, bias.data + bias.size),
              biasBefore);
  // C: the padding after each slice (and, for batch = 0, all of C).
  for (size_t i = 0; i < C.size(); ++i)
    if (batch == 0 || int64_t(i % strideC) >= sizeC)
      result.paddingChanged += std::memcmp(&C[i], &CBefore[i], 4) != 0;
  out.bound = epilogueBoundText();
  double slope = epilogueSlope(parsed);
  Check check;
  for (int64_t i = 0; i < batch; ++i) {
    GemmReference ref = computeReference(a[i].data(), b[i].data(), m, n, k);
    if (!ref.ok()) {
      out.error = "cannot allocate the fp64 reference";
      return result;
    }
    check.merge(judgeEpilogueOutput(C.data() + i * strideC, ref, parsed,
                                    bias.data, r[i].data(), m, n, alongM,
                                    slope, 0));
  }
  out.failures = check.failures();
  out.maxRatio = check.maxRatio;
  return result;
}
