//===- AdvisorSweep.cpp - The builtin advisors propose what emitters take -===//
//
// A property test: for thousands of static GEMM shapes on one target, the
// builtin advisor's choice goes through the sketch verifier and the
// target's emitter exactly as the pass sends it (the same request builder,
// the same in-place-row rule for A and B), and any refusal on the way is a
// failure that names the shape. Specs repeat across shapes, so each distinct
// spec runs its emitter once. Every kernel emitted also goes through the
// allowlist model-written code must pass (checkMicrokernelCode,
// checkPtxKernelCode), which guards it against false positives.
//
//   tensorop-advisor-sweep --target=x86-avx512
//   tensorop-advisor-sweep --target=riscv-rvv --vlen=256
//   tensorop-advisor-sweep --target=nvidia-sm90 --gpu-emitter-samples=40
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Emitter.h"
#include "tensorop/Emitters/UKernelOperands.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuEmitter.h"
#include "tensorop/Transforms/MatmulSupport.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <iterator>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::tensorop;
namespace cl = llvm::cl;

static cl::opt<std::string> targetName("target", cl::desc("target to sweep"));
static cl::opt<int64_t>
    vlen("vlen", cl::desc("riscv-rvv: the VLEN the kernels assume (128, 256)"),
         cl::init(0));
static cl::opt<int64_t> cube("cube",
                             cl::desc("every M, N, K in 1..cube (CPU)"),
                             cl::init(64));
static cl::list<int64_t> cubeEmitK(
    "cube-emit-k",
    cl::desc("CPU: the K of the cube whose kernels are emitted (every K is "
             "advised and verified); default 1,2,3,5,8,16,31,64"),
    cl::CommaSeparated);
static cl::opt<int64_t> gpuCubeStep(
    "gpu-cube-step",
    cl::desc("GPU: M, N, K in 1..cube in steps of this (advisor and verifier)"),
    cl::init(3));
static cl::opt<unsigned> gpuEmitterSamples(
    "gpu-emitter-samples",
    cl::desc("GPU: cube shapes per precision whose kernel is emitted (every "
             "special shape is)"),
    cl::init(6));
static cl::opt<std::string> checkPtxFile(
    "check-ptx",
    cl::desc("Instead of a sweep: check the PTX kernel body in this file "
             "with the GPU allowlist (for tests)"));
static cl::opt<unsigned> maxFailures("max-failures",
                                     cl::desc("stop after this many"),
                                     cl::init(20));

namespace {
struct Shape {
  int64_t m, n, k;
  bool ta = false, tb = false;
};

/// Shapes beyond the cube: primes, very long K, huge M and N, transposes.
std::vector<Shape> specialShapes(bool gpu) {
  std::vector<Shape> shapes;
  const int64_t primes[] = {67, 97, 127, 131, 257, 509, 1021, 2039, 4093, 8191};
  for (int64_t p : primes)
    for (auto [m, n, k] : {std::tuple{p, p, p}, std::tuple{p, int64_t(1), p},
                           std::tuple{int64_t(1), p, p},
                           std::tuple{p, p, int64_t(1)},
                           std::tuple{p, int64_t(7), int64_t(13)}})
      shapes.push_back({m, n, k});
  const int64_t longK[] = {4096,     65537,          1 << 20, (1 << 20) + 1,
                           4194304,  4194305,        1 << 24, (1 << 24) + 1,
                           1LL << 30, (1LL << 31) + 7};
  for (int64_t k : longK)
    for (int64_t mn : {1, 2, 7, 16, 64})
      shapes.push_back({mn, mn == 2 ? 16 : mn, k});
  const int64_t huge[] = {4194305, 1 << 20, (1 << 20) + 1, 1 << 24,
                          (1LL << 31) + 11, (1LL << 40) + 3};
  for (int64_t h : huge)
    for (int64_t s : {1, 2, 16, 67}) {
      shapes.push_back({h, s, s});
      shapes.push_back({s, h, s});
      shapes.push_back({h, h, s});
      shapes.push_back({2, 16, h});
    }
  // The F5 shape: memref<2x4194305xf32> x memref<4194305x16xf32>.
  shapes.push_back({2, 16, 4194305});
  // Transposed operands of a few of them.
  size_t plain = shapes.size();
  for (size_t i = 0; i < plain; i += 3)
    for (auto [ta, tb] : {std::pair{true, false}, std::pair{false, true},
                          std::pair{true, true}})
      shapes.push_back({shapes[i].m, shapes[i].n, shapes[i].k, ta, tb});
  if (gpu)
    for (int64_t e : {8, 16, 24, 64, 72, 128, 136, 1000, 1024, 4096})
      for (int64_t o : {1, 3, 8})
        shapes.push_back({e, e + o - 1, e});
  return shapes;
}

std::string describe(const Shape &s) {
  return llvm::formatv("M={0} N={1} K={2}{3}{4}", s.m, s.n, s.k,
                       s.ta ? " A^T" : "", s.tb ? " B^T" : "")
      .str();
}

class Sweep {
public:
  explicit Sweep(MLIRContext &ctx) : ctx(ctx) {}

  /// Reports a refusal; false once enough were seen.
  bool fail(const Shape &s, llvm::StringRef stage, llvm::StringRef what) {
    ++failures;
    llvm::errs() << "REFUSED " << targetName << " " << describe(s) << " by the "
                 << stage << ": " << what << "\n";
    return failures < maxFailures;
  }

  int runCpu() {
    llvm::Expected<TargetHints> loaded = loadTargetHints(targetName);
    if (!loaded) {
      llvm::errs() << llvm::toString(loaded.takeError()) << "\n";
      return 2;
    }
    TargetHints hints = *loaded;
    if (vlen) {
      if (hints.isa != "rvv") {
        llvm::errs() << "--vlen is for riscv-rvv\n";
        return 2;
      }
      hints.vectorBits = vlen;
    }
    std::unique_ptr<Advisor> advisor = createBuiltinAdvisor();
    std::vector<Shape> shapes;
    for (int64_t m = 1; m <= cube; ++m)
      for (int64_t n = 1; n <= cube; ++n)
        for (int64_t k = 1; k <= cube; ++k)
          shapes.push_back({m, n, k});
    size_t cubeShapes = shapes.size();
    llvm::append_range(shapes, specialShapes(/*gpu=*/false));
    // Emitting is the slow step (each distinct spec runs the emitter), and
    // A read in place makes K part of the spec (B read in place, N): the
    // cube's kernels are emitted for a sample of K (and of N where B is read
    // in place), every other shape's always.
    std::set<int64_t> emitK(cubeEmitK.begin(), cubeEmitK.end());
    if (emitK.empty())
      emitK = {1, 2, 3, 5, 8, 16, 31, 64};
    Type f32 = Float32Type::get(&ctx);
    // Advise and verify every shape first; the kernels to emit are then
    // emitted in one batch per emitter script (prefetchEmitterAnswers) and
    // checked shape by shape as before.
    struct Pending {
      Shape shape;
      SketchAttr sketch;
      std::vector<EmitterRequest> requests;
    };
    std::vector<Pending> pending;
    for (auto [index, s] : llvm::enumerate(shapes)) {
      // The operands as contiguous memrefs, classified as the pass does.
      auto a = MemRefType::get(s.ta ? ArrayRef<int64_t>{s.k, s.m}
                                    : ArrayRef<int64_t>{s.m, s.k},
                               f32);
      auto b = MemRefType::get(s.tb ? ArrayRef<int64_t>{s.n, s.k}
                                    : ArrayRef<int64_t>{s.k, s.n},
                               f32);
      GemmProblem p;
      p.m = s.m;
      p.n = s.n;
      p.k = s.k;
      p.transposeA = s.ta;
      p.transposeB = s.tb;
      p.aRowsInPlace = !s.ta && inPlaceRowStride(a).has_value();
      llvm::Expected<SketchChoice> choice = advisor->propose(p, hints);
      if (!choice) {
        if (!fail(s, "advisor", llvm::toString(choice.takeError())))
          break;
        continue;
      }
      std::string error;
      SketchAttr sketch = choice->toAttr(&ctx, hints, error);
      if (!sketch) {
        if (!fail(s, "verifier", error))
          break;
        continue;
      }
      // ApplySketch's rule: an operand is read in place where the sketch
      // says so and its layout allows, else packed.
      int64_t lda = 0, ldb = 0;
      if (sketch.getPackA() == "none" && !s.ta)
        lda = inPlaceRowStride(a).value_or(0) * 4;
      if (sketch.getPackB() == "none" && !s.tb)
        ldb = inPlaceRowStride(b).value_or(0) * 4;
      ++verified;
      if (index < cubeShapes &&
          (!emitK.count(s.k) || (ldb && !emitK.count(s.n))))
        continue;
      // The kernel vectorized along K (ApplyKDotSketch's request): A read
      // in place, B transposed into rows of K floats (read in place where
      // it is stored N x K and fills whole column blocks), nr at most N.
      if (sketch.getUkernel().getEmitter() == kKDotEmitter) {
        int64_t nr = std::min(sketch.getNr(), s.n);
        int64_t btStride = s.k;
        if (s.tb && s.n % nr == 0)
          btStride = inPlaceRowStride(b).value_or(s.k);
        pending.push_back(
            {s, sketch,
             {ukernelEmitterRequest(
                 sketch.getUkernel(), sketch.getTarget(), sketch.getMr(), nr,
                 hints, inPlaceRowStride(a).value_or(0) * 4, btStride * 4,
                 "", 30)}});
        continue;
      }
      // With B in place and one column tile over N, the N remainder gets a
      // narrower tail kernel (ApplySketch's rule): emitted too.
      std::vector<EmitterRequest> requests = {
          ukernelEmitterRequest(sketch, hints, lda, ldb)};
      int64_t lanes = hints.f32Lanes(), nr = sketch.getNr(), rem = s.n % nr;
      if (ldb && sketch.getNc() >= s.n && rem && (rem + lanes - 1) / lanes *
                                                         lanes < nr)
        requests.push_back(ukernelEmitterRequest(
            sketch.getUkernel(), sketch.getTarget(), sketch.getMr(),
            (rem + lanes - 1) / lanes * lanes, hints, lda, ldb, "", 30));
      pending.push_back({s, sketch, std::move(requests)});
    }
    std::vector<EmitterRequest> all;
    for (const Pending &item : pending)
      for (const EmitterRequest &request : item.requests)
        all.push_back(EmitterRequest(request));
    // A batch that cannot run costs only time: each spec then runs alone,
    // and a refusal is reported with its shape below.
    if (llvm::Error e = prefetchEmitterAnswers(all))
      llvm::errs() << "note: batched emission failed, one run per spec: "
                   << llvm::toString(std::move(e)) << "\n";
    for (const Pending &item : pending) {
      bool stop = false;
      for (const EmitterRequest &request : item.requests)
        if (std::optional<std::string> refused = emit(request)) {
          if (!fail(item.shape, "emitter '" + request.script + "'",
                    llvm::formatv("{0} (sketch mr={1} nr={2} pack_a={3})",
                                  *refused, item.sketch.getMr(),
                                  request.spec.getInteger("nr").value_or(0),
                                  item.sketch.getPackA())
                        .str()))
            stop = true;
          break;
        }
      if (stop)
        break;
      ++proposals;
    }
    llvm::outs() << llvm::formatv(
        "{0}{1}: {2} shapes ({3} in the 1..{4} cube), {5} sketches "
        "verified, {6} emitted, {7} distinct emitter specs, {8} refused\n",
        targetName.getValue(),
        vlen ? llvm::formatv(" (VLEN {0})", vlen.getValue()).str() : "",
        shapes.size(), cubeShapes, cube.getValue(), verified, proposals,
        specsRun, failures);
    return failures ? 1 : 0;
  }

  int runGpu() {
    llvm::Expected<GpuTarget> target = loadGpuTarget(targetName);
    if (!target) {
      llvm::errs() << llvm::toString(target.takeError()) << "\n";
      return 2;
    }
    // Storage and compute types the NVIDIA path takes.
    struct Types {
      const char *a, *c, *precision;
    };
    const Types types[] = {{"bf16", "f32", "bf16"}, {"bf16", "bf16", "bf16"},
                           {"f16", "f32", "f16"},   {"f16", "f16", "f16"},
                           {"f32", "f32", "tf32"},  {"f32", "f32", "f32"}};
    std::vector<Shape> cubeShapes;
    for (int64_t m = 1; m <= cube; m += gpuCubeStep)
      for (int64_t n = 1; n <= cube; n += gpuCubeStep)
        for (int64_t k = 1; k <= cube; k += gpuCubeStep)
          cubeShapes.push_back({m, n, k});
    std::vector<Shape> special;
    for (const Shape &s : specialShapes(/*gpu=*/true))
      if (!s.ta && !s.tb) // the NVIDIA kernels take row-major A and B only
        special.push_back(s);
    size_t shapesSeen = 0, limitRefusals = 0, combo = 0;
    const size_t combos = std::size(types) * 2;
    for (const Types &t : types) {
      for (bool accumulate : {false, true}) {
        ++combo;
        size_t emitted = 0;
        auto visit = [&](const Shape &s, bool emitIt) -> bool {
          ++shapesSeen;
          GpuGemmProblem p;
          p.m = s.m;
          p.n = s.n;
          p.k = s.k;
          p.aType = t.a;
          p.cType = t.c;
          p.precision = t.precision;
          p.accumulate = accumulate;
          std::string what = llvm::formatv("{0}->{1} ({2}{3})", t.a, t.c,
                                           t.precision,
                                           accumulate ? ", C +=" : "")
                                 .str();
          llvm::Expected<GpuSketchChoice> c = proposeGpuSketch(p, *target);
          if (!c) {
            // Refusing a problem is honest only past the kernels' limits.
            std::string why = llvm::toString(c.takeError());
            if (s.m <= (1 << 20) && s.n <= (1 << 20) && s.k <= (1 << 20) &&
                s.m * s.k < (1 << 29) && s.k * s.n < (1 << 29) &&
                s.m * s.n < (1 << 29))
              return fail(s, "advisor", what + ": " + why);
            ++limitRefusals;
            return true;
          }
          if (llvm::Error e = checkGpuSketch(*c, p, *target))
            return fail(s, "verifier",
                        what + ": " + llvm::toString(std::move(e)));
          if (!c->toAttr(&ctx, *target))
            return fail(s, "verifier", what + ": " + c->describe());
          if (!emitIt)
            return true;
          ++emitted;
          llvm::json::Object spec = emitterSpec(*c, p, *target, "sweep");
          llvm::Expected<GpuEmittedKernel> k =
              runGpuEmitter(c->emitter(), spec, defaultEmitterDir(), 60);
          ++specsRun;
          if (!k)
            return fail(s, "emitter '" + c->emitter() + "'",
                        what + " " + c->describe() + ": " +
                            llvm::toString(k.takeError()));
          if (llvm::Error e = checkPtxKernelCode(k->asmText))
            return fail(s, "PTX allowlist",
                        what + " " + c->describe() + ": " +
                            llvm::toString(std::move(e)));
          ++proposals;
          return true;
        };
        size_t every = std::max<size_t>(
            1, cubeShapes.size() / std::max(1u, unsigned(gpuEmitterSamples)));
        for (size_t i = 0; i < cubeShapes.size(); ++i)
          if (!visit(cubeShapes[i], i % every == every / 2))
            return report(shapesSeen, limitRefusals);
        // Each special shape's kernel is emitted for one type in turn.
        for (auto [i, s] : llvm::enumerate(special))
          if (!visit(s, /*emitIt=*/i % combos == combo - 1))
            return report(shapesSeen, limitRefusals);
        (void)emitted;
      }
    }
    return report(shapesSeen, limitRefusals);
  }

private:
  int report(size_t shapesSeen, size_t limitRefusals) {
    llvm::outs() << llvm::formatv(
        "{0}: {1} (shape, type) pairs, {2} kernels emitted, {3} refused by "
        "the advisor past the kernels' limits, {4} refused\n",
        targetName.getValue(), shapesSeen, proposals, limitRefusals,
        failures);
    return failures ? 1 : 0;
  }

  /// The emitter's refusal of `request`, or nothing; each distinct spec
  /// runs once.
  std::optional<std::string> emit(const EmitterRequest &request) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << request.script << " " << request.triple << " " << request.features
       << " " << llvm::json::Value(llvm::json::Object(request.spec));
    auto [it, inserted] = seen.try_emplace(key);
    if (!inserted)
      return it->second;
    ++specsRun;
    llvm::Expected<EmittedKernel> kernel = runEmitter(request);
    if (!kernel) {
      it->second = llvm::toString(kernel.takeError());
      return it->second;
    }
    // The shipped kernels pass the check model-written ones must pass (a
    // false positive of the allowlist fails here).
    if (llvm::Error e = checkMicrokernelCode(
            kernel->asmText, kernel->dialect, kNumUKernelOperands, request.triple,
            request.cpu,
            request.features))
      it->second = "the microkernel allowlist refuses the shipped kernel " +
                   kernel->name + ": " + llvm::toString(std::move(e));
    return it->second;
  }

  MLIRContext &ctx;
  llvm::StringMap<std::optional<std::string>> seen;
  size_t failures = 0, proposals = 0, specsRun = 0, verified = 0;
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Sweeps static GEMM shapes through the builtin advisor, the sketch "
      "verifier and the emitter of one target; exits 1 on any refusal.\n");
  if (!checkPtxFile.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(checkPtxFile);
    if (!buffer) {
      llvm::errs() << "cannot read " << checkPtxFile << "\n";
      return 2;
    }
    if (llvm::Error e = checkPtxKernelCode((*buffer)->getBuffer())) {
      llvm::errs() << "refused: " << llvm::toString(std::move(e)) << "\n";
      return 1;
    }
    llvm::outs() << "accepted\n";
    return 0;
  }
  if (targetName.empty()) {
    llvm::errs() << "--target is required\n";
    return 2;
  }
  MLIRContext ctx;
  ctx.getOrLoadDialect<TensorOpDialect>();
  Sweep sweep(ctx);
  if (llvm::StringRef(targetName).starts_with("nvidia"))
    return sweep.runGpu();
  return sweep.runCpu();
}
