//===- OutputDir.cpp - A kernel's files appear only when verified ---------===//
//
// The staging directory is DIR's parent/.<DIR's name>.tensorop-gen-<pid>-XXXXXX:
// same file system, so commit() is rename(2), and named after the writing
// process, so a later run can tell a dead run's leftovers from a live one's.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/OutputDir.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <unistd.h>

using namespace llvm;
using namespace tensorop;

namespace {
constexpr StringLiteral kStagingTag = ".tensorop-gen-";

/// Removes the staging directories in `parent` whose process is gone.
void removeAbandonedStaging(StringRef parent) {
  std::error_code ec;
  for (sys::fs::directory_iterator it(parent, ec), end; !ec && it != end;
       it.increment(ec)) {
    StringRef entry = sys::path::filename(it->path());
    size_t tag = entry.find(kStagingTag);
    if (!entry.starts_with(".") || tag == StringRef::npos)
      continue;
    entry = entry.drop_front(tag + kStagingTag.size());
    unsigned pid = 0;
    if (entry.consumeInteger(10, pid) || !entry.starts_with("-") || pid == 0)
      continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
      continue; // Still running (or not ours to judge).
    sys::fs::remove_directories(it->path());
  }
}
} // namespace

Expected<std::unique_ptr<StagedOutput>>
StagedOutput::create(StringRef outDir) {
  SmallString<256> dir(outDir);
  if (std::error_code ec = sys::fs::make_absolute(dir))
    return createStringError("cannot resolve " + outDir + ": " +
                             ec.message());
  sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  while (dir.size() > 1 && sys::path::is_separator(dir.back()))
    dir.pop_back();
  StringRef name = sys::path::filename(dir), parent = sys::path::parent_path(dir);
  if (parent.empty() || name.empty() || name == "/")
    return createStringError("-o " + outDir + ": cannot write a kernel "
                             "into the root directory");
  if (sys::fs::exists(dir) && !sys::fs::is_directory(dir))
    return createStringError("-o " + outDir + " exists and is not a "
                             "directory");
  if (std::error_code ec = sys::fs::create_directories(parent))
    return createStringError("cannot create " + parent + ": " +
                             ec.message());
  removeAbandonedStaging(parent);
  // createUniqueDirectory appends "-XXXXXX".
  SmallString<256> model(parent);
  sys::path::append(model, "." + name + kStagingTag +
                               std::to_string(::getpid()));
  SmallString<256> staging;
  if (std::error_code ec = sys::fs::createUniqueDirectory(model, staging))
    return createStringError("cannot create a staging directory beside " +
                             outDir + ": " + ec.message());
  return std::unique_ptr<StagedOutput>(
      new StagedOutput(outDir.str(), dir.str().str(), staging.str().str()));
}

StagedOutput::~StagedOutput() {
  if (!committed)
    sys::fs::remove_directories(staging);
}

std::string StagedOutput::path(StringRef file) const {
  SmallString<256> p(staging);
  sys::path::append(p, file);
  return p.str().str();
}

std::string StagedOutput::finalPath(StringRef file) const {
  SmallString<256> p(userDir);
  sys::path::append(p, file);
  return p.str().str();
}

Error StagedOutput::commit(ArrayRef<std::string> files) {
  for (const std::string &f : files)
    if (!sys::fs::exists(path(f)))
      return createStringError("internal: " + f + " was not written");
  // Drop what is not part of the kernel (e.g. a cross-verification
  // program) so that a fresh DIR holds exactly the listed files.
  std::error_code ec;
  for (sys::fs::directory_iterator it(staging, ec), end; !ec && it != end;
       it.increment(ec))
    if (!is_contained(files, sys::path::filename(it->path()).str()))
      sys::fs::remove_directories(it->path());
  if (!sys::fs::exists(dir)) {
    if (!sys::fs::rename(staging, dir)) {
      committed = true;
      return Error::success();
    }
    // DIR appeared meanwhile: rename file by file below.
    if (std::error_code mk = sys::fs::create_directories(dir))
      return createStringError("cannot create " + userDir + ": " +
                               mk.message());
  }
  for (const std::string &f : files) {
    SmallString<256> to(dir);
    sys::path::append(to, f);
    if (std::error_code rn = sys::fs::rename(path(f), to))
      return createStringError("cannot move " + f + " into " + userDir +
                               ": " + rn.message());
  }
  return Error::success();
}
