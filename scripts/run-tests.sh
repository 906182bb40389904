#!/usr/bin/env bash
# Installs, builds and runs every test: lit/FileCheck tests of the dialect and
# passes, -verify-diagnostics tests of bad input, JIT integration tests,
# plugin tests, emitter unit and numeric tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
set +e
/usr/lib/llvm-22/bin/lit -sv --timeout=600 build/test | tee build/lit.log
rc=${PIPESTATUS[0]}
set -e
# lit's summary lines read "  Passed: 51 (98.08%)".
count() {
  awk -v pat="$1" '$0 ~ "^ +(" pat ") *: +[0-9]+" {
    sub(/^[^:]*: */, ""); n += $1 } END { print n + 0 }' build/lit.log
}
passed=$(count "Passed")
failed=$(count "Failed|Unresolved|Timed Out|Unexpectedly Passed")
skipped=$(count "Unsupported|Expectedly Failed|Skipped")
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
