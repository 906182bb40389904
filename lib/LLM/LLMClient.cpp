//===- LLMClient.cpp - OpenAI-compatible chat-completions client ----------===//
//
// libcurl for HTTP, nlohmann::json for the documents. LLVM is built without
// exceptions; this file is compiled with -fexceptions and every nlohmann call
// sits inside a try block, so no exception leaves the library.
//
//===----------------------------------------------------------------------===//

#include "tensorop/LLM/LLMClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace mlir::tensorop;
using Json = nlohmann::json;

/// Bumped when the cache entry's layout or key changes.
static constexpr StringLiteral kCacheFormat = "tensorop-llm-cache/1";
/// Longest server answer accepted; past it the transfer is aborted.
static constexpr size_t kMaxResponseBytes = 32u << 20;
/// How much of a server's error message goes into our error.
static constexpr size_t kMaxQuotedBytes = 300;

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

/// The message in an error answer: OpenAI's {"error": {"message": ...}},
/// the {"error": "..."} of some servers, {"message"|"detail": ...}, or the
/// raw text.
static std::string serverMessage(StringRef body) {
  try {
    Json doc = Json::parse(body.begin(), body.end(), nullptr,
                           /*allow_exceptions=*/false);
    if (!doc.is_discarded() && doc.is_object()) {
      auto it = doc.find("error");
      if (it != doc.end()) {
        if (it->is_string())
          return it->get<std::string>();
        if (it->is_object()) {
          auto msg = it->find("message");
          if (msg != it->end() && msg->is_string())
            return msg->get<std::string>();
        }
      }
      for (const char *field : {"message", "detail"}) {
        auto msg = doc.find(field);
        if (msg != doc.end() && msg->is_string())
          return msg->get<std::string>();
      }
    }
  } catch (const std::exception &) {
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

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

static std::optional<ChatResponse> readCache(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  try {
    StringRef text = (*buffer)->getBuffer();
    Json doc = Json::parse(text.begin(), text.end(), nullptr,
                           /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object())
      return std::nullopt;
    auto format = doc.find("format");
    auto content = doc.find("content");
    if (format == doc.end() || !format->is_string() ||
        format->get<std::string>() != kCacheFormat.str() ||
        content == doc.end() || !content->is_string())
      return std::nullopt;
    ChatResponse r;
    r.content = content->get<std::string>();
    r.promptTokens = doc.value("prompt_tokens", int64_t(0));
    r.completionTokens = doc.value("completion_tokens", int64_t(0));
    r.model = doc.value("model", std::string());
    r.fromCache = true;
    return r;
  } catch (const std::exception &) {
    return std::nullopt; // A corrupt entry is ignored and later rewritten.
  }
}

/// Best effort: a cache that cannot be written costs a later request, not
/// this answer.
static void writeCache(StringRef path, const ChatResponse &r) {
  std::string text;
  try {
    Json doc = {{"format", kCacheFormat.str()},
                {"content", r.content},
                {"prompt_tokens", r.promptTokens},
                {"completion_tokens", r.completionTokens},
                {"model", r.model}};
    text = doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
  } catch (const std::exception &) {
    return;
  }
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
  auto buildBody = [&](bool withFormat, std::string &out) -> bool {
    try {
      Json messages = Json::array();
      for (const ChatMessage &m : request.messages)
        messages.push_back({{"role", m.role}, {"content", m.content}});
      Json doc = {{"model", config.model},
                  {"messages", std::move(messages)},
                  {"temperature", request.temperature},
                  {"max_tokens", request.maxTokens},
                  {"stream", false}};
      if (withFormat)
        doc["response_format"] = {{"type", "json_object"}};
      out = doc.dump(-1, ' ', false, Json::error_handler_t::replace);
      return true;
    } catch (const std::exception &) {
      return false;
    }
  };

  unsigned attempts = 0, failures = 0;
  bool triedWithoutFormat = false;
  while (true) {
    bool withFormat = request.jsonAnswer && !formatRejected();
    std::string body;
    if (!buildBody(withFormat, body))
      return fail("cannot encode the request as JSON", attempts);
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
      // Parse the answer; a malformed one is an error, never a crash.
      ChatResponse r;
      std::string why;
      try {
        Json doc = Json::parse(x.body, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded())
          why = "the answer is not JSON: " + quote(x.body);
        else if (!doc.is_object())
          why = "the answer is not a JSON object: " + quote(x.body);
        else {
          auto choices = doc.find("choices");
          const Json *content = nullptr;
          if (choices != doc.end() && choices->is_array() &&
              !choices->empty() && (*choices)[0].is_object()) {
            const Json &first = (*choices)[0];
            auto message = first.find("message");
            if (message != first.end() && message->is_object()) {
              auto c = message->find("content");
              if (c != message->end() && c->is_string())
                content = &*c;
            }
          }
          if (!content) {
            why = "the answer has no choices[0].message.content string: " +
                  quote(x.body);
          } else {
            r.content = content->get<std::string>();
            auto usage = doc.find("usage");
            if (usage != doc.end() && usage->is_object()) {
              for (auto [field, out] :
                   {std::pair<const char *, int64_t *>{"prompt_tokens",
                                                       &r.promptTokens},
                    {"completion_tokens", &r.completionTokens}}) {
                auto v = usage->find(field);
                if (v != usage->end() && v->is_number_integer())
                  *out = v->get<int64_t>();
              }
            }
            auto model = doc.find("model");
            r.model = model != doc.end() && model->is_string()
                          ? model->get<std::string>()
                          : config.model;
          }
        }
      } catch (const std::exception &e) {
        why = std::string("cannot read the answer: ") + e.what();
      }
      if (!why.empty())
        return fail(why, attempts);
      r.content = redact(std::move(r.content), config.apiKey);
      r.attempts = attempts;
      if (!cachePath.empty())
        writeCache(cachePath, r);
      return r;
    } else {
      std::string message = serverMessage(x.body);
      problem = "HTTP " + std::to_string(x.status) +
                (message.empty() ? "" : ": " + quote(message));
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
