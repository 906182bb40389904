//===- GemmPrepackedEntries.cpp - gen's entries with B packed once --------===//
//
// A linear layer calls the same GEMM with the same weights B many times.
// Libraries let the caller reorder B once into the kernel's layout (oneDNN's
// matmul with format_tag::any weights, MKL's cblas_sgemm_pack): at a few
// rows (decode-time tokens) the rows of a plain row-major B are N elements
// apart, and streaming K of them per register block is what the kernel
// waits on. These entries give the same contract:
//
//   NAME_packed_b_size()          bytes of the packed B
//   NAME_pack_b(B, Bp)            op(B) into panels: Bp[q][k][j] =
//                                 op(B)[k][q*W + j], zero past column N
//   NAME_prepacked(A, Bp, C)      C = op(A) * op(B), C overwritten
//   NAME_prepacked_ws(A, Bp, C, workspace)
//
// The panels are W columns wide, each K x W contiguous, so a panel is a
// row-major matrix with leading dimension W: NAME_prepacked is a loop of
// M x W x K linalg.matmuls on them, and each takes the sketch path like any
// GEMM (at M <= 64 the few-rows path, which reads B in place: the panel is
// then streamed front to back). W comes from the rows (measured on Zen 5,
// 1 thread, docs/benchmarks/blas-api.md): 32 up to 32 rows, 64 up to 64;
// above 64 rows packing B per call costs little next to the GEMM and the
// panel is all of B (W = N), so NAME_prepacked runs NAME's code on a copy
// of op(B). Each panel's matmul runs over all of K (A is read once per
// panel); blocking K outside the panel loop, so that A's block stays in L1,
// measured no faster (48x768x3072: 136 GFLOP/s with K blocks of 128 vs 159
// whole), so 33-64 rows gain little over NAME (docs/benchmarks/blas-api.md).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Runtime/GemmEntryPoints.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tensorop;

// fp32: a panel of all of N for more than 64 rows is B itself, which the
// sketch packs into its cache blocks as usual. bf16 pairs are read in place
// whatever the sketch (the kernel's pair layout is the panel's), so a panel
// wider than 64 is a B block whose pair rows lie 4N bytes apart: 64 columns
// at every M (loaded, 1 thread: 256x3072x768 0.69x -> see
// docs/benchmarks/blas-api.md; the models bench's bf16 FFN at T = 256 too).
int64_t mlir::tensorop::prepackedPanelWidth(int64_t m, int64_t n,
                                            bool pairs) {
  int64_t w = pairs ? 64 : m <= 32 ? 32 : m <= 64 ? 64 : n;
  return std::min(w, n);
}

namespace {
std::string memref2(int64_t r, int64_t c, llvm::StringRef layout = "") {
  return llvm::formatv("memref<{0}x{1}xf32{2}>", r, c, layout).str();
}
std::string strided(int64_t ld, int64_t offset) {
  return llvm::formatv(", strided<[{0}, 1], offset: {1}>", ld, offset).str();
}
std::string stridedDyn(int64_t ld) {
  return llvm::formatv(", strided<[{0}, 1], offset: ?>", ld).str();
}

/// A linalg.matmul's indexing maps for an A stored K x M ("" otherwise).
std::string transposeAMaps(bool transposeA) {
  return transposeA ? "indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
                      "affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, "
                      "d1, d2) -> (d0, d1)>] "
                    : "";
}

struct Panels {
  int64_t m, n, k, w, full, rem;
  bool transposeA, transposeB;
  explicit Panels(const GemmEntryPointsSpec &s)
      : m(s.m), n(s.n), k(s.k), w(prepackedPanelWidth(s.m, s.n)),
        full(s.n / w), rem(s.n % w), transposeA(s.transposeA),
        transposeB(s.transposeB) {}
  int64_t count() const { return full + (rem ? 1 : 0); }
  std::string packed() const {
    return llvm::formatv("memref<{0}x{1}x{2}xf32>", count(), k, w).str();
  }
  std::string a() const {
    return transposeA ? memref2(k, m) : memref2(m, k);
  }
  std::string b() const {
    return transposeB ? memref2(n, k) : memref2(k, n);
  }
};

/// NAME_pack_b: the full panels by one expand_shape + transpose, the last
/// partial panel zero-filled and copied (transposed when B is stored N x K).
std::string packEntry(const GemmEntryPointsSpec &s, const Panels &p) {
  std::string body;
  int64_t cols = p.full * p.w;
  std::string full =
      llvm::formatv("memref<{0}x{1}x{2}xf32, strided<[{3}, {2}, 1]>>", p.full,
                    p.k, p.w, p.k * p.w);
  if (p.transposeB) {
    // B stored N x K: rows [0, cols) are full panels of W rows each.
    std::string src = memref2(cols, p.k, strided(p.k, 0));
    body += llvm::formatv(
        "  %src = memref.subview %B[0, 0] [{0}, {1}] [1, 1] : {2} to {3}\n"
        "  %e = memref.expand_shape %src [[0, 1], [2]] output_shape [{4}, "
        "{5}, {1}] : {3} into memref<{4}x{5}x{1}xf32, strided<[{6}, {1}, 1]>>\n"
        "  %dst = memref.subview %Bp[0, 0, 0] [{4}, {1}, {5}] [1, 1, 1] : {7} "
        "to {8}\n"
        "  linalg.transpose ins(%e : memref<{4}x{5}x{1}xf32, strided<[{6}, "
        "{1}, 1]>>) outs(%dst : {8}) permutation = [0, 2, 1]\n",
        cols, p.k, p.b(), src, p.full, p.w, p.w * p.k, p.packed(), full)
                .str();
  } else {
    std::string src = memref2(p.k, cols, strided(p.n, 0));
    body += llvm::formatv(
        "  %src = memref.subview %B[0, 0] [{0}, {1}] [1, 1] : {2} to {3}\n"
        "  %e = memref.expand_shape %src [[0], [1, 2]] output_shape [{0}, "
        "{4}, {5}] : {3} into memref<{0}x{4}x{5}xf32, strided<[{6}, {5}, 1]>>\n"
        "  %dst = memref.subview %Bp[0, 0, 0] [{4}, {0}, {5}] [1, 1, 1] : {7} "
        "to {8}\n"
        "  linalg.transpose ins(%e : memref<{0}x{4}x{5}xf32, strided<[{6}, "
        "{5}, 1]>>) outs(%dst : {8}) permutation = [1, 0, 2]\n",
        p.k, cols, p.b(), src, p.full, p.w, p.n, p.packed(), full)
                .str();
  }
  if (p.rem) {
    int64_t offset = p.full * p.k * p.w;
    std::string last = memref2(p.k, p.w, strided(p.w, offset));
    std::string dst = memref2(p.k, p.rem, strided(p.w, offset));
    body += llvm::formatv(
        "  %zero = arith.constant 0.0 : f32\n"
        "  %last = memref.subview %Bp[{0}, 0, 0] [1, {1}, {2}] [1, 1, 1] : {3} "
        "to {4}\n"
        "  linalg.fill ins(%zero : f32) outs(%last : {4})\n"
        "  %edge = memref.subview %Bp[{0}, 0, 0] [1, {1}, {5}] [1, 1, 1] : {3} "
        "to {6}\n",
        p.full, p.k, p.w, p.packed(), last, p.rem, dst)
                .str();
    if (p.transposeB) {
      std::string src = memref2(p.rem, p.k, strided(p.k, cols * p.k));
      body += llvm::formatv(
          "  %tail = memref.subview %B[{0}, 0] [{1}, {2}] [1, 1] : {3} to {4}\n"
          "  linalg.transpose ins(%tail : {4}) outs(%edge : {5}) permutation "
          "= [1, 0]\n",
          cols, p.rem, p.k, p.b(), src, dst)
                  .str();
    } else {
      std::string src = memref2(p.k, p.rem, strided(p.n, cols));
      body += llvm::formatv(
          "  %tail = memref.subview %B[0, {0}] [{1}, {2}] [1, 1] : {3} to {4}\n"
          "  linalg.copy ins(%tail : {4}) outs(%edge : {5})\n",
          cols, p.k, p.rem, p.b(), src, dst)
                  .str();
    }
  }
  return llvm::formatv(R"mlir(
func.func @{0}_pack_b(%B: {1}, %Bp: {2}) {{
{3}  return
}

func.func @{0}_packed_b_size() -> index {{
  %size = arith.constant {4} : index
  return %size : index
}
)mlir",
                       s.name, p.b(), p.packed(), body,
                       p.count() * p.k * p.w * 4)
      .str();
}

/// One M x cols x K matmul of panel `panel` (an SSA index or a constant)
/// into C's columns from `col`; its values are named with `suffix`.
std::string panelMatmul(const Panels &p, llvm::StringRef suffix,
                        llvm::StringRef panel,
                        llvm::StringRef col, int64_t cols, bool dynamic,
                        int64_t bOffset, int64_t cOffset) {
  std::string bType =
      memref2(p.k, cols, dynamic ? stridedDyn(p.w) : strided(p.w, bOffset));
  std::string cType =
      memref2(p.m, cols, dynamic ? stridedDyn(p.n) : strided(p.n, cOffset));
  std::string maps = transposeAMaps(p.transposeA);
  return llvm::formatv(
             "    %b{11} = memref.subview %Bp[{0}, 0, 0] [1, {1}, {2}] [1, 1, 1] "
             ": {3} to {4}\n"
             "    %c{11} = memref.subview %C[0, {5}] [{6}, {2}] [1, 1] : {7} to "
             "{8}\n"
             "    linalg.fill ins(%zero : f32) outs(%c{11} : {8})\n"
             "    linalg.matmul {9}ins(%A, %b{11} : {10}, {4}) outs(%c{11} : "
             "{8})\n",
             panel, p.k, cols, p.packed(), bType, col, p.m, memref2(p.m, p.n),
             cType, maps, p.a(), suffix)
      .str();
}

/// NAME_prepacked(_ws): a loop over the full panels, then the partial one.
/// With threads > 1 the full panels are split into that many runs of whole
/// panels by an scf.forall (the pipeline then gives each panel's matmul one
/// thread: no team is forked per panel).
std::string prepackedEntry(const GemmEntryPointsSpec &s, const Panels &p,
                           bool ws) {
  std::string body = "  %zero = arith.constant 0.0 : f32\n"
                     "  %c1 = arith.constant 1 : index\n";
  int64_t teams = std::min<int64_t>(s.threads, p.full);
  if (teams > 1) {
    int64_t per = (p.full + teams - 1) / teams;
    body += llvm::formatv(
        "  scf.forall (%t) in ({0}) {{\n"
        "    %lo = affine.apply affine_map<(d0) -> (d0 * {1})>(%t)\n"
        "    %hi = affine.min affine_map<(d0) -> (d0 * {1} + {1}, {2})>(%t)\n"
        "    scf.for %q = %lo to %hi step %c1 {{\n"
        "    %j = affine.apply affine_map<(d0) -> (d0 * {3})>(%q)\n",
        teams, per, p.full, p.w);
    body += panelMatmul(p, "", "%q", "%j", p.w, /*dynamic=*/true, 0, 0);
    body += "    }\n  }\n";
  } else {
    body += llvm::formatv(
        "  %c0 = arith.constant 0 : index\n"
        "  %full = arith.constant {0} : index\n"
        "  scf.for %q = %c0 to %full step %c1 {{\n"
        "    %j = affine.apply affine_map<(d0) -> (d0 * {1})>(%q)\n",
        p.full, p.w);
    body += panelMatmul(p, "", "%q", "%j", p.w, /*dynamic=*/true, 0, 0);
    body += "  }\n";
  }
  if (p.rem)
    body += panelMatmul(p, "Last", std::to_string(p.full),
                        std::to_string(p.full * p.w), p.rem,
                        /*dynamic=*/false, p.full * p.k * p.w, p.full * p.w);
  return llvm::formatv(R"mlir(
func.func @{0}_prepacked{1}(%A: {2}, %Bp: {3}, %C: {4}{5}) {{
{6}  return
}
)mlir",
                       s.name, ws ? "_ws" : "", p.a(), p.packed(),
                       memref2(p.m, p.n),
                       ws ? ", %ws: memref<1xi8> {tensorop.workspace}" : "",
                       body)
      .str();
}
} // namespace

namespace {
/// bf16: the same panels, each K x W of op(B) held as ceil(K/2) rows of W
/// k pairs (pair (2p, 2p+1) of column j at p*2W + 2j, low half first, an
/// odd K's last pair padded with zero), the layout vdpbf16ps reads. The
/// packed B is one flat bf16 buffer; panel q is K x W view of it with
/// strides [W, 2] (its element (2p, j) is the first half of pair (p, j)),
/// marked tensorop.b_k_pairs: the sketch path reads the pairs in place.
struct PairPanels {
  int64_t m, n, k, w, full, rem, pairs;
  bool transposeA, transposeB;
  explicit PairPanels(const GemmEntryPointsSpec &s)
      : m(s.m), n(s.n), k(s.k), w(prepackedPanelWidth(s.m, s.n, true)),
        full(s.n / w), rem(s.n % w), pairs((s.k + 1) / 2),
        transposeA(s.transposeA), transposeB(s.transposeB) {}
  int64_t count() const { return full + (rem ? 1 : 0); }
  int64_t panelElems() const { return pairs * 2 * w; }
  std::string packed() const {
    return llvm::formatv("memref<{0}xbf16>", count() * panelElems()).str();
  }
  std::string mat(int64_t r, int64_t c) const {
    return llvm::formatv("memref<{0}x{1}xbf16>", r, c).str();
  }
  std::string a() const { return transposeA ? mat(k, m) : mat(m, k); }
  std::string b() const { return transposeB ? mat(n, k) : mat(k, n); }
};

/// NAME_pack_b: zero, then every element of op(B) to its place (scalar
/// loops: packing runs once per weight matrix).
std::string pairPackEntry(const GemmEntryPointsSpec &s, const PairPanels &p) {
  std::string load = p.transposeB ? "%B[%n, %k]" : "%B[%k, %n]";
  return llvm::formatv(R"mlir(
func.func @{0}_pack_b(%B: {1}, %Bp: {2}) {{
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%Bp : {2})
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %K = arith.constant {3} : index
  %N = arith.constant {4} : index
  scf.for %k = %c0 to %K step %c1 {{
    scf.for %n = %c0 to %N step %c1 {{
      %v = memref.load {5} : {1}
      %at = affine.apply affine_map<(d0, d1) -> ((d1 floordiv {6}) * {7} + (d0 floordiv 2) * {8} + (d1 mod {6}) * 2 + d0 mod 2)>(%k, %n)
      memref.store %v, %Bp[%at] : {2}
    }
  }
  return
}

func.func @{0}_packed_b_size() -> index {{
  %size = arith.constant {9} : index
  return %size : index
}
)mlir",
                       s.name, p.b(), p.packed(), p.k, p.n, load, p.w,
                       p.panelElems(), 2 * p.w,
                       p.count() * p.panelElems() * 2)
      .str();
}

/// One M x cols x K matmul of panel `panel` (an SSA index or a constant)
/// into C's columns from `col`.
std::string pairPanelMatmul(const PairPanels &p, llvm::StringRef suffix,
                            llvm::StringRef panel, llvm::StringRef col,
                            int64_t cols, bool dynamic, int64_t cOffset) {
  std::string bType =
      llvm::formatv("memref<{0}x{1}xbf16, strided<[{2}, 2], offset: ?>>", p.k,
                    cols, p.w)
          .str();
  std::string cType =
      dynamic ? llvm::formatv("memref<{0}x{1}xf32, strided<[{2}, 1], offset: "
                              "?>>",
                              p.m, cols, p.n)
                    .str()
              : llvm::formatv("memref<{0}x{1}xf32, strided<[{2}, 1], offset: "
                              "{3}>>",
                              p.m, cols, p.n, cOffset)
                    .str();
  std::string maps = transposeAMaps(p.transposeA);
  return llvm::formatv(
             "    %off{0} = affine.apply affine_map<(d0) -> (d0 * {1})>({2})\n"
             "    %b{0} = memref.reinterpret_cast %Bp to offset: [%off{0}], "
             "sizes: [{3}, {4}], strides: [{5}, 2] : {6} to {7}\n"
             "    %c{0} = memref.subview %C[0, {8}] [{9}, {4}] [1, 1] : "
             "memref<{9}x{10}xf32> to {11}\n"
             "    linalg.fill ins(%zero : f32) outs(%c{0} : {11})\n"
             "    linalg.matmul {12}ins(%A, %b{0} : {13}, {7}) outs(%c{0} : "
             "{11}) {{tensorop.b_k_pairs}\n",
             suffix, p.panelElems(), panel, p.k, cols, p.w, p.packed(), bType,
             col, p.m, p.n, cType, maps, p.a())
      .str();
}

/// NAME_prepacked(_ws) for bf16: as prepackedEntry.
std::string pairPrepackedEntry(const GemmEntryPointsSpec &s,
                               const PairPanels &p, bool ws) {
  std::string body = "  %zero = arith.constant 0.0 : f32\n"
                     "  %c1 = arith.constant 1 : index\n";
  int64_t teams = std::min<int64_t>(s.threads, p.full);
  std::string loop = teams > 1
                         ? llvm::formatv(
                               "  scf.forall (%t) in ({0}) {{\n"
                               "    %lo = affine.apply affine_map<(d0) -> (d0 "
                               "* {1})>(%t)\n"
                               "    %hi = affine.min affine_map<(d0) -> (d0 * "
                               "{1} + {1}, {2})>(%t)\n"
                               "    scf.for %q = %lo to %hi step %c1 {{\n",
                               teams, (p.full + teams - 1) / teams, p.full)
                               .str()
                         : llvm::formatv("  %c0 = arith.constant 0 : index\n"
                                         "  %full = arith.constant {0} : "
                                         "index\n"
                                         "  scf.for %q = %c0 to %full step "
                                         "%c1 {{\n",
                                         p.full)
                               .str();
  if (p.full) {
    body += loop;
    body += llvm::formatv("    %j = affine.apply affine_map<(d0) -> (d0 * "
                          "{0})>(%q)\n",
                          p.w)
                .str();
    body += pairPanelMatmul(p, "", "%q", "%j", p.w, /*dynamic=*/true, 0);
    body += teams > 1 ? "    }\n  }\n" : "  }\n";
  }
  if (p.rem) {
    body += llvm::formatv("  %last = arith.constant {0} : index\n", p.full)
                .str();
    body += pairPanelMatmul(p, "Last", "%last", std::to_string(p.full * p.w),
                            p.rem, /*dynamic=*/false, p.full * p.w);
  }
  return llvm::formatv(R"mlir(
func.func @{0}_prepacked{1}(%A: {2}, %Bp: {3}, %C: memref<{4}x{5}xf32>{6}) {{
{7}  return
}
)mlir",
                       s.name, ws ? "_ws" : "", p.a(), p.packed(), p.m, p.n,
                       ws ? ", %ws: memref<1xi8> {tensorop.workspace}" : "",
                       body)
      .str();
}
} // namespace

std::string
mlir::tensorop::gemmPrepackedEntriesSource(const GemmEntryPointsSpec &s) {
  if (s.inType == "bf16") {
    PairPanels p(s);
    return pairPackEntry(s, p) + pairPrepackedEntry(s, p, false) +
           pairPrepackedEntry(s, p, true);
  }
  Panels p(s);
  return packEntry(s, p) + prepackedEntry(s, p, false) +
         prepackedEntry(s, p, true);
}
