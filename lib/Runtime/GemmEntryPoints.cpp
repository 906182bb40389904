//===- GemmEntryPoints.cpp - The MLIR of gen's BLAS-like GEMM API ---------===//
//
// The C pointers arrive as memref<1xf32> (the bare-pointer ABI passes the
// pointer only) and memref.reinterpret_cast gives them the operand's shape
// with the caller's row stride, so the pipeline sees a linalg.matmul on
// strided memrefs and takes its sketch path (packing reads the strided rows;
// the microkernel stores C through ldc): nothing is copied around the
// kernel, and the padding between rows is never read or written.
//
// alpha and beta (BLAS semantics, checked at run time):
//   alpha = 0       A and B are not read; C = beta*C (C not read if beta = 0)
//   beta = 0        C is not read: zero-filled, then C += alpha*op(A)*op(B)
//   beta = 1        C += alpha*op(A)*op(B)
//   otherwise       C *= beta first
// and alpha != 1 scales a copy of B in the workspace (K x N elements), so
// the matmul accumulates into C once, whatever alpha and beta are.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Runtime/GemmEntryPoints.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tensorop;

namespace {
/// Shapes and maps of one layout, as MLIR text.
struct Layout {
  int64_t aRows, aCols, bRows, bCols, m, n;
  std::string maps;
  /// Element type of A and B ("f32", "bf16", "f16"); C is f32.
  std::string in;

  explicit Layout(const GemmEntryPointsSpec &s)
      : aRows(s.transposeA ? s.k : s.m), aCols(s.transposeA ? s.m : s.k),
        bRows(s.transposeB ? s.n : s.k), bCols(s.transposeB ? s.k : s.n),
        m(s.m), n(s.n), in(s.inType) {
    maps = matmulIndexingMaps(s.transposeA, s.transposeB) + " ";
  }
  std::string a(llvm::StringRef layout) const {
    return llvm::formatv("memref<{0}x{1}x{3}{2}>", aRows, aCols, layout, in);
  }
  std::string b(llvm::StringRef layout) const {
    return llvm::formatv("memref<{0}x{1}x{3}{2}>", bRows, bCols, layout, in);
  }
  /// The bare pointer of A or B as the ABI passes it.
  std::string ptr() const { return "memref<1x" + in + ">"; }
  /// alpha != 1 scales a copy of B (exact enough in fp32) or, for a
  /// 16-bit B, the product.
  bool scalesB() const { return in == "f32"; }
  std::string c(llvm::StringRef layout) const {
    return llvm::formatv("memref<{0}x{1}xf32{2}>", m, n, layout);
  }
};

std::string sketchAttr(const GemmEntryPointsSpec &s) {
  return s.sketch.empty() ? "" : " {tensorop.sketch = " + s.sketch + "}";
}

/// NAME: contiguous operands, C overwritten (the module gen always built).
std::string plainEntry(const GemmEntryPointsSpec &s, const Layout &l) {
  bool nn = !s.transposeA && !s.transposeB;
  return llvm::formatv(R"mlir(
func.func @{0}(%A: {1}, %B: {2}, %C: {3}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : {3})
  linalg.matmul {4}ins(%A, %B : {1}, {2})
                outs(%C : {3}){5}
  return
}

func.func @{0}_ws(%A: {1}, %B: {2}, %C: {3}, %ws: memref<1xi8> {{tensorop.workspace}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : {3})
  linalg.matmul {4}ins(%A, %B : {1}, {2})
                outs(%C : {3}){5}
  return
}
)mlir",
                       s.name, l.a(""), l.b(""), l.c(""), nn ? "" : l.maps,
                       sketchAttr(s))
      .str();
}

/// The workspace buffer the alpha != 1 path needs: the scaled copy of B
/// (f32) or the product (16-bit A and B), as the _ex bodies name it.
std::string alphaBuffer(const Layout &l) {
  return l.scalesB() ? l.b("") : l.c("");
}

/// C = alpha*op(%a)*op(%b) + beta*C on %c, for alpha != 1 or beta != 0
/// (%zero, %one, %alphaOne and %betaZero in scope): alphaBetaCore's
/// general case.
std::string alphaBetaGeneral(const Layout &l, llvm::StringRef aType,
                             llvm::StringRef bType, llvm::StringRef cType) {
  // C = beta*C, never reading C when beta = 0: both forms start so.
  std::string scaleC = llvm::formatv(R"mlir(
    scf.if %betaZero {{
      linalg.fill ins(%zero : f32) outs(%c : {0})
    } else {{
      %scaleC = arith.cmpf une, %beta, %one : f32
      scf.if %scaleC {{
        linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%c : {0}) {{
        ^bb0(%x: f32):
          %y = arith.mulf %x, %beta : f32
          linalg.yield %y : f32
        }
      }
    }
)mlir",
                                     cType)
                           .str();
  if (!l.scalesB())
    // C += alpha*op(A)*op(B) with 16-bit A and B: alpha = 1 accumulates
    // into C; otherwise the product T (fp32, in the workspace) is formed
    // first and C += alpha*T. A and B are not read when alpha = 0.
    return scaleC + llvm::formatv(R"mlir(
    %product = arith.cmpf une, %alpha, %zero : f32
    scf.if %product {{
      scf.if %alphaOne {{
        linalg.matmul {3}ins(%a, %b : {0}, {1})
                      outs(%c : {2})
      } else {{
        linalg.fill ins(%zero : f32) outs(%scaledB : {4})
        linalg.matmul {3}ins(%a, %b : {0}, {1})
                      outs(%scaledB : {4})
        linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%scaledB : {4}) outs(%c : {2}) {{
        ^bb0(%t: f32, %o: f32):
          %y = arith.mulf %t, %alpha : f32
          %s = arith.addf %o, %y : f32
          linalg.yield %s : f32
        }
      }
    }
)mlir",
                                  aType, bType, cType, l.maps, l.c(""))
                        .str();
  // fp32: C += op(A)*op(B'), B' = B or alpha*B (a copy in the workspace).
  std::string scaled = llvm::formatv(R"mlir(
    // C += alpha*op(A)*op(B); A and B are not read when alpha = 0.
    %product = arith.cmpf une, %alpha, %zero : f32
    scf.if %product {{
      %bOp = scf.if %alphaOne -> ({1}) {{
        scf.yield %b : {1}
      } else {{
        linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : {1}) outs(%scaledB : {3}) {{
        ^bb0(%x: f32, %o: f32):
          %y = arith.mulf %x, %alpha : f32
          linalg.yield %y : f32
        }
        %cast = memref.cast %scaledB : {3} to {1}
        scf.yield %cast : {1}
      }
      linalg.matmul {4}ins(%a, %bOp : {0}, {1})
                    outs(%c : {2})
    }
)mlir",
                       aType, bType, cType, l.b(""), l.maps)
                       .str();
  return scaleC + scaled;
}

/// C = alpha*op(%a)*op(%b) + beta*C on %c (types aType, bType, cType),
/// with %alpha, %beta and the workspace buffer %scaledB (alphaBuffer's
/// type) in scope: the body every _ex entry shares. alpha = 1 and beta = 0
/// (a plain product into a strided C) is NAME's fill and matmul, so that
/// the kernel stores its tiles instead of adding them to a zeroed C
/// (tensorop-apply-sketch's storeC): through the general case's separate
/// fill, 137x79x13 took 2.1x NAME's time (docs/benchmarks/blas-api.md,
/// "Strided A in place").
std::string alphaBetaCore(const Layout &l, llvm::StringRef aType,
                          llvm::StringRef bType, llvm::StringRef cType) {
  return llvm::formatv(R"mlir(
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %alphaOne = arith.cmpf oeq, %alpha, %one : f32
    %betaZero = arith.cmpf oeq, %beta, %zero : f32
    %plainProduct = arith.andi %alphaOne, %betaZero : i1
    scf.if %plainProduct {{
      linalg.fill ins(%zero : f32) outs(%c : {2})
      linalg.matmul {3}ins(%a, %b : {0}, {1})
                    outs(%c : {2})
    } else {{
{4}    }
)mlir",
                       aType, bType, cType, l.maps,
                       alphaBetaGeneral(l, aType, bType, cType))
      .str();
}

/// NAME_ex_ws: strided operands, alpha and beta.
std::string exEntry(const GemmEntryPointsSpec &s, const Layout &l) {
  const std::string dyn = ", strided<[?, 1]>";
  return llvm::formatv(R"mlir(
func.func @{0}_ex_ws(%A: {18}, %lda: index, %B: {18}, %ldb: index, %C: memref<1xf32>, %ldc: index, %alpha: f32, %beta: f32, %ws: memref<1xi8> {{tensorop.workspace}) {{
  // Contiguous operands, alpha = 1, beta = 0: NAME_ws (NAME's body).
  %plain = func.call @{0}_ex_is_plain(%lda, %ldb, %ldc, %alpha, %beta) : (index, index, index, f32, f32) -> i1
  scf.if %plain {{
    func.call @{0}_ex_plain_ws(%A, %B, %C, %ws) : ({18}, {18}, memref<1xf32>, memref<1xi8>) -> ()
  } else {{
    %a = memref.reinterpret_cast %A to offset: [0], sizes: [{1}, {2}], strides: [%lda, 1] : {18} to {7}
    %b = memref.reinterpret_cast %B to offset: [0], sizes: [{3}, {4}], strides: [%ldb, 1] : {18} to {8}
    %c = memref.reinterpret_cast %C to offset: [0], sizes: [{5}, {6}], strides: [%ldc, 1] : memref<1xf32> to {9}
    // The scaled copy of B or the product (used when alpha != 1), in the
    // workspace.
    %scaledB = memref.alloc() {{alignment = 64 : i64} : {19}
{17}    memref.dealloc %scaledB : {19}
  }
  return
}

func.func @{0}_ex(%A: {18}, %lda: index, %B: {18}, %ldb: index, %C: memref<1xf32>, %ldc: index, %alpha: f32, %beta: f32) {{
  %plain = func.call @{0}_ex_is_plain(%lda, %ldb, %ldc, %alpha, %beta) : (index, index, index, f32, f32) -> i1
  scf.if %plain {{
    func.call @{0}_ex_plain(%A, %B, %C) : ({18}, {18}, memref<1xf32>) -> ()
  } else {{
    %size = func.call @{0}_workspace_size() : () -> index
    %ws = memref.alloc(%size) {{alignment = 64 : i64} : memref<?xi8>
    %wsArg = memref.cast %ws : memref<?xi8> to memref<1xi8>
    func.call @{0}_ex_ws(%A, %lda, %B, %ldb, %C, %ldc, %alpha, %beta, %wsArg) : ({18}, index, {18}, index, memref<1xf32>, index, f32, f32, memref<1xi8>) -> ()
    memref.dealloc %ws : memref<?xi8>
  }
  return
}

// Whether an _ex call is NAME's: contiguous operands, alpha = 1, beta = 0.
func.func private @{0}_ex_is_plain(%lda: index, %ldb: index, %ldc: index, %alpha: f32, %beta: f32) -> i1 {{
  %ka = arith.constant {2} : index
  %kb = arith.constant {4} : index
  %nc = arith.constant {6} : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p0 = arith.cmpi eq, %lda, %ka : index
  %p1 = arith.cmpi eq, %ldb, %kb : index
  %p2 = arith.cmpi eq, %ldc, %nc : index
  %p3 = arith.cmpf oeq, %alpha, %one : f32
  %p4 = arith.cmpf oeq, %beta, %zero : f32
  %q0 = arith.andi %p0, %p1 : i1
  %q1 = arith.andi %p2, %p3 : i1
  %q2 = arith.andi %q0, %q1 : i1
  %q3 = arith.andi %q2, %p4 : i1
  return %q3 : i1
}

func.func private @{0}_ex_plain(%A: {18}, %B: {18}, %C: memref<1xf32>) {{
  %a = memref.reinterpret_cast %A to offset: [0], sizes: [{1}, {2}], strides: [{2}, 1] : {18} to {12}
  %b = memref.reinterpret_cast %B to offset: [0], sizes: [{3}, {4}], strides: [{4}, 1] : {18} to {13}
  %c = memref.reinterpret_cast %C to offset: [0], sizes: [{5}, {6}], strides: [{6}, 1] : memref<1xf32> to {14}
  %a0 = memref.cast %a : {12} to {15}
  %b0 = memref.cast %b : {13} to {10}
  %c0 = memref.cast %c : {14} to {16}
  func.call @{0}(%a0, %b0, %c0) : ({15}, {10}, {16}) -> ()
  return
}

func.func private @{0}_ex_plain_ws(%A: {18}, %B: {18}, %C: memref<1xf32>, %ws: memref<1xi8>) {{
  %a = memref.reinterpret_cast %A to offset: [0], sizes: [{1}, {2}], strides: [{2}, 1] : {18} to {12}
  %b = memref.reinterpret_cast %B to offset: [0], sizes: [{3}, {4}], strides: [{4}, 1] : {18} to {13}
  %c = memref.reinterpret_cast %C to offset: [0], sizes: [{5}, {6}], strides: [{6}, 1] : memref<1xf32> to {14}
  %a0 = memref.cast %a : {12} to {15}
  %b0 = memref.cast %b : {13} to {10}
  %c0 = memref.cast %c : {14} to {16}
  func.call @{0}_ws(%a0, %b0, %c0, %ws) : ({15}, {10}, {16}, memref<1xi8>) -> ()
  return
}
)mlir",
                       s.name, l.aRows, l.aCols, l.bRows, l.bCols, l.m, l.n,
                       l.a(dyn), l.b(dyn), l.c(dyn), l.b(""), l.maps,
                       l.a(llvm::formatv(", strided<[{0}, 1]>", l.aCols).str()),
                       l.b(llvm::formatv(", strided<[{0}, 1]>", l.bCols).str()),
                       l.c(llvm::formatv(", strided<[{0}, 1]>", l.n).str()),
                       l.a(""), l.c(""),
                       alphaBetaCore(l, l.a(dyn), l.b(dyn), l.c(dyn)),
                       l.ptr(), alphaBuffer(l))
      .str();
}

/// NAME_batched_ws: `batch` contiguous GEMMs `strideX` elements apart.
std::string batchedEntry(const GemmEntryPointsSpec &s, const Layout &l) {
  BatchedSliceLoop loop{l.aRows, l.aCols, l.bRows, l.bCols, l.m,
                        l.n,     l.in,    l.maps};
  return llvm::formatv(R"mlir(
func.func @{0}_batched_ws(%A: {1}, %B: {1}, %C: memref<1xf32>, %batch: index, %strideA: index, %strideB: index, %strideC: index, %ws: memref<1xi8> {{tensorop.workspace}) {{
{2}  return
}

func.func @{0}_batched(%A: {1}, %B: {1}, %C: memref<1xf32>, %batch: index, %strideA: index, %strideB: index, %strideC: index) {{
  %size = func.call @{0}_workspace_size() : () -> index
  %ws = memref.alloc(%size) {{alignment = 64 : i64} : memref<?xi8>
  %wsArg = memref.cast %ws : memref<?xi8> to memref<1xi8>
  func.call @{0}_batched_ws(%A, %B, %C, %batch, %strideA, %strideB, %strideC, %wsArg) : ({1}, {1}, memref<1xf32>, index, index, index, index, memref<1xi8>) -> ()
  memref.dealloc %ws : memref<?xi8>
  return
}
)mlir",
                       s.name, l.ptr(), batchedSliceLoop(loop, "", ""))
      .str();
}
/// NAME_batched_ex_ws: `batch` strided GEMMs with alpha and beta, matrix i
/// at X + i*strideX.
std::string batchedExEntry(const GemmEntryPointsSpec &s, const Layout &l) {
  const std::string dyn = ", strided<[?, 1], offset: ?>";
  return llvm::formatv(R"mlir(
func.func @{0}_batched_ex_ws(%A: {12}, %lda: index, %strideA: index, %B: {12}, %ldb: index, %strideB: index, %C: memref<1xf32>, %ldc: index, %strideC: index, %batch: index, %alpha: f32, %beta: f32, %ws: memref<1xi8> {{tensorop.workspace}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The scaled copy of B_i or the product (used when alpha != 1), in the
  // workspace.
  %scaledB = memref.alloc() {{alignment = 64 : i64} : {10}
  scf.for %i = %c0 to %batch step %c1 {{
    %offA = arith.muli %i, %strideA : index
    %offB = arith.muli %i, %strideB : index
    %offC = arith.muli %i, %strideC : index
    %a = memref.reinterpret_cast %A to offset: [%offA], sizes: [{1}, {2}], strides: [%lda, 1] : {12} to {7}
    %b = memref.reinterpret_cast %B to offset: [%offB], sizes: [{3}, {4}], strides: [%ldb, 1] : {12} to {8}
    %c = memref.reinterpret_cast %C to offset: [%offC], sizes: [{5}, {6}], strides: [%ldc, 1] : memref<1xf32> to {9}
{11}  }
  memref.dealloc %scaledB : {10}
  return
}

func.func @{0}_batched_ex(%A: {12}, %lda: index, %strideA: index, %B: {12}, %ldb: index, %strideB: index, %C: memref<1xf32>, %ldc: index, %strideC: index, %batch: index, %alpha: f32, %beta: f32) {{
  %size = func.call @{0}_workspace_size() : () -> index
  %ws = memref.alloc(%size) {{alignment = 64 : i64} : memref<?xi8>
  %wsArg = memref.cast %ws : memref<?xi8> to memref<1xi8>
  func.call @{0}_batched_ex_ws(%A, %lda, %strideA, %B, %ldb, %strideB, %C, %ldc, %strideC, %batch, %alpha, %beta, %wsArg) : ({12}, index, index, {12}, index, index, memref<1xf32>, index, index, index, f32, f32, memref<1xi8>) -> ()
  memref.dealloc %ws : memref<?xi8>
  return
}
)mlir",
                       s.name, l.aRows, l.aCols, l.bRows, l.bCols, l.m, l.n,
                       l.a(dyn), l.b(dyn), l.c(dyn), alphaBuffer(l),
                       alphaBetaCore(l, l.a(dyn), l.b(dyn), l.c(dyn)),
                       l.ptr())
      .str();
}
} // namespace

std::string mlir::tensorop::matmulIndexingMaps(bool transposeA,
                                               bool transposeB) {
  return llvm::formatv("indexing_maps = [affine_map<(d0, d1, d2) -> {0}>, "
                       "affine_map<(d0, d1, d2) -> {1}>, affine_map<(d0, d1, "
                       "d2) -> (d0, d1)>]",
                       transposeA ? "(d2, d0)" : "(d0, d2)",
                       transposeB ? "(d1, d2)" : "(d2, d1)")
      .str();
}

std::string mlir::tensorop::batchedSliceView(llvm::StringRef type, int64_t rows,
                                             int64_t cols) {
  return llvm::formatv("memref<{0}x{1}x{2}, strided<[{1}, 1], offset: ?>>",
                       rows, cols, type)
      .str();
}

std::string mlir::tensorop::batchedSliceLoop(const BatchedSliceLoop &s,
                                             llvm::StringRef views,
                                             llvm::StringRef afterMatmul) {
  std::string aT = batchedSliceView(s.inType, s.aRows, s.aCols),
              bT = batchedSliceView(s.inType, s.bRows, s.bCols),
              cT = batchedSliceView("f32", s.m, s.n);
  return llvm::formatv(R"mlir(  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %batch step %c1 {{
    %offA = arith.muli %i, %strideA : index
    %offB = arith.muli %i, %strideB : index
    %offC = arith.muli %i, %strideC : index
    %av = memref.reinterpret_cast %A to offset: [%offA], sizes: [{0}, {1}], strides: [{1}, 1] : memref<1x{6}> to {7}
    %bv = memref.reinterpret_cast %B to offset: [%offB], sizes: [{2}, {3}], strides: [{3}, 1] : memref<1x{6}> to {8}
    %cv = memref.reinterpret_cast %C to offset: [%offC], sizes: [{4}, {5}], strides: [{5}, 1] : memref<1xf32> to {9}
{10}    linalg.fill ins(%zero : f32) outs(%cv : {9})
    linalg.matmul {11}ins(%av, %bv : {7}, {8})
                  outs(%cv : {9})
{12}  }
)mlir",
                       s.aRows, s.aCols, s.bRows, s.bCols, s.m, s.n, s.inType,
                       aT, bT, cT, views, s.matmulMaps, afterMatmul)
      .str();
}

std::string mlir::tensorop::gemmEntryPointsSource(const GemmEntryPointsSpec &s) {
  Layout l(s);
  std::string text = plainEntry(s, l) + exEntry(s, l);
  if (s.inType == "f32" || s.inType == "bf16")
    text += gemmPrepackedEntriesSource(s);
  if (s.batched)
    text += batchedEntry(s, l) + batchedExEntry(s, l);
  // Defined by tensorop-bind-workspace: the largest workspace of the _ws
  // entries, plus the slack that aligns an unaligned one.
  text += llvm::formatv(R"mlir(
func.func @{0}_workspace_size() -> index attributes {{tensorop.workspace_size} {{
  %size = arith.constant 0 : index
  return %size : index
}
)mlir",
                        s.name)
              .str();
  return text;
}
