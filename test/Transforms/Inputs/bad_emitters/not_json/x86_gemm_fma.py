#!/usr/bin/env python3
"""Bad emitter for tests: exits 0 but prints something that is not JSON."""
import sys

sys.stdin.read()
print("vfmadd231ps %zmm1, %zmm2, %zmm3  # oops, raw assembly instead of JSON")
