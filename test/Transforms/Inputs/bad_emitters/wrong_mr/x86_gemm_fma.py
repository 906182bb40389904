#!/usr/bin/env python3
"""Bad emitter for tests: answers with an mr two less than the spec asked for."""
import json
import sys

spec = json.load(sys.stdin)
answer = {"name": "bad_wrong_mr", "dialect": "att",
          "asm": "  nop\n",
          "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}",
          "mr": spec["mr"], "nr": spec["nr"]}
answer["mr"] = spec["mr"] - 2
print(json.dumps(answer))
