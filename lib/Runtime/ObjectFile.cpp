//===- ObjectFile.cpp - Ahead-of-time objects and loading them ------------===//

#include "tensorop/Runtime/ObjectFile.h"
#include "tensorop/Runtime/OpenMPRuntime.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tensorop;

LoadedObject::LoadedObject() = default;
LoadedObject::LoadedObject(LoadedObject &&) = default;
LoadedObject::~LoadedObject() = default;

static void initializeAllTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
    llvm::InitializeAllAsmPrinters();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::tensorop::createObjectTargetMachine(llvm::StringRef tripleName,
                                          llvm::StringRef cpu,
                                          llvm::StringRef features) {
  initializeAllTargets();
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for " + tripleName + ": " +
                                   error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return llvm::createStringError("cannot create a target machine for " +
                                   tripleName);
  return tm;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mlir::tensorop::translateForTarget(ModuleOp module,
                                   llvm::LLVMContext &llvmContext,
                                   llvm::TargetMachine &tm,
                                   llvm::StringRef cpu,
                                   llvm::StringRef features) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tensorop");
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  // Every function gets the target's CPU and features, so inline assembly
  // is parsed with the right instruction set whoever compiles the IR.
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", cpu);
    f.addFnAttr("target-features", features);
  }
  return llvmModule;
}

llvm::Error mlir::tensorop::optimizeAndWriteObject(llvm::Module &llvmModule,
                                                   llvm::TargetMachine &tm,
                                                   llvm::StringRef objPath,
                                                   llvm::StringRef llPath) {
  auto optimize = makeOptimizingTransformer(3, 0, &tm);
  if (llvm::Error e = optimize(&llvmModule))
    return e;
  if (!llPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(llPath, ec);
    if (ec)
      return llvm::createStringError("cannot write " + llPath + ": " +
                                     ec.message());
    llvmModule.print(os, nullptr);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(objPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write " + objPath + ": " +
                                   ec.message());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the " + tm.getTargetTriple().str() +
                                   " back end cannot emit object files");
  pm.run(llvmModule);
  return llvm::Error::success();
}

llvm::Error mlir::tensorop::emitObjectFile(ModuleOp module,
                                           llvm::StringRef tripleName,
                                           llvm::StringRef cpu,
                                           llvm::StringRef features,
                                           llvm::StringRef objPath,
                                           llvm::StringRef llPath) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      createObjectTargetMachine(tripleName, cpu, features);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateForTarget(module, llvmContext, **tm, cpu, features);
  if (!llvmModule)
    return llvmModule.takeError();
  return optimizeAndWriteObject(**llvmModule, **tm, objPath, llPath);
}

llvm::Expected<LoadedObject>
mlir::tensorop::loadObjectFile(llvm::StringRef objPath, llvm::StringRef symbol) {
  initializeAllTargets();
  // Objects of threaded kernels call libomp. Without it, their link fails
  // below naming the missing __kmpc_* symbol; other objects do not care.
  llvm::consumeError(loadOpenMPRuntime());
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  auto generator =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  auto buffer = llvm::MemoryBuffer::getFile(objPath);
  if (!buffer)
    return llvm::createStringError("cannot read " + objPath + ": " +
                                   buffer.getError().message());
  if (llvm::Error e = (*jit)->addObjectFile(std::move(*buffer)))
    return std::move(e);
  auto address = (*jit)->lookup(symbol);
  if (!address)
    return address.takeError();
  LoadedObject loaded;
  loaded.symbol = address->toPtr<void *>();
  loaded.jit = std::move(*jit);
  return loaded;
}

llvm::Expected<void *>
mlir::tensorop::LoadedObject::lookup(llvm::StringRef name) const {
  auto address = jit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}
