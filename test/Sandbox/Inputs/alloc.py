# Allocates 2 GB and touches it.
import sys

try:
    block = bytearray(2 * 1000 * 1000 * 1000)
    for i in range(0, len(block), 4096):
        block[i] = 1
    print("ALLOCATED 2 GB")
    sys.exit(1)
except MemoryError:
    print("allocation failed: MemoryError")
