#!/usr/bin/env python3
"""Bad emitter for tests: fails with exit status 3 and a message on stderr."""
import sys

sys.stdin.read()
sys.stderr.write("bad_emitter: simulated crash while emitting\n")
sys.exit(3)
