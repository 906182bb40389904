#!/bin/bash
# Runs a bundle made by test/GPU/gpu_bench.py on the GPU machine: every case
# through tensorop-gpu-runner (verify, time against cuBLAS, verify again), the
# AOT link checks, and the emitter variants if present. One JSON line per case
# in $OUT/results.jsonl (or /tmp/out); a summary table on stdout.
cd "$(dirname "$0")"
CUBLAS_PY=$(python3 -c 'import nvidia.cublas,os;print(os.path.dirname(nvidia.cublas.__file__)+"/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$CUBLAS_PY:$LD_LIBRARY_PATH
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
RES=$OUTD/results.jsonl; : > "$RES"
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
ROUNDS=${ROUNDS:-10}
record() { # id kind rc file err start end
  python3 - "$@" >> "$RES" <<'PY'
import json, sys
cid, kind, rc, path, err, t0, t1 = sys.argv[1:8]
try:
    r = json.load(open(path))
except Exception as e:
    r = {"error": "no JSON: %s" % e, "stdout": open(path).read()[-3000:]}
r.update({"id": cid, "kind": kind, "rc": int(rc), "stderr": open(err).read()[-2000:],
          "wall_s": float(t1) - float(t0)})
print(json.dumps(r))
PY
}
run_case() { # id launch kind timed
  local args="--rounds $ROUNDS"; [ "$4" = 1 ] || args="--no-time"
  local t0=$(date +%s.%N)
  timeout 200 ./tensorop-gpu-runner "$2" $args --timeout 60 > "$OUTD/one.json" 2> "$OUTD/one.err"
  local rc=$?
  record "$1" "$3" $rc "$OUTD/one.json" "$OUTD/one.err" $t0 $(date +%s.%N)
}
for line in $(python3 -c 'import json;[print("%s,%s,%d" % (c["id"], c["kind"], c["time"])) for c in json.load(open("cases.json"))]'); do
  IFS=, read id kind timed <<< "$line"
  run_case "$id" "cases/$id/$id.launch.json" "$kind" "$timed"
done
if [ -d variants ]; then
  while read id t; do run_case "$id" "variants/$id.launch.json" variant "$t"; done < variants/cases.txt
fi
for prog in aot/check_*; do
  [ -x "$prog" ] || continue
  t0=$(date +%s.%N)
  timeout 60 "$prog" > "$OUTD/one.txt" 2> "$OUTD/one.err"; rc=$?
  python3 - "$(basename $prog)" $rc "$OUTD/one.txt" "$OUTD/one.err" >> "$RES" <<'PY'
import json, sys
cid, rc, out, err = sys.argv[1:5]
print(json.dumps({"id": cid, "kind": "aot", "rc": int(rc), "stdout": open(out).read()[-1500:],
                  "stderr": open(err).read()[-1500:], "verified": int(rc) == 0}))
PY
done
python3 - "$RES" <<'PY'
import json, sys
def f(x, w=".3g"):
    return format(x, w) if isinstance(x, (int, float)) else "-"
print("%-40s %3s %5s %8s %5s %5s %7s %7s %7s %6s %6s %5s" % ("case", "rc", "ok", "maxratio", "nan", "exact", "ours", "cublas", "lt-best", "ratio", "vsbest", "wall"))
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kind"] == "aot":
        print("%-40s %3d %5s   %s" % (r["id"], r["rc"], r["verified"], r["stdout"].strip()[-90:]))
        continue
    v = r.get("verification", {}); rnd = v.get("random", {}); ex = v.get("small_integers", {})
    t = r.get("timing", {})
    print("%-40s %3d %5s %8s %5s %5s %7s %7s %7s %6s %6s %5.1f" % (r["id"][:40], r["rc"], r.get("verified"),
          f(rnd.get("max_error_ratio")), f(rnd.get("nan")), f(ex.get("mismatches")),
          f(t.get("tensorop_tflops_median"), ".1f"), f(t.get("cublas_tflops_median"), ".1f"),
          f(t.get("cublaslt_tflops_median"), ".1f"), f(t.get("ratio_median"), ".2f"),
          f(t.get("ratio_best_library_median"), ".2f"), r.get("wall_s", 0)))
    if r.get("error"): print("   error:", str(r["error"])[:300])
    if rnd.get("first_failures"):
        print("   fail:", json.dumps(rnd["first_failures"][:2]), "rows%64:", json.dumps(rnd.get("failures_by_row_mod_64", [])[:8]), "cols%64:", json.dumps(rnd.get("failures_by_col_mod_64", [])[:8]))
PY
