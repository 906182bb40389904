# Prints without end (bounded at 1 GiB in case the cap is broken).
import sys

line = "x" * 1023 + "\n"
for _ in range(1 << 20):
    sys.stdout.write(line)
