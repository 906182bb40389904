//===- ConvRequest.cpp - The shape words of a convolution request ---------===//
//
// Reads the geometry of a `conv2d` request in two styles:
//
//   canonical  conv2d N=1 H=56 W=56 C=64 F=64 R=3 S=3 stride=1 pad=1 fp32
//              (also dilation=, stride=2x1 / pad=1x2 / dilation=2x1 as
//              H x W, stride_h= stride_w= dilation_h= dilation_w= pad_h=
//              pad_w= pad_top= pad_bottom= pad_left= pad_right=)
//   phrases    "3x3 convolution", "kernel 7x7", "64 to 128 channels",
//              "64 input channels", "128 output channels", "128 filters",
//              "28x28 input", "a 14x14 image", "56x56x64 input" (HxWxC),
//              "batch 2", "batch size 8", "stride 2", "padding 1",
//              "no padding", "dilation 2"
//
// Unset: N = 1, stride 1, dilation 1, no padding. The input size, the
// channels and the kernel size must be given. Every word must be read by a
// phrase or be a filler word ("a", "the", "on", ...); anything else is
// refused by name, never skipped.
//
//===----------------------------------------------------------------------===//

#include "ConvRequest.h"

#include "tensorop/Advisor/Request.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir::tensorop;
using llvm::StringRef;
using tensorop::Conv2DShape;

namespace {
llvm::Error refuse(const llvm::Twine &message) {
  return llvm::createStringError(
      std::make_error_code(std::errc::not_supported), message);
}

/// One dimension as the request gives it, and the phrase that gave it (for
/// the message when another phrase gives a different value).
struct Slot {
  explicit Slot(const char *name) : name(name) {}
  const char *name;
  std::optional<int64_t> value;
  std::string phrase;
};

/// Words that carry nothing but may appear in a convolution request.
bool isFillerWord(StringRef w) {
  return llvm::StringSwitch<bool>(w)
      .Cases({"a", "an", "the", "for", "on", "of", "with", "and", "in", "to",
              "from", "by", "at", "is", "that", "which", "this", "my", "cpu",
              "machine", "computer", "host", "please", "generate", "make",
              "build", "create", "me", "kernel", "kernels", "filter",
              "filters", "input", "inputs", "image", "images", "output",
              "outputs", "channels", "channel", "layer", "2d", "2-d",
              "two-dimensional", "fast", "optimized", "efficient", "size",
              "feature", "map", "maps", "activation", "activations",
              "spatial", "pixels", "nhwc", "hwcf", "elements", "precision",
              "then"},
             true)
      .Default(false);
}

/// What a word asks for that gen's convolution does not build ("" for
/// other words).
std::string unsupportedModifier(StringRef w) {
  return llvm::StringSwitch<std::string>(w)
      .Cases({"depthwise", "depth-wise", "grouped", "group", "groups",
              "separable"},
             "a depthwise or grouped convolution (gen builds a dense conv2d; "
             "linalg.depthwise_conv_2d_nhwc_hwc in a module goes through "
             "tensorop-opt)")
      .Cases({"transposed", "transpose", "deconvolution", "deconv", "backward",
              "gradient", "wgrad", "dgrad"},
             "a transposed or backward convolution (gen builds the forward "
             "conv2d)")
      .Cases({"nchw", "fchw", "oihw", "nchwc", "chwn", "column-major"},
             "another layout (gen's convolution reads NHWC input and HWCF "
             "filter and writes NHWC output)")
      .Cases({"clamp", "epilogue", "activation-fused", "fused", "fuse", "add",
              "plus", "batchnorm", "bn", "softmax", "scale", "scaled"},
             "a fused epilogue gen does not build for convolutions (it "
             "fuses bias, relu, relu6, gelu, gelu-tanh, silu, sigmoid, tanh "
             "and residual)")
      .Cases({"1d", "3d", "conv1d", "conv3d", "1-d", "3-d"},
             "a convolution of another rank (gen builds 2-D convolutions)")
      .Cases({"same", "valid", "causal", "reflect", "replicate", "circular"},
             "a padding mode by name (give the zero padding as a number: "
             "pad=1, 'padding 1', or 'no padding')")
      .Cases({"thread", "threads", "threaded", "multi-threaded",
              "multithreaded", "parallel", "cores", "core"},
             "a thread count in the request (use --threads=N)")
      .Cases({"winograd", "fft", "im2col", "direct"},
             "an algorithm (the sketch chooses how the convolution is "
             "computed)")
      .Default("");
}

bool isKernelWord(StringRef w) {
  return llvm::is_contained({"conv", "convolution", "convolutions", "conv2d",
                             "conv_2d", "conv-2d", "kernel", "filter",
                             "window"},
                            w);
}
bool isImageWord(StringRef w) {
  return llvm::is_contained({"input", "image", "images", "feature",
                             "activation", "activations", "map", "spatial",
                             "pixels", "pixel", "tensor"},
                            w);
}
bool isChannelWord(StringRef w) { return w == "channels" || w == "channel"; }

/// "56", "3x3", "1x56x56x64": the numbers, or none if `w` is not a size.
llvm::SmallVector<int64_t> sizeParts(StringRef w) {
  static const llvm::Regex size("^[0-9]+(x[0-9]+)*$");
  llvm::SmallVector<int64_t> parts;
  if (!size.match(w))
    return parts;
  llvm::SmallVector<StringRef> pieces;
  w.split(pieces, 'x');
  for (StringRef p : pieces) {
    int64_t v = 0;
    if (p.getAsInteger(10, v)) // checkNumbers bounded every number already
      return {};
    parts.push_back(v);
  }
  return parts;
}

class ConvWords {
public:
  explicit ConvWords(StringRef lower);
  /// The epilogue words, in order (before the shape words are read).
  llvm::Error readEpilogue(std::vector<std::string> &steps);
  llvm::Error read(llvm::function_ref<bool(StringRef)> isKnownWord);
  llvm::Error finish(Conv2DShape &shape);

private:
  std::vector<std::string> tokens;
  std::vector<bool> used;
  Slot n{"N"}, h{"H"}, w{"W"}, c{"C"}, f{"F"}, r{"R"}, s{"S"};
  Slot strideH{"stride_h"}, strideW{"stride_w"};
  Slot dilationH{"dilation_h"}, dilationW{"dilation_w"};
  Slot padTop{"pad_top"}, padBottom{"pad_bottom"}, padLeft{"pad_left"},
      padRight{"pad_right"};

  StringRef at(size_t i) const {
    return i < tokens.size() ? StringRef(tokens[i]) : StringRef();
  }
  llvm::Error set(Slot &slot, int64_t value, StringRef phrase);
  /// Sets an H x W pair from one number (both) or two (H x W).
  llvm::Error setPair(Slot &first, Slot &second,
                      llvm::ArrayRef<int64_t> parts, StringRef phrase);
  llvm::Error setPadding(llvm::ArrayRef<int64_t> parts, StringRef phrase);
  llvm::Error readKeyValue(size_t i);
  llvm::Error readSize(size_t i);
  /// The index of the keyword before `i` among `keywords`, skipping the
  /// words in `skip` ("stride of 2", "batch size 8"); -1 if none.
  int keywordBefore(size_t i, llvm::ArrayRef<StringRef> keywords,
                    llvm::ArrayRef<StringRef> skip) const;
};

ConvWords::ConvWords(StringRef lower) {
  // Separators are spaces; "k = v" is one token "k=v", "3 x 3" is "3x3".
  std::string spaced;
  for (char ch : lower)
    spaced.push_back(llvm::isAlnum(ch) || ch == '_' || ch == '-' || ch == '='
                         ? ch
                         : ' ');
  std::string text;
  for (size_t i = 0; i < spaced.size(); ++i) {
    char ch = spaced[i];
    StringRef before = StringRef(text).rtrim();
    if (ch == '=' || (ch == 'x' && !before.empty() &&
                      llvm::isDigit(before.back()) &&
                      i + 1 < spaced.size() && spaced[i + 1] == ' ')) {
      // Glue "k = v" and "3 x 3" (only a lone x between numbers: "fp32
      // x86-avx512" stays two words).
      size_t next = spaced.find_first_not_of(' ', i + 1);
      bool glue = ch == '=' || (next != std::string::npos &&
                                llvm::isDigit(spaced[next]));
      if (glue) {
        text = StringRef(text).rtrim().str();
        text.push_back(ch);
        i = (next == std::string::npos ? spaced.size() : next) - 1;
        continue;
      }
    }
    text.push_back(ch);
  }
  llvm::SmallVector<StringRef> words;
  StringRef(text).split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words)
    tokens.push_back(word.str());
  used.assign(tokens.size(), false);
}

llvm::Error ConvWords::set(Slot &slot, int64_t value, StringRef phrase) {
  if (slot.value && *slot.value != value)
    return refuse(llvm::formatv("the request gives {0} twice: {1} ('{2}') "
                                "and {3} ('{4}')",
                                slot.name, *slot.value, slot.phrase, value,
                                phrase));
  slot.value = value;
  slot.phrase = phrase.str();
  return llvm::Error::success();
}

llvm::Error ConvWords::setPair(Slot &first, Slot &second,
                               llvm::ArrayRef<int64_t> parts,
                               StringRef phrase) {
  if (parts.size() != 1 && parts.size() != 2)
    return refuse("'" + phrase + "' gives " + std::to_string(parts.size()) +
                  " numbers; give one (both directions) or two (HxW)");
  if (llvm::Error e = set(first, parts[0], phrase))
    return e;
  return set(second, parts.back(), phrase);
}

llvm::Error ConvWords::setPadding(llvm::ArrayRef<int64_t> parts,
                                  StringRef phrase) {
  if (parts.size() != 1 && parts.size() != 2)
    return refuse("'" + phrase + "' gives " + std::to_string(parts.size()) +
                  " numbers; give one (all sides), two (HxW: top and bottom "
                  "x left and right) or pad_top= pad_bottom= pad_left= "
                  "pad_right=");
  for (Slot *slot : {&padTop, &padBottom})
    if (llvm::Error e = set(*slot, parts[0], phrase))
      return e;
  for (Slot *slot : {&padLeft, &padRight})
    if (llvm::Error e = set(*slot, parts.back(), phrase))
      return e;
  return llvm::Error::success();
}

llvm::Error ConvWords::readKeyValue(size_t i) {
  StringRef token = tokens[i];
  StringRef key = token.split('=').first, value = token.split('=').second;
  llvm::SmallVector<int64_t> parts = sizeParts(value);
  if (parts.empty())
    return refuse("'" + token + "': the value of " + key +
                  "= must be a number (or HxW for stride, dilation and pad)");
  used[i] = true;
  auto single = [&](Slot &slot) -> llvm::Error {
    if (parts.size() != 1)
      return refuse("'" + token + "': " + key + "= takes one number");
    return set(slot, parts[0], token);
  };
  Slot *one = llvm::StringSwitch<Slot *>(key)
                  .Cases({"n", "batch"}, &n)
                  .Case("h", &h)
                  .Case("w", &w)
                  .Case("c", &c)
                  .Case("f", &f)
                  .Case("r", &r)
                  .Case("s", &s)
                  .Case("stride_h", &strideH)
                  .Case("stride_w", &strideW)
                  .Case("dilation_h", &dilationH)
                  .Case("dilation_w", &dilationW)
                  .Case("pad_top", &padTop)
                  .Case("pad_bottom", &padBottom)
                  .Case("pad_left", &padLeft)
                  .Case("pad_right", &padRight)
                  .Default(nullptr);
  if (one)
    return single(*one);
  if (key == "stride" || key == "strides")
    return setPair(strideH, strideW, parts, token);
  if (key == "dilation" || key == "dilations")
    return setPair(dilationH, dilationW, parts, token);
  if (key == "pad" || key == "padding")
    return setPadding(parts, token);
  if (key == "pad_h" || key == "pad_w") {
    if (parts.size() != 1)
      return refuse("'" + token + "': " + key + "= takes one number");
    Slot &a = key == "pad_h" ? padTop : padLeft;
    Slot &b = key == "pad_h" ? padBottom : padRight;
    if (llvm::Error e = set(a, parts[0], token))
      return e;
    return set(b, parts[0], token);
  }
  return refuse("the request word '" + token + "' is not understood: a "
                "convolution's names are N H W C F R S (input N x H x W x C, "
                "F filters of R x S x C), stride, dilation, pad, stride_h, "
                "stride_w, dilation_h, dilation_w, pad_h, pad_w, pad_top, "
                "pad_bottom, pad_left, pad_right; nothing was generated");
}

int ConvWords::keywordBefore(size_t i, llvm::ArrayRef<StringRef> keywords,
                             llvm::ArrayRef<StringRef> skip) const {
  int j = int(i) - 1;
  while (j >= 0 && llvm::is_contained(skip, at(j)))
    --j;
  return j >= 0 && llvm::is_contained(keywords, at(j)) ? j : -1;
}

llvm::Error ConvWords::readSize(size_t i) {
  llvm::SmallVector<int64_t> parts = sizeParts(tokens[i]);
  StringRef token = tokens[i], prev = i ? at(i - 1) : StringRef(),
            next = at(i + 1), next2 = at(i + 2);
  used[i] = true;
  auto phrase = [&](int from, size_t to) {
    std::string text;
    for (size_t j = size_t(from); j <= to; ++j)
      text += (text.empty() ? "" : " ") + tokens[j];
    return text;
  };
  auto keyword = [&](llvm::ArrayRef<StringRef> words,
                     llvm::ArrayRef<StringRef> skip) {
    int j = keywordBefore(i, words, skip);
    if (j >= 0)
      for (size_t k = size_t(j); k < i; ++k)
        used[k] = true;
    return j;
  };
  if (int j = keyword({"stride", "strides"}, {"of"}); j >= 0)
    return setPair(strideH, strideW, parts, phrase(j, i));
  if (int j = keyword({"dilation", "dilations", "dilated"}, {"of", "by",
                                                             "rate"});
      j >= 0)
    return setPair(dilationH, dilationW, parts, phrase(j, i));
  if (int j = keyword({"pad", "padding", "padded"}, {"of", "by"}); j >= 0)
    return setPadding(parts, phrase(j, i));
  if (int j = keyword({"batch"}, {"of", "size"}); j >= 0) {
    if (parts.size() != 1)
      return refuse("'" + phrase(j, i) + "': the batch is one number");
    return set(n, parts[0], phrase(j, i));
  }
  if (parts.size() == 1) {
    // "64 to 128 channels", "from 256 to 64 channels".
    if (next == "to" && sizeParts(next2).size() == 1 &&
        isChannelWord(at(i + 3))) {
      int from = prev == "from" ? int(i) - 1 : int(i);
      for (size_t k = size_t(from); k <= i + 3; ++k)
        used[k] = true;
      std::string text = phrase(from, i + 3);
      if (llvm::Error e = set(c, parts[0], text))
        return e;
      return set(f, sizeParts(next2)[0], text);
    }
    // "64 input channels", "128 output channels", "128 filters".
    bool inputs = (next == "input" || next == "in") && isChannelWord(next2);
    bool outputs = (next == "output" || next == "out") && isChannelWord(next2);
    if (inputs || outputs) {
      used[i + 1] = used[i + 2] = true;
      return set(inputs ? c : f, parts[0], phrase(i, i + 2));
    }
    if (next == "filters") {
      used[i + 1] = true;
      return set(f, parts[0], phrase(i, i + 1));
    }
    if (isChannelWord(next))
      return refuse("'" + phrase(i, i + 1) + "' does not say which channels: "
                    "write '" + token + " to F channels', '" + token +
                    " input channels' or C=" + token);
    return refuse("the number '" + token + "' is not understood: a "
                  "convolution request gives it a name (C=64, 'stride 2', "
                  "'batch 8', '64 to 128 channels'); nothing was generated");
  }
  // Sizes: "3x3 convolution" / "kernel 3x3" are R x S (x C x F),
  // "28x28 input" / "a 14x14 image" are H x W (x C), "1x56x56x64 input"
  // is N x H x W x C.
  // A word before the size binds to it unless that word already follows
  // another size ("kernel 3x3 input 28x28", but "3x3 kernel 28x28 input");
  // otherwise the word after it decides ("on a 14x14 image").
  enum class Kind { None, Kernel, Image };
  auto kindOf = [](StringRef word) {
    return isKernelWord(word)  ? Kind::Kernel
           : isImageWord(word) ? Kind::Image
                               : Kind::None;
  };
  Kind before = kindOf(prev), after = kindOf(next);
  bool prevBound = i >= 2 && !sizeParts(at(i - 2)).empty();
  Kind kind = before != Kind::None && !prevBound ? before : after;
  bool kernel = kind == Kind::Kernel, image = kind == Kind::Image;
  if (kernel) {
    Slot *order[] = {&r, &s, &c, &f};
    if (parts.size() > 4)
      return refuse("the kernel size '" + token + "' has " +
                    std::to_string(parts.size()) +
                    " numbers; give RxS, RxSxC or RxSxCxF");
    for (size_t k = 0; k < parts.size(); ++k)
      if (llvm::Error e = set(*order[k], parts[k], (token + " kernel").str()))
        return e;
    return llvm::Error::success();
  }
  if (image) {
    Slot *hwc[] = {&h, &w, &c}, *nhwc[] = {&n, &h, &w, &c};
    llvm::ArrayRef<Slot *> order = parts.size() == 4
                                       ? llvm::ArrayRef<Slot *>(nhwc)
                                       : llvm::ArrayRef<Slot *>(hwc);
    if (parts.size() < 2 || parts.size() > 4)
      return refuse("the input size '" + token + "' has " +
                    std::to_string(parts.size()) +
                    " numbers; give HxW, HxWxC or NxHxWxC");
    for (size_t k = 0; k < parts.size(); ++k)
      if (llvm::Error e = set(*order[k], parts[k], (token + " input").str()))
        return e;
    return llvm::Error::success();
  }
  if (parts.size() > 4)
    return refuse("the size '" + token + "' has too many numbers");
  return refuse("the size '" + token + "' is not understood: say whether it "
                "is the kernel ('" + token + " convolution', 'kernel " + token +
                "') or the input ('" + token + " input', 'a " + token +
                " image'); nothing was generated");
}

llvm::Error ConvWords::readEpilogue(std::vector<std::string> &steps) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef token = tokens[i];
    // A convolution's bias is per output channel; one per output row (as a
    // GEMM's "row bias") has no meaning here.
    if (((token == "row" || token == "per-row") && at(i + 1) == "bias") ||
        (token == "bias" && at(i + 1) == "per" && at(i + 2) == "row"))
      return refuse("the request asks for a bias per row, which a "
                    "convolution does not have (its bias is per output "
                    "channel: 'with bias'); nothing was generated");
    StringRef step = epilogueStepOfWord(token);
    if (step.empty())
      continue;
    used[i] = true;
    steps.push_back(step.str());
  }
  return llvm::Error::success();
}

llvm::Error ConvWords::read(llvm::function_ref<bool(StringRef)> isKnownWord) {
  // Modifiers first: "with bias" names the bias, not "with".
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (used[i])
      continue;
    const std::string &token = tokens[i];
    std::string what = unsupportedModifier(token);
    if (!what.empty())
      return refuse("the request word '" + token + "' asks for " + what +
                    ", which tensorop gen does not support yet; nothing was "
                    "generated");
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (used[i])
      continue;
    StringRef token = tokens[i];
    if (token.contains('=')) {
      if (llvm::Error e = readKeyValue(i))
        return e;
    } else if (!sizeParts(token).empty()) {
      if (llvm::Error e = readSize(i))
        return e;
    } else if ((token == "no" || token == "without") &&
               (at(i + 1) == "padding" || at(i + 1) == "pad")) {
      used[i] = used[i + 1] = true;
      if (llvm::Error e = setPadding({0}, (token + " " + at(i + 1)).str()))
        return e;
    } else if (token == "unpadded") {
      used[i] = true;
      if (llvm::Error e = setPadding({0}, token))
        return e;
    }
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef token = tokens[i];
    if (used[i] || isKnownWord(token) || isFillerWord(token))
      continue;
    if (llvm::is_contained({"stride", "strides", "pad", "padding", "padded",
                            "dilation", "dilations", "dilated", "batch"},
                           token))
      return refuse("'" + token + "' is not followed by its value (e.g. '" +
                    token + " 2' or " + token + "=2)");
    return refuse("the request word '" + token + "' is not understood (a "
                  "convolution request names the kernel, channels, input "
                  "size, batch, stride, padding and dilation, e.g. 'conv2d "
                  "N=1 H=56 W=56 C=64 F=64 R=3 S=3 stride=1 pad=1 fp32'); "
                  "nothing was generated");
  }
  return llvm::Error::success();
}

llvm::Error ConvWords::finish(Conv2DShape &shape) {
  std::string missing;
  auto need = [&](bool given, const std::string &what) {
    if (!given)
      missing += (missing.empty() ? "" : ", ") + what;
  };
  need(h.value.has_value() && w.value.has_value(), "the input size (e.g. '28x28 input' or H=28 W=28)");
  need(c.value.has_value(), "the input channels (e.g. '64 to 128 channels' or C=64)");
  need(f.value.has_value(), "the output channels (e.g. '64 to 128 channels' or F=128)");
  need(r.value.has_value() && s.value.has_value(), "the kernel size (e.g. '3x3 convolution' or R=3 "
                           "S=3)");
  if (!missing.empty())
    return refuse("the convolution is incomplete; missing: " + missing);
  shape.n = n.value.value_or(1);
  shape.h = *h.value;
  shape.w = *w.value;
  shape.c = *c.value;
  shape.f = *f.value;
  shape.r = *r.value;
  shape.s = *s.value;
  shape.strideH = strideH.value.value_or(1);
  shape.strideW = strideW.value.value_or(1);
  shape.dilationH = dilationH.value.value_or(1);
  shape.dilationW = dilationW.value.value_or(1);
  shape.padTop = padTop.value.value_or(0);
  shape.padBottom = padBottom.value.value_or(0);
  shape.padLeft = padLeft.value.value_or(0);
  shape.padRight = padRight.value.value_or(0);

  for (auto [name, value] :
       {std::pair<const char *, int64_t>{"N (batch)", shape.n},
        {"H", shape.h}, {"W", shape.w}, {"C", shape.c}, {"F", shape.f},
        {"R", shape.r}, {"S", shape.s}, {"stride_h", shape.strideH},
        {"stride_w", shape.strideW}, {"dilation_h", shape.dilationH},
        {"dilation_w", shape.dilationW}})
    if (value < 1)
      return refuse(llvm::formatv("{0} = {1}: every dimension, stride and "
                                  "dilation of a convolution is at least 1",
                                  name, value));
  // Padding as wide as the dilated kernel gives output rows that read
  // nothing but padding: almost surely a mistake in the request.
  for (auto [name, pad, extent, dim] :
       {std::tuple<const char *, int64_t, int64_t, const char *>{
            "top", shape.padTop, shape.extentH(), "R"},
        {"bottom", shape.padBottom, shape.extentH(), "R"},
        {"left", shape.padLeft, shape.extentW(), "S"},
        {"right", shape.padRight, shape.extentW(), "S"}})
    if (pad >= extent)
      return refuse(llvm::formatv(
          "padding {0} on the {1} is not smaller than the kernel's extent "
          "{2} ({3}={4}, dilation {5}): output {6} would read padding only",
          pad, name, extent, dim, dim[0] == 'R' ? shape.r : shape.s,
          dim[0] == 'R' ? shape.dilationH : shape.dilationW,
          dim[0] == 'R' ? "rows" : "columns"));
  if (shape.h + shape.padTop + shape.padBottom < shape.extentH() ||
      shape.w + shape.padLeft + shape.padRight < shape.extentW()) {
    bool padded =
        shape.padTop || shape.padBottom || shape.padLeft || shape.padRight;
    std::string input =
        padded ? llvm::formatv("the {0}x{1} input is {2}x{3} with padding",
                               shape.h, shape.w,
                               shape.h + shape.padTop + shape.padBottom,
                               shape.w + shape.padLeft + shape.padRight)
                     .str()
               : llvm::formatv("the input is {0}x{1}, without padding",
                               shape.h, shape.w)
                     .str();
    return refuse(llvm::formatv(
        "the kernel does not fit the input: the {0}x{1} kernel spans {2}x{3} "
        "with dilation {4}x{5}, {6}; the output would be empty",
        shape.r, shape.s, shape.extentH(), shape.extentW(), shape.dilationH,
        shape.dilationW, input));
  }
  // Element counts must stay far from int64 overflow (each extent is at
  // most 2^31 - 1); the memory limit refuses most of these later anyway.
  constexpr double kMaxElements = 1ull << 50;
  for (auto [name, count] :
       {std::pair<const char *, double>{
            "input", double(shape.n) * shape.h * shape.w * shape.c},
        {"filter", double(shape.r) * shape.s * shape.c * shape.f},
        {"output",
         double(shape.n) * shape.outH() * shape.outW() * shape.f}})
    if (count > kMaxElements)
      return refuse(llvm::formatv("the {0} would have {1:E2} elements (at "
                                  "most 2^50)",
                                  name, count));
  return llvm::Error::success();
}
} // namespace

llvm::Error
mlir::tensorop::parseConvShape(StringRef lower, Conv2DShape &shape,
                               llvm::function_ref<bool(StringRef)> isKnownWord,
                               std::vector<std::string> &epilogue) {
  ConvWords words(lower);
  if (llvm::Error e = words.readEpilogue(epilogue))
    return e;
  if (llvm::Error e = words.read(isKnownWord))
    return e;
  return words.finish(shape);
}
