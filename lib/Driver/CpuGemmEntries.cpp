//===- CpuGemmEntries.cpp - gen's check of the BLAS-like entries ----------===//

#include "CpuGemmEntries.h"

#include "tensorop/Runtime/GemmEntryPoints.h"
#include "tensorop/Verify/GemmEntryCheck.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tensorop;

GemmEntriesCheck
tensorop::checkGemmEntriesObject(const mlir::tensorop::LoadedObject &object,
                                 StringRef name, const Operator &op,
                                 unsigned seed, bool time) {
  GemmEntriesCheck out;
  GemmEntryPoints e;
  std::string missing;
  auto find = [&](StringRef suffix) -> void * {
    Expected<void *> s = object.lookup((name + suffix).str());
    if (!s) {
      consumeError(s.takeError());
      missing += (missing.empty() ? "" : ", ") + (name + suffix).str();
      return nullptr;
    }
    return *s;
  };
  e.plain = reinterpret_cast<GemmPlainFn>(find(""));
  e.plainWs = reinterpret_cast<GemmPlainWsFn>(find("_ws"));
  e.ex = reinterpret_cast<GemmExFn>(find("_ex"));
  e.exWs = reinterpret_cast<GemmExWsFn>(find("_ex_ws"));
  e.workspaceSize = reinterpret_cast<GemmWorkspaceSizeFn>(find("_workspace_size"));
  // f16 objects have no prepacked entries (GemmEntryPoints.h).
  if (op.inType() != "f16") {
    e.packedBSize =
        reinterpret_cast<GemmPackedBSizeFn>(find("_packed_b_size"));
    e.packB = reinterpret_cast<GemmPackBFn>(find("_pack_b"));
    e.prepacked = reinterpret_cast<GemmPrepackedFn>(find("_prepacked"));
    e.prepackedWs =
        reinterpret_cast<GemmPrepackedWsFn>(find("_prepacked_ws"));
  }
  if (op.batched) {
    e.batched = reinterpret_cast<GemmBatchedFn>(find("_batched"));
    e.batchedWs = reinterpret_cast<GemmBatchedWsFn>(find("_batched_ws"));
    e.batchedEx = reinterpret_cast<GemmBatchedExFn>(find("_batched_ex"));
    e.batchedExWs =
        reinterpret_cast<GemmBatchedExWsFn>(find("_batched_ex_ws"));
  }
  if (!missing.empty()) {
    out.error = "the object lacks " + missing;
    return out;
  }
  ElementType input = op.inType() == "bf16"  ? ElementType::BF16
                      : op.inType() == "f16" ? ElementType::F16
                                             : ElementType::F32;
  GemmLayout layout{op.m, op.n, op.k, op.transposeA, op.transposeB, input};
  const bool narrow = input != ElementType::F32;
  GemmEntryCheck check = checkGemmEntryPoints(e, layout, op.batchCount, seed);
  out.passed = check.passed();
  json::Array cases;
  std::string table = "| entry | call | max error / bound | failures | "
                      "padding/guards changed |\n| --- | --- | --- | --- | "
                      "--- |\n";
  for (const GemmEntryCase &c : check.cases) {
    cases.push_back(json::Object{{"entry", c.entry},
                                 {"call", c.what},
                                 {"max_error_ratio", c.check.maxRatio},
                                 {"failures", c.check.failures()},
                                 {"padding_changed", c.paddingChanged},
                                 {"passed", c.ok()}});
    table += formatv("| {0} | {1} | {2:E2} | {3} | {4} |\n", c.entry, c.what,
                     c.check.maxRatio, c.check.failures(), c.paddingChanged)
                 .str();
  }
  out.verification = json::Object{
      {"performed", true},
      {"reference", std::string("OpenBLAS dgemm (fp64) with the same "
                                "transposes, leading dimensions, alpha and "
                                "beta") +
                        (narrow ? ", of A and B rounded to " + op.inType()
                                : std::string())},
      {"bound", "|C - R| <= 2*K*6e-8*(|alpha||A||B| + |beta||C|) + 6e-8*|R|"},
      {"padding", narrow ? "NaN 0x7fad in A and B (16-bit), NaN with payload "
                           "0x7fc0dead in C, compared bit for bit"
                         : "NaN with payload 0x7fc0dead, compared bit for bit"},
      {"workspace_bytes", int64_t(check.workspaceBytes)},
      {"cases", std::move(cases)},
      {"passed", out.passed}};
  out.summary = "entry points: " + check.summary() + " -> " +
                (out.passed ? "passed" : "FAILED");
  out.markdown = "### Entry points besides NAME\n\nEach call below ran on the "
                 "shipped object against an fp64 reference; padding and "
                 "guards hold a NaN pattern that must be left as it was.\n\n" +
                 table + "\nResult: **" + (out.passed ? "passed" : "FAILED") +
                 "**.\n\n";
  if (time && out.passed && !narrow) {
    ExOverhead t = timeExAgainstPlain(e, layout, seed, 7, 0.1);
    double gflop = op.flops() * 1e-9;
    out.verification["ex_timing"] = json::Object{
        {"method", "alpha=1, beta=0: NAME, NAME_ex with contiguous operands "
                   "(which calls NAME) and NAME_ex_ws with every leading "
                   "dimension 16 elements longer (the strided path), in "
                   "turn, 7 rounds, median, this process's threads"},
        {"name_gflops_median", gflop / t.plainSeconds},
        {"ex_gflops_median", gflop / t.exSeconds},
        {"ex_ws_padded_gflops_median", gflop / t.exWsSeconds},
        {"ex_over_name_time", t.exSeconds / t.plainSeconds},
        {"ex_ws_padded_over_name_time", t.exWsSeconds / t.plainSeconds},
        {"prepacked_gflops_median", gflop / t.prepackedSeconds},
        {"prepacked_over_name_time", t.prepackedSeconds / t.plainSeconds},
        {"openblas_same_layout_gflops_median", gflop / t.blasSeconds}};
    std::string line =
        formatv("NAME_ex (contiguous) / NAME_ex_ws (lds +16) / NAME, alpha=1 "
                "beta=0, median: {0:F1} / {1:F1} / {2:F1} GFLOP/s ({3:F3}x / "
                "{4:F3}x NAME's time)",
                gflop / t.exSeconds, gflop / t.exWsSeconds,
                gflop / t.plainSeconds, t.exSeconds / t.plainSeconds,
                t.exWsSeconds / t.plainSeconds)
            .str();
    std::string blas =
        formatv("NAME vs OpenBLAS sgemm ({0}{1}, same rounds): {2:F1} vs "
                "{3:F1} GFLOP/s ({4:F2}x)",
                op.transposeA ? "T" : "N", op.transposeB ? "T" : "N",
                gflop / t.plainSeconds, gflop / t.blasSeconds,
                t.blasSeconds / t.plainSeconds)
            .str();
    std::string prepacked =
        formatv("NAME_prepacked (B packed once) / NAME: {0:F1} / {1:F1} "
                "GFLOP/s ({2:F3}x NAME's time)",
                gflop / t.prepackedSeconds, gflop / t.plainSeconds,
                t.prepackedSeconds / t.plainSeconds)
            .str();
    out.summary += "\n  " + line + "\n  " + prepacked + "\n  " + blas;
    out.markdown += line + ", in turn, 7 rounds.\n\n" + prepacked +
                    ", same rounds.\n\n" + blas + ".\n\n";
  }
  return out;
}

std::string tensorop::gemmEntriesHeader(const Operator &op, StringRef name) {
  std::string opA = op.transposeA ? "A^T (A stored K x M, lda >= M)"
                                  : "A (A stored M x K, lda >= K)";
  std::string opB = op.transposeB ? "B^T (B stored N x K, ldb >= K)"
                                  : "B (B stored K x N, ldb >= N)";
  // A and B as the plain entry declares them (bf16 / f16 as their bits).
  const std::string in = op.inType() == "bf16"  ? "tensorop_bf16"
                         : op.inType() == "f16" ? "tensorop_f16"
                                                : "float";
  const std::string alphaText =
      op.inType() == "f32"
          ? "alpha != 1 scales a copy of B in the workspace."
          : "alpha != 1 forms op(A)*op(B) in an M x N fp32 buffer of the\n"
            " * workspace first (a scaled copy of a 16-bit B would round "
            "alpha*B), then\n * C += alpha * that.";
  std::string text = formatv(R"(
/* Allocation: every entry ending in _ws allocates nothing; it takes a
 * caller-provided workspace of
 *   {0}_workspace_size()
 * bytes (any alignment: it is aligned inside; its contents need not be
 * kept between calls). {0} keeps its buffers in a static scratch area
 * (above); the other entries without _ws allocate a workspace per call
 * (malloc/free). Thread safety: a call touches only its operands and
 * its workspace, so concurrent calls are safe when they share no workspace
 * and no C.
 */
size_t {0}_workspace_size(void);
void {0}_ws(const {3} *A, const {3} *B, float *C, void *workspace);

/* C = alpha * op(A) * op(B) + beta * C, row-major, leading dimensions in
 * elements (the distance between the starts of two rows; the elements
 * between a row's end and the next row's start are never read or written):
 *   op(A) = {1}
 *   op(B) = {2}
 *   C is M x N with ldc >= N.
 * BLAS semantics: beta = 0 -> C is not read (it may hold NaN); alpha = 0 ->
 * A and B are not read. {4}
 * Contiguous operands with alpha = 1, beta = 0 run the plain entry's code.
 * The leading dimensions are not checked: too small a value reads and
 * writes the wrong elements.
 */
void {0}_ex(const {3} *A, long lda, const {3} *B, long ldb, float *C,
    long ldc, float alpha, float beta);
void {0}_ex_ws(const {3} *A, long lda, const {3} *B, long ldb, float *C,
    long ldc, float alpha, float beta, void *workspace);
)",
                             name, opA, opB, in, alphaText)
                         .str();
  if (op.inType() == "f32")
    text += formatv(R"(
/* B packed once (weights used by many calls, as oneDNN's reordered
 * weights): {0}_pack_b copies op(B) (stored as for {0}, contiguous) into
 * packedB, {0}_packed_b_size() bytes in panels of {1} columns (any
 * alignment; the layout is this kernel's own: pack with this object's
 * {0}_pack_b only); {0}_prepacked then computes C = op(A) * op(B) from
 * packedB alone (C overwritten, A contiguous as for {0}). Packing pays
 * below about 64 rows, where a row-major B's rows stream badly; above, the
 * panel is all of op(B) and {0}_prepacked runs {0}'s code on the copy.
 * {0}_prepacked_ws allocates nothing ({0}_workspace_size() bytes). Built
 * for several threads, {0}_prepacked splits the panels between them.
 */
size_t {0}_packed_b_size(void);
void {0}_pack_b(const float *B, float *packedB);
void {0}_prepacked(const float *A, const float *packedB, float *C);
void {0}_prepacked_ws(const float *A, const float *packedB, float *C,
    void *workspace);
)",
                    name, mlir::tensorop::prepackedPanelWidth(op.m, op.n))
                .str();
  else if (op.inType() == "bf16")
    text += formatv(R"(
/* B packed once (weights used by many calls, as oneDNN's reordered
 * weights): {0}_pack_b copies op(B) (stored as for {0}, contiguous) into
 * packedB, {0}_packed_b_size() bytes (4-byte aligned) in panels of {1}
 * columns, each held as k pairs, the layout vdpbf16ps reads (this kernel's
 * own: pack with this object's {0}_pack_b only); {0}_prepacked then
 * computes C = op(A) * op(B) from packedB alone (C overwritten, A
 * contiguous as for {0}), reading the pairs in place: {0} packs B into
 * pairs on every call. {0}_prepacked_ws allocates nothing
 * ({0}_workspace_size() bytes). Built for several threads, {0}_prepacked
 * splits the panels between them.
 */
size_t {0}_packed_b_size(void);
void {0}_pack_b(const tensorop_bf16 *B, tensorop_bf16 *packedB);
void {0}_prepacked(const tensorop_bf16 *A, const tensorop_bf16 *packedB,
    float *C);
void {0}_prepacked_ws(const tensorop_bf16 *A, const tensorop_bf16 *packedB,
    float *C, void *workspace);
)",
                    name, mlir::tensorop::prepackedPanelWidth(op.m, op.n, /*pairs=*/true))
                .str();
  if (op.batched)
    text += formatv(R"(
/* batch independent GEMMs C_i = op(A_i) * op(B_i) (C_i overwritten), each
 * operand contiguous as for the plain entry, matrix i at A + i*strideA,
 * B + i*strideB, C + i*strideC (strides in elements, at least the matrix's
 * size; what lies between two matrices is never read or written); batch = 0
 * does nothing. The matrices run one after the other{1}.
 */
void {0}_batched(const {2} *A, const {2} *B, float *C, long batch,
    long strideA, long strideB, long strideC);
void {0}_batched_ws(const {2} *A, const {2} *B, float *C, long batch,
    long strideA, long strideB, long strideC, void *workspace);

/* batch GEMMs C_i = alpha * op(A_i) * op(B_i) + beta * C_i, each as for
 * the _ex entry (leading dimensions; alpha and beta with BLAS semantics),
 * matrix i at A + i*strideA, B + i*strideB, C + i*strideC (elements).
 */
void {0}_batched_ex(const {2} *A, long lda, long strideA, const {2} *B,
    long ldb, long strideB, float *C, long ldc, long strideC, long batch,
    float alpha, float beta);
void {0}_batched_ex_ws(const {2} *A, long lda, long strideA,
    const {2} *B, long ldb, long strideB, float *C, long ldc,
    long strideC, long batch, float alpha, float beta, void *workspace);
)",
                    name,
                    op.batchCount
                        ? formatv(" (gen verified the request's batch of {0}; "
                                  "any count works)",
                                  op.batchCount)
                              .str()
                        : std::string(),
                    in)
                .str();
  return text;
}
