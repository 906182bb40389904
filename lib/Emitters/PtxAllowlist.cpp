//===- PtxAllowlist.cpp - What a GPU kernel body may contain --------------===//
//
// The PTX counterpart of CodeAllowlist.cpp, on the text (PTX is assembled
// by ptxas, not LLVM MC): each statement's opcode must be one a GEMM kernel
// uses (arithmetic, conversions, loads/stores, async copies and TMA,
// barriers and fences, mma/wgmma, direct branches to its own labels), only
// registers may be declared (no .local, .global, .const or .param state of
// its own), and the special registers it reads are the thread, block and
// cluster coordinates and shared-memory sizes. Refused by name: trap,
// brkpt, call, brx.idx (indirect branch), pmevent, .local accesses, and
// special registers such as %globaltimer, %clock64, %smid or %envreg*.
// Not enforced (documented in docs/LLM.md): that a ld/st.global address is
// derived from the kernel's parameters.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Emitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace {
/// Opcodes (the text before the first '.') a GEMM kernel body may use.
const char *const kAllowedOpcodes[] = {
    "mov",      "add",       "sub",       "mul",       "mad",
    "mul24",    "mad24",     "fma",       "div",       "rem",
    "abs",      "neg",       "min",       "max",       "rcp",
    "sqrt",     "and",       "or",        "xor",       "not",
    "cnot",     "lop3",      "shl",       "shr",       "shf",
    "bfe",      "bfi",       "brev",      "popc",      "clz",
    "prmt",     "setp",      "selp",      "set",       "slct",
    "cvt",      "cvta",      "isspacep",  "copysign",  "testp",
    "ld",       "ldu",       "st",        "prefetch",  "prefetchu",
    "cp",       "ldmatrix",  "stmatrix",  "mma",       "wgmma",
    "mbarrier", "bar",       "barrier",   "fence",     "membar",
    "elect",    "shfl",      "vote",      "match",     "redux",
    "activemask", "setmaxnreg", "griddepcontrol", "mapa", "getctarank",
    "red",      "atom",      "bra",       "exit",      "ret",
    "nanosleep", "tensormap", "dp4a",     "dp2a"};

/// Special registers a kernel may read.
const char *const kAllowedSpecialRegisters[] = {
    "tid",          "ntid",           "ctaid",           "nctaid",
    "laneid",       "lanemask_eq",    "lanemask_le",     "lanemask_lt",
    "lanemask_ge",  "lanemask_gt",    "clusterid",       "nclusterid",
    "cluster_ctaid", "cluster_nctaid", "cluster_ctarank", "cluster_nctarank",
    "is_explicit_cluster", "dynamic_smem_size", "total_smem_size",
    "aggr_smem_size"};

/// Every special register PTX has (ISA 8.x, "Special Registers"), so that
/// a kernel's own %names are not mistaken for them.
const char *const kSpecialRegisterPattern =
    "^(tid|ntid|laneid|warpid|nwarpid|ctaid|nctaid|smid|nsmid|gridid|"
    "is_explicit_cluster|clusterid|nclusterid|cluster_ctaid|cluster_nctaid|"
    "cluster_ctarank|cluster_nctarank|lanemask_(eq|le|lt|ge|gt)|clock|"
    "clock_hi|clock64|pm[0-7]|pm[0-7]_64|envreg[0-9]+|globaltimer|"
    "globaltimer_lo|globaltimer_hi|reserved_smem_offset_[a-z0-9_]+|"
    "total_smem_size|aggr_smem_size|dynamic_smem_size|current_graph_exec)$";

/// Removes // and /* */ comments.
std::string stripComments(StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      out.push_back('\n');
      continue;
    }
    if (text.substr(i).starts_with("/*")) {
      size_t end = text.find("*/", i + 2);
      if (end == StringRef::npos)
        break;
      out.push_back(' ');
      i = end + 1;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

bool isIdentifierChar(char c) {
  return isAlnum(c) || c == '_' || c == '$';
}
} // namespace

Error mlir::tensorop::checkPtxKernelCode(StringRef ptxText) {
  std::string ptx = stripComments(ptxText);
  StringSet<> opcodes, specials;
  for (const char *o : kAllowedOpcodes)
    opcodes.insert(o);
  for (const char *r : kAllowedSpecialRegisters)
    specials.insert(r);
  Regex specialRegister(kSpecialRegisterPattern);

  // Labels first: branches may only go to labels of the body itself.
  SmallVector<StringRef> statements;
  StringRef(ptx).split(statements, ';');
  StringSet<> labels;
  std::vector<std::pair<std::string, std::string>> branches;
  for (StringRef st : statements) {
    st = st.ltrim(" \t\r\n{}");
    // Labels ("L1:") before the instruction.
    while (true) {
      size_t n = 0;
      while (n < st.size() && isIdentifierChar(st[n]))
        ++n;
      if (n == 0 || n >= st.size() || st[n] != ':' ||
          (n + 1 < st.size() && st[n + 1] == ':'))
        break;
      labels.insert(st.take_front(n));
      st = st.drop_front(n + 1).ltrim(" \t\r\n{}");
    }
    if (st.empty())
      continue;
    std::string shown = st.split('\n').first.trim().str();
    auto refuse = [&](const Twine &why) {
      return createStringError("PTX statement '" + shown + "' " + why);
    };
    // A guard predicate ("@%p1", "@!%p1").
    if (st.starts_with("@")) {
      size_t space = st.find_first_of(" \t");
      if (space == StringRef::npos)
        return refuse("has no instruction after its guard");
      st = st.drop_front(space).ltrim();
    }
    StringRef op = st.take_until([](char c) { return isSpace(c); });
    if (op.starts_with(".")) {
      // Declarations: registers only; any other state space is state
      // outside the kernel's parameters and shared memory.
      if (op != ".reg" && op != ".pragma")
        return refuse("declares '" + op +
                      "' (only .reg declarations are allowed)");
      continue;
    }
    StringRef base = op.split('.').first;
    if (!opcodes.contains(base))
      return refuse("uses '" + op +
                    "', which is not on the GPU kernel allowlist (no trap, "
                    "brkpt, call, pmevent, indirect branch, or texture and "
                    "surface access)");
    SmallVector<StringRef> modifiers;
    op.split(modifiers, '.');
    if (llvm::is_contained(modifiers, "local"))
      return refuse("accesses .local memory");
    if (llvm::is_contained(modifiers, "const") ||
        (base != "cvta" && llvm::is_contained(modifiers, "param")))
      return refuse("accesses a state space other than the parameters "
                    "given as operands, global and shared memory");
    if (base == "bra") {
      StringRef target = st.drop_front(op.size()).trim();
      if (target.empty() || !llvm::all_of(target, isIdentifierChar))
        return refuse("is not a branch to a label");
      branches.push_back({target.str(), shown});
    }
    // Special registers read by the statement.
    for (size_t i = st.find('%'); i != StringRef::npos;
         i = st.find('%', i + 1)) {
      size_t n = i + 1;
      while (n < st.size() && isIdentifierChar(st[n]))
        ++n;
      StringRef name = st.slice(i + 1, n);
      if (specialRegister.match(name) && !specials.contains(name))
        return refuse("reads the special register %" + name +
                      " (allowed: thread, block and cluster coordinates, "
                      "lane masks, shared-memory sizes)");
    }
  }
  for (auto &[target, shown] : branches)
    if (!labels.contains(target))
      return createStringError("PTX statement '" + shown +
                               "' branches to '" + target +
                               "', which the kernel does not define");
  return Error::success();
}
