#!/usr/bin/env python3
"""Prints the rows of a stage-splitk-gemv.sh result file (splitk-gemv.jsonl)
as a markdown table: kernel tile, split schedule, TensorOp / cuBLAS /
cuBLASLt best-of-8 TFLOP/s medians and the ratios of the same process,
verification (random + small integers + after timing + repeatable bits)
and the SM clock median.
  streamk_table.py RESULTS.jsonl [LAUNCH_DIR...]"""
import json
import sys


def main():
    print("| case | grid/cluster | TensorOp | cuBLAS | cuBLASLt best-of-8 | vs cuBLAS | "
          "vs faster library | verified, repeatable bits | SM MHz |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for line in open(sys.argv[1]):
        r = json.loads(line)
        cid = r.get("id")
        if "error" in r or "timing" not in r:
            print("| %s | | | | | | | %s | |" % (cid, r.get("error", "rc %s" % r.get("rc"))))
            continue
        t = r["timing"]
        v = r.get("verified")
        rep = r["verification"].get("repeatable_bits", {}).get("identical")
        launch = r.get("launch", {})                # the epilogue runner has none
        geo = "%s/%s" % (launch.get("grid", ["?"])[0], launch.get("cluster", ["?"])[0])
        if not t.get("performed"):
            print("| %s | %s | untimed | | | | | %s / %s | |" % (cid, geo, v, rep))
            continue
        mhz = t.get("nvml", {}).get("sm_mhz", {}).get("median", "")
        print("| %s | %s | %.1f | %.1f | %.1f | %.2f | %.2f | %s / %s | %s |" % (
            cid, geo, t["tensorop_tflops_median"], t["cublas_tflops_median"],
            t.get("cublaslt_tflops_median", 0.0), t["ratio_median"],
            t.get("ratio_best_library_median", 0.0), v, rep, mhz))


if __name__ == "__main__":
    main()
