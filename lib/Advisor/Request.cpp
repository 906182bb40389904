//===- Request.cpp - Parse one-line operator requests ---------------------===//

#include "tensorop/Advisor/Request.h"

#include "ConvRequest.h"
#include "GemmModifiers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <limits>
#include <set>

using namespace mlir::tensorop;
using llvm::StringRef;

/// "1" when both directions agree, "2x1" (H x W) when they differ.
static std::string pair(int64_t h, int64_t w) {
  return h == w ? std::to_string(h)
                : std::to_string(h) + "x" + std::to_string(w);
}

/// Padding as one number, HxW (top = bottom, left = right), or all four.
static std::string padding(const ::tensorop::Conv2DShape &s,
                           llvm::StringRef separator) {
  if (s.padTop == s.padBottom && s.padLeft == s.padRight)
    return pair(s.padTop, s.padLeft);
  return llvm::formatv("{0}{4}{1}{4}{2}{4}{3}", s.padTop, s.padBottom,
                       s.padLeft, s.padRight, separator)
      .str();
}

std::string mlir::tensorop::describeConvShape(const ::tensorop::Conv2DShape &s) {
  return llvm::formatv("N={0} H={1} W={2} C={3} F={4} R={5} S={6} stride={7} "
                       "pad={8} dilation={9} (output {10}x{11})",
                       s.n, s.h, s.w, s.c, s.f, s.r, s.s,
                       pair(s.strideH, s.strideW), padding(s, ","),
                       pair(s.dilationH, s.dilationW), s.outH(), s.outW())
      .str();
}

std::string mlir::tensorop::convShapeName(const ::tensorop::Conv2DShape &s) {
  std::string dilation = s.dilationH == 1 && s.dilationW == 1
                             ? ""
                             : "_d" + pair(s.dilationH, s.dilationW);
  return llvm::formatv("n{0}_{1}x{2}x{3}_f{4}_{5}x{6}_s{7}_p{8}{9}", s.n, s.h,
                       s.w, s.c, s.f, s.r, s.s, pair(s.strideH, s.strideW),
                       padding(s, "_"), dilation)
      .str();
}

std::string OpRequest::defaultName() const {
  std::string layout =
      transposeA || transposeB
          ? std::string("_") + (transposeA ? "t" : "n") + (transposeB ? "t" : "n")
          : "";
  std::string name =
      op == "conv2d"
          ? "conv2d_" + convShapeName(conv) + "_" + dtype
          : llvm::formatv("{0}_{1}x{2}x{3}_{4}{5}{6}", op, m, n, k, dtype,
                          cType.empty() || cType == dtype ? ""
                                                          : "_" + cType + "out",
                          layout)
                .str();
  // Step texts with arguments ("clamp(0, 6)") become identifier parts.
  for (const std::string &step : epilogue) {
    std::string part = step == "clamp(0, 6)" ? "relu6" : "";
    if (part.empty()) {
      // "scale(0.5)" -> scale_0p5, "clamp(-1, 1)" -> clamp_m1_1.
      for (char c : step) {
        if (llvm::isAlnum(c) || c == '_')
          part.push_back(c);
        else if (c == '-')
          part.push_back('m');
        else if (c == '.')
          part.push_back('p');
        else if (!part.empty() && part.back() != '_')
          part.push_back('_');
      }
    }
    while (!part.empty() && part.back() == '_')
      part.pop_back();
    name += "_" + part;
  }
  return name;
}

std::string OpRequest::describe() const {
  auto orMissing = [](const std::string &s) {
    return s.empty() ? std::string("?") : s;
  };
  std::string shape = op == "conv2d" ? describeConvShape(conv)
                      : m ? llvm::formatv("M={0} N={1} K={2}", m, n, k).str()
                          : std::string("?");
  return "op=" + orMissing(op) + ", shape=" + shape +
         ", dtype=" + orMissing(dtype) +
         (cType.empty() ? std::string() : ", output=" + cType) +
         (epilogue.empty() ? std::string()
                           : ", epilogue=" + llvm::join(epilogue, "+")) +
         ", target=" + orMissing(target) +
         (transposeA || transposeB
              ? std::string(", layout=") + (transposeA ? "T" : "N") +
                    (transposeB ? "T" : "N")
              : "") +
         (batched ? ", batched" + (batchCount ? " (verified with " +
                                                    std::to_string(batchCount) +
                                                    ")"
                                              : std::string())
                  : "");
}

namespace {
/// Words (lower-case) that name something, with what they name.
struct Vocabulary {
  static std::string op(StringRef w) {
    return llvm::StringSwitch<std::string>(w)
        .Cases({"gemm", "gemms", "matmul", "matmuls", "sgemm", "hgemm",
                "dgemm", "multiply",
                "multiplication", "matrix-multiply", "mm"},
               "gemm")
        .Cases({"conv", "convolution", "convolutions", "conv2d", "conv_2d",
                "conv-2d"},
               "conv2d")
        .Default("");
  }
  static std::string dtype(StringRef w) {
    return llvm::StringSwitch<std::string>(w)
        .Cases({"fp32", "f32", "float32", "float", "single", "sgemm"}, "f32")
        .Cases({"bf16", "bfloat16"}, "bf16")
        .Cases({"fp16", "f16", "float16", "half", "hgemm"}, "f16")
        .Cases({"tf32", "tensorfloat32"}, "tf32")
        .Cases({"fp64", "f64", "float64", "double", "dgemm"}, "f64")
        .Cases({"int8", "i8"}, "i8")
        .Default("");
  }
  static std::string target(StringRef w) {
    return llvm::StringSwitch<std::string>(w)
        .Cases({"host", "cpu", "native"}, "host")
        .Cases({"x86-avx512", "avx512", "avx-512", "avx512f", "zen4", "zen5",
                "skylake-avx512"},
               "x86-avx512")
        .Cases({"x86-avx2", "avx2", "haswell"}, "x86-avx2")
        .Cases({"riscv-rvv", "rvv", "risc-v", "riscv", "riscv64", "spacemit",
                "x60", "c908"},
               "riscv-rvv")
        .Cases({"arm-neon", "neon", "aarch64", "arm64", "arm", "cortex-a72",
                "cortex-a76", "a72", "a76"},
               "arm-neon")
        .Cases({"nvidia-sm90", "sm90", "sm_90", "sm90a", "sm_90a", "h100",
                "h200", "hopper"},
               "nvidia-sm90")
        .Cases({"nvidia-sm80", "sm80", "sm_80", "a100", "ampere"},
               "nvidia-sm80")
        .Default("");
  }
};

/// Records a value, noting a conflict when a different one was seen.
void note(std::string &slot, const std::string &value,
          std::set<std::string> &seen) {
  if (value.empty())
    return;
  seen.insert(value);
  if (slot.empty())
    slot = value;
}

bool toInt(StringRef s, int64_t &out) {
  return !s.trim().getAsInteger(10, out) && out > 0;
}

/// The largest number a request may hold: extents are C `int`-sized, and
/// larger values would overflow the tile arithmetic downstream.
constexpr int64_t kMaxRequestNumber = std::numeric_limits<int32_t>::max();

/// The code point of the UTF-8 sequence that starts at `at` (U+FFFD if it
/// is malformed), for messages.
std::string codePointAt(StringRef text, size_t at) {
  unsigned char lead = text[at];
  int length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  uint32_t cp = length == 1 ? 0xfffd : lead & (0x7f >> length);
  for (int i = 1; i < length; ++i) {
    if (at + i >= text.size() || (text[at + i] & 0xc0) != 0x80)
      return "U+FFFD";
    cp = (cp << 6) | (text[at + i] & 0x3f);
  }
  return llvm::formatv("U+{0:X-4}", cp).str();
}

/// Numbers are runs of ASCII digits. A digit touching any other character
/// outside ASCII is refused instead of being read as the digits around it
/// (a combining mark made "9\u03037x131x67" a 7x131x67 GEMM), and so is a
/// number too large for an extent (overflow is an error, not a wrap).
llvm::Error checkNumbers(StringRef text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!llvm::isDigit(text[i]))
      continue;
    size_t end = i;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    StringRef digits = text.slice(i, end);
    size_t other = StringRef::npos;
    if (end < text.size() && (unsigned char)text[end] >= 0x80)
      other = end;
    else if (i > 0 && (unsigned char)text[i - 1] >= 0x80) {
      other = i - 1;
      while (other > 0 && (text[other] & 0xc0) == 0x80)
        --other;
    }
    // "64×64×64": the digits are ASCII, the sign between them is not.
    if (other != StringRef::npos &&
        llvm::is_contained({"U+00D7", "U+2715", "U+2A2F"},
                           codePointAt(text, other)))
      return llvm::createStringError(
          llvm::formatv("the multiplication sign {0} at byte {1} is not "
                        "read: write sizes with the letter x (97x131x67, "
                        "3x3)",
                        codePointAt(text, other), other + 1)
              .str());
    if (other != StringRef::npos)
      return llvm::createStringError(
          llvm::formatv("the number '{0}' at byte {1} touches the non-ASCII "
                        "character {2}; write numbers in ASCII digits only",
                        digits, i + 1, codePointAt(text, other))
              .str());
    uint64_t value;
    if (digits.getAsInteger(10, value) || value > uint64_t(kMaxRequestNumber))
      return llvm::createStringError(
          llvm::formatv("the number {0} at byte {1} is too large (at most "
                        "{2})",
                        digits.size() > 40 ? digits.take_front(40).str() + "..."
                                           : digits.str(),
                        i + 1, kMaxRequestNumber)
              .str());
    i = end;
  }
  return llvm::Error::success();
}

/// What an unsupported request word asks for, and how to get it instead
/// ("" for words that are not modifiers).
std::string unsupportedModifier(StringRef w) {
  return llvm::StringSwitch<std::string>(w)
      .Cases({"column-major", "col-major", "colmajor", "columnmajor"},
             "column-major operands (gen's operands are row-major; ask for "
             "'A transposed' / 'B transposed' (or NT, TN) instead)")
      .Cases({"scale", "scaled", "scaling"},
             "a scaling without its factor (write 'scale 0.5' for a fused "
             "epilogue step, or ask for 'alpha' and 'beta': NAME_ex takes "
             "them at run time)")
      .Cases({"leading", "stride", "strides", "ld"},
             "leading dimensions in words gen does not read (NAME_ex takes "
             "lda, ldb and ldc at run time: ask for 'lda' or 'leading "
             "dimensions')")
      .Cases({"bias", "relu", "gelu", "silu", "swish", "sigmoid", "tanh",
              "clamp", "residual", "epilogue", "activation", "fused", "fuse",
              "add", "plus", "softmax"},
             "a fused epilogue gen does not build (it fuses bias, relu, "
             "relu6, gelu, gelu-tanh, silu, sigmoid, tanh, residual, "
             "'scale S' and 'clamp to [LO, HI]')")
      .Cases({"thread", "threads", "threaded", "multi-threaded",
              "multithreaded", "parallel", "cores", "core"},
             "a thread count in the request (use --threads=N)")
      .Cases({"sparse", "complex", "int4", "fp8", "e4m3", "e5m2"},
             "an element type or format gen does not generate")
      .Default("");
}

/// Words a GEMM request may contain besides the operator, element type,
/// target and shape: articles, prepositions and the words of the phrasings
/// the parser reads ("a 200 by 300 matrix times ...", "on this CPU").
bool isFillerWord(StringRef w) {
  return llvm::StringSwitch<bool>(w)
      .Cases({"a", "an", "the", "for", "on", "of", "with", "and", "in", "to",
              "into", "using", "this", "my", "cpu", "machine", "computer",
              "host", "matrix", "matrices", "times", "by", "x", "multiplied",
              "product", "kernel", "please", "generate", "make", "build",
              "create", "me", "precision", "elements", "element", "type",
              "inputs", "input", "operands", "cubed", "m", "n", "k", "nn",
              "row-major", "rowmajor", "fast", "optimized", "efficient",
              "high-performance", "performant", "dense", "square", "gpu",
              "run", "runs", "that", "which", "is", "at", "then"},
             true)
      .Default(false);
}

/// Every word of a GEMM request must be understood: a modifier gen does not
/// support is refused by name (std::errc::not_supported, so no fallback
/// reader drops it either), any other unknown word too.
/// Byte ranges [begin, end) of the request's lower-cased text that the
/// shape was read from ("97x131x67", "M=97", "a 200 by 300 matrix").
using ShapeSpans = std::vector<std::pair<size_t, size_t>>;

llvm::Error checkGemmWords(StringRef cleaned, llvm::ArrayRef<StringRef> tokens,
                           llvm::ArrayRef<bool> understood,
                           const ShapeSpans &shapeSpans) {
  // Modifiers first: in "with bias" the word to name is "bias", not "with".
  for (auto [w, read] : llvm::zip_equal(tokens, understood)) {
    if (read)
      continue;
    std::string what = unsupportedModifier(w);
    if (!what.empty())
      return llvm::createStringError(
          std::make_error_code(std::errc::not_supported),
          "the request word '" + w.str() + "' asks for " + what +
              ", which tensorop gen does not support yet; nothing was "
              "generated");
  }
  // A number is understood only as part of the shape (or of a modifier,
  // which marks it): "256x256x256x3" or "2x256x256x256" once read as
  // 256^3 (resp. 2x256x256) with the rest dropped, and a stray "512" was
  // ignored.
  static const llvm::Regex number("^[0-9]+(x[0-9]+)*$");
  auto inShape = [&](StringRef w) {
    size_t begin = w.data() - cleaned.data(), end = begin + w.size();
    return llvm::any_of(shapeSpans, [&](const std::pair<size_t, size_t> &s) {
      return s.first <= begin && end <= s.second;
    });
  };
  for (auto [w, read] : llvm::zip_equal(tokens, understood)) {
    if (read || !Vocabulary::op(w).empty() || !Vocabulary::dtype(w).empty() ||
        !Vocabulary::target(w).empty() || isFillerWord(w) ||
        (number.match(w) && inShape(w)))
      continue;
    if (number.match(w))
      return llvm::createStringError(
          std::make_error_code(std::errc::invalid_argument),
          "the number '" + w.str() +
              "' is not understood: it is not part of the shape (MxNxK, "
              "M= N= K=, or 'a 200 by 300 matrix times a 300 by 64 "
              "matrix') nor a batch count ('batch 8'); nothing was "
              "generated");
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "the request word '" + w.str() +
            "' is not understood (a GEMM request names the shape, element "
            "type and target, e.g. '97x131x67 fp32 GEMM for x86-avx512'); "
            "nothing was generated");
  }
  return llvm::Error::success();
}
/// A dynamic dimension in the request ("dynamic M", "?x768x3072",
/// "Mx768x3072", "M=?"), or "" if none. gen builds one static shape; these
/// read as "understood one matrix (768 by 3072)" or "missing: M=", which
/// sent the user looking for a typo.
std::string dynamicDimension(StringRef lower) {
  static const llvm::Regex word(
      "(^|[^a-z0-9_-])((dynamic|variable|runtime|run-time|symbolic|unknown)"
      "( +(size|sizes|shape|shapes|dimension|dimensions|dim|dims|batch|"
      "[mnk]))?)([^a-z0-9_-]|$)");
  static const llvm::Regex question("([0-9a-z]+ *[x*] *[?]|[?] *[x*] *[0-9a-z]+"
                                    "|[mnk] *= *[?])");
  static const llvm::Regex letter(
      "(^|[^a-z0-9_])([a-wyz] *[x*] *[0-9]+ *[x*] *[0-9]+|[0-9]+ *[x*] *"
      "[a-wyz] *[x*] *[0-9]+|[0-9]+ *[x*] *[0-9]+ *[x*] *[a-wyz])"
      "([^a-z0-9_]|$)");
  llvm::SmallVector<StringRef> m;
  if (word.match(lower, &m))
    return m[2].str();
  if (question.match(lower, &m))
    return m[1].str();
  if (letter.match(lower, &m))
    return m[2].str();
  return "";
}

/// The request's words for an epilogue step ("bias_n" -> "bias").
std::string stepWords(StringRef step) {
  std::string words = llvm::StringSwitch<std::string>(step)
                          .Case("bias_n", "bias")
                          .Case("bias_m", "row bias")
                          .Case("clamp(0, 6)", "relu6")
                          .Case("gelu_erf", "gelu")
                          .Case("gelu_tanh", "gelu-tanh")
                          .Default("");
  return words.empty() ? step.str() : words + " (" + step.str() + ")";
}

/// The operand an epilogue step reads ("bias", "residual"), or "".
StringRef stepOperand(StringRef step) {
  if (step == "bias_n" || step == "bias_m")
    return "bias";
  return step == "residual" ? "residual" : "";
}

/// A repeated epilogue step is refused, naming it: "with bias, bias" built
/// two bias steps, both adding the one bias the entry point takes, and "row
/// bias and bias" added that one M-float bias twice while the header said
/// the second was N floats. Steps that read an operand (a bias of either
/// kind, a residual) appear once each (the entry has one pointer of each);
/// any other step may repeat, but not right after itself ("relu, relu"):
/// "scale 2, relu, scale 2" applies all three.
llvm::Error checkRepeatedSteps(llvm::ArrayRef<std::string> steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    StringRef step = steps[i], operand = stepOperand(step);
    if (i > 0 && steps[i - 1] == step && operand.empty())
      return llvm::createStringError(
          std::make_error_code(std::errc::not_supported),
          "the request names the epilogue step '" + stepWords(step) +
              "' twice in a row; name it once; nothing was generated");
    if (operand.empty())
      continue;
    for (size_t j = 0; j < i; ++j)
      if (stepOperand(steps[j]) == operand)
        return llvm::createStringError(
            std::make_error_code(std::errc::not_supported),
            "the request names " +
                (steps[j] == step
                     ? "the epilogue step '" + stepWords(step) + "' twice"
                     : "the epilogue steps '" + stepWords(steps[j]) +
                           "' and '" + stepWords(step) + "'") +
                ", but the kernel takes one " + operand.str() +
                " operand, which both would read; name one; nothing was "
                "generated");
  }
  return llvm::Error::success();
}

/// "target=host", "target: x86-avx2", "target x86-avx2": the target named by
/// the pipeline option's key. Blanks the key in `lower` so that the name
/// is read like any target word; refuses a key whose value names no target.
/// The word was refused as not understood (a GEMM), or as a key whose value
/// must be a number (a convolution), while the target after it was right.
llvm::Error takeTargetKey(std::string &lower) {
  static const llvm::Regex key(
      "(^|[^a-z0-9_-])(target( *[=:] *| +|$))([a-z0-9_.-]*)");
  llvm::SmallVector<StringRef> m;
  size_t from = 0;
  while (key.match(StringRef(lower).substr(from), &m)) {
    std::string value = StringRef(m[4]).rtrim(".").str();
    if (Vocabulary::target(value).empty())
      return llvm::createStringError(
          std::make_error_code(std::errc::not_supported),
          "the request's '" + StringRef(m[0]).ltrim(" ,;").str() + "' " +
              (value.empty() ? std::string("names no target")
                             : "names no known target ('" + value + "')") +
              "; targets: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon, "
              "nvidia-sm80, nvidia-sm90 (or --target=); nothing was "
              "generated");
    size_t at = m[2].data() - lower.data();
    lower.replace(at, m[2].size(), std::string(m[2].size(), ' '));
    from = at + m[2].size() + value.size();
  }
  return llvm::Error::success();
}

/// A zero extent ("0x5x5", "5x5x0 GEMM", "M=0", "a 0 by 300 matrix"),
/// refused as such: "5x5x0" read as "understood one matrix (5 by 5)" and
/// "0x5x5" as "missing: the shape", which sent the user looking for a typo.
llvm::Error zeroExtent(StringRef lower) {
  static const llvm::Regex mnk("(^|[^0-9])(([0-9]+) *[x*] *([0-9]+) *[x*] *"
                               "([0-9]+))");
  static const llvm::Regex named("(^|[^a-z0-9_])(([mnk]) *= *0+)([^0-9]|$)");
  static const llvm::Regex by("(^|[^0-9x*])(([0-9]+) *by *([0-9]+))");
  auto zero = [](StringRef digits) {
    uint64_t v;
    return !digits.getAsInteger(10, v) && v == 0;
  };
  auto refuse = [](StringRef phrase, StringRef dim) {
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "the shape '" + phrase.str() + "' has a zero dimension" +
            (dim.empty() ? "" : " (" + dim.str() + " = 0)") +
            ": tensorop gen builds a GEMM whose M, N and K are at "
            "least 1 (an empty GEMM computes nothing; in a module, the "
            "pipeline leaves a linalg.matmul on empty matrices to the "
            "upstream lowering); nothing was generated");
  };
  llvm::SmallVector<StringRef> g;
  if (mnk.match(lower, &g))
    for (int i = 0; i < 3; ++i)
      if (zero(g[3 + i]))
        return refuse(g[2], StringRef(&"MNK"[i], 1));
  if (named.match(lower, &g))
    return refuse(StringRef(g[2]).upper(), StringRef(g[3]).upper());
  if (by.match(lower, &g) && (zero(g[3]) || zero(g[4])))
    return refuse(g[2], "");
  return llvm::Error::success();
}
} // namespace

llvm::Expected<OpRequest> mlir::tensorop::parseRequest(StringRef text) {
  if (llvm::Error e = checkNumbers(text))
    return std::move(e);
  OpRequest r;
  r.text = text.str();
  std::string lower = text.lower();
  if (std::string dynamic = dynamicDimension(lower); !dynamic.empty())
    return llvm::createStringError(
        std::make_error_code(std::errc::not_supported),
        "the request asks for a dynamic dimension ('" + dynamic +
            "'); tensorop gen builds a kernel for one static shape: give "
            "every size. A module whose linalg.matmul has a dynamic M, N or "
            "K is compiled by tensorop-opt --tensorop-pipeline "
            "(docs/UserGuide.md, 'The pipeline'); nothing was generated");
  if (llvm::Error e = takeTargetKey(lower))
    return std::move(e);
  std::set<std::string> ops, dtypes, targets;
  std::vector<std::string> notes;

  // "this CPU", "this machine" name the host.
  for (StringRef phrase : {"this cpu", "this machine", "this computer",
                           "the host", "my cpu"})
    if (StringRef(lower).contains(phrase))
      note(r.target, "host", targets);

  // The output type, when named ("with f32 output", "output in fp32",
  // "fp32 result", "C in bf16"): taken out before the element type is read.
  {
    llvm::SmallVector<StringRef> m;
    llvm::Regex before("([a-z0-9]+) +(output|result)s?([^a-z]|$)");
    llvm::Regex after("(output|result) +(in |as |type |= *|: *)?([a-z0-9]+)");
    std::string word, phrase;
    if (before.match(lower, &m) && !Vocabulary::dtype(m[1]).empty()) {
      word = m[1].str();
      phrase = m[0].substr(0, m[0].size() - m[3].size()).str();
    } else if (after.match(lower, &m) && !Vocabulary::dtype(m[3]).empty()) {
      word = m[3].str();
      phrase = m[0].str();
    } else if (llvm::Regex cIn("(^|[^a-z0-9_])(c +(in|as) +([a-z0-9]+))");
               cIn.match(lower, &m) && !Vocabulary::dtype(m[4]).empty()) {
      // "C in bf16", "C as f16": the output named by the matrix.
      word = m[4].str();
      phrase = m[2].str();
    }
    if (!word.empty()) {
      r.cType = Vocabulary::dtype(word);
      size_t at = lower.find(phrase);
      lower.replace(at, phrase.size(), std::string(phrase.size(), ' '));
    }
  }

  // "gelu tanh" / "gelu (tanh)" with nothing between the words was read as
  // two steps, GELU (erf) then tanh, where it most likely names GELU's tanh
  // form: neither is guessed.
  {
    static const llvm::Regex geluTanh("(^|[^a-z0-9_-])(gelu *[(]? *tanh[)]?)");
    llvm::SmallVector<StringRef> m;
    if (geluTanh.match(lower, &m))
      return llvm::createStringError(
          std::make_error_code(std::errc::not_supported),
          "the request words '" + m[2].str() +
              "' are ambiguous: write 'gelu-tanh' for GELU's tanh form, or "
              "'gelu and tanh' for GELU followed by tanh; nothing was "
              "generated");
  }

  // Epilogue steps with numbers ("scale 0.5", "clamp to [-1, 1]") before
  // the words: their numbers hold characters the words drop.
  std::vector<std::string> numberedSteps;
  std::string phraseError = takeEpilogueNumberPhrases(lower, numberedSteps);
  if (!phraseError.empty())
    return llvm::createStringError(
        std::make_error_code(std::errc::not_supported),
        phraseError + "; nothing was generated");

  // Words: split on anything that is not part of a name.
  std::string cleaned;
  for (char c : lower)
    cleaned.push_back(llvm::isAlnum(c) || c == '_' || c == '-' ? c : ' ');
  llvm::SmallVector<StringRef> tokens;
  StringRef(cleaned).split(tokens, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef w : tokens) {
    note(r.op, Vocabulary::op(w), ops);
    note(r.dtype, Vocabulary::dtype(w), dtypes);
    note(r.target, Vocabulary::target(w), targets);
  }
  r.targetNamed = !targets.empty();

  auto conflict = [&](const char *what, const std::set<std::string> &seen)
      -> llvm::Error {
    std::string list;
    for (const std::string &s : seen)
      list += (list.empty() ? "" : ", ") + s;
    return llvm::createStringError("the request names more than one " +
                                   std::string(what) + " (" + list +
                                   "); name exactly one");
  };
  if (ops.size() > 1)
    return conflict("operator", ops);
  if (dtypes.size() > 1)
    return conflict("element type", dtypes);
  if (targets.size() > 1)
    return conflict("target", targets);
  if (r.op == "conv2d" && !numberedSteps.empty())
    return llvm::createStringError(
        std::make_error_code(std::errc::not_supported),
        "the request asks for the fused epilogue step " + numberedSteps[0] +
            ", which tensorop gen does not build for convolutions (it fuses "
            "bias, relu, relu6 and residual there); nothing was generated");
  if (r.op == "conv2d") {
    // A convolution reads its own shape words; the GEMM shapes below
    // ("56x56x64" as MxNxK) do not apply.
    auto known = [](StringRef w) {
      return !Vocabulary::op(w).empty() || !Vocabulary::dtype(w).empty() ||
             !Vocabulary::target(w).empty();
    };
    // Every character of a convolution request is read (none is dropped as
    // a separator), so one outside ASCII is named rather than skipped.
    for (size_t i = 0; i < text.size(); ++i)
      if ((unsigned char)text[i] >= 0x80)
        return llvm::createStringError(
            std::make_error_code(std::errc::not_supported),
            llvm::formatv("understood a convolution; the character {0} at "
                          "byte {1} is not understood (write the request in "
                          "ASCII)",
                          codePointAt(text, i), i + 1)
                .str());
    if (llvm::Error e = parseConvShape(lower, r.conv, known, r.epilogue))
      return llvm::createStringError(
          std::make_error_code(std::errc::not_supported),
          "understood a convolution; " + llvm::toString(std::move(e)));
    if (llvm::Error e = checkRepeatedSteps(r.epilogue))
      return std::move(e);
    if (r.dtype.empty())
      r.dtype = "f32";
    if (r.target.empty())
      r.target = "host";
    return r;
  }

  if (llvm::Error e = zeroExtent(lower))
    return std::move(e);
  // Shapes, in order of precedence.
  std::vector<std::array<int64_t, 3>> shapes;
  ShapeSpans shapeSpans;
  auto span = [&](StringRef match) {
    size_t begin = match.data() - lower.data();
    shapeSpans.push_back({begin, begin + match.size()});
  };
  llvm::SmallVector<StringRef> g;
  StringRef rest = lower;
  llvm::Regex mnk("([0-9]+) *[x*] *([0-9]+) *[x*] *([0-9]+)");
  while (mnk.match(rest, &g)) {
    int64_t a, b, c;
    if (toInt(g[1], a) && toInt(g[2], b) && toInt(g[3], c))
      shapes.push_back({a, b, c});
    span(g[0]);
    rest = rest.substr(rest.find(g[0]) + g[0].size());
  }
  llvm::Regex cube("([0-9]+) *(\\^ *3|cubed)");
  if (shapes.empty() && cube.match(lower, &g)) {
    int64_t a;
    if (toInt(g[1], a))
      shapes.push_back({a, a, a});
    span(g[0]);
  }
  llvm::Regex named("(^|[^a-z])m *= *([0-9]+)");
  llvm::Regex namedN("(^|[^a-z])n *= *([0-9]+)");
  llvm::Regex namedK("(^|[^a-z])k *= *([0-9]+)");
  llvm::SmallVector<StringRef> gm, gn, gk;
  bool hasM = named.match(lower, &gm), hasN = namedN.match(lower, &gn),
       hasK = namedK.match(lower, &gk);
  if (hasM || hasN || hasK) {
    int64_t m = 0, n = 0, k = 0;
    if (hasM)
      toInt(gm[2], m);
    if (hasN)
      toInt(gn[2], n);
    if (hasK)
      toInt(gk[2], k);
    if (!(hasM && hasN && hasK) || !m || !n || !k) {
      r.m = m;
      r.n = n;
      r.k = k;
      return llvm::createStringError(
          "understood " + r.describe() +
          "; missing: all three of M=, N= and K= as positive integers");
    }
    shapes.push_back({m, n, k});
    for (StringRef match : {gm[0], gn[0], gk[0]})
      span(match);
  }
  // "a 200 by 300 matrix with a 300 by 64 matrix": A is MxK, B is KxN.
  llvm::Regex by("([0-9]+) *(by|x) *([0-9]+)");
  if (shapes.empty()) {
    std::vector<std::pair<int64_t, int64_t>> dims;
    StringRef s = lower;
    while (by.match(s, &g)) {
      int64_t a, b;
      if (toInt(g[1], a) && toInt(g[3], b))
        dims.push_back({a, b});
      span(g[0]);
      s = s.substr(s.find(g[0]) + g[0].size());
    }
    if (dims.size() == 2) {
      if (dims[0].second != dims[1].first)
        return llvm::createStringError(llvm::formatv(
            "the matrices do not conform: {0}x{1} times {2}x{3} (the inner "
            "dimensions {1} and {2} differ)",
            dims[0].first, dims[0].second, dims[1].first, dims[1].second));
      shapes.push_back({dims[0].first, dims[1].second, dims[0].second});
      if (r.op.empty())
        note(r.op, "gemm", ops);
    } else if (dims.size() == 1) {
      return llvm::createStringError(
          "understood one matrix (" + std::to_string(dims[0].first) + " by " +
          std::to_string(dims[0].second) +
          ") but a GEMM needs two: write e.g. 'a 200 by 300 matrix times a "
          "300 by 64 matrix' or 200x64x300 (MxNxK)");
    }
  }

  std::set<std::array<int64_t, 3>> distinct(shapes.begin(), shapes.end());
  if (distinct.size() > 1)
    return llvm::createStringError(
        "the request names more than one shape; name exactly one (MxNxK)");
  if (r.op.empty() && !shapes.empty())
    r.op = "gemm"; // A bare shape is a GEMM.
  if (!shapes.empty()) {
    r.m = shapes[0][0];
    r.n = shapes[0][1];
    r.k = shapes[0][2];
  }
  if (r.op.empty() || !r.m)
    return llvm::createStringError(
        "understood " + r.describe() + "; missing: " +
        (r.op.empty() ? std::string("the operator (e.g. GEMM) and ") : "") +
        "the shape (e.g. 128x256x64 for MxNxK, or M=128 N=256 K=64)");
  if (r.op == "gemm") {
    takeEpilogueWords(tokens, r.epilogue, numberedSteps);
    llvm::SmallVector<bool> understood;
    if (llvm::Error e =
            readGemmModifiers(lower, cleaned, tokens, r, understood))
      return std::move(e);
    if (llvm::Error e = checkGemmWords(cleaned, tokens, understood, shapeSpans)) {
      // A request with a layout, batch or epilogue the LLM's reading has no
      // field for stays with this parser's error (final), or they would be
      // lost.
      if (llvm::is_contained(understood, true) || !r.epilogue.empty())
        return llvm::createStringError(
            std::make_error_code(std::errc::not_supported),
            llvm::toString(std::move(e)));
      return std::move(e);
    }
    if (llvm::Error e = checkRepeatedSteps(r.epilogue))
      return std::move(e);
  }
  if (r.dtype.empty())
    r.dtype = "f32";
  if (r.target.empty())
    r.target = "host";
  return r;
}
