#!/usr/bin/env python3
"""Runs the shell blocks of README.md and docs/*.md that are marked runnable.

A block is runnable when its fence reads ```sh runnable (or ```bash
runnable): it must work as written from the repository root, offline (no
GPU, no LLM endpoint), in a few seconds. Each runnable block runs with
`bash -euo pipefail` in a fresh directory that mirrors the repository root
(every top-level entry a symlink; `build` points at BUILD, and build/bin is on PATH), so what a block
writes (out/, tune.db, ...) lands in that directory, and blocks run in file
order sharing it, as a reader following the page would.

  run_doc_blocks.py --src ROOT --build BUILD [--list] [--timeout S] [FILE...]

Exit status 1 if a block fails or if the files hold no runnable block at all.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^```(\S*)\s*(.*)$")


def blocks(path):
    """(line of the fence, language, is runnable, text) of each fenced block."""
    out, lang, marks, start, text = [], None, "", 0, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if lang is None and m:
                lang, marks, start, text = m.group(1), m.group(2), n, []
            elif lang is not None and line.startswith("```"):
                out.append((start, lang, "runnable" in marks.split(),
                            "".join(text)))
                lang = None
            elif lang is not None:
                text.append(line)
    return out


def mirror(src, build, into):
    for entry in os.listdir(src):
        if entry in (".git", "build"):
            continue
        os.symlink(os.path.join(src, entry), os.path.join(into, entry))
    os.symlink(build, os.path.join(into, "build"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--list", action="store_true",
                    help="print the runnable blocks, run nothing")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    src, build = os.path.abspath(a.src), os.path.abspath(a.build)
    files = a.files or ([os.path.join(src, "README.md")] +
                        sorted(glob.glob(os.path.join(src, "docs", "*.md"))))
    todo = []
    for path in files:
        for line, lang, runnable, text in blocks(path):
            if runnable and lang not in ("sh", "bash"):
                print("%s:%d: a runnable block must be sh or bash, not '%s'"
                      % (os.path.relpath(path, src), line, lang))
                return 1
            if runnable:
                todo.append((os.path.relpath(path, src), line, text))
    if not todo:
        print("error: no runnable block in " + ", ".join(files))
        return 1
    if a.list:
        for rel, line, text in todo:
            print("%s:%d:\n%s" % (rel, line, text))
        return 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tensorop-docs-") as work:
        mirror(src, build, work)
        env = dict(os.environ)
        # What the docs assume: build/bin and Debian's LLVM tools on PATH,
        # no LLM endpoint.
        env["PATH"] = (os.path.join(work, "build", "bin") +
                       ":/usr/lib/llvm-22/bin:" + env.get("PATH", ""))
        for var in ("TENSOROP_LLM_URL", "TENSOROP_LLM_MODEL",
                    "TENSOROP_LLM_API_KEY"):
            env.pop(var, None)
        for rel, line, text in todo:
            start = time.time()
            try:
                p = subprocess.run(["bash", "-euo", "pipefail", "-c", text],
                                   cwd=work, env=env, timeout=a.timeout,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                rc, output = p.returncode, p.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired as e:
                rc = "timeout after %ds" % a.timeout
                output = (e.stdout or b"").decode(errors="replace")
            took = time.time() - start
            if rc == 0:
                print("%s:%d: ok (%.1f s)" % (rel, line, took))
            else:
                failed += 1
                print("%s:%d: FAILED (exit %s, %.1f s)\n--- block:\n%s--- "
                      "output (last 40 lines):\n%s" %
                      (rel, line, rc, took, text,
                       "\n".join(output.splitlines()[-40:])))
    print("%d runnable block(s), %d failed" % (len(todo), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
