//===- RequestFuzzer.cpp - Fuzz the one-line request parser --------------===//
//
// `tensorop gen "<request>"`: any text either becomes a request with three
// extents in [1, INT32_MAX], one known element type and one target, or an
// error; never a crash, a hang, or a request with a part it did not read.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/Advisor/Request.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <limits>

using namespace mlir::tensorop;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<OpRequest> r = parseRequest(text);
  if (!r) {
    std::string why = llvm::toString(r.takeError());
    FUZZ_CHECK(!why.empty(), "an error must say what is wrong");
    return 0;
  }
  constexpr int64_t max = std::numeric_limits<int32_t>::max();
  FUZZ_CHECK(r->op == "gemm" || r->op == "conv2d",
             "an accepted request is a GEMM or a convolution");
  if (r->op == "gemm") {
    for (int64_t extent : {r->m, r->n, r->k})
      FUZZ_CHECK(extent >= 1 && extent <= max, "extent out of range");
    FUZZ_CHECK(r->batchCount >= 0 && r->batchCount <= max &&
                   (r->batched || r->batchCount == 0),
               "a batch count belongs to a batched request");
  } else {
    const ::tensorop::Conv2DShape &c = r->conv;
    for (int64_t extent : {c.n, c.h, c.w, c.c, c.f, c.r, c.s, c.strideH,
                           c.strideW, c.dilationH, c.dilationW})
      FUZZ_CHECK(extent >= 1 && extent <= max, "conv extent out of range");
    FUZZ_CHECK(c.outH() >= 1 && c.outW() >= 1,
               "an accepted convolution has an output");
  }
  FUZZ_CHECK(!r->dtype.empty() && !r->target.empty(),
             "element type and target are filled in");
  FUZZ_CHECK(r->text == text, "the request keeps its text");
  std::string name = r->defaultName();
  for (char c : name)
    FUZZ_CHECK(llvm::isAlnum(c) || c == '_', "the default name is a C name");
  (void)r->describe();
  return 0;
}
