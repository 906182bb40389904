#!/usr/bin/env python3
"""Writes OUT, an executable stand-in for bwrap that appends its command
line to LOG and then runs the real bwrap, so that a test can see what runs
in the sandbox (the sandbox hands bwrap a clean environment, hence the
baked-in path).

    logging_bwrap.py OUT LOG
"""
import os
import shutil
import sys

out, log = sys.argv[1], sys.argv[2]
real = shutil.which("bwrap", path="/usr/bin:/bin:/usr/local/bin")
with open(out, "w") as f:
    f.write('#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s"\nexec "%s" "$@"\n' % (log, real))
os.chmod(out, 0o755)
