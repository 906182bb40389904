#!/bin/sh
# Stages, here (no GPU needed), session 12's GPU measurements (issue 16,
# docs/benchmarks/gpu-gemm.md "Session 12"):
#  1. main's builtin (BASE_BUILD's `tensorop gen`) against the branch's
#     (NEW_BUILD's) on SHAPES (bench/gpu/stage-pad.sh's format), every case
#     through NEW_BUILD's tensorop-gpu-runner;
#  2. emitter variants (CASES, test/GPU/make_emitter_bundle.py) when given;
#  3. the runner's output against BASE_BUILD's runner on IDENTITY (ids of
#     step 1's cases): the same launch, seed and rounds through both; the
#     JSON fields that do not depend on timing must be identical.
#   bench/gpu/stage-gpu12.sh BASE_BUILD NEW_BUILD STAGE SHAPES [CASES] [IDENTITY...]
#   (GPU machine)  sh STAGE/run-all.sh [pad|rest|all]
#                  -> $OUT/pad.jsonl (pad), var.jsonl, identity.txt (rest), logs
set -e
BB=$1; NB=$2; STAGE=$3; SHAPES=$4; CASES=$5
shift 4; [ $# -gt 0 ] && shift
HERE=$(cd "$(dirname "$0")" && pwd)
# KEEP_PAD=1: STAGE/pad is already staged (e.g. base and new generated at
# different times and merged); only the rest is staged.
[ -n "$KEEP_PAD" ] || sh "$HERE/stage-pad.sh" "$BB" "$NB" "$STAGE/pad" "$SHAPES"
if [ -n "$CASES" ]; then
  python3 "$HERE/../../test/GPU/make_emitter_bundle.py" "$STAGE/var" "$CASES" > "$STAGE/var-build.txt"
fi
cp "$BB/bin/tensorop-gpu-runner" "$STAGE/runner-base"
echo "$@" > "$STAGE/identity.txt"
cat > "$STAGE/run-all.sh" <<'SH'
#!/bin/sh
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
PART=${1:-all}   # pad | rest | all (two device calls when one would run past 10 min)
R=$STAGE/pad/tensorop-gpu-runner
[ "$PART" = rest ] || sh "$STAGE/pad/run.sh"
[ "$PART" = pad ] && { cd "$OUTD" && tar czf logs-pad.tgz *.log 2>/dev/null; rm -f "$OUTD"/*.log; exit 0; }
if [ -d "$STAGE/var" ]; then
  : > "$OUTD/var.jsonl"
  while read -r id t; do
    echo "== $id" >> "$OUTD/var.log"
    timeout 90 "$R" "$STAGE/var/$id.launch.json" --rounds "${ROUNDS:-5}" --timeout 30 \
      > "$OUTD/one.json" 2>> "$OUTD/var.log"
    python3 -c 'import json,sys
try: r=json.load(open(sys.argv[1]))
except Exception as e: r={"error":str(e)}
r["id"]=sys.argv[2]; r["rc"]=int(sys.argv[3]); print(json.dumps(r))' "$OUTD/one.json" "$id" $? >> "$OUTD/var.jsonl"
  done < "$STAGE/var/cases.txt"
fi
: > "$OUTD/identity.txt"
for id in $(cat "$STAGE/identity.txt"); do
  L=$STAGE/pad/cases/$id/$id.launch.json
  "$STAGE/runner-base" "$L" --rounds 2 --seed 7 > "$OUTD/base.json" 2>/dev/null; rb=$?
  "$R" "$L" --rounds 2 --seed 7 > "$OUTD/new.json" 2>/dev/null; rn=$?
  # the base runner twice: what differs between two runs of the same binary
  "$STAGE/runner-base" "$L" --rounds 2 --seed 7 > "$OUTD/base2.json" 2>/dev/null
  for pair in "base.json new.json" "base.json base2.json"; do
  set -- $pair
  python3 - "$id ($1 vs $2)" $rb $rn "$OUTD/$1" "$OUTD/$2" >> "$OUTD/identity.txt" <<'PY'
import json, sys
cid, rb, rn, pb, pn = sys.argv[1:6]
b, n = json.load(open(pb)), json.load(open(pn))
def strip(j):
    # what depends on the timing run (durations, clocks, samples, the
    # algorithm cuBLASLt's trials picked) or on the binary's path
    t = j.get("timing", {})
    keep = {k: t[k] for k in ("performed", "rounds", "method", "caches", "faster_than_peak",
                              "cublas_call", "cublaslt_call", "cublas_verification",
                              "cublaslt_verification") if k in t}
    j = dict(j); j["timing"] = keep; j.pop("cubin", None)
    return j
same = strip(b) == strip(n)
keys_b, keys_n = list(b), list(n)
print("%s rc %s/%s fields_identical=%s key_order_identical=%s timing_keys_identical=%s"
      % (cid, rb, rn, same, keys_b == keys_n, list(b.get("timing", {})) == list(n.get("timing", {}))))
if not same:
    sb, sn = strip(b), strip(n)
    for k in sorted(set(sb) | set(sn)):
        if sb.get(k) != sn.get(k):
            vb, vn = sb.get(k), sn.get(k)
            if isinstance(vb, dict) and isinstance(vn, dict):
                for kk in sorted(set(vb) | set(vn)):
                    if vb.get(kk) != vn.get(kk):
                        print("  differs: %s.%s %s | %s" % (k, kk, json.dumps(vb.get(kk))[:300],
                                                          json.dumps(vn.get(kk))[:300]))
            else:
                print("  differs:", k, json.dumps(vb)[:300], "|", json.dumps(vn)[:300])
PY
  done
done
rm -f "$OUTD/one.json" "$OUTD/base.json" "$OUTD/base2.json" "$OUTD/new.json"
cd "$OUTD" && tar czf logs.tgz *.log 2>/dev/null; rm -f "$OUTD"/*.log
SH
echo "staged in $STAGE"
