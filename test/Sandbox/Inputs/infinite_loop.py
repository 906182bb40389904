# Never ends, and leaves children behind that try to outlive it: one in the
# same process group and, unless the spec says "escape": false, one in a new
# session (setsid) and one double-forked into a new session. Their command
# lines carry the marker read from stdin, so the test can look for leftovers
# with pgrep -f.
import json
import os
import subprocess
import sys
import time

spec = json.load(sys.stdin)
child = "import time\n# %s\ntime.sleep(1000)\n" % spec["marker"]
subprocess.Popen([sys.executable, "-c", child])
escape = spec.get("escape", True)
if escape:
    subprocess.Popen([sys.executable, "-c", child], start_new_session=True)
if escape and os.fork() == 0:
    if os.fork() == 0:
        os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", child])
    os._exit(0)
print("children started", flush=True)
deadline = time.time() + 120  # Bounded even if the sandbox is broken.
while time.time() < deadline:
    pass
