//===- DataDir.cpp - Where TensorOp's data files are found ----------------===//

#include "tensorop/Support/DataDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace llvm;

namespace {
std::mutex packageDirMutex;
std::string &packageDir() {
  static std::string dir;
  return dir;
}

/// <binary>/../share/tensorop for the binary at `path`.
std::string shareDirNextTo(StringRef binary) {
  if (binary.empty())
    return "";
  SmallString<256> dir(binary);
  sys::fs::real_path(binary, dir);
  sys::path::remove_filename(dir); // bin/ or lib/
  sys::path::append(dir, "..", "share", "tensorop");
  sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return std::string(dir);
}

bool holdsData(StringRef dir) {
  if (dir.empty())
    return false;
  SmallString<256> hints(dir);
  sys::path::append(hints, "hints");
  return sys::fs::is_directory(hints);
}

/// The file (executable or shared object) this function was loaded from.
std::string thisBinary() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&thisBinary), &info) && info.dli_fname &&
      sys::path::is_absolute(info.dli_fname))
    return info.dli_fname;
  return "";
}
} // namespace

std::string mlir::tensorop::dataDir() {
  if (const char *env = std::getenv("TENSOROP_DATA_DIR"))
    return env;
  std::string candidates[4];
  candidates[0] = shareDirNextTo(thisBinary());
  candidates[1] = shareDirNextTo(sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&mlir::tensorop::dataDir)));
  {
    std::lock_guard<std::mutex> lock(packageDirMutex);
    candidates[2] = packageDir();
  }
#ifdef TENSOROP_BUILD_DATA_DIR
  // Build-tree fallback only (static TensorOp libraries linked into a program
  // outside build/bin): the installed layout never gets here.
  candidates[3] = TENSOROP_BUILD_DATA_DIR;
#endif
  for (const std::string &dir : candidates)
    if (holdsData(dir))
      return dir;
  return "";
}

std::string mlir::tensorop::dataPath(StringRef relative) {
  SmallString<256> path(dataDir());
  sys::path::append(path, relative);
  return std::string(path);
}

void mlir::tensorop::setPackageDataDir(StringRef dir) {
  std::lock_guard<std::mutex> lock(packageDirMutex);
  packageDir() = dir.str();
}
