#!/usr/bin/env bash
# Installs, builds and runs every test: lit/FileCheck tests of the dialect and
# passes, -verify-diagnostics tests of bad input, JIT integration tests,
# plugin tests, emitter unit and numeric tests. Then the sanitizer stage
# (docs/Reliability.md): our code again with ASan and UBSan in build-asan/,
# the lit subset below on it, and each libFuzzer harness on a fixed seed and
# input count (scripts/fuzz.sh --ci: at most 25 s an input, a stuck one is a
# finding; 120 s of mutation; 17 min a fuzzer in all). Any failure,
# sanitizer report or fuzzer finding fails the run.
# TENSOROP_CI_SANITIZERS=0 leaves the sanitizer stage out (a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
stage() { printf '== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
stage "install-deps"
bash scripts/install-deps.sh
stage "build (build/)"
bash scripts/build.sh
stage "lit (build/)"
set +e
/usr/lib/llvm-22/bin/lit -sv --time-tests --timeout=600 build/test | tee build/lit.log
rc=${PIPESTATUS[0]}
set -e
# lit's summary lines read "  Passed: 51 (98.08%)".
count() {
  awk -v pat="$1" '$0 ~ "^ +(" pat ") *: +[0-9]+" {
    sub(/^[^:]*: */, ""); n += $1 } END { print n + 0 }' "$2"
}
summary() {
  echo "$(count "Passed" "$1") passed, $(count "Failed|Unresolved|Timed Out|Unexpectedly Passed" "$1") failed, $(count "Unsupported|Expectedly Failed|Skipped" "$1") skipped"
}
normal=$(summary build/lit.log)
echo "$normal"
if [ "${TENSOROP_CI_SANITIZERS:-1}" = 0 ]; then
  stage "done (sanitizer stage left out: TENSOROP_CI_SANITIZERS=0)"
  exit $rc
fi

stage "build with ASan+UBSan and the fuzzers (build-asan/)"
bash scripts/build.sh --sanitize
# The lit subset under the sanitizers (docs/Reliability.md says why each
# part is left out): everything but
#  - Plugin/, Transforms/pipeline-option-errors.mlir, Tools/doc-blocks.test:
#    they load TensorOpPlugin.so into Debian's mlir-opt, which has no ASan
#    runtime to load an instrumented plugin into;
#  - Package/: installs the instrumented libraries and builds a consumer
#    without the sanitizer flags (a test of packaging, not of our code);
#  - GPU/aot-link.test, GPU/async-entry.test, GPU/pad-entry.test,
#    GPU/runner-timing.test, GPU/gen-conv.test, GPU/gen-conv-run.test:
#    link instrumented archives
#    (the CUDA runtime wrapper, NVML sampler, Verify) into a program
#    compiled without the sanitizers (the plain build runs them);
#  - Advisor/llm-advisor.test, Advisor/llm-kernel-sandbox.test: they run a
#    model-written kernel in the sandboxed worker under an address-space
#    limit, where the instrumented worker cannot reserve ASan's shadow
#    memory ("AddressSanitizer failed to allocate 0xdfff0001000 bytes");
#  - Integration/, Cross/: JIT- and qemu-run kernels: the pipeline code of
#    Transforms/ plus minutes of generated-code run time on two cores, and
#    generated code is not instrumented either way;
#  - Emitters/python-*.test, GPU/python-*.test: the Python emitters' unit
#    tests (Python, clang and qemu; none of our C++ runs);
#  - Advisor/advisor-sweep-*.test: the builtin advisors and the sketch
#    verifier over 262144+ shapes per target, minutes each uninstrumented;
#    under the sanitizers the same code runs in every gen/tune test here and
#    in the hints, cpu-answer and gpu-answer fuzzers.
asan_filter_out='^TENSOROP :: (Plugin/|Package/|Integration/|Cross/|Emitters/python-|Advisor/advisor-sweep-|Transforms/pipeline-option-errors[.]mlir|Tools/doc-blocks[.]test|GPU/python-|GPU/(aot-link|async-entry|pad-entry|runner-timing|gen-conv|gen-conv-run)[.]test|Advisor/llm-(advisor|kernel-sandbox)[.]test)'
stage "lit (build-asan/, the sanitizer subset)"
set +e
/usr/lib/llvm-22/bin/lit -sv --time-tests --timeout=600 --filter-out="$asan_filter_out" \
  build-asan/test | tee build-asan/lit.log
rc_asan=${PIPESTATUS[0]}
set -e
stage "fuzz (fixed seed and input count: scripts/fuzz.sh --ci)"
set +e
bash scripts/fuzz.sh --ci --jobs="$(nproc)"
rc_fuzz=$?
set -e
stage "done"
echo "lit: $normal"
echo "lit under ASan+UBSan: $(summary build-asan/lit.log)"
echo "fuzzers: $([ $rc_fuzz = 0 ] && echo "no finding" || echo FAILED)"
[ $rc = 0 ] && [ $rc_asan = 0 ] && [ $rc_fuzz = 0 ]
