#!/usr/bin/env python3
"""Starts `tensorop gen ... -o OUT`, waits until the kernel's object is
staged (written, not yet verified), kills gen with SIGKILL and prints what
OUT's parent then holds.

    kill_gen.py OUT -- TENSOROP GEN-ARGS...
"""
import glob
import os
import signal
import subprocess
import sys
import time

out = sys.argv[1]
cmd = sys.argv[3:]
parent, name = os.path.split(os.path.abspath(out))
gen = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
staged = []
deadline = time.time() + 120
while time.time() < deadline and gen.poll() is None:
    staged = glob.glob(os.path.join(parent, "." + name + ".tensorop-gen-*", "*.o"))
    if staged:
        break
    time.sleep(0.02)
if not staged:
    gen.kill()
    sys.exit("gen ended (exit %s) before its object was staged" % gen.poll())
gen.send_signal(signal.SIGKILL)
gen.wait()
print("killed gen with its object staged")
for entry in sorted(os.listdir(parent)):
    print("left:", entry.split(".tensorop-gen-")[0] + (".tensorop-gen-*" if ".tensorop-gen-" in entry else ""))
