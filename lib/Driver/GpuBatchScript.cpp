//===- GpuBatchScript.cpp - The run.sh of a --gpu-batch directory --------===//
//
// The script is plain POSIX sh so that it runs on any GPU machine (no MLIR,
// no Python). Several GPUs: one background worker per GPU walks the job list
// in order and takes each job whose claim (an atomic `mkdir claims.T/I`) it
// wins, so a GPU that finishes early takes the next job. Every GPU must be
// the same model as the first: the database keys results by target and
// records the device that measured them.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/GpuBatchScript.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;
using namespace tensorop;

namespace {
std::string shellQuote(StringRef s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The fixed part; {0} the default GPU list, {1} the timeout, {2} the number
// of jobs, {3} 1 for a confirmation batch. Braces of the shell are doubled
// for formatv.
const char *kPrologue = R"SH(#!/bin/sh
# Written by `tensorop tune --gpu-batch`: runs every kernel of this batch in
# its own tensorop-gpu-runner process with a wall-clock limit, leaving
# NAME.result.json, NAME.rc and NAME.gpu beside it; then `done`.
#
# GPUs: TENSOROP_GPUS=all or a list such as 0,1 (default: {0}). "all" means
# the GPUs of CUDA_VISIBLE_DEVICES when it is set (as Slurm sets it), else
# every GPU nvidia-smi lists. One runner per GPU at a time; a GPU takes the
# next job as soon as it is free. A confirmation batch runs on the first GPU
# only (its kernels are compared with each other). The runner:
# TENSOROP_GPU_RUNNER, else tensorop-gpu-runner on PATH.
# Several hosts: TENSOROP_BATCH_SHARD=T/N runs only jobs I with
# (I - 1) % N = T (e.g. Slurm array task T of N, DIR on a shared file
# system); whichever shard finishes last marks the batch done.
cd "$(dirname "$0")" || exit 2
R="${{TENSOROP_GPU_RUNNER:-tensorop-gpu-runner}"
GPUS="${{TENSOROP_GPUS:-{0}}"
confirm={3}
SHARD="${{TENSOROP_BATCH_SHARD:-0/1}"
shard=${{SHARD%/*}; shards=${{SHARD#*/}
case "$shard/$shards" in
  *[!0-9/]*|/*|*/) echo "run.sh: TENSOROP_BATCH_SHARD=$SHARD is not T/N"; exit 2 ;;
esac
if [ "$shards" -lt 1 ] || [ "$shard" -ge "$shards" ]; then
  echo "run.sh: TENSOROP_BATCH_SHARD=$SHARD: T must be below N"; exit 2
fi
if [ "$GPUS" = all ]; then
  if [ -n "${{CUDA_VISIBLE_DEVICES+x}" ]; then
    GPUS="$CUDA_VISIBLE_DEVICES"
  elif command -v nvidia-smi > /dev/null 2>&1; then
    GPUS=$(nvidia-smi --query-gpu=index --format=csv,noheader | tr -d ' ' | tr '\n' ',')
  else
    echo "run.sh: no nvidia-smi and no CUDA_VISIBLE_DEVICES: running on the runner's default GPU only (name several with TENSOROP_GPUS=0,1)"
    GPUS=default
  fi
fi
GPUS=$(echo "$GPUS" | tr ',' ' ')
if [ -z "$(echo $GPUS)" ]; then
  echo "run.sh: no GPU to run on (TENSOROP_GPUS or CUDA_VISIBLE_DEVICES is empty)"
  exit 2
fi
if [ "$confirm" = 1 ]; then
  set -- $GPUS
  GPUS=$1
fi
# on GPU COMMAND...: COMMAND with only that GPU visible.
on() {{
  g=$1; shift
  if [ "$g" = default ]; then "$@"; else CUDA_VISIBLE_DEVICES=$g "$@"; fi
}
rm -rf done "claims.$shard"
mkdir "claims.$shard" || exit 2
first=
for g in $GPUS; do
  if ! on "$g" "$R" --device-info > "device.$g.json" 2> "device.$g.err"; then
    echo "run.sh: $R finds no GPU $g:"; cat "device.$g.json" "device.$g.err"
    exit 2
  fi
  model=$(grep -o '"name": *"[^"]*"' "device.$g.json")
  if [ -z "$first" ]; then
    first=$g; firstModel=$model; cp "device.$g.json" device.json
  elif [ "$model" != "$firstModel" ]; then
    echo "run.sh: GPU $g ($model) is not the model of GPU $first ($firstModel); the database keeps results per model: name GPUs of one model in TENSOROP_GPUS"
    exit 2
  fi
done
echo "run.sh: $(echo $GPUS | wc -w) GPU(s): $GPUS"
total={2}
# run I FILE ARGS...: job I, unless another GPU claimed it first.
run() {{
  i=$1; base=$2; shift 2
  [ $(((i - 1) % shards)) -eq "$shard" ] || return 0
  mkdir "claims.$shard/$i" 2> /dev/null || return 0
  on "$gpu" timeout -k 5 {1} "$R" "$@" > "$base.result.json" 2> "$base.result.json.err"
  echo $? > "$base.rc"
  echo "$gpu" > "$base.gpu"
  echo "run.sh: GPU $gpu: $i/$total $base: exit $(cat "$base.rc")"
}
all_jobs() {{
)SH";

const char *kEpilogue = R"SH(}
for gpu in $GPUS; do
  all_jobs &
done
wait
n=$(ls "claims.$shard" | wc -l)
rm -rf "claims.$shard"
mine=$(((total - shard + shards - 1) / shards))
if [ "$n" -ne "$mine" ]; then
  echo "run.sh: only $n of $mine jobs ran"
  exit 1
fi
have=$(ls | grep -c '\.rc$')
if [ "$have" -lt "$total" ]; then
  echo "run.sh: shard $SHARD ran its $n jobs; $have of $total have run"
  exit 0
fi
touch done
echo "run.sh: all $total done"
)SH";
} // namespace

Error tensorop::checkGpuList(StringRef gpus) {
  if (gpus == "all")
    return Error::success();
  SmallVector<StringRef> parts;
  gpus.split(parts, ',');
  std::set<unsigned> seen;
  for (StringRef p : parts) {
    unsigned index;
    if (p.empty() || p.getAsInteger(10, index))
      return createStringError(
          "--gpus takes 'all' or GPU indices separated by commas (e.g. "
          "0,1), not '" +
          gpus + "'");
    if (!seen.insert(index).second)
      return createStringError("--gpus names GPU " + Twine(index) + " twice");
  }
  return Error::success();
}

std::vector<unsigned> tensorop::parseGpuList(StringRef gpus) {
  std::vector<unsigned> out;
  if (gpus == "all")
    return out;
  SmallVector<StringRef> parts;
  gpus.split(parts, ',');
  for (StringRef p : parts) {
    unsigned index;
    if (!p.getAsInteger(10, index))
      out.push_back(index);
  }
  return out;
}

std::string tensorop::gpuBatchRunScript(const GpuBatchScriptOptions &o,
                                        ArrayRef<GpuBatchJob> jobs) {
  std::string script = formatv(kPrologue, o.gpus, o.timeoutSeconds,
                               jobs.size(), o.confirmation ? 1 : 0)
                           .str();
  for (size_t i = 0; i < jobs.size(); ++i) {
    script += "  run " + std::to_string(i + 1) + " " + shellQuote(jobs[i].file);
    for (const std::string &a : jobs[i].runnerArgs)
      script += " " + shellQuote(a);
    script += "\n";
  }
  return script + kEpilogue;
}
