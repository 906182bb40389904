//===- Microkernels.cpp - The microkernels a lowered module runs ----------===//

#include "tensorop/Driver/Microkernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

/// Whether `mnemonic` multiplies and accumulates (the instruction a kernel's
/// precision is decided by): x86 FMA and AVX512_BF16 / VNNI dots, AArch64
/// fmla, RVV vfmacc / vfmadd.
static bool isMultiplyAccumulate(StringRef mnemonic) {
  return mnemonic.starts_with("vfmadd") || mnemonic.starts_with("vfmacc") ||
         mnemonic.starts_with("vdpbf16") || mnemonic.starts_with("vpdpbusd") ||
         mnemonic.starts_with("vpdpwssd") || mnemonic == "fmla" ||
         mnemonic.starts_with("fmla.");
}

std::vector<tensorop::MicrokernelInfo>
tensorop::listMicrokernels(mlir::ModuleOp module) {
  std::vector<MicrokernelInfo> kernels;
  module.walk([&](mlir::LLVM::InlineAsmOp op) {
    StringRef text = op.getAsmString();
    SmallVector<StringRef> lines;
    text.split(lines, '\n', -1, /*KeepEmpty=*/false);
    if (lines.empty())
      return;
    StringRef first = lines.front().trim();
    if (!first.consume_front("#") && !first.consume_front("//"))
      return; // Not an emitter's kernel (no name comment).
    std::pair<StringRef, StringRef> parts = first.trim().split(':');
    StringRef name = parts.first.trim(), description = parts.second;
    if (name.empty() || name.contains(' '))
      return;
    if (llvm::any_of(kernels,
                     [&](const MicrokernelInfo &k) { return k.name == name; }))
      return;
    MicrokernelInfo info{name.str(), description.trim().str(), {}};
    for (StringRef line : drop_begin(lines)) {
      StringRef mnemonic =
          line.trim().take_until([](char c) { return isSpace(c); });
      if (isMultiplyAccumulate(mnemonic) &&
          !is_contained(info.multiplyAccumulate, mnemonic))
        info.multiplyAccumulate.push_back(mnemonic.str());
    }
    kernels.push_back(std::move(info));
  });
  return kernels;
}

json::Array tensorop::microkernelsJson(ArrayRef<MicrokernelInfo> kernels) {
  json::Array out;
  for (const MicrokernelInfo &k : kernels) {
    json::Array macs;
    for (const std::string &m : k.multiplyAccumulate)
      macs.push_back(m);
    out.push_back(json::Object{
        {"name", k.name},
        {"description", k.description},
        {"product", k.multiplyAccumulate.empty()
                        ? json::Value(nullptr)
                        : json::Value(k.multiplyAccumulate.front())},
        {"multiply_accumulate", std::move(macs)}});
  }
  return out;
}

std::string tensorop::microkernelsLine(ArrayRef<MicrokernelInfo> kernels) {
  if (kernels.empty())
    return "none (no inline-assembly microkernel)";
  std::string line;
  for (const MicrokernelInfo &k : kernels) {
    if (!line.empty())
      line += ", ";
    line += k.name;
    ArrayRef<std::string> macs = k.multiplyAccumulate;
    if (!macs.empty())
      line += " (" + macs.front() +
              (macs.size() > 1 ? "; also " + join(macs.drop_front(), ", ")
                               : std::string()) +
              ")";
  }
  return line;
}

std::string tensorop::microkernelsMarkdown(ArrayRef<MicrokernelInfo> kernels) {
  std::string md = "Microkernels in the object (read from its code; the "
                   "sketch's `emitter` names the script that wrote them):";
  if (kernels.empty())
    return md + " none (no inline-assembly microkernel).\n\n";
  md += "\n\n";
  for (const MicrokernelInfo &k : kernels) {
    md += "- `" + k.name + "`: " + k.description;
    ArrayRef<std::string> macs = k.multiplyAccumulate;
    if (!macs.empty())
      md += "; product: `" + macs.front() + "`";
    if (macs.size() > 1)
      md += std::string("; other multiply-adds") +
            (StringRef(k.name).contains("_epi") ? " (its fused epilogue's)"
                                                : "") +
            ": `" + join(macs.drop_front(), "`, `") + "`";
    md += "\n";
  }
  return md + "\n";
}
