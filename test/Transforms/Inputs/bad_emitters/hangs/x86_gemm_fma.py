#!/usr/bin/env python3
"""Bad emitter for tests: never answers (the pass must time out)."""
import time

while True:
    time.sleep(1)
