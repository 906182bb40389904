//===- WorkerDriver.cpp - tensorop worker: run one candidate, isolated ----===//
//
// The tuner's measurement process. It loads one candidate's object file,
// verifies it (NaN-filled output, fp64 reference, small-integer exact test),
// times it, verifies again, and prints one JSON object. C sits between
// canary cells and right before a PROT_NONE page, so a kernel that writes out
// of bounds is caught. A crash or hang kills only this process; the tuner
// records it and goes on.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/WorkerDriver.h"
#include "Measure.h"

#include "tensorop/Runtime/ObjectFile.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <csignal>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;

namespace {
constexpr uint32_t kCanary = 0x7fc0dead; // a quiet NaN no kernel computes
constexpr size_t kCanaryCells = 64;

/// C with canaries before it and a PROT_NONE page right after it.
class GuardedMatrix {
public:
  explicit GuardedMatrix(size_t n) : n(n) {
    size_t page = sysconf(_SC_PAGESIZE);
    size_t bytes = (kCanaryCells + n) * sizeof(float);
    dataBytes = (bytes + page - 1) / page * page;
    base = static_cast<char *>(mmap(nullptr, dataBytes + page,
                                    PROT_READ | PROT_WRITE,
                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    mprotect(base + dataBytes, page, PROT_NONE);
    c = reinterpret_cast<float *>(base + dataBytes) - n;
    canaries = reinterpret_cast<uint32_t *>(c) - kCanaryCells;
    for (size_t i = 0; i < kCanaryCells; ++i)
      canaries[i] = kCanary;
  }
  ~GuardedMatrix() { munmap(base, dataBytes + sysconf(_SC_PAGESIZE)); }
  bool canariesIntact() const {
    for (size_t i = 0; i < kCanaryCells; ++i)
      if (canaries[i] != kCanary)
        return false;
    return true;
  }
  void fillNaN() {
    std::fill(c, c + n, std::numeric_limits<float>::quiet_NaN());
  }
  float *c;

private:
  size_t n, dataBytes;
  char *base;
  uint32_t *canaries;
};

int emit(json::Object o) {
  outs() << json::Value(std::move(o)) << "\n";
  outs().flush();
  return 0;
}
} // namespace

int tensorop::measureCandidate(const WorkerOptions &options) {
  const std::string &object = options.object, &symbol = options.symbol;
  const int64_t wm = options.m, wn = options.n, wk = options.k;
  const unsigned wseed = options.seed;
  const int wrounds = options.rounds;
  const double wroundSeconds = options.roundSeconds;
  // A worker never outlives its tuner (a killed tuner must not leave a
  // hanging candidate behind).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1)
    return 3;
  Expected<mlir::tensorop::LoadedObject> loaded =
      mlir::tensorop::loadObjectFile(object, symbol);
  if (!loaded)
    return emit(json::Object{{"status", "compile_error"},
                 {"error", "cannot load the object: " +
                               toString(loaded.takeError())}});
  auto fn = reinterpret_cast<GemmFn>(loaded->symbol);
  int64_t m = wm, n = wn, k = wk;
  AlignedBuffer a(m * k), b(k * n);
  GuardedMatrix c(m * n);

  // Exact test with small integers.
  for (size_t i = 0; i < a.size; ++i)
    a.data[i] = float(int((i * 7 + wseed) % 9) - 4);
  for (size_t i = 0; i < b.size; ++i)
    b.data[i] = float(int((i * 5 + wseed * 3) % 9) - 4);
  Reference exact = computeReference(a.data, b.data, m, n, k);
  c.fillNaN();
  fn(a.data, b.data, c.c);
  if (!c.canariesIntact())
    return emit(json::Object{{"status", "out_of_bounds"},
                 {"error", "the kernel wrote before C"}});
  int64_t mismatches = 0;
  for (size_t i = 0; i < exact.r.size(); ++i)
    if (!(double(c.c[i]) == exact.r[i]))
      ++mismatches;
  if (mismatches)
    return emit(json::Object{{"status", "wrong_answer"},
                 {"exact_mismatches", mismatches},
                 {"error", formatv("{0} of {1} elements wrong with "
                                   "small-integer inputs",
                                   mismatches, m * n)
                               .str()}});

  fillRandom(a.data, a.size, wseed);
  fillRandom(b.data, b.size, wseed + 1);
  Reference ref = computeReference(a.data, b.data, m, n, k);
  c.fillNaN();
  fn(a.data, b.data, c.c);
  Check before = checkResult(c.c, ref);
  if (!c.canariesIntact())
    return emit(json::Object{{"status", "out_of_bounds"},
                 {"error", "the kernel wrote before C"}});
  if (!before.ok())
    return emit(json::Object{{"status", "wrong_answer"},
                 {"error_ratio", before.maxRatio},
                 {"error", formatv("{0} elements over the bound (max "
                                   "error/bound {1:E2})",
                                   before.failures, before.maxRatio)
                               .str()}});
  c.fillNaN();
  TimingSamples t = timeAlternating([&] { fn(a.data, b.data, c.c); },
                                    [] {}, wrounds, wroundSeconds);
  Check after = checkResult(c.c, ref);
  if (!c.canariesIntact())
    return emit(json::Object{{"status", "out_of_bounds"},
                 {"error", "the kernel wrote before C while timed"}});
  if (!after.ok())
    return emit(json::Object{{"status", "wrong_answer"},
                 {"error_ratio", after.maxRatio},
                 {"error", "wrong after timing"}});
  double med = median(t.a), best = minimum(t.a);
  return emit(json::Object{{"status", "ok"},
               {"error_ratio", std::max(before.maxRatio, after.maxRatio)},
               {"median_seconds", med},
               {"min_seconds", best},
               {"gflops", 2.0 * m * n * k / med / 1e9}});
}
