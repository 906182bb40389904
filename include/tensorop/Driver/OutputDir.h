//===- OutputDir.h - A kernel's files appear only when verified -*- C++ -*-===//
//
// `tensorop gen -o DIR` writes each file of a kernel into a staging
// directory beside DIR (in DIR's parent, so on the same file system) and
// renames them into DIR only once the kernel passed verification (or cannot
// be verified on this machine, which the report says). A failed
// verification, an error or a killed gen leaves nothing of the new kernel
// in DIR, and an older kernel of the same name there stays as it was. Every
// backend (CPU, NVIDIA, and the operators they generate) writes through it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_OUTPUTDIR_H
#define TENSOROP_DRIVER_OUTPUTDIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tensorop {

class StagedOutput {
public:
  /// Makes the staging directory for DIR (creating DIR's parent if needed)
  /// and removes those that earlier, killed, gen runs left in that parent.
  static llvm::Expected<std::unique_ptr<StagedOutput>>
  create(llvm::StringRef outDir);
  /// Removes the staging directory and what is in it unless committed.
  ~StagedOutput();
  StagedOutput(const StagedOutput &) = delete;
  StagedOutput &operator=(const StagedOutput &) = delete;

  /// Where to write `file` now (in the staging directory).
  std::string path(llvm::StringRef file) const;
  /// Where `file` will be once committed (DIR/file), for messages and
  /// reports.
  std::string finalPath(llvm::StringRef file) const;
  /// The staging directory itself.
  const std::string &stagingDir() const { return staging; }
  /// The directory as the user gave it.
  const std::string &outDir() const { return userDir; }

  /// Moves `files` (names written with path()) into DIR: DIR is created by
  /// renaming the staging directory when it does not exist yet, else each
  /// file is renamed over its older version in the order given (put the
  /// reports last). Anything else in the staging directory is dropped.
  llvm::Error commit(llvm::ArrayRef<std::string> files);

private:
  StagedOutput(std::string userDir, std::string dir, std::string staging)
      : userDir(std::move(userDir)), dir(std::move(dir)),
        staging(std::move(staging)) {}
  std::string userDir, dir, staging;
  bool committed = false;
};

} // namespace tensorop

#endif // TENSOROP_DRIVER_OUTPUTDIR_H
