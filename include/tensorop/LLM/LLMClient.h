//===- LLMClient.h - OpenAI-compatible chat-completions client --*- C++ -*-===//
//
// One synchronous call: POST <baseUrl>/chat/completions. Works with OpenAI,
// DeepSeek, vLLM, llama.cpp's server and Ollama. The client retries transient
// failures (429, 5xx, connection errors, timeouts) with exponential backoff,
// honouring Retry-After; asks for a JSON object answer where the server
// supports it and falls back where it does not; and caches answers on disk,
// keyed by everything that determines them except the API key.
//
// The API key is a secret: it is sent in the Authorization header and nowhere
// else, never printed, logged, cached or put in an error message.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LLM_LLMCLIENT_H
#define TENSOROP_LLM_LLMCLIENT_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tensorop {

struct LLMConfig {
  /// TENSOROP_LLM_URL, e.g. http://127.0.0.1:8000/v1; the client POSTs to
  /// <baseUrl>/chat/completions.
  std::string baseUrl;
  /// TENSOROP_LLM_MODEL.
  std::string model;
  /// TENSOROP_LLM_API_KEY (optional for local servers). Never printed.
  std::string apiKey;
  /// Per attempt, whole request (TENSOROP_LLM_TIMEOUT).
  unsigned timeoutSeconds = 120;
  /// Attempts in all, on 429, 5xx, connection errors and timeouts
  /// (TENSOROP_LLM_MAX_ATTEMPTS).
  unsigned maxAttempts = 4;
  /// Wait before the second attempt, doubled for each one after
  /// (TENSOROP_LLM_BACKOFF).
  double initialBackoffSeconds = 1.0;
  /// Cap on any single wait, including a server's Retry-After.
  double maxBackoffSeconds = 60.0;
  /// "" = $TENSOROP_CACHE_DIR/llm, else $XDG_CACHE_HOME/tensorop/llm, else
  /// ~/.cache/tensorop/llm; "none" disables (TENSOROP_LLM_CACHE_DIR).
  std::string cacheDir;

  /// Reads the environment; an error naming the variable if
  /// TENSOROP_LLM_URL or TENSOROP_LLM_MODEL is unset, or if a numeric
  /// variable does not parse.
  static llvm::Expected<LLMConfig> fromEnvironment();
};

struct ChatMessage {
  std::string role, content;
};

struct ChatRequest {
  std::vector<ChatMessage> messages;
  double temperature = 0;
  /// Ask for a JSON object (response_format json_object) where supported.
  bool jsonAnswer = true;
  unsigned maxTokens = 4096;
};

struct ChatResponse {
  std::string content;
  /// From the answer's `usage`; 0 if the server sent none.
  int64_t promptTokens = 0, completionTokens = 0;
  bool fromCache = false;
  /// HTTP requests this answer took (0 when it came from the cache).
  unsigned attempts = 0;
  /// The model the server says answered.
  std::string model;
};

class LLMClient {
public:
  explicit LLMClient(LLMConfig config);

  /// Sends the request (or answers it from the cache). Errors say what the
  /// server said (HTTP status, its message, truncated) and how many attempts
  /// were made.
  llvm::Expected<ChatResponse> chat(const ChatRequest &request);

  /// The cache key of `request`: SHA-256 (hex) of the base URL, model,
  /// messages, temperature, JSON mode and token limit.
  std::string cacheKey(const ChatRequest &request) const;

  /// The cache directory in use; empty when caching is off.
  const std::string &getCacheDir() const { return cacheDir; }

private:
  LLMConfig config;
  std::string cacheDir;
};

/// Reads a chat-completions answer (HTTP 200 body): choices[0].message.content,
/// the usage counts and the answering model (`requestedModel` if the answer
/// names none). A body that is not such an answer is an error quoting it
/// (one line, control characters escaped). The server is untrusted: any bytes
/// give a value or an error (fuzz/LlmReplyFuzzer.cpp).
llvm::Expected<ChatResponse> parseChatCompletion(llvm::StringRef body,
                                                 llvm::StringRef requestedModel);

/// The message of an error answer ({"error": {"message": ...}}, {"error":
/// "..."}, {"message"|"detail": ...} or the raw body) as one line fit for a
/// terminal: at most a few hundred bytes, control characters escaped.
std::string describeServerError(llvm::StringRef body);

} // namespace mlir::tensorop

#endif // TENSOROP_LLM_LLMCLIENT_H
