# Imported by python (through PYTHONPATH) before it reads the emitter script:
# rewrites the script between the moment tensorop hashed it for the cache key
# and the moment python runs it, as an edit during a `tensorop gen` does.
# The edited script names its kernels "raced_...". With RACE_RESTORE set the
# original bytes are put back when python exits, before tensorop looks again.
import atexit
import os

path = os.environ.get("RACE_SCRIPT")
if path:
    with open(path) as f:
        original = f.read()
    with open(path, "w") as f:
        f.write(original.replace('self.name = "x86_%s', 'self.name = "raced_x86_%s'))
    if os.environ.get("RACE_RESTORE"):
        def restore():
            with open(path, "w") as f:
                f.write(original)
        atexit.register(restore)
