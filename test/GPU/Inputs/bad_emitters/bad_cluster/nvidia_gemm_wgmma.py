#!/usr/bin/env python3
"""A broken wgmma emitter for test/GPU/bad-cluster.mlir: the real emitter's
answer with a cluster shape that does not divide the grid."""
import json
import os
import subprocess
import sys

REAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "..",
                    "python_emitters", "nvidia_gemm_wgmma.py")
answer = json.loads(subprocess.run([sys.executable, REAL], input=sys.stdin.read(),
                                   capture_output=True, text=True, check=True).stdout)
answer["cluster"] = [5, 1, 1]
print(json.dumps(answer))
