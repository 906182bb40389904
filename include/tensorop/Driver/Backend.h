//===- Backend.h - One target family behind the drivers ---------*- C++ -*-===//
//
// Layout of the drivers (lib/Driver, headers in include/tensorop/Driver):
//
//   tools/tensorop/*Command.cpp   command line only: cl::opt -> an options
//                                 struct (GenOptions, TuneOptions,
//                                 BenchOptions, WorkerOptions) -> a call
//   GenDriver.cpp    `gen`: request -> Operator -> Backend::forTarget ->
//                    prepare -> generate
//   TuneDriver.h     `tune`: tuneModule -> Backend::tune -> TuneLoop.cpp,
//                    the one search loop (MCTS, tuning DB claims and leases,
//                    LLM proposals from the history, confirmation, result
//                    line) over the hooks of TuneBackend.h: CpuTune.cpp
//                    (worker processes) and GpuTune.cpp (tensorop-gpu-runner
//                    here or a --gpu-batch directory)
//   BenchDriver.cpp  `bench` -> Backend::bench (CPU: against OpenBLAS and
//                    oneDNN in this process; NVIDIA: an error pointing at
//                    tensorop-gpu-runner);  WorkerDriver.cpp  `worker` (one candidate);
//                    DbDriver.cpp  `db` (list, show, export, prune)
//   Operator.h       what a kernel computes: kind, dims, element types,
//                    layouts, FLOPs, entry point, MLIR input
//   Backend.h        a target family: CpuBackend (x86, RVV, NEON: one
//                    backend, the target hints tell them apart) and
//                    NvidiaBackend (sm80, sm90)
//
// A Backend turns an Operator into a kernel for its targets: it checks that
// it supports the operator, builds the MLIR input, writes the header of the
// entry points, and compiles, verifies and reports; and it tunes a module
// for its targets. A new target family is a new Backend; a new operator is
// a new Operator kind that the backends learn, never a copy of a driver.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_BACKEND_H
#define TENSOROP_DRIVER_BACKEND_H

#include "tensorop/Advisor/Request.h"
#include "tensorop/Driver/BenchDriver.h"
#include "tensorop/Driver/GenDriver.h"
#include "tensorop/Driver/Operator.h"
#include "tensorop/Driver/TuneDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tensorop {

/// One `tensorop gen` run: the options, the request as understood (its
/// target after --target), the operator it asks for and the kernel's name.
struct GenJob {
  GenOptions options;
  mlir::tensorop::OpRequest request;
  Operator op;
  std::string name;
};

class Backend {
public:
  virtual ~Backend();

  /// The backend of a target name: NvidiaBackend for nvidia-*, CpuBackend
  /// for every other name (resolved and checked by prepare).
  static std::unique_ptr<Backend> forTarget(llvm::StringRef target);

  /// "cpu" or "nvidia".
  virtual llvm::StringRef family() const = 0;
  /// Where the entry points take their operands.
  virtual Placement placement() const = 0;
  /// A context with every dialect, pass and translation its pipeline uses.
  virtual std::unique_ptr<mlir::MLIRContext> makeContext() const = 0;

  /// Whether this backend generates the job's operator with its options
  /// (element types, target, threads); the error is the user's message.
  /// Builds nothing (--parse-only asks it too; the driver checks -o).
  /// Resolves the target ("host" -> what this machine is).
  virtual llvm::Error prepare(const GenJob &job) = 0;
  /// The target prepare resolved.
  virtual std::string resolvedTarget() const = 0;

  /// The C header of the job's kernel: what it computes, how to call and
  /// link it, and the entry points. `sketch` is the chosen sketch.
  virtual std::string header(const GenJob &job,
                             llvm::StringRef sketch) const = 0;
  /// The entry points in one line, as report.json's "abi" gives them.
  virtual std::string abiSummary(const Operator &op,
                                 llvm::StringRef name) const = 0;

  /// `tensorop gen` after prepare: chooses the sketch, compiles, verifies
  /// where this machine can, writes DIR/<name>.* and the reports, and
  /// prints progress. Returns the exit status.
  virtual int generate(const GenJob &job) = 0;

  /// `tensorop tune` of a module on this family's target: the search over
  /// its sketch space, candidates compiled here and measured where this
  /// family measures (a `tensorop worker` process; tensorop-gpu-runner here
  /// or in a --gpu-batch directory). Returns the exit status.
  virtual int tune(const TuneOptions &options) = 0;

  /// `tensorop bench` on this family's target: our kernel timed against the
  /// family's reference library, or an error that says how this family's
  /// kernels are benchmarked. Returns the exit status.
  virtual int bench(const BenchOptions &options) = 0;
};

/// The two families.
std::unique_ptr<Backend> createCpuBackend();
std::unique_ptr<Backend> createNvidiaBackend();

/// `tensorop gen`'s failure line ("tensorop gen: <msg>" on stderr); 2.
int genFailure(const llvm::Twine &message);
/// The UTC time as the reports give it.
std::string reportDate();

} // namespace tensorop

#endif // TENSOROP_DRIVER_BACKEND_H
