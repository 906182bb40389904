#!/usr/bin/env python3
"""Bad emitter for tests: well-formed JSON, but the code uses a mnemonic x86 does not have."""
import json
import sys

spec = json.load(sys.stdin)
answer = {"name": "bad_mnemonic", "dialect": "att",
          "asm": "  vfrobnicateps ($1), %zmm0\n",
          "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}",
          "mr": spec["mr"], "nr": spec["nr"]}
print(json.dumps(answer))
