//===- GemmEntryCheck.cpp - Verify gen's BLAS-like GEMM entries -----------===//

#include "tensorop/Verify/GemmEntryCheck.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Timing.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

using namespace tensorop;

namespace {
/// The padding's NaN: a payload no arithmetic produces, compared bit for
/// bit (a kernel that wrote a computed NaN there is caught too).
constexpr uint32_t kPoisonBits = 0x7fc0dead;
float poison() {
  float f;
  std::memcpy(&f, &kPoisonBits, 4);
  return f;
}
bool isPoison(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits == kPoisonBits;
}

/// The 16-bit padding's NaN (bf16 and f16 alike: exponent all ones, a
/// mantissa no conversion produces), compared bit for bit.
constexpr uint16_t kPoison16 = 0x7fad;

uint16_t to16(ElementType t, float f) {
  return t == ElementType::BF16 ? floatToBf16(f) : floatToHalf(f);
}
float from16(ElementType t, uint16_t h) {
  return t == ElementType::BF16 ? bf16ToFloat(h) : halfToFloat(h);
}

/// Rounds every value but the poison and NaN to `type` (nothing for F32):
/// the reference then reads what the kernel reads.
void roundToInput(std::vector<float> &values, ElementType type) {
  if (type == ElementType::F32)
    return;
  for (float &x : values)
    if (!isPoison(x) && x == x)
      x = from16(type, to16(type, x));
}

/// An input operand (A or B, one matrix or a batch of them) as the entry
/// reads it: the fp32 values themselves, or their bf16 / f16 bits with the
/// fp32 poison turned into the 16-bit one. The values must be rounded to
/// the type already (roundToInput).
class Input {
public:
  Input(std::vector<float> &values, ElementType type)
      : values(values), narrow(type != ElementType::F32) {
    for (size_t i = 0; i < values.size(); ++i)
      if (isPoison(values[i]))
        poisoned.push_back(i);
    if (!narrow)
      return;
    bits.resize(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      bits[i] = isPoison(values[i]) ? kPoison16 : to16(type, values[i]);
  }
  const void *data() const {
    return narrow ? static_cast<const void *>(bits.data()) : values.data();
  }
  /// Every element NaN (an operand the entries must no longer read).
  void poisonAll() {
    if (narrow)
      std::fill(bits.begin(), bits.end(), kPoison16);
    else
      std::fill(values.begin(), values.end(), std::nanf(""));
  }
  /// Poisoned elements (padding) the call changed.
  int64_t poisonChanged() const {
    int64_t changed = 0;
    for (size_t i : poisoned)
      changed += narrow ? bits[i] != kPoison16 : !isPoison(values[i]);
    return changed;
  }

private:
  std::vector<float> &values;
  bool narrow;
  std::vector<uint16_t> bits;
  std::vector<size_t> poisoned;
};

/// A rows x cols matrix stored with leading dimension ld (>= cols); the
/// padding holds the poison.
struct Strided {
  int64_t rows = 0, cols = 0, ld = 0;
  std::vector<float> data;
  Strided(int64_t r, int64_t c, int64_t l)
      : rows(r), cols(c), ld(l), data(size_t(r) * l, poison()) {}
  float &at(int64_t i, int64_t j) { return data[size_t(i) * ld + j]; }
  void fill(uint64_t seed, bool nan) {
    std::vector<float> values(size_t(rows) * cols);
    if (nan)
      fillNaN(values.data(), values.size());
    else
      fillRandom(values.data(), values.size(), seed);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        at(i, j) = values[size_t(i) * cols + j];
  }
  /// The logical part as doubles (NaN as 0: an operand the entry must not
  /// read), absolute values when `abs`, with leading dimension cols.
  std::vector<double> toDouble(bool abs) const {
    std::vector<double> d(size_t(rows) * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double v = data[size_t(i) * ld + j];
        d[size_t(i) * cols + j] = v != v ? 0 : abs ? std::fabs(v) : v;
      }
    return d;
  }
  int64_t paddingChanged() const {
    int64_t changed = 0;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = cols; j < ld; ++j)
        changed += !isPoison(data[size_t(i) * ld + j]);
    return changed;
  }
};

/// ref = alpha*op(A)*op(B) + beta*C and its magnitude, contiguous M x N.
void reference(const GemmLayout &l, const Strided &a, const Strided &b,
               const Strided &c, double alpha, double beta,
               std::vector<double> &value, std::vector<double> &magnitude) {
  auto ta = l.transposeA ? CblasTrans : CblasNoTrans;
  auto tb = l.transposeB ? CblasTrans : CblasNoTrans;
  value = c.toDouble(false);
  magnitude = c.toDouble(true);
  if (beta == 0) // C is not read: NaN there must not matter.
    std::fill(value.begin(), value.end(), 0.0);
  std::vector<double> ad = a.toDouble(false), bd = b.toDouble(false);
  cblas_dgemm(CblasRowMajor, ta, tb, l.m, l.n, l.k, alpha, ad.data(), a.cols,
              bd.data(), b.cols, beta, value.data(), l.n);
  ad = a.toDouble(true);
  bd = b.toDouble(true);
  cblas_dgemm(CblasRowMajor, ta, tb, l.m, l.n, l.k, std::fabs(alpha),
              ad.data(), a.cols, bd.data(), b.cols, std::fabs(beta),
              magnitude.data(), l.n);
}

Check compare(const Strided &c, const std::vector<double> &value,
              const std::vector<double> &magnitude, int64_t k) {
  BoundSpec bound = BoundSpec::forTypes(k, ElementType::F32, ElementType::F32);
  Check check;
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      size_t at = size_t(i) * c.cols + j;
      check.add(judgeElement(c.data[size_t(i) * c.ld + j], value[at],
                             bound(magnitude[at], value[at])));
    }
  return check;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

struct Checker {
  const GemmEntryPoints &e;
  const GemmLayout &l;
  uint64_t seed;
  GemmEntryCheck result;
  int64_t aRows() const { return l.transposeA ? l.k : l.m; }
  int64_t aCols() const { return l.transposeA ? l.m : l.k; }
  int64_t bRows() const { return l.transposeB ? l.n : l.k; }
  int64_t bCols() const { return l.transposeB ? l.k : l.n; }

  /// Runs `call` on a workspace of NAME_workspace_size() bytes at an
  /// address = 4 mod 64 with guard bytes after it; how many guard bytes it
  /// changed.
  int64_t withGuardedWorkspace(const std::function<void(void *)> &call) {
    std::vector<unsigned char> buffer(result.workspaceBytes + 4 + 256, 0xab);
    call(buffer.data() + 4);
    int64_t changed = 0;
    for (size_t i = 4 + result.workspaceBytes; i < buffer.size(); ++i)
      changed += buffer[i] != 0xab;
    return changed;
  }

  /// One GEMM's operands in the request's layout and its fp64 reference.
  struct Operands {
    Strided a, b, c;
    std::vector<double> value, magnitude;
  };
  /// A and B with leading dimensions lda/ldb drawn from seeds `seedAB` and
  /// `seedAB + 1` (NaN when `abNaN`: alpha = 0 must not read them) and
  /// rounded to the input type, C (ldc) from `seedC` (NaN when `cNaN`), and
  /// the reference of alpha*A*B + beta*C. Every case draws its operands
  /// here, so they differ only in seeds, padding and scalars. (Callers
  /// bind references to the members: C++17 lambdas cannot capture
  /// structured bindings.)
  Operands operands(int64_t lda, int64_t ldb, int64_t ldc, uint64_t seedAB,
                    bool abNaN, uint64_t seedC, bool cNaN, double alpha,
                    double beta) const {
    Operands o{Strided(aRows(), aCols(), lda),
               Strided(bRows(), bCols(), ldb),
               Strided(l.m, l.n, ldc),
               {},
               {}};
    o.a.fill(seedAB, abNaN);
    o.b.fill(seedAB + 1, abNaN);
    o.c.fill(seedC, cNaN);
    roundToInput(o.a.data, l.input);
    roundToInput(o.b.data, l.input);
    reference(l, o.a, o.b, o.c, alpha, beta, o.value, o.magnitude);
    return o;
  }

  /// NAME_ex / NAME_ex_ws with padded leading dimensions.
  void exCase(bool ws, float alpha, float beta, int64_t pad) {
    bool operandsUnread = alpha == 0;
    Operands o =
        operands(aCols() + pad, bCols() + pad, l.n + pad, seed, operandsUnread,
                 seed + 2, /*cNaN=*/beta == 0, alpha, beta);
    Strided &a = o.a, &b = o.b, &c = o.c;
    Input ain(a.data, l.input), bin(b.data, l.input);
    GemmEntryCase one;
    one.entry = ws ? "NAME_ex_ws" : "NAME_ex";
    one.what = "alpha=" + fmt(alpha) + " beta=" + fmt(beta) +
               " lda/ldb/ldc padded by " + std::to_string(pad) +
               (beta == 0 ? ", C NaN before" : "") +
               (operandsUnread ? ", A and B NaN" : "");
    if (ws) {
      one.paddingChanged += withGuardedWorkspace([&](void *ws) {
        e.exWs(ain.data(), a.ld, bin.data(), b.ld, c.data.data(), c.ld,
               alpha, beta, ws);
      });
      one.what += ", workspace at an address = 4 mod 64, guard bytes after";
    } else {
      e.ex(ain.data(), a.ld, bin.data(), b.ld, c.data.data(), c.ld, alpha,
           beta);
    }
    one.check = compare(c, o.value, o.magnitude, l.k);
    one.paddingChanged += c.paddingChanged() + ain.poisonChanged() +
                          bin.poisonChanged();
    result.cases.push_back(std::move(one));
  }

  /// NAME (or NAME_ws) with contiguous operands in the request's layout.
  void plainCase(bool ws = false) {
    Operands o = operands(aCols(), bCols(), l.n, seed + 3, false, 0,
                          /*cNaN=*/true, 1, 0);
    Strided &a = o.a, &b = o.b, &c = o.c;
    Input ain(a.data, l.input), bin(b.data, l.input);
    GemmEntryCase one;
    one.entry = ws ? "NAME_ws" : "NAME";
    one.what = "contiguous, C NaN before";
    if (ws) {
      one.paddingChanged += withGuardedWorkspace([&](void *ws) {
        e.plainWs(ain.data(), bin.data(), c.data.data(), ws);
      });
      one.what += ", workspace at an address = 4 mod 64, guard bytes after";
    } else {
      e.plain(ain.data(), bin.data(), c.data.data());
    }
    one.check = compare(c, o.value, o.magnitude, l.k);
    result.cases.push_back(std::move(one));
  }

  /// NAME_pack_b into an unaligned buffer with NaN guards after it, B then
  /// poisoned, and NAME_prepacked(_ws) on the packed copy.
  void prepackedCase(bool ws) {
    Operands o = operands(aCols(), bCols(), l.n, seed + 5, false, 0,
                          /*cNaN=*/true, 1, 0);
    Strided &a = o.a, &b = o.b, &c = o.c;
    Input ain(a.data, l.input), bin(b.data, l.input);
    GemmEntryCase one;
    one.entry = ws ? "NAME_pack_b + NAME_prepacked_ws" : "NAME_pack_b + NAME_prepacked";
    one.what = "packed B at an address = 4 mod 64 with NaN guards after "
               "NAME_packed_b_size() bytes, B NaN after packing, C NaN before";
    // (A packed bf16 B is whole k pairs: its size is a multiple of 4 bytes
    // too, so the guard floats after it stay whole.)
    size_t bytes = e.packedBSize();
    size_t floats = (bytes + 3) / 4;
    std::vector<float> packed(1 + floats + 64, poison());
    e.packB(bin.data(), packed.data() + 1);
    bin.poisonAll();
    for (size_t i = 1 + floats; i < packed.size(); ++i)
      one.paddingChanged += !isPoison(packed[i]);
    one.paddingChanged += !isPoison(packed[0]);
    if (ws) {
      one.paddingChanged += withGuardedWorkspace([&](void *ws) {
        e.prepackedWs(ain.data(), packed.data() + 1, c.data.data(), ws);
      });
      one.what += ", workspace at an address = 4 mod 64, guard bytes after";
    } else {
      e.prepacked(ain.data(), packed.data() + 1, c.data.data());
    }
    one.check = compare(c, o.value, o.magnitude, l.k);
    result.cases.push_back(std::move(one));
  }

  /// NAME_batched(_ws): `count` GEMMs with `pad` elements between them.
  void batchedCase(bool ws, int64_t count, int64_t pad) {
    int64_t sizeA = aRows() * aCols(), sizeB = bRows() * bCols(),
            sizeC = l.m * l.n;
    int64_t strideA = sizeA + pad, strideB = sizeB + pad,
            strideC = sizeC + pad;
    std::vector<float> A(size_t(std::max<int64_t>(count, 1)) * strideA,
                         poison()),
        B(size_t(std::max<int64_t>(count, 1)) * strideB, poison()),
        C(size_t(std::max<int64_t>(count, 1)) * strideC, poison());
    GemmEntryCase one;
    one.entry = ws ? "NAME_batched_ws" : "NAME_batched";
    one.what = "batch=" + std::to_string(count) + ", strides padded by " +
               std::to_string(pad) + ", C NaN before";
    std::vector<std::vector<double>> values(count), magnitudes(count);
    for (int64_t i = 0; i < count; ++i) {
      Operands o = operands(aCols(), bCols(), l.n, seed + 10 + 2 * i, false, 0,
                            /*cNaN=*/true, 1, 0);
      values[i] = std::move(o.value);
      magnitudes[i] = std::move(o.magnitude);
      std::copy(o.a.data.begin(), o.a.data.end(), A.begin() + i * strideA);
      std::copy(o.b.data.begin(), o.b.data.end(), B.begin() + i * strideB);
      std::fill(C.begin() + i * strideC, C.begin() + i * strideC + sizeC,
                std::nanf(""));
    }
    std::vector<float> before = C;
    Input ain(A, l.input), bin(B, l.input);
    if (ws) {
      one.paddingChanged += withGuardedWorkspace([&](void *workspace) {
        e.batchedWs(ain.data(), bin.data(), C.data(), count, strideA,
                    strideB, strideC, workspace);
      });
    } else {
      e.batched(ain.data(), bin.data(), C.data(), count, strideA, strideB,
                strideC);
    }
    one.paddingChanged += ain.poisonChanged() + bin.poisonChanged();
    if (count == 0) {
      one.paddingChanged += std::memcmp(before.data(), C.data(),
                                        C.size() * sizeof(float)) != 0;
      one.what = "batch=0: nothing written";
    }
    for (int64_t i = 0; i < count; ++i) {
      Strided c(l.m, l.n, l.n);
      std::copy(C.begin() + i * strideC, C.begin() + i * strideC + sizeC,
                c.data.begin());
      one.check.merge(compare(c, values[i], magnitudes[i], l.k));
      for (int64_t j = sizeC; j < strideC; ++j)
        one.paddingChanged += !isPoison(C[size_t(i) * strideC + j]);
    }
    result.cases.push_back(std::move(one));
  }

  /// NAME_batched_ex(_ws): `count` strided GEMMs (every row `pad` longer,
  /// `pad` elements between matrices) with alpha and beta.
  void batchedExCase(bool ws, int64_t count, float alpha, float beta,
                     int64_t pad) {
    int64_t lda = aCols() + pad, ldb = bCols() + pad, ldc = l.n + pad;
    int64_t strideA = aRows() * lda + pad, strideB = bRows() * ldb + pad,
            strideC = l.m * ldc + pad;
    size_t n = size_t(std::max<int64_t>(count, 1));
    std::vector<float> A(n * strideA, poison()), B(n * strideB, poison()),
        C(n * strideC, poison());
    std::vector<std::vector<double>> values(count), magnitudes(count);
    for (int64_t i = 0; i < count; ++i) {
      Operands o = operands(lda, ldb, ldc, seed + 20 + 3 * i, false,
                            seed + 22 + 3 * i, /*cNaN=*/beta == 0, alpha, beta);
      values[i] = std::move(o.value);
      magnitudes[i] = std::move(o.magnitude);
      std::copy(o.a.data.begin(), o.a.data.end(), A.begin() + i * strideA);
      std::copy(o.b.data.begin(), o.b.data.end(), B.begin() + i * strideB);
      std::copy(o.c.data.begin(), o.c.data.end(), C.begin() + i * strideC);
    }
    GemmEntryCase one;
    one.entry = ws ? "NAME_batched_ex_ws" : "NAME_batched_ex";
    one.what = "batch=" + std::to_string(count) + " alpha=" + fmt(alpha) +
               " beta=" + fmt(beta) + ", leading dimensions and strides "
               "padded by " + std::to_string(pad) +
               (beta == 0 ? ", C NaN before" : "");
    Input ain(A, l.input), bin(B, l.input);
    if (ws) {
      one.paddingChanged += withGuardedWorkspace([&](void *workspace) {
        e.batchedExWs(ain.data(), lda, strideA, bin.data(), ldb, strideB,
                      C.data(), ldc, strideC, count, alpha, beta, workspace);
      });
    } else {
      e.batchedEx(ain.data(), lda, strideA, bin.data(), ldb, strideB,
                  C.data(), ldc, strideC, count, alpha, beta);
    }
    one.paddingChanged += ain.poisonChanged() + bin.poisonChanged();
    for (int64_t i = 0; i < count; ++i) {
      Strided c(l.m, l.n, ldc);
      std::copy(C.begin() + i * strideC, C.begin() + i * strideC + l.m * ldc,
                c.data.begin());
      one.check.merge(compare(c, values[i], magnitudes[i], l.k));
      one.paddingChanged += c.paddingChanged();
      for (int64_t j = l.m * ldc; j < strideC; ++j)
        one.paddingChanged += !isPoison(C[size_t(i) * strideC + j]);
    }
    result.cases.push_back(std::move(one));
  }
};
} // namespace

bool GemmEntryCheck::passed() const {
  if (!error.empty() || cases.empty())
    return false;
  for (const GemmEntryCase &c : cases)
    if (!c.ok())
      return false;
  return true;
}

std::string GemmEntryCheck::summary() const {
  if (!error.empty())
    return error;
  double worst = 0;
  for (const GemmEntryCase &c : cases) {
    if (!c.ok())
      return c.entry + " (" + c.what + "): " +
             std::to_string(c.check.failures()) +
             " elements over the bound or NaN, " +
             std::to_string(c.paddingChanged) +
             " padding/guard elements changed";
    worst = std::max(worst, c.check.maxRatio);
  }
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "%zu calls, max error/bound %.2E, padding and guards "
                "untouched",
                cases.size(), worst);
  return buf;
}

GemmEntryCheck tensorop::checkGemmEntryPoints(const GemmEntryPoints &e,
                                              const GemmLayout &l,
                                              int64_t batchCount,
                                              uint64_t seed) {
  Checker c{e, l, seed, {}};
  if (!e.plain || !e.plainWs || !e.ex || !e.exWs || !e.workspaceSize) {
    c.result.error = "the object lacks NAME, NAME_ws, NAME_ex, NAME_ex_ws "
                     "or NAME_workspace_size";
    return c.result;
  }
  c.result.workspaceBytes = e.workspaceSize();
  c.plainCase();
  c.plainCase(/*ws=*/true);
  c.exCase(false, 1, 0, 3);
  c.exCase(false, 1, 1, 5);
  c.exCase(false, -1.5f, 0.5f, 1);
  c.exCase(false, 2, 0, 16);
  c.exCase(false, 0, 2, 2);
  c.exCase(false, 0, 0, 2);
  c.exCase(true, 0.75f, -1, 7);
  c.exCase(true, 1, 0, 0);
  c.exCase(false, 1, 0, 0);
  if (e.packedBSize && e.packB && e.prepacked && e.prepackedWs) {
    c.prepackedCase(false);
    c.prepackedCase(true);
  }
  if (e.batched && e.batchedWs) {
    int64_t count = batchCount > 0 ? batchCount : 3;
    c.batchedCase(false, count, 5);
    c.batchedCase(true, count, 0);
    c.batchedCase(false, 0, 1);
  }
  if (e.batchedEx && e.batchedExWs) {
    int64_t count = batchCount > 0 ? batchCount : 3;
    c.batchedExCase(false, count, -1.5f, 0.5f, 3);
    c.batchedExCase(true, count, 2, 0, 1);
    c.batchedExCase(false, count, 1, 1, 0);
  }
  return c.result;
}

std::string tensorop::checkBatchedEntriesBudget(int64_t m, int64_t n,
                                                int64_t k,
                                                int64_t batchCount) {
  // Per slice (batchedCase, batchedExCase): A, B and C as floats (padding
  // aside), C's copy from before the call, and the fp64 reference's values
  // and magnitudes.
  const uint64_t slices = std::max<int64_t>(batchCount, 3);
  const uint64_t um = m, un = n, uk = k;
  uint64_t perSlice = saturatingAdd(
      saturatingMul(4, saturatingAdd(saturatingMul(um, uk),
                                     saturatingMul(uk, un))),
      saturatingMul(8 + 16, saturatingMul(um, un)));
  return checkBufferBudget(saturatingMul(slices, perSlice),
                           "checking NAME_batched on " +
                               std::to_string(slices) + " slices of " +
                               std::to_string(m) + "x" + std::to_string(n) +
                               "x" + std::to_string(k));
}

ExOverhead tensorop::timeExAgainstPlain(const GemmEntryPoints &e,
                                        const GemmLayout &l, uint64_t seed,
                                        int rounds, double roundSeconds) {
  // OpenBLAS has no bf16 / f16 GEMM to time against here.
  if (l.input != ElementType::F32)
    return {};
  Checker c{e, l, seed, {}};
  // Contiguous operands for NAME and NAME_ex; rows 16 elements apart more
  // for NAME_ex_ws, which then takes the strided path.
  Strided a(c.aRows(), c.aCols(), c.aCols()), b(c.bRows(), c.bCols(), c.bCols()),
      c1(l.m, l.n, l.n), c2(l.m, l.n, l.n);
  Strided ap(c.aRows(), c.aCols(), c.aCols() + 16),
      bp(c.bRows(), c.bCols(), c.bCols() + 16), cp(l.m, l.n, l.n + 16);
  a.fill(seed, false);
  b.fill(seed + 1, false);
  ap.fill(seed, false);
  bp.fill(seed + 1, false);
  std::vector<unsigned char> workspace(e.workspaceSize());
  std::vector<float> packed;
  if (e.packB) {
    packed.resize((e.packedBSize() + 3) / 4);
    e.packB(b.data.data(), packed.data());
  }
  std::vector<std::function<void()>> calls = {
      [&] { e.plain(a.data.data(), b.data.data(), c1.data.data()); },
       [&] {
         e.ex(a.data.data(), a.ld, b.data.data(), b.ld, c2.data.data(), c2.ld,
              1.0f, 0.0f);
       },
       [&] {
         e.exWs(ap.data.data(), ap.ld, bp.data.data(), bp.ld, cp.data.data(),
                cp.ld, 1.0f, 0.0f, workspace.data());
       },
       [&] {
         cblas_sgemm(CblasRowMajor, l.transposeA ? CblasTrans : CblasNoTrans,
                     l.transposeB ? CblasTrans : CblasNoTrans, l.m, l.n, l.k,
                     1.0f, a.data.data(), a.ld, b.data.data(), b.ld, 0.0f,
                     c2.data.data(), c2.ld);
       }};
  if (e.prepacked)
    calls.push_back(
        [&] { e.prepacked(a.data.data(), packed.data(), c2.data.data()); });
  std::vector<std::vector<double>> s =
      timeRoundRobin(calls, rounds, roundSeconds);
  return {median(s[0]), median(s[1]), median(s[2]), median(s[3]),
          e.prepacked ? median(s[4]) : 0.0};
}
