#!/bin/bash
# bench/cpu/shared_b_quiet.sh BUILD_DIR
# The quiet two-thread A/B that decides the builtin rule for
# pack_b = "kmajor_nr_shared" (docs/UserGuide.md): shared_b_ab.sh on the
# shapes where the per-thread copy of B showed in the session-12 tables
# (512^3, 16x2048x2048, 127x1000x513, 4096x1024x1024), 2048^3, and two
# shapes nobody tuned on (1000^3, and 256x3072x768, an FFN block at T=256).
# Run it only on a quiet machine (load < 0.5): barrier waits make a loaded
# run's 2-thread times meaningless. About 2 minutes.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${ROUNDS:-11} ROUND_SECONDS=${ROUND_SECONDS:-0.15} \
  "$HERE/shared_b_ab.sh" "$1" 2 512x512x512 2048x2048x2048 16x2048x2048 \
  127x1000x513 4096x1024x1024 1000x1000x1000 256x3072x768
