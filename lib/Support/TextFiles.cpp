//===- TextFiles.cpp - Reading and writing whole text files ---------------===//

#include "tensorop/Support/TextFiles.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

std::string tensorop::readTextFile(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

llvm::Error tensorop::writeTextFile(llvm::StringRef path,
                                    llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  os << text;
  return llvm::Error::success();
}
