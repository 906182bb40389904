//===- RvvVlenDispatch.cpp - One RVV object, one build per VLEN -----------===//
//
// Both builds are translated to LLVM IR with their own features (the wide
// one may assume Zvl256b), linked into one module, and given dispatching
// entry points:
//
//   int name_vlen_variant(void) { return csrr(vlenb) >= 32 ? 256 : 128; }
//   void name(A, B, C) {
//     if (name_vlen_variant() == 256) name_vlen256(A, B, C);
//     else name_vlen128(A, B, C);
//   }
//
// vlenb is read on every call (one CSR read, next to a GEMM): no state, so
// nothing to initialise and nothing shared between threads.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Runtime/RvvVlenDispatch.h"
#include "tensorop/Runtime/ObjectFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::tensorop;

std::string mlir::tensorop::rvvBuildPrefix(llvm::StringRef name,
                                           int64_t vlen) {
  return (name + "_vlen" + llvm::Twine(vlen)).str();
}

std::string mlir::tensorop::rvvVariantSymbol(llvm::StringRef name) {
  return (name + "_vlen_variant").str();
}

/// The dispatching code runs before any VLEN or CPU check beyond "RVV":
/// it is compiled for RV64GC + V only, whatever the builds' CPU enables
/// (IPSCCP folds two builds' constant results into a select, which the
/// X60's Zicond would turn into czero).
static void setDispatchTarget(llvm::Function *fn) {
  fn->addFnAttr("target-cpu", "generic-rv64");
  fn->addFnAttr("target-features", "+m,+a,+f,+d,+c,+v");
}

/// `int name_vlen_variant(void)`: 256 where vlenb >= 32 bytes, else 128.
static llvm::Function *buildVariantFunction(llvm::Module &m,
                                            llvm::StringRef name) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(b.getInt32Ty(), false),
      llvm::GlobalValue::ExternalLinkage, rvvVariantSymbol(name), m);
  setDispatchTarget(fn);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  // vlenb is a read-only, user-readable CSR: the same value for the whole
  // process, so the read has no side effects to keep.
  llvm::InlineAsm *readVlenb = llvm::InlineAsm::get(
      llvm::FunctionType::get(b.getInt64Ty(), false), "csrr $0, vlenb", "=r",
      /*hasSideEffects=*/false);
  llvm::Value *vlenb = b.CreateCall(readVlenb, {}, "vlenb");
  llvm::Value *wide = b.CreateICmpUGE(vlenb, b.getInt64(32), "wide");
  b.CreateRet(b.CreateSelect(wide, b.getInt32(256), b.getInt32(128)));
  return fn;
}

/// `name`<rest>: calls `wide` where `variant` returns 256, else `narrow`.
static void buildDispatcher(llvm::Module &m, llvm::StringRef entryName,
                            llvm::Function *narrow, llvm::Function *wide,
                            llvm::Function *variant) {
  llvm::LLVMContext &ctx = m.getContext();
  auto *fn = llvm::Function::Create(narrow->getFunctionType(),
                                    llvm::GlobalValue::ExternalLinkage,
                                    entryName, m);
  fn->copyAttributesFrom(narrow);
  fn->setLinkage(llvm::GlobalValue::ExternalLinkage);
  fn->setVisibility(narrow->getVisibility());
  setDispatchTarget(fn);
  llvm::IRBuilder<> b(ctx);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::Value *isWide = b.CreateICmpEQ(b.CreateCall(variant, {}),
                                       b.getInt32(256), "is_wide");
  llvm::BasicBlock *wideBlock = llvm::BasicBlock::Create(ctx, "vlen256", fn);
  llvm::BasicBlock *narrowBlock = llvm::BasicBlock::Create(ctx, "vlen128", fn);
  b.CreateCondBr(isWide, wideBlock, narrowBlock);
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &a : fn->args())
    args.push_back(&a);
  for (auto [block, callee] : {std::pair{wideBlock, wide},
                               std::pair{narrowBlock, narrow}}) {
    b.SetInsertPoint(block);
    llvm::CallInst *call = b.CreateCall(callee, args);
    call->setTailCall();
    // Each entry stays a branch and a tail call (inlined, a build's body
    // would be compiled for the dispatcher's target).
    call->addFnAttr(llvm::Attribute::NoInline);
    if (fn->getReturnType()->isVoidTy())
      b.CreateRetVoid();
    else
      b.CreateRet(call);
  }
}

llvm::Error mlir::tensorop::emitRvvVlenDispatchObject(
    RvvBuild narrow, RvvBuild wide, llvm::StringRef triple,
    llvm::StringRef cpu, llvm::StringRef name, llvm::StringRef objPath,
    llvm::StringRef llPath) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      createObjectTargetMachine(triple, cpu, narrow.features);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext llvmContext;
  llvm::Expected<std::unique_ptr<llvm::Module>> linked = translateForTarget(
      narrow.module, llvmContext, **tm, cpu, narrow.features);
  if (!linked)
    return linked.takeError();
  llvm::Expected<std::unique_ptr<llvm::Module>> wideModule =
      translateForTarget(wide.module, llvmContext, **tm, cpu, wide.features);
  if (!wideModule)
    return wideModule.takeError();
  if (llvm::Linker::linkModules(**linked, std::move(*wideModule)))
    return llvm::createStringError(
        "cannot link the VLEN-128 and VLEN-256 builds of " + name +
        " (a symbol outside their prefixes clashes)");
  llvm::Module &m = **linked;

  const std::string narrowPrefix = rvvBuildPrefix(name, 128);
  const std::string widePrefix = rvvBuildPrefix(name, 256);
  llvm::SmallVector<llvm::Function *> narrowEntries;
  size_t wideEntries = 0;
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || f.hasLocalLinkage())
      continue;
    if (f.getName().starts_with(narrowPrefix))
      narrowEntries.push_back(&f);
    else if (f.getName().starts_with(widePrefix))
      ++wideEntries;
  }
  if (narrowEntries.empty() || narrowEntries.size() != wideEntries)
    return llvm::createStringError(llvm::formatv(
        "the builds of {0} export {1} (VLEN 128) and {2} (VLEN 256) entry "
        "points; they must be the same",
        name, narrowEntries.size(), wideEntries).str());
  llvm::Function *variant = buildVariantFunction(m, name);
  for (llvm::Function *n : narrowEntries) {
    llvm::StringRef rest = n->getName().drop_front(narrowPrefix.size());
    std::string entry = (name + rest).str();
    llvm::Function *w = m.getFunction(widePrefix + rest.str());
    if (!w || w->isDeclaration() ||
        w->getFunctionType() != n->getFunctionType())
      return llvm::createStringError(
          "the VLEN-256 build of " + name + " has no entry point " +
          widePrefix + rest + " of " + n->getName() + "'s type");
    if (m.getNamedValue(entry))
      return llvm::createStringError("cannot add the dispatching entry " +
                                     entry + ": a build already defines it");
    buildDispatcher(m, entry, n, w, variant);
  }
  return optimizeAndWriteObject(m, **tm, objPath, llPath);
}
