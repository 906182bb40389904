//===- EpilogueMatch.cpp - Read an elementwise consumer as epilogue steps -===//
//
// The body of an elementwise linalg.generic is walked from the matmul's
// value `x` to the yield as a chain of steps:
//  - `x + bias` / `x + residual` (an add of the bias or residual block
//    argument) and `x * c` (a constant) are read structurally;
//  - anything else must be a unary region: ops that depend on x and
//    constants only, closed (nothing outside uses its inner values). Which
//    function the region computes is decided numerically: it is evaluated in
//    double on a grid of inputs and compared with ReLU, tanh, sigmoid, SiLU,
//    GELU (tanh and erf), a scale and a clamp. This recognises the many ways
//    models spell them (max vs. cmp+select, x*0.5*(1+erf(..)) vs.
//    (1+erf(..))*x/2, 1/(1+exp(-x)) vs. exp(x)/(1+exp(x)), ...) without a
//    pattern per spelling; a region that is none of them is not fused.
// Regions are cut at the latest point that is identifiable, so "ReLU then
// times 2" is two steps and GELU's many ops are one.
// Operands and output have C's element type (f32 on CPUs; bf16 or f16 too
// for the NVIDIA kernels, whose epilogue runs on fp32 accumulators): a body
// that widens its values to f32 (arith.extf) and narrows the result back
// (arith.truncf) is read through those conversions.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// A float constant `v` holds, if it is one.
std::optional<double> constantOf(Value v) {
  FloatAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

/// Evaluates `ops` (in order) with `x` for `input`; nullopt on an op it
/// does not know.
std::optional<double> evaluate(ArrayRef<Operation *> ops, Value input,
                               double x, Value output) {
  DenseMap<Value, double> env;
  env[input] = x;
  auto get = [&](Value v) -> std::optional<double> {
    if (auto it = env.find(v); it != env.end())
      return it->second;
    return constantOf(v);
  };
  for (Operation *op : ops) {
    SmallVector<double, 3> args;
    for (Value operand : op->getOperands()) {
      if (operand.getType().isInteger(1)) {
        std::optional<double> b = get(operand);
        if (!b)
          return std::nullopt;
        args.push_back(*b);
        continue;
      }
      std::optional<double> v = get(operand);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    std::optional<double> r;
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](arith::ConstantOp c) { r = constantOf(c.getResult()); })
        .Case([&](arith::AddFOp) { r = args[0] + args[1]; })
        .Case([&](arith::SubFOp) { r = args[0] - args[1]; })
        .Case([&](arith::MulFOp) { r = args[0] * args[1]; })
        .Case([&](arith::DivFOp) { r = args[0] / args[1]; })
        .Case([&](arith::NegFOp) { r = -args[0]; })
        .Case<arith::MaximumFOp, arith::MaxNumFOp>(
            [&](auto) { r = std::max(args[0], args[1]); })
        .Case<arith::MinimumFOp, arith::MinNumFOp>(
            [&](auto) { r = std::min(args[0], args[1]); })
        .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { r = args[0]; })
        .Case([&](arith::SelectOp) { r = args[0] != 0 ? args[1] : args[2]; })
        .Case([&](arith::CmpFOp cmp) {
          double a = args[0], b = args[1];
          using P = arith::CmpFPredicate;
          switch (cmp.getPredicate()) {
          case P::OGT:
          case P::UGT:
            r = a > b;
            break;
          case P::OGE:
          case P::UGE:
            r = a >= b;
            break;
          case P::OLT:
          case P::ULT:
            r = a < b;
            break;
          case P::OLE:
          case P::ULE:
            r = a <= b;
            break;
          default:
            break;
          }
        })
        .Case([&](math::TanhOp) { r = std::tanh(args[0]); })
        .Case([&](math::ErfOp) { r = std::erf(args[0]); })
        .Case([&](math::ExpOp) { r = std::exp(args[0]); })
        .Case([&](math::Exp2Op) { r = std::exp2(args[0]); })
        .Case([&](math::ExpM1Op) { r = std::expm1(args[0]); })
        .Case([&](math::LogOp) { r = std::log(args[0]); })
        .Case([&](math::Log1pOp) { r = std::log1p(args[0]); })
        .Case([&](math::SqrtOp) { r = std::sqrt(args[0]); })
        .Case([&](math::RsqrtOp) { r = 1 / std::sqrt(args[0]); })
        .Case([&](math::AbsFOp) { r = std::fabs(args[0]); })
        .Case([&](math::PowFOp) { r = std::pow(args[0], args[1]); })
        .Default([&](Operation *) {});
    if (!r)
      return std::nullopt;
    env[op->getResult(0)] = *r;
  }
  return get(output);
}

/// Which unary step `f` (x -> f(x), in double) is, if any.
std::optional<EpilogueStep>
identify(llvm::function_ref<std::optional<double>(double)> f) {
  SmallVector<double> xs;
  for (int i = -160; i <= 160; ++i)
    xs.push_back(i * 0.05 + 0.013);
  for (double x : {0.0, 1e-3, -1e-3, 12.0, -12.0, 30.0, -30.0})
    xs.push_back(x);
  SmallVector<double> ys;
  for (double x : xs) {
    std::optional<double> y = f(x);
    if (!y || std::isnan(*y))
      return std::nullopt;
    ys.push_back(*y);
  }
  auto matches = [&](const EpilogueStep &s) {
    for (auto [x, y] : llvm::zip(xs, ys)) {
      double want = s.apply(x);
      if (!(std::fabs(y - want) <= 1e-5 * std::max(1.0, std::fabs(want))))
        return false;
    }
    return true;
  };
  using K = EpilogueStep::Kind;
  for (K kind : {K::Relu, K::Tanh, K::Sigmoid, K::Silu, K::GeluTanh,
                 K::GeluErf})
    if (matches(EpilogueStep{kind}))
      return EpilogueStep{kind};
  // A scale by f(1); a clamp between f(-FLT_MAX) and f(FLT_MAX) (a bound
  // that is not there comes out as +-FLT_MAX, which changes no finite
  // value).
  std::optional<double> one = f(1.0);
  if (one && std::isfinite(*one) && matches(EpilogueStep{K::Scale, *one}))
    return EpilogueStep{K::Scale, *one};
  constexpr double kMax = std::numeric_limits<float>::max();
  std::optional<double> lo = f(-kMax), hi = f(kMax);
  if (lo && hi && std::isfinite(*lo) && std::isfinite(*hi) && *lo < *hi &&
      matches(EpilogueStep{K::Clamp, *lo, *hi}))
    return EpilogueStep{K::Clamp, *lo, *hi};
  return std::nullopt;
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "'";
  return s;
}
} // namespace

FailureOr<EpilogueMatch> mlir::tensorop::matchEpilogue(linalg::GenericOp g,
                                                       Value c,
                                                       std::string &why,
                                                       EpilogueOutput output,
                                                       bool narrowOutput) {
  bool conv = output == EpilogueOutput::ConvNhwf;
  unsigned rank = conv ? 4 : 2;
  if (g.getNumLoops() != rank || g.getNumParallelLoops() != rank ||
      g.getNumDpsInits() != 1 || g->getNumResults() > 1) {
    why = conv ? "it is not a 4-D elementwise op with one output"
               : "it is not a 2-D elementwise op with one output";
    return failure();
  }
  std::string producer = conv ? "the convolution's" : "the matmul's";
  MLIRContext *ctx = g.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  // A convolution's bias is per output channel (the last dimension); there
  // is no bias along its pixels.
  AffineMap rowMap =
      conv ? AffineMap() : AffineMap::get(2, 0, getAffineDimExpr(0, ctx));
  AffineMap colMap = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
  OpOperand *init = g.getDpsInitOperand(0);
  Type elem = getElementTypeOrSelf(c.getType());
  std::string elemName;
  {
    llvm::raw_string_ostream os(elemName);
    os << elem;
  }
  // An fp32 C narrowed to bf16 / f16 by this consumer (an output step).
  Type outElem = getElementTypeOrSelf(init->get().getType());
  bool narrows = narrowOutput && !conv && elem.isF32() &&
                 (outElem.isBF16() || outElem.isF16());
  if (g.getMatchingIndexingMap(init) != id || (outElem != elem && !narrows)) {
    why = conv ? "its output is not an " + elemName +
                     " N x OH x OW x F with the identity map"
               : "its output is not an " + elemName +
                     " M x N (C's type) with the identity map";
    return failure();
  }
  EpilogueMatch m;
  Block &body = g.getRegion().front();
  BlockArgument xArg, biasArg, residualArg;
  bool inPlace = init->get() == c;
  for (OpOperand *in : g.getDpsInputOperands()) {
    unsigned i = in->getOperandNumber();
    AffineMap map = g.getMatchingIndexingMap(in);
    auto type = dyn_cast<ShapedType>(in->get().getType());
    if (!type || type.getElementType() != elem) {
      why = "input #" + std::to_string(i) + " is not an " + elemName +
            " tensor or memref (C's type)";
      return failure();
    }
    // An input the body never reads plays no part.
    if (body.getArgument(i).use_empty() && in->get() != c)
      continue;
    // A second read of C as bias or residual would make the microkernel
    // read C while it writes it.
    if (in->get() == c && m.cInput >= 0) {
      why = "it reads the matmul's result more than once";
      return failure();
    }
    if (in->get() == c && map == id && m.cInput < 0) {
      m.cInput = i;
      xArg = body.getArgument(i);
    } else if ((map == colMap || (rowMap && map == rowMap)) &&
               m.biasInput < 0) {
      m.biasInput = i;
      biasArg = body.getArgument(i);
    } else if (map == id && m.residualInput < 0) {
      m.residualInput = i;
      residualArg = body.getArgument(i);
    } else {
      why = "input #" + std::to_string(i) +
            (conv ? " is neither a bias per output channel nor one N x OH x "
                    "OW x F residual"
                  : " is neither a bias along N or M nor one M x N residual");
      return failure();
    }
  }
  BlockArgument outArg = body.getArgument(g.getNumDpsInputs());
  if (!xArg) {
    if (!inPlace) {
      why = "it does not read " + producer + " result";
      return failure();
    }
    xArg = outArg;
  } else if (!outArg.use_empty()) {
    why =
        "its body reads its output operand as well as " + producer + " result";
    return failure();
  }
  bool biasAlongN = m.biasInput >= 0 &&
                    g.getMatchingIndexingMap(g.getDpsInputOperand(
                        m.biasInput)) == colMap;
  Value yielded = body.getTerminator()->getOperand(0);
  if (narrows) {
    // One rounding, at the end: the yield must be the body's only truncf,
    // from f32 (a truncf midway would round twice where the kernel rounds
    // once).
    auto trunc = yielded.getDefiningOp<arith::TruncFOp>();
    unsigned truncs = 0;
    body.walk([&](arith::TruncFOp) { ++truncs; });
    if (!trunc || !trunc.getIn().getType().isF32() || truncs != 1) {
      why = "it narrows the f32 result other than by one arith.truncf of "
            "the final value (the kernel rounds once, as it stores)";
      return failure();
    }
  }

  // `v` is the block argument `arg` itself or its only use, widened.
  auto isOperand = [](Value v, BlockArgument arg) {
    if (!arg || !arg.hasOneUse())
      return false;
    if (v == arg)
      return true;
    auto ext = v.getDefiningOp<arith::ExtFOp>();
    return ext && ext.getIn() == arg && v.hasOneUse();
  };

  // Walk from x to the yield.
  Value cur = xArg;
  DenseSet<Operation *> used;
  while (cur != yielded) {
    SmallVector<Operation *> users(cur.getUsers().begin(),
                                   cur.getUsers().end());
    if (users.empty()) {
      why = producer + " value does not reach the yield";
      return failure();
    }
    // A widening or narrowing conversion of the running value computes
    // nothing: the kernel's steps run in fp32 anyway.
    if (users.size() == 1 && isa<arith::ExtFOp, arith::TruncFOp>(users[0])) {
      cur = users[0]->getResult(0);
      continue;
    }
    // x + bias, x + residual, x * constant: one user, read structurally.
    if (users.size() == 1 && users[0]->getNumOperands() == 2 &&
        cur.hasOneUse()) {
      Operation *u = users[0];
      Value other = u->getOperand(0) == cur ? u->getOperand(1)
                                            : u->getOperand(0);
      if (isa<arith::AddFOp>(u) && isOperand(other, biasArg)) {
        m.steps.push_back(EpilogueStep{biasAlongN ? EpilogueStep::BiasN
                                                  : EpilogueStep::BiasM});
        cur = u->getResult(0);
        continue;
      }
      if (isa<arith::AddFOp>(u) && isOperand(other, residualArg)) {
        m.steps.push_back(EpilogueStep{EpilogueStep::Residual});
        cur = u->getResult(0);
        continue;
      }
    }
    // A unary region: ops after cur's definition whose operands are cur,
    // constants or the region's own results.
    llvm::SetVector<Operation *> region;
    DenseSet<Value> inRegion{cur};
    for (Operation &op : body.without_terminator()) {
      if (op.getNumResults() != 1)
        continue;
      bool dependsOnCur = false, allKnown = true;
      for (Value v : op.getOperands()) {
        if (inRegion.contains(v))
          dependsOnCur = true;
        else if (!constantOf(v) && !v.getDefiningOp<arith::ConstantOp>())
          allKnown = false;
      }
      if (dependsOnCur && allKnown) {
        region.insert(&op);
        inRegion.insert(op.getResult(0));
      }
    }
    // Cut points: results whose backward slice within the region is closed
    // (every user of cur and of the slice's inner values is in the slice).
    // The latest identifiable one wins.
    std::optional<EpilogueStep> step;
    Value next;
    for (Operation *end : llvm::reverse(region)) {
      llvm::SetVector<Operation *> slice;
      SmallVector<Operation *> work{end};
      while (!work.empty()) {
        Operation *op = work.pop_back_val();
        if (!slice.insert(op))
          continue;
        for (Value v : op->getOperands())
          if (Operation *def = v.getDefiningOp())
            if (region.contains(def))
              work.push_back(def);
      }
      auto closed = [&](Value v, Operation *self) {
        return llvm::all_of(v.getUsers(), [&](Operation *u) {
          return slice.contains(u) && u != self;
        });
      };
      if (!closed(cur, nullptr))
        continue;
      if (!llvm::all_of(slice, [&](Operation *op) {
            return op == end || closed(op->getResult(0), op);
          }))
        continue;
      SmallVector<Operation *> ordered;
      for (Operation *op : region)
        if (slice.contains(op))
          ordered.push_back(op);
      Value out = end->getResult(0);
      step = identify([&](double x) {
        return evaluate(ordered, cur, x, out);
      });
      if (step) {
        next = out;
        break;
      }
    }
    if (!step) {
      Operation *first = users.front();
      for (Operation *u : users)
        if (u->isBeforeInBlock(first))
          first = u;
      why = "the ops from " + describe(first) +
            " on compute none of: bias, residual, scale, clamp, ReLU, tanh, "
            "sigmoid, SiLU, GELU (tanh or erf)";
      return failure();
    }
    m.steps.push_back(*step);
    cur = next;
  }
  if (narrows)
    m.steps.push_back(EpilogueStep{outElem.isBF16() ? EpilogueStep::ToBF16
                                                    : EpilogueStep::ToF16});
  if (m.steps.empty()) {
    why = "it only copies " + producer + " result";
    return failure();
  }
  // Operand steps must have consumed their operands.
  bool readsBias = llvm::any_of(m.steps, [](const EpilogueStep &s) {
    return s.kind == EpilogueStep::BiasN || s.kind == EpilogueStep::BiasM;
  });
  bool readsResidual = llvm::any_of(m.steps, [](const EpilogueStep &s) {
    return s.kind == EpilogueStep::Residual;
  });
  if ((biasArg && !readsBias) || (residualArg && !readsResidual)) {
    why = "an input is used other than added to " + producer + " value";
    return failure();
  }
  std::string stepsWhy = checkEpilogueSteps(m.steps);
  if (!stepsWhy.empty()) {
    why = stepsWhy;
    return failure();
  }
  return m;
}

namespace {
/// hoistBefore with one dominance computation.
bool hoistAbove(Value v, Operation *producer, DominanceInfo &dominance) {
  if (dominance.properlyDominates(v, producer))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != producer->getBlock() ||
      def->getNumRegions() != 0)
    return false;
  // A restrict to_tensor's buffer is written by nothing else in the tensor
  // program, so reading it earlier reads the same values.
  auto toTensor = dyn_cast<bufferization::ToTensorOp>(def);
  if (!isMemoryEffectFree(def) && !(toTensor && toTensor.getRestrict()))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistAbove(operand, producer, dominance))
      return false;
  def->moveBefore(producer);
  return true;
}
} // namespace

bool mlir::tensorop::isElementwiseCandidate(linalg::LinalgOp op) {
  return isa<linalg::GenericOp>(op) || linalg::isElementwise(op);
}

FailureOr<linalg::GenericOp>
mlir::tensorop::genericForm(RewriterBase &rewriter, linalg::LinalgOp op,
                            bool &copied) {
  copied = false;
  if (auto g = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return g;
  rewriter.setInsertionPoint(op);
  Operation *copy = rewriter.clone(*op);
  FailureOr<linalg::GenericOp> g =
      linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(copy));
  if (failed(g)) {
    rewriter.eraseOp(copy);
    return failure();
  }
  copied = true;
  return *g;
}

bool mlir::tensorop::hoistBefore(Value value, Operation *producer) {
  DominanceInfo dominance(producer->getParentOp());
  return hoistAbove(value, producer, dominance);
}

/// The chain tensorop-fuse-epilogues marked for `op`: the marked
/// linalg.generic ops after it in its block that write `c` in place, up to
/// the first other op that mentions `c` (which may read or overwrite it).
/// Found only when each still reads as an epilogue and together they
/// compute `epilogue`'s steps.
std::optional<FusedChain>
mlir::tensorop::findFusedChain(Operation *op, Value c, EpilogueAttr epilogue,
                               EpilogueOutput output) {
  FusedChain chain;
  SmallVector<EpilogueStep> steps;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto g = dyn_cast<linalg::GenericOp>(next);
    bool mentionsC = llvm::is_contained(next->getOperands(), c);
    if (!g || !g->hasAttr(kFusedEpilogueAttrName)) {
      if (mentionsC)
        break;
      continue;
    }
    // A narrowing consumer (output step) reads C and writes its own
    // 16-bit output; it ends the chain.
    Type outElem = getElementTypeOrSelf(g.getDpsInitOperand(0)->get().getType());
    bool narrows = mentionsC && output == EpilogueOutput::Matmul &&
                   (outElem.isBF16() || outElem.isF16()) &&
                   getElementTypeOrSelf(c.getType()).isF32();
    if (g.getDpsInitOperand(0)->get() != c && !narrows) {
      if (mentionsC)
        break;
      continue; // Another matmul's.
    }
    if (!g.hasPureBufferSemantics())
      return std::nullopt;
    std::string why;
    FailureOr<EpilogueMatch> m =
        matchEpilogue(g, c, why, output, /*narrowOutput=*/narrows);
    if (failed(m))
      return std::nullopt;
    if (narrows) {
      // The kernel writes the output's rows with unit inner stride.
      chain.out = g.getDpsInitOperand(0)->get();
      auto type = cast<MemRefType>(chain.out.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) ||
          strides.back() != 1)
        return std::nullopt;
    }
    if (m->biasInput >= 0) {
      OpOperand *bias = g.getDpsInputOperand(m->biasInput);
      chain.bias = bias->get();
      // (A convolution's bias is per output channel: its GEMM's N.)
      chain.biasAlongN = output == EpilogueOutput::ConvNhwf ||
                         g.getMatchingIndexingMap(bias).getResult(0) ==
                             getAffineDimExpr(1, op->getContext());
    }
    // The microkernel reads the residual's rows with unit inner stride.
    if (m->residualInput >= 0) {
      chain.residual = g.getDpsInputOperand(m->residualInput)->get();
      auto type = cast<MemRefType>(chain.residual.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) ||
          strides.back() != 1)
        return std::nullopt;
    }
    llvm::append_range(steps, m->steps);
    chain.ops.push_back(g);
    if (narrows)
      break;
  }
  // With an output step the kernel leaves C with partial sums (or, with one
  // K block, untouched): only a buffer of the GEMM's own may be C then (the
  // f32 result the importer's form narrows, bufferized: an alloc that only
  // its zero fill, the matmul, the chain and deallocation use).
  if (chain.out) {
    // (A view: tensorop-bind-workspace placed that alloc in the caller's
    // workspace.)
    Operation *def = c.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocOp, memref::ViewOp>(def))
      return std::nullopt;
    // The kernel writes the output where the matmul runs: it must exist
    // there (a static alloc after the matmul moves up).
    DominanceInfo dominance(op->getParentOp());
    if (!dominance.properlyDominates(chain.out, op)) {
      auto outAlloc = chain.out.getDefiningOp<memref::AllocOp>();
      if (!outAlloc || outAlloc->getNumOperands() != 0 ||
          outAlloc->getBlock() != op->getBlock())
        return std::nullopt;
      outAlloc->moveBefore(op);
    }
    // (What runs before the matmul, such as its zero fill, sees C as the
    // program wrote it.)
    for (Operation *user : c.getUsers()) {
      if (user->getBlock() == op->getBlock() && user->isBeforeInBlock(op))
        continue;
      bool inChain = llvm::any_of(chain.ops, [&](linalg::GenericOp g) {
        return g.getOperation() == user;
      });
      if (user != op && !inChain &&
          !isa<memref::DeallocOp, bufferization::DeallocOp,
               memref::ExtractStridedMetadataOp>(user))
        return std::nullopt;
    }
  }
  SmallVector<std::string> want, got;
  for (const EpilogueStep &s : epilogueSteps(epilogue))
    want.push_back(s.text());
  for (const EpilogueStep &s : steps)
    got.push_back(s.text());
  if (chain.ops.empty() || want != got)
    return std::nullopt;
  return chain;
}

EpilogueAttr mlir::tensorop::epilogueAttr(MLIRContext *ctx,
                                          ArrayRef<EpilogueStep> steps) {
  SmallVector<Attribute> texts;
  for (const EpilogueStep &s : steps)
    texts.push_back(StringAttr::get(ctx, s.text()));
  return EpilogueAttr::get(ctx, ArrayAttr::get(ctx, texts));
}

SmallVector<EpilogueStep> mlir::tensorop::epilogueSteps(EpilogueAttr attr) {
  SmallVector<EpilogueStep> steps;
  for (Attribute a : attr.getSteps()) {
    std::string why;
    if (std::optional<EpilogueStep> s =
            parseEpilogueStep(cast<StringAttr>(a).getValue(), why))
      steps.push_back(*s);
  }
  return steps;
}
