//===- GemmModifiers.cpp - The BLAS-like words of a GEMM request ----------===//
//
// What each word means for the generated entry points (CpuBackend's header
// says the same to the caller):
//   "B transposed", "transpose B", "B^T", "Bᵀ", "NT"  B is stored N x K
//   "A transposed", "A^T", "TN"; "TT" both            A is stored K x M
//   "batch", "batched", "batch 8"                     NAME_batched; the count
//                                                     is the one verified
//   "alpha", "beta", "accumulate", "lda", "ldb",      NAME_ex takes them at
//   "ldc", "leading dimensions", "strided"            run time
//
//===----------------------------------------------------------------------===//

#include "GemmModifiers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

using namespace mlir::tensorop;
using llvm::StringRef;

namespace {
llvm::Error refuse(const llvm::Twine &message) {
  return llvm::createStringError(std::make_error_code(std::errc::not_supported),
                                 message + "; nothing was generated");
}

bool isTransposeWord(StringRef w) {
  return llvm::StringSwitch<bool>(w)
      .Cases({"transposed", "transpose", "transposes", "transposing", "trans"},
             true)
      .Default(false);
}

bool isBatchWord(StringRef w) {
  return llvm::StringSwitch<bool>(w)
      .Cases({"batch", "batched", "batches", "strided-batched",
              "batch-strided"},
             true)
      .Default(false);
}

/// Words that ask for what NAME_ex takes at run time.
bool isRuntimeArgumentWord(StringRef w) {
  return llvm::StringSwitch<bool>(w)
      .Cases({"alpha", "beta", "lda", "ldb", "ldc", "accumulate",
              "accumulating", "accumulates", "strided"},
             true)
      .Default(false);
}

bool isNumber(StringRef w) {
  return !w.empty() && llvm::all_of(w, llvm::isDigit);
}
} // namespace

llvm::Error mlir::tensorop::readGemmModifiers(
    StringRef lower, StringRef cleaned, llvm::ArrayRef<StringRef> tokens,
    OpRequest &r, llvm::SmallVectorImpl<bool> &understood) {
  understood.assign(tokens.size(), false);
  // A value for a run-time argument would be dropped: NAME_ex takes it per
  // call, so the request may ask for the argument but not fix it.
  {
    static const llvm::Regex value(
        "(^|[^a-z])(alpha|beta|lda|ldb|ldc) *(=|:|of|is)? *([-+]?[0-9.]+)");
    llvm::SmallVector<StringRef> g;
    if (value.match(lower, &g))
      return refuse(llvm::formatv(
          "the request fixes {0} = {1}, but tensorop gen does not build a "
          "kernel for one value: {0} is a run-time argument of NAME_ex "
          "(C = alpha*op(A)*op(B) + beta*C with leading dimensions lda, "
          "ldb, ldc); ask without the value and pass it per call",
          g[2], g[4]));
  }
  auto offsetOf = [&](StringRef token) {
    return size_t(token.data() - cleaned.data());
  };
  bool sawT[2] = {false, false}; // A, B asked transposed
  // "NT" names both layouts; "B transposed" names one.
  std::string layoutWord;
  bool layout[2] = {false, false};
  auto setTransposed = [&](StringRef operand) { sawT[operand == "b"] = true; };
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef w = tokens[i];
    auto isOperand = [&](size_t j) {
      return j < tokens.size() && (tokens[j] == "a" || tokens[j] == "b");
    };
    // "nt": A as stored, B transposed (BLAS's transa/transb letters).
    if (w == "nn" || w == "nt" || w == "tn" || w == "tt") {
      if (!layoutWord.empty() && layoutWord != w)
        return refuse("the request names two layouts ('" + layoutWord +
                      "' and '" + w.str() + "')");
      layoutWord = w.str();
      layout[0] = w[0] == 't';
      layout[1] = w[1] == 't';
      understood[i] = true;
      continue;
    }
    // "A^T" (tokens "a", "t" around a '^') and "Aᵀ" (U+1D40).
    if (isOperand(i)) {
      size_t end = offsetOf(w) + 1;
      StringRef after = lower.drop_front(end);
      if (after.ltrim().starts_with("^") && i + 1 < tokens.size() &&
          tokens[i + 1] == "t") {
        setTransposed(w);
        understood[i] = understood[i + 1] = true;
        ++i;
        continue;
      }
      if (after.starts_with("\xe1\xb5\x80")) {
        setTransposed(w);
        understood[i] = true;
        continue;
      }
    }
    if (isTransposeWord(w)) {
      // "transpose B", "a transposed B": the operand after the word;
      // "B transposed": the one before. With operands on both sides the
      // one after belongs to another clause where punctuation separates
      // them ("A transposed, B transposed") or a transpose word follows it
      // ("A transposed B transposed"); otherwise the one before is an
      // article ("a transposed B").
      const size_t none = tokens.size();
      size_t after = isOperand(i + 1) ? i + 1 : none;
      size_t before = i > 0 && isOperand(i - 1) ? i - 1 : none;
      if (after != none && before != none) {
        StringRef between =
            cleaned.slice(offsetOf(w) + w.size(), offsetOf(tokens[after]));
        bool afterElsewhere =
            between.find_first_of(",;") != StringRef::npos ||
            (after + 1 < tokens.size() && isTransposeWord(tokens[after + 1]));
        (afterElsewhere ? after : before) = none;
      }
      size_t operand = after != none ? after : before;
      if (operand == none)
        return refuse("the request word '" + w.str() +
                      "' does not say which operand: write 'A transposed', "
                      "'B transposed' (or A^T, B^T, NT, TN)");
      setTransposed(tokens[operand]);
      understood[i] = understood[operand] = true;
      // "A and B transposed", "transpose A and B": both.
      size_t other = operand == before ? operand - 2 : operand + 2;
      if (operand == before ? operand >= 2 : operand + 2 < tokens.size()) {
        size_t conj = operand == before ? operand - 1 : operand + 1;
        if (tokens[conj] == "and" && isOperand(other) &&
            tokens[other] != tokens[operand]) {
          setTransposed(tokens[other]);
          understood[conj] = understood[other] = true;
        }
      }
      continue;
    }
    if (isBatchWord(w)) {
      r.batched = true;
      understood[i] = true;
      // "batch 8", "batch of 8", "batch size 8", "8 batches".
      size_t j = i + 1;
      while (j < tokens.size() &&
             (tokens[j] == "of" || tokens[j] == "size" || tokens[j] == "count"))
        ++j;
      size_t count = j < tokens.size() && isNumber(tokens[j]) ? j
                     : i > 0 && isNumber(tokens[i - 1]) ? i - 1
                                                          : tokens.size();
      if (count != tokens.size()) {
        int64_t n = 0;
        if (tokens[count].getAsInteger(10, n) || n < 1)
          return refuse("the batch count '" + tokens[count].str() +
                        "' is not a positive number");
        if (r.batchCount && r.batchCount != n)
          return refuse(llvm::formatv("the request names two batch counts "
                                      "({0} and {1})",
                                      r.batchCount, n));
        r.batchCount = n;
        // "batch of 8" marks "of" and "8"; "8 batches" marks "8".
        for (size_t t = std::min(i, count); t <= std::max(i, count); ++t)
          understood[t] = true;
      }
      continue;
    }
    if (isRuntimeArgumentWord(w)) {
      understood[i] = true;
      continue;
    }
    if (w == "leading" && i + 1 < tokens.size() &&
        (tokens[i + 1] == "dimension" || tokens[i + 1] == "dimensions" ||
         tokens[i + 1] == "dims")) {
      understood[i] = understood[i + 1] = true;
      ++i;
    }
  }
  if (!layoutWord.empty()) {
    for (int operand : {0, 1})
      if (sawT[operand] && !layout[operand])
        return refuse(llvm::formatv(
            "the layout '{0}' leaves {1} as stored, but the request also "
            "asks for {1} transposed",
            layoutWord, operand ? "B" : "A"));
    sawT[0] = layout[0];
    sawT[1] = layout[1];
  }
  r.transposeA = sawT[0];
  r.transposeB = sawT[1];
  return llvm::Error::success();
}
