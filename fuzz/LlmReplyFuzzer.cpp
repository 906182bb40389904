//===- LlmReplyFuzzer.cpp - Fuzz the reading of a server's answer --------===//
//
// An OpenAI-compatible server is untrusted: whatever bytes it sends as a
// chat-completions answer or an error body must become a value or an error,
// and what reaches the user's terminal (the error text, the quoted server
// message) must carry no control character: no escape sequence of the
// server's may take effect.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/LLM/LLMClient.h"

#include <cstdint>

using namespace mlir::tensorop;

/// True if `text` is safe to print: no C0 control (newline excepted), no
/// DEL, no C1 control in its UTF-8 form (U+0080..U+009F: U+009B is a
/// one-character CSI).
static bool printable(llvm::StringRef text) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = text[i];
    if ((c < 0x20 && c != '\n') || c == 0x7f)
      return false;
    if (c == 0xc2 && i + 1 < text.size() &&
        (unsigned char)text[i + 1] >= 0x80 &&
        (unsigned char)text[i + 1] <= 0x9f)
      return false;
  }
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef body(reinterpret_cast<const char *>(data), size);
  llvm::Expected<ChatResponse> r = parseChatCompletion(body, "requested");
  if (!r) {
    std::string why = llvm::toString(r.takeError());
    FUZZ_CHECK(!why.empty(), "a rejection says why");
    FUZZ_CHECK(printable(why), "a rejection is safe to print");
    FUZZ_CHECK(why.size() < 1024, "a rejection quotes at most one line");
  }
  std::string message = describeServerError(body);
  FUZZ_CHECK(printable(message), "a server's error message is safe to print");
  FUZZ_CHECK(message.find('\n') == std::string::npos,
             "a server's error message is one line");
  return 0;
}
