#!/usr/bin/env python3
"""Bad emitter for tests: valid JSON answer without the "asm" field."""
import json
import sys

spec = json.load(sys.stdin)
print(json.dumps({"name": "bad_missing_asm", "dialect": "att",
                  "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6",
                  "mr": spec["mr"], "nr": spec["nr"]}))
