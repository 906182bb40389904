#!/usr/bin/env python3
"""Bad emitter for tests: exits 0 and prints nothing at all."""
import sys

sys.stdin.read()
