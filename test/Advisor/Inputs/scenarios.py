#!/usr/bin/env python3
"""Writes scripted LLM answers for the advisor tests (server.py scenarios).

    scenarios.py NAME OUT.json

Each scenario is the list of answers the test server gives, in order.
"""
import json
import sys

GOOD = {"mc": 96, "nc": 128, "kc": 64, "mr": 6, "nr": 64, "loop_order": "mkn",
        "micro_order": "mn", "k_unroll": 4, "broadcast": "explicit", "prefetch_b": 0}


def answer(sketch=GOOD, emitter=None, rationale="test"):
    a = {"sketch": sketch, "rationale": rationale}
    if emitter:
        a["emitter"] = {"name": emitter[0], "script": emitter[1]}
    return {"reply": json.dumps(a), "prompt_tokens": 100, "completion_tokens": 20}


WRAP = "import sys\nimport x86_gemm_fma\nsys.exit(x86_gemm_fma.main())\n"
SCRIPTS = {
    "loop": "while True:\n    pass\n",
    "forkbomb": ("import os, time\nfor i in range(300):\n    try:\n        if os.fork() == 0:\n"
                 "            time.sleep(30)\n            os._exit(0)\n    except OSError:\n        break\n"
                 "time.sleep(30)\n"),
    "socket": ("import socket\ns = socket.create_connection(('127.0.0.1', 9), timeout=2)\n"
               "print('{}')\n"),
    "escape": "open('/etc/tensorop-pwned', 'w').write('x')\nprint('{}')\n",
    "badasm": ("import json, sys\nspec = json.load(sys.stdin)\n"
               "print(json.dumps({'name': 'bad', 'asm': '  vbogusop %zmm0, %zmm1\\n',"
               " 'constraints': '=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}',"
               " 'dialect': 'att', 'mr': spec['mr'], 'nr': spec['nr']}))\n"),
    "wrongmath": ("import json, subprocess, sys, io, contextlib\nimport x86_gemm_fma\n"
                  "spec = sys.stdin.read()\nout = io.StringIO()\nsys.stdin = io.StringIO(spec)\n"
                  "with contextlib.redirect_stdout(out):\n    x86_gemm_fma.main([])\n"
                  "d = json.loads(out.getvalue())\nd['asm'] = '  subq $$1, $3\\n' + d['asm']\n"
                  "print(json.dumps(d))\n"),
    # F1 of issue 12: the shipped kernel with an open(2) system call in front.
    "syscall": ("import json, sys, io, contextlib\nimport x86_gemm_fma\n"
                "spec = sys.stdin.read()\nout = io.StringIO()\nsys.stdin = io.StringIO(spec)\n"
                "with contextlib.redirect_stdout(out):\n    x86_gemm_fma.main([])\n"
                "d = json.loads(out.getvalue())\n"
                "d['asm'] = '  movl $$2, %eax\\n  syscall\\n' + d['asm']\n"
                "print(json.dumps(d))\n"),
    # Passes the allowlist (arithmetic on an operand register, stores
    # through it) but its stores land far outside C: the pointer to C is
    # moved 2^40 bytes on first.
    "oob": ("import json, sys, io, contextlib\nimport x86_gemm_fma\n"
            "spec = sys.stdin.read()\nout = io.StringIO()\nsys.stdin = io.StringIO(spec)\n"
            "with contextlib.redirect_stdout(out):\n    x86_gemm_fma.main([])\n"
            "d = json.loads(out.getvalue())\n"
            "d['asm'] = '  shlq $$40, $2\\n' + d['asm']\n"
            "print(json.dumps(d))\n"),
    # Passes the allowlist (a branch to its own label) and never returns.
    "spin": ("import json, sys, io, contextlib\nimport x86_gemm_fma\n"
             "spec = sys.stdin.read()\nout = io.StringIO()\nsys.stdin = io.StringIO(spec)\n"
             "with contextlib.redirect_stdout(out):\n    x86_gemm_fma.main([])\n"
             "d = json.loads(out.getvalue())\n"
             "d['asm'] = '9:\\n  jmp 9b\\n' + d['asm']\n"
             "print(json.dumps(d))\n"),
    # F2: a kernel that does nothing (C is never written).
    "nop": ("import json, sys\nspec = json.load(sys.stdin)\n"
            "print(json.dumps({'name': 'nop', 'asm': '  nop\\n',"
            " 'constraints': '=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}',"
            " 'dialect': 'att', 'mr': spec['mr'], 'nr': spec['nr']}))\n"),
}

name, out = sys.argv[1], sys.argv[2]
s = {
    "good": [answer()],
    "good-emitter": [answer(emitter=("llm_wrap", WRAP))],
    "malformed-then-good": [{"reply": "this is not { json"}, answer()],
    "wrong-schema": [{"reply": json.dumps({"sketch": {"mc": "big"}})}] * 2,
    "illegal-then-good": [answer(dict(GOOD, mr=40, mc=120)), answer()],
    "bad-order": [answer(dict(GOOD, loop_order="mkk"))] * 2,
    "http-errors-then-good": [{"status": 429, "body": {"error": {"message": "slow down"}},
                               "headers": {"Retry-After": "0"}},
                              {"status": 500, "body": {"error": {"message": "oops"}}}, answer()],
    "hang": [{"hang": True}] * 4,
    "freetext": [{"reply": json.dumps({"op": "gemm", "m": 37, "n": 53, "k": 29, "dtype": "f32",
                                       "target": "x86-avx512"})}, answer()],
    "freetext-garbage": [{"reply": json.dumps({"op": "gemm", "m": -3, "n": 53, "k": 29,
                                               "dtype": "f32", "target": "x86-avx512"})}],
}
# Convolutions (3x3, C = 16, F = 32 on 10x12): a legal sketch other than
# the builtin's (mr = 4, nr = 16, one tap per call, both packed).
CONV_GOOD = {"mr": 4, "nr": 16, "cb": 16, "taps": "one", "loop_order": "fp",
             "pack_input": "kmajor_mr", "pack_filter": "kmajor_nr", "k_unroll": 2,
             "broadcast": "explicit"}
s["conv-good"] = [answer(CONV_GOOD)]
s["conv-illegal-then-good"] = [answer(dict(CONV_GOOD, mr=16, nr=64)), answer(CONV_GOOD)]
s["conv-emitter-then-garbage"] = [answer(CONV_GOOD, emitter=("llm_wrap", WRAP)),
                                  {"reply": json.dumps({"sketch": {"mr": "four"}})}]
# The tuner's proposals: a kernel that stores far out of bounds, then one
# that wraps the shipped emitter.
s["tune-oob-then-wrap"] = [answer(emitter=("llm_oob", SCRIPTS["oob"])),
                           answer(emitter=("llm_wrap", WRAP))]
for key, script in SCRIPTS.items():
    s["script-" + key] = [answer(emitter=("llm_" + key, script))] * 2
json.dump(s[name], open(out, "w"), indent=1)
