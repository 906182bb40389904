//===- tensorop-llm-query.cpp - Ask the configured LLM one question -------===//
//
//   tensorop-llm-query [--no-json] [--system=TEXT] [--no-cache] PROMPT...
//
// Reads the endpoint from TENSOROP_LLM_URL / _MODEL / _API_KEY (see
// docs/LLM.md), sends each PROMPT in turn through one client, and prints the
// answer followed by a line
//   tokens: prompt=P completion=C attempts=A cache=hit|miss model=M
// Exit status 1 on the first error. For tests and for checking an endpoint.
//
//===----------------------------------------------------------------------===//

#include "tensorop/LLM/LLMClient.h"
#include "tensorop/Support/ToolInfo.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tensorop;

static cl::list<std::string> prompts(cl::Positional, cl::desc("<prompt>..."),
                                     cl::OneOrMore);
static cl::opt<bool> noJson("no-json",
                            cl::desc("Do not ask for a JSON object answer"));
static cl::opt<std::string> systemText("system",
                                       cl::desc("A system message to send "
                                                "first"));
static cl::opt<bool> noCache("no-cache", cl::desc("Do not use the cache"));
static cl::opt<unsigned> maxTokens("max-tokens",
                                   cl::desc("Answer length limit (tokens)"),
                                   cl::init(ChatRequest().maxTokens));
static cl::opt<double>
    temperature("temperature", cl::desc("Sampling temperature"), cl::init(0.0));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  showOnlyToolOptions(
      {&static_cast<cl::Option &>(prompts), &noJson, &systemText, &noCache,
       &maxTokens, &temperature});
  setToolVersionPrinter("tensorop-llm-query");
  cl::ParseCommandLineOptions(argc, argv,
                              "Send a prompt to the configured "
                              "OpenAI-compatible endpoint\n");
  Expected<LLMConfig> config = LLMConfig::fromEnvironment();
  if (!config) {
    errs() << "tensorop-llm-query: error: " << toString(config.takeError())
           << "\n";
    return 1;
  }
  if (noCache)
    config->cacheDir = "none";
  LLMClient client(*config);
  for (const std::string &prompt : prompts) {
    ChatRequest request;
    if (!systemText.empty())
      request.messages.push_back({"system", systemText});
    request.messages.push_back({"user", prompt});
    request.jsonAnswer = !noJson;
    request.maxTokens = maxTokens;
    request.temperature = temperature;
    Expected<ChatResponse> response = client.chat(request);
    if (!response) {
      errs() << "tensorop-llm-query: error: " << toString(response.takeError())
             << "\n";
      return 1;
    }
    outs() << response->content << "\n"
           << "tokens: prompt=" << response->promptTokens
           << " completion=" << response->completionTokens
           << " attempts=" << response->attempts
           << " cache=" << (response->fromCache ? "hit" : "miss")
           << " model=" << response->model << "\n";
    outs().flush();
  }
  return 0;
}
