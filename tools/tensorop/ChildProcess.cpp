//===- ChildProcess.cpp - A program run with a wall-clock limit -----------===//

#include "ChildProcess.h"
#include "tensorop/Driver/TextFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <optional>
#include <vector>

using namespace llvm;

tensorop::ChildOutcome tensorop::runWithLimit(StringRef program,
                                              ArrayRef<std::string> args,
                                              unsigned limitSeconds) {
  ChildOutcome o;
  SmallString<128> outPath, errPath;
  sys::fs::createTemporaryFile("tensorop-child", "out", outPath);
  sys::fs::createTemporaryFile("tensorop-child", "err", errPath);
  FileRemover removeOut(outPath), removeErr(errPath);
  std::vector<StringRef> argv = {program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(outPath),
                                          StringRef(errPath)};
  auto start = std::chrono::steady_clock::now();
  o.rc = sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                             limitSeconds, 0, &o.message, &o.failedToRun);
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  // LLVM reports a timeout as rc -2 with a message; be lenient about the
  // wording.
  o.killed = StringRef(o.message).contains("timed out") ||
             (o.rc == -2 && elapsed >= limitSeconds - 0.5);
  o.stdoutText = readTextFile(outPath);
  o.stderrText = readTextFile(errPath);
  return o;
}
