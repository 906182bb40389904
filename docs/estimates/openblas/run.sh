#!/bin/sh
# Regenerates the "Against OpenBLAS's kernels" table of
# docs/estimates/cpu-cross-estimates.md and the loops it models
# (docs/estimates/loops/*_openblas_*.s, and ours next to them).
# Needs clang-22, llvm-mca-22 and python3; OPENBLAS may name an OpenBLAS
# source tree or git dir (default: the mirror of commit 72461f1).
set -e
cd "$(dirname "$0")/../../.."
exec python3 docs/estimates/openblas/openblas_mca.py --show-commands \
  ${OPENBLAS:+--openblas "$OPENBLAS"} "$@"
