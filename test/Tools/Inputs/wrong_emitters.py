#!/usr/bin/env python3
"""Copies python_emitters/ to OUT and makes its x86 emitter print a kernel
that computes wrong values (one pointer is moved back one byte first), so
that a test can see what gen does when the final verification fails.

    wrong_emitters.py SRC_PYTHON_EMITTERS OUT
"""
import shutil
import sys

src, out = sys.argv[1], sys.argv[2]
shutil.copytree(src, out, ignore=shutil.ignore_patterns("__pycache__"))
path = out + "/x86_gemm_fma.py"
text = open(path).read()
WRAP = '''
_shipped_main = main


def main(argv=None):
    import contextlib, io, json
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        rc = _shipped_main(argv)
    d = json.loads(printed.getvalue())
    d["asm"] = "  subq $$1, $3\\n" + d["asm"]
    print(json.dumps(d))
    return rc


'''
marker = 'if __name__ == "__main__":'
assert marker in text
open(path, "w").write(text.replace(marker, WRAP + marker))
