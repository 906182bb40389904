//===- TensorOpDialect.cpp - tensorop dialect, attributes, ops ------------===//

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Dialect/FusedPackB.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Emitters/UKernelOperands.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tensorop;

#include "tensorop/Dialect/TensorOpDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tensorop/Dialect/TensorOpAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tensorop/Dialect/TensorOpOps.cpp.inc"

void TensorOpDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tensorop/Dialect/TensorOpAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tensorop/Dialect/TensorOpOps.cpp.inc"
      >();
}

/// No register block of any target has a side this long (RVV's widest, LMUL
/// 8 of 1024-bit registers, holds 256 f32 lanes); the bound keeps register
/// counts computed from a block far from int64_t overflow.
static constexpr int64_t kMaxRegisterBlockSide = 1024;

int64_t mlir::tensorop::registerBlockVectorRegisters(int64_t mr, int64_t nr,
                                                     int64_t lanes,
                                                     StringRef target) {
  int64_t nv = (nr + lanes - 1) / lanes;
  if (target.starts_with("riscv")) {
    // Past LMUL 8 there is no register group wide enough for nr.
    if (nv > 8)
      return std::numeric_limits<int32_t>::max();
    int64_t lmul = llvm::PowerOf2Ceil(nv);
    return (mr + 1) * lmul;
  }
  int64_t aRegisters = 1;
  if (target == "arm-neon") {
    // Rows in groups of 4 (one q register each); the last 1, 2 or 3 rows
    // as an s, a d, or a d and an s register.
    static constexpr int64_t kRemainderRegisters[4] = {0, 1, 1, 2};
    aRegisters = mr / 4 + kRemainderRegisters[mr % 4];
  }
  return mr * nv + nv + aRegisters;
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, StringRef triple,
                                 StringRef cpu, StringRef features,
                                 int64_t vectorBits, int64_t vectorRegisters) {
  if (name.empty())
    return emitError() << "target name must not be empty";
  if (triple.empty())
    return emitError() << "target '" << name << "' has an empty triple";
  if (vectorBits < 32 || vectorBits % 32 != 0)
    return emitError() << "target '" << name << "': vector_bits must be a "
                       << "positive multiple of 32, got " << vectorBits;
  if (vectorRegisters <= 0)
    return emitError() << "target '" << name
                       << "': vector_registers must be positive, got "
                       << vectorRegisters;
  return success();
}

//===----------------------------------------------------------------------===//
// UKernelSpecAttr
//===----------------------------------------------------------------------===//

/// The farthest row prefetch (prefetch_b_cols, prefetch_a), in elements; the
/// x86 emitter's limit (MAX_PREFETCH_AHEAD).
static constexpr int64_t kMaxRowPrefetch = 1 << 16;

LogicalResult
UKernelSpecAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef emitter, int64_t kUnroll,
                        StringRef broadcast, int64_t prefetchB,
                        int64_t prefetchBCols, int64_t prefetchA) {
  if (emitter.empty() || !llvm::all_of(emitter, [](char c) {
        return llvm::isAlnum(c) || c == '_';
      }))
    return emitError() << "ukernel emitter must be a non-empty identifier "
                          "naming a script in python_emitters/, got '"
                       << emitter << "'";
  if (kUnroll < 1 || kUnroll > 16)
    return emitError() << "ukernel k_unroll must be in [1, 16], got "
                       << kUnroll;
  // x86_gemm_kdot vectorizes along K: nothing is broadcast.
  bool kdot = emitter == kKDotEmitter;
  if (kdot ? broadcast != "none"
           : broadcast != "explicit" && broadcast != "embedded")
    return emitError() << "ukernel broadcast must be "
                       << (kdot ? "\"none\" with the x86_gemm_kdot emitter"
                                : "\"explicit\" or \"embedded\"")
                       << ", got \"" << broadcast << "\"";
  if (kdot && prefetchB)
    return emitError() << "ukernel prefetch_b must be 0 with the "
                          "x86_gemm_kdot emitter (B is cached), got "
                       << prefetchB;
  if (prefetchB < 0 || prefetchB > 64)
    return emitError() << "ukernel prefetch_b must be in [0, 64], got "
                       << prefetchB;
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"prefetch_b_cols", prefetchBCols},
        {"prefetch_a", prefetchA}}) {
    if (value < 0 || value > kMaxRowPrefetch)
      return emitError() << "ukernel " << name << " must be in [0, "
                         << kMaxRowPrefetch << "], got " << value;
    if (value && emitter != "x86_gemm_fma" &&
        !(kdot && name == "prefetch_a"))
      return emitError() << "ukernel " << name
                         << " needs the x86_gemm_fma emitter, got '"
                         << emitter << "'";
  }
  if (prefetchBCols && prefetchB)
    return emitError() << "ukernel prefetch_b_cols and prefetch_b exclude "
                          "each other (got "
                       << prefetchBCols << " and " << prefetchB << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// SketchAttr
//===----------------------------------------------------------------------===//

/// True if `order` holds each character of `letters` exactly once.
static bool isPermutationOf(StringRef order, StringRef letters) {
  if (order.size() != letters.size())
    return false;
  for (char c : letters)
    if (order.count(c) != 1)
      return false;
  return true;
}

static LogicalResult
verifySketchCommon(function_ref<InFlightDiagnostic()> emitError,
                   StringRef source, int64_t threads, StringRef packB,
                   UKernelSpecAttr ukernel, EpilogueAttr epilogue);

/// An operand read in place (`packField` "none") is read with masked loads
/// or row displacements that only the x86 emitter x86_gemm_fma generates.
static LogicalResult
verifyReadInPlace(function_ref<InFlightDiagnostic()> emitError,
                  StringRef packField, UKernelSpecAttr ukernel,
                  TargetAttr target) {
  if (!target.getName().starts_with("x86"))
    return emitError() << "sketch " << packField
                       << " \"none\" needs an x86 target, got "
                       << target.getName();
  if (ukernel.getEmitter() != "x86_gemm_fma")
    return emitError() << "sketch " << packField
                       << " \"none\" needs the x86_gemm_fma emitter, got '"
                       << ukernel.getEmitter() << "'";
  return success();
}

bool mlir::tensorop::kdotHoldsA(int64_t mr, int64_t nr) {
  return mr * nr + nr + 1 > 32;
}

int64_t mlir::tensorop::kdotVectorRegisters(int64_t mr, int64_t nr) {
  // As python_emitters/x86_gemm_kdot.py allocates them.
  return kdotHoldsA(mr, nr) ? mr * nr + mr + 2 : mr * nr + nr + 1;
}

/// The vector registers a sketch's register block takes with its
/// microkernel: x86_gemm_fma's embedded broadcasts read A's element in each
/// FMA, so they take no broadcast register (the emitter's budget is
/// mr*nv + nv).
static int64_t sketchBlockVectorRegisters(int64_t mr, int64_t nr, int64_t lanes,
                                          StringRef target,
                                          UKernelSpecAttr ukernel) {
  int64_t needed = registerBlockVectorRegisters(mr, nr, lanes, target);
  if (ukernel.getEmitter() == "x86_gemm_fma" &&
      ukernel.getBroadcast() == "embedded")
    --needed;
  return needed;
}

/// A register block's counts are multiplied (accumulators, registers):
/// bounded first, an LLM answer's 2^62 cannot wrap into a small product.
/// `what` starts the messages ("sketch tile", "conv sketch").
static LogicalResult
verifyRegisterBlockSides(function_ref<InFlightDiagnostic()> emitError,
                         StringRef what, int64_t mr, int64_t nr) {
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"mr", mr}, {"nr", nr}})
    if (value > kMaxRegisterBlockSide)
      return emitError() << what << " '" << name << "' must be at most "
                         << kMaxRegisterBlockSide
                         << " (a register block's side), got " << value;
  return success();
}

/// The register block's rules that GEMM and convolution sketches share: nr
/// whole f32 vectors, the mr x nr accumulators and their operands (plus
/// `extraRegisters`) within the target's vector registers, embedded
/// broadcasts on 512-bit vectors only. `what` starts the messages
/// ("sketch", "conv sketch").
static LogicalResult
verifyRegisterBlock(function_ref<InFlightDiagnostic()> emitError,
                    StringRef what, int64_t mr, int64_t nr,
                    int64_t extraRegisters, UKernelSpecAttr ukernel,
                    TargetAttr target) {
  int64_t lanes = target.getF32Lanes();
  if (nr % lanes != 0)
    return emitError() << what << " nr (" << nr
                       << ") must be a multiple of the target's f32 lanes ("
                       << lanes << " on " << target.getName() << ")";
  int64_t needed =
      sketchBlockVectorRegisters(mr, nr, lanes, target.getName(), ukernel) +
      extraRegisters;
  if (needed > target.getVectorRegisters())
    return emitError() << what << " register block " << mr << "x" << nr
                       << " needs " << needed << " vector registers but "
                       << target.getName() << " has "
                       << target.getVectorRegisters();
  if (ukernel.getBroadcast() == "embedded" && lanes != 16)
    return emitError() << "embedded broadcasts need 512-bit vectors; "
                       << target.getName() << " has "
                       << target.getVectorBits();
  return success();
}

/// A kernel vectorized along K (x86_gemm_kdot): mr x nr accumulators of 16
/// k values each, A's rows read in place, B transposed (each column's K
/// values contiguous: pack_b "transposed"); AVX-512 only.
static LogicalResult
verifyKDotSketch(function_ref<InFlightDiagnostic()> emitError, int64_t mr,
                 int64_t nr, StringRef packA, StringRef packB,
                 UKernelSpecAttr ukernel, TargetAttr target) {
  if (ukernel.getEmitter() != kKDotEmitter || packB != kTransposedPackB ||
      packA != "none")
    return emitError() << "sketch pack_b \"transposed\" and the "
                          "x86_gemm_kdot emitter go together, with pack_a "
                          "\"none\"; got emitter '"
                       << ukernel.getEmitter() << "', pack_a \"" << packA
                       << "\", pack_b \"" << packB << "\"";
  if (!target.getName().starts_with("x86") || target.getF32Lanes() != 16)
    return emitError() << "the x86_gemm_kdot emitter needs an x86 target "
                          "with 512-bit vectors, got "
                       << target.getName();
  if (nr > 16)
    return emitError() << "sketch nr must be at most 16 with the "
                          "x86_gemm_kdot emitter (columns of C), got "
                       << nr;
  int64_t needed = kdotVectorRegisters(mr, nr);
  if (needed > target.getVectorRegisters())
    return emitError() << "sketch register block " << mr << "x" << nr
                       << " vectorized along K needs " << needed
                       << " vector registers but " << target.getName()
                       << " has " << target.getVectorRegisters();
  return success();
}

LogicalResult NTailAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t columns, int64_t mr, int64_t nr,
                                UKernelSpecAttr ukernel, int64_t threads) {
  if (columns < 1 || columns > 15)
    return emitError() << "n_tail columns must be in [1, 15] (part of one "
                          "16-lane vector), got "
                       << columns;
  if (mr < 1 || mr > kMaxRegisterBlockSide)
    return emitError() << "n_tail mr must be in [1, " << kMaxRegisterBlockSide
                       << "], got " << mr;
  if (nr < 1 || nr > columns)
    return emitError() << "n_tail nr must be in [1, columns = " << columns
                       << "], got " << nr;
  if (!ukernel || ukernel.getEmitter() != kKDotEmitter)
    return emitError() << "n_tail needs the x86_gemm_kdot emitter (the "
                          "kernel vectorized along K), got '"
                       << (ukernel ? ukernel.getEmitter() : StringRef())
                       << "'";
  if (threads < 1 || threads > 1024)
    return emitError() << "n_tail threads must be in [1, 1024], got "
                       << threads;
  return success();
}

/// An N tail goes on a sketch whose kernel vectorizes along N, without an
/// epilogue, for a target whose registers hold the tail's block.
static LogicalResult verifyNTail(function_ref<InFlightDiagnostic()> emitError,
                                 NTailAttr nTail, UKernelSpecAttr ukernel,
                                 TargetAttr target, EpilogueAttr epilogue) {
  if (!nTail)
    return success();
  if (epilogue)
    return emitError() << "a sketch n_tail cannot go with an epilogue: its "
                          "x86_gemm_kdot kernel applies none";
  if (ukernel.getEmitter() == kKDotEmitter)
    return emitError() << "a sketch n_tail needs a main kernel that "
                          "vectorizes along N; x86_gemm_kdot covers every "
                          "column itself";
  if (!target.getName().starts_with("x86") || target.getF32Lanes() != 16)
    return emitError() << "a sketch n_tail (x86_gemm_kdot) needs an x86 "
                          "target with 512-bit vectors, got "
                       << target.getName();
  int64_t needed = kdotVectorRegisters(nTail.getMr(), nTail.getNr());
  if (needed > target.getVectorRegisters())
    return emitError() << "sketch n_tail block " << nTail.getMr() << "x"
                       << nTail.getNr() << " vectorized along K needs "
                       << needed << " vector registers but "
                       << target.getName() << " has "
                       << target.getVectorRegisters();
  return success();
}

LogicalResult SketchAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t mc, int64_t nc,
    int64_t kc, int64_t mr, int64_t nr, StringRef loopOrder,
    StringRef microOrder, StringRef packA, StringRef packB,
    UKernelSpecAttr ukernel, TargetAttr target, StringRef source,
    int64_t threads, EpilogueAttr epilogue, NTailAttr nTail) {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"mc", mc},
                             {"nc", nc},
                             {"kc", kc},
                             {"mr", mr},
                             {"nr", nr}})
    if (value <= 0)
      return emitError() << "sketch tile '" << name
                         << "' must be positive, got " << value;
  if (failed(verifyRegisterBlockSides(emitError, "sketch tile", mr, nr)))
    return failure();
  if (mc % mr != 0)
    return emitError() << "sketch mc (" << mc
                       << ") must be a multiple of mr (" << mr << ")";
  if (nc % nr != 0)
    return emitError() << "sketch nc (" << nc
                       << ") must be a multiple of nr (" << nr << ")";
  if (!isPermutationOf(loopOrder, "mnk"))
    return emitError() << "sketch loop_order \"" << loopOrder
                       << "\" is not a permutation of \"mnk\"";
  if (!isPermutationOf(microOrder, "mn"))
    return emitError() << "sketch micro_order \"" << microOrder
                       << "\" is not a permutation of \"mn\"";
  if (packA != "kmajor_mr" && packA != "none")
    return emitError() << "sketch pack_a \"" << packA
                       << "\" is not a known layout (expected \"kmajor_mr\" "
                          "or \"none\")";
  if (packB != "kmajor_nr" && packB != "kmajor_nr_shared" && packB != "none" &&
      packB != kTransposedPackB && packB != kFusedPackB)
    return emitError() << "sketch pack_b \"" << packB
                       << "\" is not a known layout (expected \"kmajor_nr\", "
                          "\"kmajor_nr_shared\", \"kmajor_nr_fused\", "
                          "\"none\" or \"transposed\")";
  if (!ukernel || !target)
    return emitError() << "sketch needs a ukernel and a target";
  if (failed(verifyNTail(emitError, nTail, ukernel, target, epilogue)))
    return failure();
  if (ukernel.getEmitter() == kKDotEmitter || packB == kTransposedPackB) {
    if (failed(verifyKDotSketch(emitError, mr, nr, packA, packB, ukernel,
                                target)))
      return failure();
    // The rest (nr in whole vectors, the broadcast kernels' register
    // budget) is about kernels that vectorize along N.
    return verifySketchCommon(emitError, source, threads, packB, ukernel,
                              epilogue);
  }
  // Unpacked B is read with masked loads (the N edge must not read past
  // B), which only the x86 emitter offers: AVX-512 keeps one mask register
  // per B vector (k1..k7), AVX2 one more vector register for the mask.
  if (packB == "none") {
    if (failed(verifyReadInPlace(emitError, "pack_b", ukernel, target)))
      return failure();
    int64_t vecLanes = target.getF32Lanes();
    if (nr > 7 * vecLanes)
      return emitError() << "sketch pack_b \"none\" needs nr <= "
                         << 7 * vecLanes << ", got " << nr;
    int64_t withMask =
        registerBlockVectorRegisters(mr, nr, vecLanes, target.getName()) + 1;
    if (vecLanes != 16 && withMask > target.getVectorRegisters())
      return emitError() << "sketch pack_b \"none\" needs a vector register "
                            "for the B mask: register block "
                         << mr << "x" << nr << " needs " << withMask << " but "
                         << target.getName() << " has "
                         << target.getVectorRegisters();
  }
  // The fused copy's first row tile reads B in place with one mask
  // register per vector and stores full zmm vectors (x86_gemm_fma's
  // store_b_panel, AVX-512 only).
  if (packB == kFusedPackB) {
    if (!target.getName().starts_with("x86") || target.getF32Lanes() != 16)
      return emitError() << "sketch pack_b \"" << kFusedPackB
                         << "\" needs an AVX-512 x86 target, got "
                         << target.getName();
    if (ukernel.getEmitter() != "x86_gemm_fma")
      return emitError() << "sketch pack_b \"" << kFusedPackB
                         << "\" needs the x86_gemm_fma emitter, got '"
                         << ukernel.getEmitter() << "'";
    if (nr > 7 * 16)
      return emitError() << "sketch pack_b \"" << kFusedPackB
                         << "\" needs nr <= 112, got " << nr;
  }
  // Unpacked A is read row by row in place, and an M edge must not read
  // the rows past A: the x86 emitter compiles the row stride into
  // displacements (no register more) and gives each m_rem its own K loop.
  if (packA == "none" &&
      failed(verifyReadInPlace(emitError, "pack_a", ukernel, target)))
    return failure();
  // The row prefetches follow rows read in place (with "kmajor_nr_fused",
  // those of each B block's first row tile).
  if (ukernel.getPrefetchBCols() && packB != "none" && packB != kFusedPackB)
    return emitError() << "sketch ukernel prefetch_b_cols needs pack_b "
                          "\"none\" or \"kmajor_nr_fused\" (B read in "
                          "place), got \""
                       << packB << "\"";
  if (ukernel.getPrefetchA() && packA != "none")
    return emitError() << "sketch ukernel prefetch_a needs pack_a \"none\" "
                          "(A read in place), got \""
                       << packA << "\"";
  if (failed(verifyRegisterBlock(emitError, "sketch", mr, nr,
                                 /*extraRegisters=*/0, ukernel, target)))
    return failure();
  return verifySketchCommon(emitError, source, threads, packB, ukernel,
                            epilogue);
}

/// The checks of every sketch, whichever way its kernel vectorizes.
static LogicalResult
verifySketchCommon(function_ref<InFlightDiagnostic()> emitError,
                   StringRef source, int64_t threads, StringRef packB,
                   UKernelSpecAttr ukernel, EpilogueAttr epilogue) {
  if (source.empty())
    return emitError() << "sketch source (provenance) must not be empty";
  // The upper bound only catches typos: libomp itself caps teams far lower.
  if (threads < 1 || threads > 1024)
    return emitError() << "sketch threads must be in [1, 1024], got "
                       << threads;
  // One thread has nobody to share its packed B with.
  if (packB == "kmajor_nr_shared" && threads == 1)
    return emitError() << "sketch pack_b \"kmajor_nr_shared\" (one packed B "
                          "block shared by the threads) needs threads > 1, "
                          "got 1 (use \"kmajor_nr\")";
  // Only the shipped CPU emitters apply an epilogue in their store path.
  if (epilogue && !emitterAppliesEpilogues(ukernel.getEmitter()))
    return emitError() << "a sketch epilogue needs the x86_gemm_fma, "
                          "riscv_gemm_rvv or arm_gemm_neon emitter (the "
                          "ones with a fused epilogue), got '"
                       << ukernel.getEmitter() << "'";
  return success();
}

SketchAttr SketchAttr::withEpilogue(EpilogueAttr epilogue) const {
  return SketchAttr::get(getContext(), getMc(), getNc(), getKc(), getMr(),
                         getNr(), getLoopOrder(), getMicroOrder(), getPackA(),
                         getPackB(), getUkernel(), getTarget(), getSource(),
                         getThreads(), epilogue, getNTail());
}

SketchAttr SketchAttr::withNTail(NTailAttr nTail) const {
  return SketchAttr::get(getContext(), getMc(), getNc(), getKc(), getMr(),
                         getNr(), getLoopOrder(), getMicroOrder(), getPackA(),
                         getPackB(), getUkernel(), getTarget(), getSource(),
                         getThreads(), getEpilogue(), nTail);
}

//===----------------------------------------------------------------------===//
// EpilogueAttr
//===----------------------------------------------------------------------===//

LogicalResult EpilogueAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayAttr steps) {
  SmallVector<EpilogueStep> parsed;
  for (Attribute a : steps) {
    auto text = dyn_cast<StringAttr>(a);
    if (!text)
      return emitError() << "epilogue steps must be strings, got " << a;
    std::string why;
    std::optional<EpilogueStep> step = parseEpilogueStep(text.getValue(), why);
    if (!step)
      return emitError() << why;
    parsed.push_back(*step);
  }
  std::string why = checkEpilogueSteps(parsed);
  if (!why.empty())
    return emitError() << why;
  return success();
}

int64_t SketchAttr::getVectorRegistersNeeded() const {
  if (getUkernel().getEmitter() == kKDotEmitter)
    return kdotVectorRegisters(getMr(), getNr());
  return sketchBlockVectorRegisters(getMr(), getNr(), getTarget().getF32Lanes(),
                                    getTarget().getName(), getUkernel());
}

//===----------------------------------------------------------------------===//
// ConvSketchAttr
//===----------------------------------------------------------------------===//

LogicalResult ConvSketchAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t mr, int64_t nr,
    int64_t cb, StringRef taps, StringRef loopOrder, StringRef packInput,
    StringRef packFilter, UKernelSpecAttr ukernel, TargetAttr target,
    StringRef source, int64_t threads, EpilogueAttr epilogue) {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"mr", mr},
                             {"nr", nr},
                             {"cb", cb}})
    if (value <= 0)
      return emitError() << "conv sketch '" << name
                         << "' must be positive, got " << value;
  if (failed(verifyRegisterBlockSides(emitError, "conv sketch", mr, nr)))
    return failure();
  if (taps != "one" && taps != "row" && taps != "window")
    return emitError() << "conv sketch taps \"" << taps
                       << "\" is not known (expected \"one\", \"row\" or "
                          "\"window\")";
  if (loopOrder != "pf" && loopOrder != "fp" && loopOrder != "fcp")
    return emitError() << "conv sketch loop_order \"" << loopOrder
                       << "\" is not known (expected \"pf\", \"fp\" or "
                          "\"fcp\")";
  if (packInput != "none" && packInput != "kmajor_mr")
    return emitError() << "conv sketch pack_input \"" << packInput
                       << "\" is not a known layout (expected \"none\" or "
                          "\"kmajor_mr\")";
  if (packFilter != "none" && packFilter != "kmajor_nr")
    return emitError() << "conv sketch pack_filter \"" << packFilter
                       << "\" is not a known layout (expected \"kmajor_nr\" "
                          "or \"none\")";
  if (!ukernel || !target)
    return emitError() << "conv sketch needs a ukernel and a target";
  // The GEMM sketch's row prefetches are not offered for convolutions.
  if (ukernel.getPrefetchBCols() || ukernel.getPrefetchA())
    return emitError() << "conv sketch ukernel has no prefetch_b_cols or "
                          "prefetch_a (got "
                       << ukernel.getPrefetchBCols() << " and "
                       << ukernel.getPrefetchA() << ")";
  int64_t lanes = target.getF32Lanes();
  // In-place reads need the x86 emitter's strided rows (input) and masked
  // loads (filter); so does holding the block across the taps of a row.
  auto needsX86 = [&](StringRef what) -> LogicalResult {
    if (!target.getName().starts_with("x86"))
      return emitError() << "conv sketch " << what
                         << " needs an x86 target, got " << target.getName();
    if (ukernel.getEmitter() != "x86_gemm_fma")
      return emitError() << "conv sketch " << what
                         << " needs the x86_gemm_fma emitter, got '"
                         << ukernel.getEmitter() << "'";
    return success();
  };
  if (packInput == "none" && failed(needsX86("pack_input \"none\"")))
    return failure();
  if (taps == "row" || taps == "window") {
    if (failed(needsX86(("taps \"" + taps + "\"").str())))
      return failure();
    if (packInput != "none")
      return emitError() << "conv sketch taps \"" << taps
                         << "\" reads the input in place: it needs "
                            "pack_input \"none\", got \""
                         << packInput << "\"";
  }
  if (packFilter == "none") {
    if (failed(needsX86("pack_filter \"none\"")))
      return failure();
    if (nr > 7 * lanes)
      return emitError() << "conv sketch pack_filter \"none\" needs nr <= "
                         << 7 * lanes << ", got " << nr;
  }
  // Filter read in place below 512 bits: one register more for its mask.
  if (failed(verifyRegisterBlock(
          emitError, "conv sketch", mr, nr,
          /*extraRegisters=*/packFilter == "none" && lanes != 16 ? 1 : 0,
          ukernel, target)))
    return failure();
  if (source.empty())
    return emitError() << "conv sketch source (provenance) must not be empty";
  if (threads < 1 || threads > 1024)
    return emitError() << "conv sketch threads must be in [1, 1024], got "
                       << threads;
  if (epilogue) {
    // Only the x86 convolution kernel applies the steps as it stores the
    // block; RVV and NEON run their GEMM kernels per tap on packed panels.
    if (ukernel.getEmitter() != "x86_gemm_fma")
      return emitError() << "conv sketch epilogue needs the x86_gemm_fma "
                            "emitter (the convolution kernel with a fused "
                            "epilogue), got '"
                         << ukernel.getEmitter() << "'";
    for (Attribute step : epilogue.getSteps())
      if (auto text = dyn_cast<StringAttr>(step);
          text && text.getValue() == "bias_m")
        return emitError() << "conv sketch epilogue step \"bias_m\" has no "
                              "meaning on a convolution: its bias is per "
                              "output channel (\"bias_n\")";
    // The kernel's epilogue keeps one lane mask per vector of the block.
    int64_t maxVectors = lanes == 16 ? 7 : 10;
    if (nr > maxVectors * lanes)
      return emitError() << "conv sketch epilogue needs nr <= "
                         << maxVectors * lanes
                         << " (one mask register per vector), got " << nr;
  }
  return success();
}

ConvSketchAttr ConvSketchAttr::withEpilogue(EpilogueAttr epilogue) const {
  return ConvSketchAttr::get(getContext(), getMr(), getNr(), getCb(), getTaps(),
                             getLoopOrder(), getPackInput(), getPackFilter(),
                             getUkernel(), getTarget(), getSource(),
                             getThreads(), epilogue);
}

//===----------------------------------------------------------------------===//
// GpuSketchAttr
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::tensorop::gpuComputeCapability(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  chip.consume_back("a");
  int64_t sm;
  if (chip.getAsInteger(10, sm) || sm < 10)
    return std::nullopt;
  return sm;
}

int64_t mlir::tensorop::gemvThreadRegisters(StringRef precision,
                                            int64_t blockM, int64_t blockK) {
  int64_t elemBytes = precision == "f32" || precision == "tf32" ? 4 : 2;
  int64_t columns = 16 / elemBytes; // one 16-byte load of a B row
  return columns * blockM + blockM * blockK * elemBytes / 4 + 4 * blockK + 30;
}

/// The GEMV kernel's own rules (python_emitters/nvidia_gemv.py): block_m
/// rows (<= 8) x block_n columns (16, 32, 64) per CTA, chunks of block_k
/// rows (8, 16) per k-lane, warps_n warps (4, 8, 16) of one warp row, no
/// pipeline stages, tile order, persistent grid or consumers.
static std::optional<GpuSketchViolation>
findGemvViolation(const GpuSketchFields &s) {
  auto fail = [](StringRef field, const llvm::Twine &why) {
    return GpuSketchViolation{field, why.str()};
  };
  // tf32 is computed in full fp32 FMAs there (at least as precise).
  if (s.precision != "bf16" && s.precision != "f16" && s.precision != "f32" &&
      s.precision != "tf32")
    return fail("kernel",
                "the GEMV kernel takes bf16/f16/f32/tf32, not " + s.precision);
  if (s.blockM > 8)
    return fail("block_m", "GEMV rows per CTA must be 1..8, got " +
                               llvm::Twine(s.blockM));
  if (s.blockN != 16 && s.blockN != 32 && s.blockN != 64)
    return fail("block_n", "GEMV columns per CTA must be 16, 32 or 64, got " +
                               llvm::Twine(s.blockN));
  if (s.blockK != 8 && s.blockK != 16)
    return fail("block_k", "GEMV rows of B per k-lane chunk must be 8 or 16, "
                           "got " +
                               llvm::Twine(s.blockK));
  if (s.warpsM != 1)
    return fail("warps_m", "the GEMV kernel has one warp row (1), got " +
                               llvm::Twine(s.warpsM));
  if (s.warpsN != 4 && s.warpsN != 8 && s.warpsN != 16)
    return fail("warps_n", "GEMV warps per CTA must be 4, 8 or 16, got " +
                               llvm::Twine(s.warpsN));
  // Registers per thread (gemvThreadRegisters); the register file gives
  // 65536 / threads (at most 255) each.
  int64_t regs = gemvThreadRegisters(s.precision, s.blockM, s.blockK);
  int64_t budget = std::min<int64_t>(255, 65536 / (32 * s.warpsN));
  if (regs > budget)
    return fail("block_k", "a GEMV thread would need about " +
                               llvm::Twine(regs) + " registers (block_m " +
                               llvm::Twine(s.blockM) + ", block_k " +
                               llvm::Twine(s.blockK) + "), more than the " +
                               llvm::Twine(budget) + " of " +
                               llvm::Twine(s.warpsN) + " warps");
  if (s.consumers != 0)
    return fail("consumers", "the GEMV kernel has no consumer warpgroups (0)");
  if (s.stages != 2)
    return fail("stages", "the GEMV kernel has no shared-memory pipeline: 2 "
                          "(its loads in flight are block_k rows of B)");
  if (s.groupM != 1)
    return fail("group_m", "the GEMV kernel has no tile order (1)");
  if (s.ctas != 0)
    return fail("ctas", "the GEMV kernel is not persistent (0)");
  return std::nullopt;
}

/// The tf32 wgmma kernel (nvidia_gemm_wgmma.py -> nvidia_wgmma_tf32.py)
/// computes C^T = B^T A^T: block_m is wgmma's N extent (A from shared
/// memory, 32 tf32 = one 128-byte swizzle row of K per stage) and block_n
/// is split into 64-row blocks of C^T over the consumers, whose B^T
/// fragments live in registers (at most 128 accumulators per thread).
static std::optional<GpuSketchViolation>
findWgmmaTf32Violation(const GpuSketchFields &s) {
  auto fail = [](StringRef field, const llvm::Twine &why) {
    return GpuSketchViolation{field, why.str()};
  };
  if (s.blockK != 32)
    return fail("block_k", "must be 32 for tf32 (one 128-byte swizzle row)");
  // 16 and 32 for few rows (M <= 32), where a 64-row N extent would
  // compute mostly padding.
  if ((s.blockM % 64 && s.blockM != 16 && s.blockM != 32) || s.blockM > 256)
    return fail("block_m", "must be 16, 32, 64, 128, 192 or 256 for tf32 "
                           "(wgmma's N extent), got " +
                               llvm::Twine(s.blockM));
  if (s.blockN % (64 * s.consumers) || s.blockN > 256)
    return fail("block_n", "must be a multiple of 64 * consumers and at most "
                           "256 for tf32, got " +
                               llvm::Twine(s.blockN));
  if (s.blockN / s.consumers / 64 * s.blockM / 2 > 128)
    return fail("block_n", "block_m x block_n / consumers needs more than 128 "
                           "accumulator registers per thread for tf32");
  if (s.clusterM != 1 || s.clusterN != 1)
    return fail(s.clusterN != 1 ? "cluster_n" : "cluster_m",
                "the tf32 wgmma kernel runs without clusters");
  if (s.store != "global")
    return fail("store", "the tf32 wgmma kernel stores C from registers "
                         "(store = \"global\")");
  if (s.splitK != 1)
    return fail("split_k", "the tf32 wgmma kernel does not split K");
  return std::nullopt;
}

/// Whether the sketch is the bf16/f16 wgmma kernel for few rows
/// (python_emitters/tensorop_emit/nvidia_wgmma_fewrows.py: block_m 8, 16 or
/// 32, C^T = B^T A^T): GEMMs of at most 32 rows.
static bool isWgmmaFewRows(const GpuSketchFields &s) {
  return s.kernel == "wgmma" && (s.precision == "bf16" || s.precision == "f16") &&
         (s.blockM == 8 || s.blockM == 16 || s.blockM == 32);
}

/// Whether the sketch is the bf16/f16 wgmma kernel with a narrow tile
/// (block_n 16 or 32: B's box one 32- or 64-byte swizzle atom; up to 16
/// stages): GEMMs of at most 32 columns.
static bool isWgmmaFewCols(const GpuSketchFields &s) {
  return s.kernel == "wgmma" && (s.precision == "bf16" || s.precision == "f16") &&
         !isWgmmaFewRows(s) && (s.blockN == 16 || s.blockN == 32);
}

/// The bf16/f16 wgmma kernel for few rows (nvidia_wgmma_fewrows.py)
/// computes C^T = B^T A^T: block_m (8, 16 or 32) is wgmma's N extent and
/// block_n is split into 64-row blocks of C^T over the consumers. It runs
/// without clusters (split-K is a cluster of its own: split_k 2 or 4, the
/// common rules below) or the smem_tma store.
static std::optional<GpuSketchViolation>
findWgmmaFewRowsViolation(const GpuSketchFields &s) {
  auto fail = [](StringRef field, const llvm::Twine &why) {
    return GpuSketchViolation{field, why.str()};
  };
  if (s.blockK != 64)
    return fail("block_k", "must be 64 (one 128-byte swizzle row)");
  if (s.blockN % (64 * s.consumers) || s.blockN > 256)
    return fail("block_n", "must be a multiple of 64 * consumers and at most "
                           "256 with block_m " +
                               llvm::Twine(s.blockM) + " (few rows), got " +
                               llvm::Twine(s.blockN));
  if (s.clusterM != 1 || s.clusterN != 1)
    return fail(s.clusterN != 1 ? "cluster_n" : "cluster_m",
                "the few-rows wgmma kernel (block_m " + llvm::Twine(s.blockM) +
                    ") runs without clusters");
  if (s.store != "global")
    return fail("store", "the few-rows wgmma kernel (block_m " +
                             llvm::Twine(s.blockM) +
                             ") stores C from registers (store = \"global\")");
  return std::nullopt;
}

std::optional<GpuSketchViolation>
mlir::tensorop::findGpuSketchViolation(const GpuSketchFields &s, int64_t sm) {
  auto fail = [](StringRef field, const llvm::Twine &why) {
    return GpuSketchViolation{field, why.str()};
  };
  if (s.kernel != "wgmma" && s.kernel != "mma_sync" && s.kernel != "ffma" &&
      s.kernel != "gemv")
    return fail("kernel", "must be \"wgmma\", \"mma_sync\", \"ffma\" or "
                          "\"gemv\", got \"" +
                              s.kernel + "\"");
  if (s.precision != "bf16" && s.precision != "f16" &&
      s.precision != "tf32" && s.precision != "f32")
    return fail("precision", "must be \"bf16\", \"f16\", \"tf32\" or "
                             "\"f32\", got \"" +
                                 s.precision + "\"");
  for (auto [field, value] : {std::pair<StringRef, int64_t>{"block_m", s.blockM},
                              {"block_n", s.blockN},
                              {"block_k", s.blockK}})
    // The upper bound keeps every size computed from a tile (shared memory,
    // registers) far from int64_t overflow; no block holds 1024 rows.
    if (value < 1 || value > 1024)
      return fail(field, "must be in [1, 1024], got " + llvm::Twine(value));
  if (s.ctas < 0)
    return fail("ctas", "must be 0 (one CTA per tile) or positive, got " +
                            llvm::Twine(s.ctas));
  // store "splitk_ws": the narrow wgmma tile's split-K without clusters,
  // reduced through a global workspace by the last of a tile's units to
  // arrive (nvidia_gemm_wgmma.py, split_reduce "workspace"): any split of
  // 2..32, each slice a range of K.
  if (s.store == "splitk_ws") {
    if (!(s.kernel == "wgmma" && isWgmmaFewCols(s) &&
          (s.precision == "bf16" || s.precision == "f16")))
      return fail("store", "\"splitk_ws\" (split-K through a global "
                           "workspace) is the narrow bf16/f16 wgmma tile's "
                           "(block_n 16 or 32)");
    if (s.splitK < 2 || s.splitK > 32)
      return fail("split_k", "\"splitk_ws\" splits K in 2..32, got " +
                                 llvm::Twine(s.splitK));
  } else if (s.splitK != 1 && s.splitK != 2 && s.splitK != 4 &&
             s.splitK != 8) {
    return fail("split_k", "must be 1, 2 or 4, got " + llvm::Twine(s.splitK));
  }
  // Clusters of 8 (the portable maximum) only where a rank's share of the
  // tile is one 8-column group's row half (wgmma_splitk.py,
  // splitk_narrow_share): the narrow tile block_n 32.
  if (s.splitK == 8 && s.store != "splitk_ws" &&
      !(isWgmmaFewCols(s) && s.blockN == 32))
    return fail("split_k", "8 only on the narrow wgmma tile (block_n 32: "
                           "each rank stores one 8-column group's row "
                           "half); elsewhere 1, 2 or 4");
  if (s.kernel != "wgmma" && s.kernel != "ffma" && s.splitK != 1)
    return fail("split_k", "only the wgmma and ffma kernels split K (the "
                           "CTAs of a cluster add their partial tiles)");
  if (s.kernel == "ffma" && s.splitK != 1 && sm < 90)
    return fail("split_k", "the FFMA kernel splits K on thread-block "
                           "clusters (sm_90); the target is sm_" +
                               llvm::Twine(sm));
  if (s.splitK > 1 && (s.clusterM != 1 || s.clusterN != 1))
    return fail("split_k", "split-K is a cluster of its own: cluster_m and "
                           "cluster_n must be 1");
  if (s.kernel != "wgmma" && (s.clusterM != 1 || s.clusterN != 1))
    return fail(s.clusterN != 1 ? "cluster_n" : "cluster_m",
                "only the wgmma kernel uses thread-block clusters");
  if (s.kernel == "wgmma") {
    if (sm < 90)
      return fail("kernel", "wgmma needs sm_90a; the target is sm_" +
                                llvm::Twine(sm));
    if (s.precision == "f32")
      return fail("kernel", "plain fp32 has no wgmma (use ffma, or "
                            "tensorop.precision = \"tf32\")");
    if (s.consumers < 1 || s.consumers > 2)
      return fail("consumers", "must be 1 or 2");
    if (s.precision == "tf32") {
      if (std::optional<GpuSketchViolation> v = findWgmmaTf32Violation(s))
        return v;
    } else if (isWgmmaFewRows(s)) {
      if (std::optional<GpuSketchViolation> v = findWgmmaFewRowsViolation(s))
        return v;
    } else {
      if (s.blockK != 64)
        return fail("block_k", "must be 64 (one 128-byte swizzle row)");
      if (s.blockM % (64 * s.consumers))
        return fail("block_m", "must be 8, 16, 32 (few rows) or a multiple "
                               "of 64 * consumers");
      if (isWgmmaFewCols(s)) {
        // B's box is one 32- or 64-byte swizzle atom of block_n columns.
        bool storeOk = s.store == "global" || s.store == "splitk_ws";
        if (s.clusterM != 1 || s.clusterN != 1 || !storeOk)
          return fail(!storeOk              ? "store"
                      : s.clusterN != 1     ? "cluster_n"
                                            : "cluster_m",
                      "the narrow wgmma kernel (block_n " +
                          llvm::Twine(s.blockN) +
                          ") runs without clusters and stores C from "
                          "registers");
        // Each rank of a split tile stores a slice of 8-column groups, or,
        // split in twice as many ranks as groups, one group's row half:
        // split_k 2 and 4 at block_n 16, also 8 at 32 (checked above);
        // store "splitk_ws" any split (its units need no cluster).
      } else if (s.blockN % 64 || s.blockN > 256 || s.blockN < 64) {
        return fail("block_n", "must be 16, 32 (few columns), 64, 128, 192 "
                               "or 256");
      }
    }
    // Each factor is bounded before the product: an answer's 2^62 would
    // overflow it.
    if (s.clusterM < 1 || s.clusterN < 1 || s.clusterM > 2 ||
        s.clusterN > 2 || s.clusterM * s.clusterN > 2)
      return fail(s.clusterN > 1 ? "cluster_n" : "cluster_m",
                  "clusters of at most 2 CTAs (1x1, 2x1 or 1x2), got " +
                      llvm::Twine(s.clusterM) + "x" + llvm::Twine(s.clusterN));
    if (s.splitK == 4 && s.store != "splitk_ws" && s.consumers > 0 &&
        (s.blockM / s.consumers / 64) * (s.blockN / 2) > 96)
      return fail("split_k", "split_k 4 needs at most 96 accumulator "
                             "registers per consumer thread (block_n <= 192 "
                             "with 64 rows per consumer); more spill");
    if (s.ctas > 0 && s.ctas < s.splitK && s.store != "splitk_ws")
      return fail("ctas", "a grid of " + llvm::Twine(s.ctas) +
                              " CTAs cannot hold one split-K cluster");
    if (s.ctas > 0 && s.ctas < s.clusterM * s.clusterN)
      return fail("ctas", "a grid of " + llvm::Twine(s.ctas) +
                              " CTAs cannot hold one cluster");
  } else if (s.kernel == "mma_sync") {
    if (s.precision == "f32")
      return fail("kernel", "plain fp32 has no mma.sync (use ffma, or "
                            "tensorop.precision = \"tf32\")");
    if (s.warpsM < 1 || s.warpsN < 1 || s.warpsM > 16 || s.warpsN > 16 ||
        s.warpsM * s.warpsN > 16)
      return fail("warps_m", "warps_m x warps_n must be 1..16 warps");
    if (s.blockM % (16 * s.warpsM))
      return fail("block_m", "must be a multiple of 16 * warps_m");
    if (s.blockN % (16 * s.warpsN))
      return fail("block_n", "must be a multiple of 16 * warps_n");
  } else if (s.kernel == "gemv") {
    if (std::optional<GpuSketchViolation> v = findGemvViolation(s))
      return v;
  } else if (s.precision != "f32") {
    return fail("kernel", "ffma is the plain fp32 kernel; the sketch's "
                          "precision is " +
                              s.precision);
  } else {
    // python_emitters/nvidia_gemm_ffma.py: tiles of 32, 64 or 128 rows and
    // columns (and 128x256), k-tiles of 16, two buffers filled through
    // registers or 3-4 filled by cp.async.
    for (auto [field, value] :
         {std::pair<StringRef, int64_t>{"block_m", s.blockM},
          {"block_n", s.blockN}})
      if (value != 32 && value != 64 && value != 128 &&
          !(field == "block_n" && value == 256))
        return fail(field, "the FFMA kernel's tiles are 32, 64 or 128 "
                           "(block_n also 256), got " +
                               llvm::Twine(value));
    if (s.blockN == 256 && (s.blockM != 128 || s.stages < 3))
      return fail("block_n", "the FFMA kernel's 128x256 tile needs block_m "
                             "128 and 3 or 4 cp.async buffers, got " +
                                 llvm::Twine(s.blockM) + "x256 with " +
                                 llvm::Twine(s.stages) + " stages");
    if (s.blockK != 16)
      return fail("block_k", "the FFMA kernel steps K by 16, got " +
                                 llvm::Twine(s.blockK));
    if (s.stages > 4)
      return fail("stages", "the FFMA kernel has 2 shared-memory buffers "
                            "(through registers) or 3-4 (cp.async), got " +
                                llvm::Twine(s.stages));
  }
  if (s.store != "global" && s.store != "smem_tma" && s.store != "splitk_ws")
    return fail("store", "must be \"global\", \"smem_tma\" or "
                         "\"splitk_ws\", got \"" +
                             s.store + "\"");
  if (s.store == "smem_tma" && s.kernel != "wgmma")
    return fail("store", "\"smem_tma\" (stmatrix + TMA store) is the wgmma "
                         "kernel's; the '" +
                             s.kernel + "' kernel stores C from registers");
  // The few-rows kernel's stages are small (block_m + block_n rows of 128
  // bytes): up to 16 of them keep enough of B in flight. Checked before
  // any product with stages, which an answer may set to 2^62.
  int64_t maxStages =
      s.kernel == "wgmma" && (isWgmmaFewRows(s) || isWgmmaFewCols(s)) ? 16 : 8;
  if (s.stages < 2 || s.stages > maxStages)
    return fail("stages", "must be in [2, " + llvm::Twine(maxStages) + "]");
  if (s.kernel == "wgmma" && s.splitK > 1 && s.store != "splitk_ws" &&
      s.stages * (s.blockM + s.blockN) * 128 < s.blockM * s.blockN * 4)
    return fail("stages", "split_k's fp32 partial tile (" +
                              llvm::Twine(s.blockM * s.blockN * 4) +
                              " bytes) overlays the stages: " +
                              llvm::Twine(s.stages) + " stages of " +
                              llvm::Twine((s.blockM + s.blockN) * 128) +
                              " bytes are too few");
  if (s.groupM < 1 || s.groupM > 64)
    return fail("group_m", "must be in [1, 64]");
  return std::nullopt;
}

LogicalResult GpuSketchAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef kernel,
    StringRef precision, int64_t blockM, int64_t blockN, int64_t blockK,
    int64_t warpsM, int64_t warpsN, int64_t consumers, int64_t stages,
    int64_t groupM, int64_t ctas, TargetAttr target, StringRef source,
    int64_t clusterM, int64_t clusterN, EpilogueAttr epilogue,
    StringRef store, int64_t splitK) {
  if (!target)
    return emitError() << "gpu_sketch needs a target";
  std::optional<int64_t> sm = gpuComputeCapability(target.getCpu());
  if (!sm)
    return emitError() << "gpu_sketch field 'target': '" << target.getName()
                       << "' is not an NVIDIA target (its cpu is '"
                       << target.getCpu() << "', not an sm_<N> chip)";
  GpuSketchFields fields{kernel, precision, blockM,    blockN,
                         blockK, warpsM,    warpsN,    consumers,
                         stages, groupM,    ctas,      clusterM,
                         clusterN,  store,  splitK};
  if (std::optional<GpuSketchViolation> v = findGpuSketchViolation(fields, *sm))
    return emitError() << "gpu_sketch field '" << v->field << "': " << v->why;
  if (source.empty())
    return emitError() << "gpu_sketch source (provenance) must not be empty";
  if (epilogue && !gpuKernelAppliesEpilogues(kernel))
    return emitError() << "gpu_sketch field 'epilogue': the '" << kernel
                       << "' kernel has no fused epilogue (wgmma and "
                          "mma_sync have one)";
  if (epilogue && kernel == "wgmma" && (precision == "tf32" || blockM < 64))
    return emitError() << "gpu_sketch field 'epilogue': the wgmma kernel for "
                          "tf32 or few rows (block_m < 64, C^T = B^T A^T) "
                          "has no fused epilogue";
  return success();
}

GpuSketchAttr GpuSketchAttr::withEpilogue(EpilogueAttr epilogue) const {
  return GpuSketchAttr::get(getContext(), getKernel(), getPrecision(),
                            getBlockM(), getBlockN(), getBlockK(), getWarpsM(),
                            getWarpsN(), getConsumers(), getStages(),
                            getGroupM(), getCtas(), getTarget(), getSource(),
                            getClusterM(), getClusterN(), epilogue,
                            getStore(), getSplitK());
}

//===----------------------------------------------------------------------===//
// UKernelOp
//===----------------------------------------------------------------------===//

LogicalResult UKernelOp::verify() {
  auto elem = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementType();
  };
  // A and B: fp32, or i32 elements that each hold a bf16 k pair; either
  // may also be a bf16 view read in place as pairs (a row-major A's rows,
  // B packed once, tensorop.b_k_pairs: the kernel takes only addresses).
  auto pairElem = [](Type t) { return t.isInteger(32) || t.isBF16(); };
  bool pairs = pairElem(elem(getA())) && pairElem(elem(getB()));
  if (!(pairs || (elem(getA()).isF32() && elem(getB()).isF32())) ||
      !elem(getC()).isF32())
    return emitOpError("operands must be f32 memrefs (A and B may be i32 "
                       "memrefs of bf16 k pairs, or bf16 views of pairs)");
  auto cType = cast<MemRefType>(getC().getType());
  if (cType.getRank() != 2)
    return emitOpError("C must be a rank-2 memref, got ") << cType;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cType.getStridesAndOffset(strides, offset)) || strides[1] != 1)
    return emitOpError("C must have unit inner stride, got ") << cType;
  if (getMr() <= 0 || getNr() <= 0)
    return emitOpError("mr and nr must be positive");
  if (getAsmString().empty())
    return emitOpError("carries no emitted code");
  if (getAsmDialect() != "att" && getAsmDialect() != "intel")
    return emitOpError("asm dialect must be \"att\" or \"intel\", got \"")
           << getAsmDialect() << "\"";
  if ((getBias() || getResidual() || getOut()) && !getEpilogue())
    return emitOpError(
        "bias, residual and out operands need an epilogue block");
  // Leading integer-register outputs of the constraint string ("=r" or
  // "=&r"), one per asm operand.
  SmallVector<StringRef> parts;
  getConstraints().split(parts, ',');
  unsigned outputs = 0;
  while (outputs < parts.size() &&
         (parts[outputs] == "=r" || parts[outputs] == "=&r"))
    ++outputs;
  if (Value panel = getBPanelOut()) {
    // The code stores the panel through its eighth operand: a kernel
    // emitted without it (seven operands, or an epilogue block's eighth)
    // would take the panel's address as something else, or not at all.
    if (getEpilogue())
      return emitOpError("b_panel_out does not go with an epilogue block");
    auto panelType = cast<MemRefType>(panel.getType());
    if (!panelType.getElementType().isF32() || !elem(getB()).isF32())
      return emitOpError("b_panel_out needs an f32 B and an f32 panel, got ")
             << panelType;
    if (outputs != 8 + (getAStrideOperand() ? 1 : 0))
      return emitOpError("b_panel_out needs a kernel emitted for it (8 asm "
                         "operands, store_b_panel), but '")
             << getKernelName() << "' declares " << outputs;
  }
  // The code reads the rows of an operand whose stride it takes at run
  // time: f32 rows with unit inner stride.
  auto f32Rows = [](Value v) {
    auto type = cast<MemRefType>(v.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    return type.getRank() == 2 && type.getElementType().isF32() &&
           succeeded(type.getStridesAndOffset(strides, offset)) &&
           strides[1] == 1;
  };
  if (getAStrideOperand() && !f32Rows(getA()))
    return emitOpError("a_stride_operand needs an f32 A with unit inner "
                       "stride, got ")
           << getA().getType();
  if (getBStrideOperand() && (!f32Rows(getB()) || getBPanelOut()))
    return emitOpError("b_stride_operand needs an f32 B with unit inner "
                       "stride and no b_panel_out, got ")
           << getB().getType();
  if (getAStrideOperand() || getBStrideOperand()) {
    // The kernel takes one operand more per run-time stride, after the
    // others.
    unsigned expected = kNumUKernelOperands + (getEpilogue() ? 1 : 0) +
                        (getBPanelOut() ? 1 : 0) +
                        (getAStrideOperand() ? 1 : 0) +
                        (getBStrideOperand() ? 1 : 0);
    if (outputs != expected)
      return emitOpError("a run-time row stride needs a kernel emitted for "
                         "it (")
             << expected << " asm operands, a_stride_operand / "
             << "b_stride_operand), but '" << getKernelName() << "' declares "
             << outputs;
  }
  if (Value out = getOut()) {
    auto outType = cast<MemRefType>(out.getType());
    SmallVector<int64_t> outStrides;
    int64_t outOffset;
    if (outType.getRank() != 2 ||
        !(outType.getElementType().isBF16() ||
          outType.getElementType().isF16()) ||
        failed(outType.getStridesAndOffset(outStrides, outOffset)) ||
        outStrides[1] != 1)
      return emitOpError("out must be a rank-2 bf16 or f16 memref with unit "
                         "inner stride, got ")
             << outType;
  }
  return success();
}
