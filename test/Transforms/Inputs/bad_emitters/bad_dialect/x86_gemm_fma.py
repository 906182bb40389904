#!/usr/bin/env python3
"""Bad emitter for tests: answers with an assembler dialect that is neither att nor intel."""
import json
import sys

spec = json.load(sys.stdin)
answer = {"name": "bad_dialect", "dialect": "att",
          "asm": "  nop\n",
          "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}",
          "mr": spec["mr"], "nr": spec["nr"]}
answer["dialect"] = "masm"
print(json.dumps(answer))
