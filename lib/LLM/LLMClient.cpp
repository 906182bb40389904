//===- LLMClient.cpp - OpenAI-compatible chat-completions client ----------===//
//
// libcurl for HTTP, llvm::json for the documents. A server's answer is
// hostile input: it is parsed only after a depth check (llvm::json's parser
// recurses), and every field is read with its type checked.
//
//===----------------------------------------------------------------------===//

#include "tensorop/LLM/LLMClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace mlir::tensorop;

/// Bumped when the cache entry's layout or key changes.
static constexpr StringLiteral kCacheFormat = "tensorop-llm-cache/1";
/// Longest server answer accepted; past it the transfer is aborted.
static constexpr size_t kMaxResponseBytes = 32u << 20;
/// How much of a server's error message goes into our error.
static constexpr size_t kMaxQuotedBytes = 300;
/// Deepest nesting of arrays and objects accepted in a server's answer; an
/// answer of the API nests five deep. llvm::json's parser recurses once per
/// level, so a hostile answer of millions of '[' must not reach it.
static constexpr unsigned kMaxJsonDepth = 64;

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

static std::optional<std::string> env(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

Expected<LLMConfig> LLMConfig::fromEnvironment() {
  LLMConfig config;
  std::optional<std::string> url = env("TENSOROP_LLM_URL");
  if (!url)
    return createStringError(
        "TENSOROP_LLM_URL is not set: set it to the base URL of an "
        "OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1");
  std::optional<std::string> model = env("TENSOROP_LLM_MODEL");
  if (!model)
    return createStringError(
        "TENSOROP_LLM_MODEL is not set: set it to the model name the "
        "server at TENSOROP_LLM_URL serves");
  config.baseUrl = *url;
  config.model = *model;
  if (std::optional<std::string> key = env("TENSOROP_LLM_API_KEY"))
    config.apiKey = *key;
  if (std::optional<std::string> dir = env("TENSOROP_LLM_CACHE_DIR"))
    config.cacheDir = *dir;

  auto positive = [](const char *name, unsigned &out) -> Error {
    std::optional<std::string> text = env(name);
    if (!text)
      return Error::success();
    unsigned value;
    if (StringRef(*text).trim().getAsInteger(10, value) || value == 0)
      return createStringError(Twine(name) + "='" + *text +
                               "' is not a positive whole number");
    out = value;
    return Error::success();
  };
  if (Error e = positive("TENSOROP_LLM_TIMEOUT", config.timeoutSeconds))
    return std::move(e);
  if (Error e = positive("TENSOROP_LLM_MAX_ATTEMPTS", config.maxAttempts))
    return std::move(e);
  if (std::optional<std::string> text = env("TENSOROP_LLM_BACKOFF")) {
    double value;
    if (StringRef(*text).trim().getAsDouble(value) || !(value >= 0) ||
        value > 3600)
      return createStringError("TENSOROP_LLM_BACKOFF='" + *text +
                               "' is not a number of seconds (0 to 3600)");
    config.initialBackoffSeconds = value;
  }
  return config;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string defaultCacheDir() {
  if (std::optional<std::string> dir = env("TENSOROP_CACHE_DIR"))
    return *dir + "/llm";
  if (std::optional<std::string> xdg = env("XDG_CACHE_HOME"))
    return *xdg + "/tensorop/llm";
  if (std::optional<std::string> home = env("HOME"))
    return *home + "/.cache/tensorop/llm";
  return "";
}

static std::string endpoint(StringRef baseUrl) {
  StringRef base = baseUrl.trim().rtrim('/');
  if (base.ends_with("/chat/completions"))
    return base.str();
  return (base + "/chat/completions").str();
}

/// Removes every copy of the key from text that may be shown or stored.
static std::string redact(std::string text, StringRef key) {
  if (key.size() < 4)
    return text;
  size_t at;
  while ((at = text.find(key.data(), 0, key.size())) != std::string::npos)
    text.replace(at, key.size(), "<redacted>");
  return text;
}

/// One line, at most kMaxQuotedBytes, for quoting a server in an error.
/// What a server sends reaches a terminal: control characters (C0, DEL,
/// and C1 encoded in UTF-8, e.g. U+009B, a one-character CSI) are shown
/// escaped, so no escape sequence of the server's takes effect.
static std::string quote(StringRef text) {
  std::string line;
  StringRef t = text.trim();
  size_t i = 0;
  for (; i < t.size() && line.size() < kMaxQuotedBytes; ++i) {
    unsigned char c = t[i];
    if (c == '\n' || c == '\r' || c == '\t') {
      line += ' ';
    } else if (c < 0x20 || c == 0x7f) {
      line += "\\x" + llvm::utohexstr(c, /*LowerCase=*/true, /*Width=*/2);
    } else if (c == 0xc2 && i + 1 < t.size() &&
               (unsigned char)t[i + 1] >= 0x80 &&
               (unsigned char)t[i + 1] <= 0x9f) {
      line += "\\u00" + llvm::utohexstr((unsigned char)t[i + 1],
                                         /*LowerCase=*/true, /*Width=*/2);
      ++i;
    } else if (c >= 0x80 && c <= 0x9f && (i == 0 || (unsigned char)t[i - 1] < 0x80)) {
      // A raw 8-bit C1 byte, not the continuation of a UTF-8 sequence.
      line += "\\x" + llvm::utohexstr(c, /*LowerCase=*/true, /*Width=*/2);
    } else {
      line += char(c);
    }
  }
  if (i < t.size())
    line += "...";
  return line;
}

/// Whether `text` nests arrays and objects at most kMaxJsonDepth deep
/// (brackets inside strings do not count).
static bool withinJsonDepth(StringRef text) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

/// The JSON document `text` holds, or nullopt (not JSON, or nested deeper
/// than kMaxJsonDepth).
static std::optional<json::Value> parseAnswer(StringRef text) {
  if (!withinJsonDepth(text))
    return std::nullopt;
  Expected<json::Value> doc = json::parse(text);
  if (!doc) {
    consumeError(doc.takeError());
    return std::nullopt;
  }
  return std::move(*doc);
}

/// A string as a JSON value: invalid UTF-8 (a message's content is the
/// caller's text) is replaced, as the JSON text must be UTF-8.
static json::Value jsonString(StringRef text) {
  return json::isUTF8(text) ? json::Value(text.str())
                            : json::Value(json::fixUTF8(text));
}

/// The message in an error answer: OpenAI's {"error": {"message": ...}},
/// the {"error": "..."} of some servers, {"message"|"detail": ...}, or the
/// raw text.
static std::string serverMessage(StringRef body) {
  std::optional<json::Value> doc = parseAnswer(body);
  if (const json::Object *o = doc ? doc->getAsObject() : nullptr) {
    if (const json::Value *error = o->get("error")) {
      if (std::optional<StringRef> text = error->getAsString())
        return text->str();
      if (const json::Object *e = error->getAsObject())
        if (std::optional<StringRef> msg = e->getString("message"))
          return msg->str();
    }
    for (StringRef field : {"message", "detail"})
      if (std::optional<StringRef> msg = o->getString(field))
        return msg->str();
  }
  return body.str();
}

static bool mentionsResponseFormat(StringRef body) {
  return body.contains_insensitive("response_format") ||
         body.contains_insensitive("response format") ||
         body.contains_insensitive("json_object");
}

/// Servers known (in this process) to reject response_format.
static std::mutex noFormatMutex;
static StringSet<> &noFormatServers() {
  static StringSet<> servers;
  return servers;
}

static void curlInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

static size_t appendBody(char *data, size_t size, size_t count, void *user) {
  auto *body = static_cast<std::string *>(user);
  size_t n = size * count;
  if (body->size() + n > kMaxResponseBytes)
    return 0; // Aborts the transfer with CURLE_WRITE_ERROR.
  body->append(data, n);
  return n;
}

namespace {
/// What one HTTP exchange gave.
struct Exchange {
  CURLcode curl = CURLE_OK;
  std::string curlError;
  long status = 0;
  std::string body;
  double retryAfter = -1;
};
} // namespace

static Exchange post(const std::string &url, const std::string &body,
                     const std::string &apiKey, unsigned timeoutSeconds) {
  Exchange x;
  curlInitOnce();
  CURL *curl = curl_easy_init();
  if (!curl) {
    x.curl = CURLE_FAILED_INIT;
    x.curlError = "curl_easy_init failed";
    return x;
  }
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  struct curl_slist *headers = nullptr;
  headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  if (!apiKey.empty()) {
    std::string auth = "Authorization: Bearer " + apiKey;
    headers = curl_slist_append(headers, auth.c_str());
    std::fill(auth.begin(), auth.end(), '\0');
  }
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &x.body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, static_cast<long>(timeoutSeconds));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT,
                   static_cast<long>(std::min(timeoutSeconds, 30u)));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // Safe with threads.
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "tensorop/" TENSOROP_VERSION);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  // A redirect could carry the request (and the key) elsewhere.
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);

  x.curl = curl_easy_perform(curl);
  if (x.curl != CURLE_OK) {
    x.curlError = errorBuffer[0] ? errorBuffer : curl_easy_strerror(x.curl);
  } else {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &x.status);
    curl_off_t retryAfter = 0;
    if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &retryAfter) ==
            CURLE_OK &&
        retryAfter > 0)
      x.retryAfter = static_cast<double>(retryAfter);
  }
  // Wipe curl's copy of the Authorization header before freeing it.
  for (curl_slist *h = headers; h; h = h->next)
    if (h->data)
      std::memset(h->data, 0, std::strlen(h->data));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return x;
}

static bool transientCurlError(CURLcode code) {
  switch (code) {
  case CURLE_COULDNT_RESOLVE_PROXY:
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_CONNECT:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_GOT_NOTHING:
  case CURLE_PARTIAL_FILE:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
  case CURLE_SSL_CONNECT_ERROR:
    return true;
  default:
    return false;
  }
}

Expected<ChatResponse>
mlir::tensorop::parseChatCompletion(StringRef body, StringRef requestedModel) {
  std::optional<json::Value> doc = parseAnswer(body);
  const json::Object *o = doc ? doc->getAsObject() : nullptr;
  const json::Array *choices = o ? o->getArray("choices") : nullptr;
  const json::Object *first =
      choices && !choices->empty() ? choices->front().getAsObject() : nullptr;
  const json::Object *message = first ? first->getObject("message") : nullptr;
  std::optional<StringRef> content =
      message ? message->getString("content") : std::nullopt;
  if (!doc)
    return createStringError("the answer is not JSON: " + quote(body));
  if (!o)
    return createStringError("the answer is not a JSON object: " +
                             quote(body));
  if (!content)
    return createStringError(
        "the answer has no choices[0].message.content string: " + quote(body));
  ChatResponse r;
  r.content = content->str();
  // Optional fields of the wrong type are ignored.
  if (const json::Object *usage = o->getObject("usage")) {
    r.promptTokens = usage->getInteger("prompt_tokens").value_or(0);
    r.completionTokens = usage->getInteger("completion_tokens").value_or(0);
  }
  r.model = o->getString("model").value_or(requestedModel).str();
  return r;
}

std::string mlir::tensorop::describeServerError(StringRef body) {
  return quote(serverMessage(body));
}

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

static std::optional<ChatResponse> readCache(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  std::optional<json::Value> doc = parseAnswer((*buffer)->getBuffer());
  const json::Object *o = doc ? doc->getAsObject() : nullptr;
  // A corrupt entry is ignored and later rewritten.
  if (!o || o->getString("format") != kCacheFormat)
    return std::nullopt;
  std::optional<StringRef> content = o->getString("content");
  if (!content)
    return std::nullopt;
  ChatResponse r;
  r.content = content->str();
  r.promptTokens = o->getInteger("prompt_tokens").value_or(0);
  r.completionTokens = o->getInteger("completion_tokens").value_or(0);
  r.model = o->getString("model").value_or("").str();
  r.fromCache = true;
  return r;
}

/// Best effort: a cache that cannot be written costs a later request, not
/// this answer.
static void writeCache(StringRef path, const ChatResponse &r) {
  json::Object doc{{"format", kCacheFormat},
                   {"content", jsonString(r.content)},
                   {"prompt_tokens", r.promptTokens},
                   {"completion_tokens", r.completionTokens},
                   {"model", jsonString(r.model)}};
  std::string text =
      formatv("{0:1}", json::Value(std::move(doc))).str() + "\n";
  if (sys::fs::create_directories(sys::path::parent_path(path)))
    return;
  // Write-then-rename so a reader never sees half an entry.
  SmallString<256> tmp;
  int fd;
  if (sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, tmp))
    return;
  bool ok;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    ok = !os.has_error();
    os.clear_error();
  }
  if (!ok || sys::fs::rename(tmp, path))
    sys::fs::remove(tmp);
}

//===----------------------------------------------------------------------===//
// The client
//===----------------------------------------------------------------------===//

LLMClient::LLMClient(LLMConfig config) : config(std::move(config)) {
  if (this->config.cacheDir == "none")
    cacheDir.clear();
  else if (!this->config.cacheDir.empty())
    cacheDir = this->config.cacheDir;
  else
    cacheDir = defaultCacheDir();
  if (this->config.maxAttempts == 0)
    this->config.maxAttempts = 1;
  if (this->config.timeoutSeconds == 0)
    this->config.timeoutSeconds = 1;
}

std::string LLMClient::cacheKey(const ChatRequest &request) const {
  // A canonical text of everything that determines the answer, the API key
  // excluded: the same question through two keys is the same question.
  std::string text;
  raw_string_ostream os(text);
  os << kCacheFormat << '\0' << config.baseUrl << '\0' << config.model << '\0'
     << format("%.17g", request.temperature) << '\0'
     << (request.jsonAnswer ? "json" : "text") << '\0' << request.maxTokens;
  for (const ChatMessage &m : request.messages)
    os << '\0' << m.role.size() << ':' << m.role << '\0' << m.content.size()
       << ':' << m.content;
  return toHex(SHA256::hash(arrayRefFromStringRef(text)), /*LowerCase=*/true);
}

Expected<ChatResponse> LLMClient::chat(const ChatRequest &request) {
  const std::string url = endpoint(config.baseUrl);
  auto fail = [&](const Twine &why, unsigned attempts) -> Error {
    std::string message =
        ("LLM request to " + url + " failed: " + why + " (" + Twine(attempts) +
         (attempts == 1 ? " attempt" : " attempts") + ")")
            .str();
    return createStringError(redact(std::move(message), config.apiKey));
  };
  if (request.messages.empty())
    return createStringError("LLM request has no messages");

  SmallString<256> cachePath;
  if (!cacheDir.empty()) {
    cachePath = cacheDir;
    sys::path::append(cachePath, cacheKey(request) + ".json");
    if (std::optional<ChatResponse> hit = readCache(cachePath))
      return *hit;
  }

  const std::string serverKey = config.baseUrl + '\n' + config.model;
  auto formatRejected = [&] {
    std::lock_guard<std::mutex> lock(noFormatMutex);
    return noFormatServers().contains(serverKey);
  };
  auto buildBody = [&](bool withFormat) {
    json::Array messages;
    for (const ChatMessage &m : request.messages)
      messages.push_back(json::Object{{"role", jsonString(m.role)},
                                      {"content", jsonString(m.content)}});
    json::Object doc{{"model", jsonString(config.model)},
                     {"messages", std::move(messages)},
                     {"temperature", request.temperature},
                     {"max_tokens", request.maxTokens},
                     {"stream", false}};
    if (withFormat)
      doc["response_format"] = json::Object{{"type", "json_object"}};
    std::string out;
    raw_string_ostream(out) << json::Value(std::move(doc));
    return out;
  };

  unsigned attempts = 0, failures = 0;
  bool triedWithoutFormat = false;
  while (true) {
    bool withFormat = request.jsonAnswer && !formatRejected();
    std::string body = buildBody(withFormat);
    ++attempts;
    Exchange x = post(url, body, config.apiKey, config.timeoutSeconds);

    std::string problem;
    bool retry = false;
    if (x.curl != CURLE_OK) {
      problem = x.curl == CURLE_OPERATION_TIMEDOUT
                    ? "timed out after " +
                          std::to_string(config.timeoutSeconds) + " s (" +
                          quote(x.curlError) + ")"
                : x.curl == CURLE_WRITE_ERROR
                    ? "the answer is larger than " +
                          std::to_string(kMaxResponseBytes >> 20) + " MiB"
                    : quote(x.curlError);
      retry = transientCurlError(x.curl);
    } else if (x.status == 200) {
      // A malformed answer is an error, never a crash.
      Expected<ChatResponse> parsed = parseChatCompletion(x.body, config.model);
      if (!parsed)
        return fail(toString(parsed.takeError()), attempts);
      ChatResponse r = std::move(*parsed);
      r.content = redact(std::move(r.content), config.apiKey);
      r.attempts = attempts;
      if (!cachePath.empty())
        writeCache(cachePath, r);
      return r;
    } else {
      std::string message = describeServerError(x.body);
      problem = "HTTP " + std::to_string(x.status) +
                (message.empty() ? "" : ": " + message);
      if (x.status == 400 && withFormat && !triedWithoutFormat &&
          mentionsResponseFormat(x.body)) {
        // The server does not do JSON mode: ask again without it, at once,
        // and remember for later requests to this server and model.
        triedWithoutFormat = true;
        std::lock_guard<std::mutex> lock(noFormatMutex);
        noFormatServers().insert(serverKey);
        continue;
      }
      retry = x.status == 429 || x.status == 408 ||
              (x.status >= 500 && x.status <= 599);
    }

    if (!retry)
      return fail(problem, attempts);
    if (++failures >= config.maxAttempts)
      return fail(problem + "; giving up", attempts);
    double wait =
        config.initialBackoffSeconds * std::pow(2.0, double(failures - 1));
    if (x.retryAfter >= 0)
      wait = x.retryAfter;
    wait = std::clamp(wait, 0.0, config.maxBackoffSeconds);
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  }
}
