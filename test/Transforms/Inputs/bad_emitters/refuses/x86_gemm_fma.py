#!/usr/bin/env python3
"""Bad emitter for tests: answers {"error": ...} with exit status 0."""
import json
import sys

spec = json.load(sys.stdin)
print(json.dumps({"error": "mr %d is not supported by this emitter" % spec["mr"]}))
