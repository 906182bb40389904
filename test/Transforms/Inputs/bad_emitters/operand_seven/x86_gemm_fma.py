#!/usr/bin/env python3
"""Bad emitter for tests: well-formed JSON, but the code uses operand $7, one past the last of the seven."""
import json
import sys

spec = json.load(sys.stdin)
answer = {"name": "operand_seven", "dialect": "att",
          "asm": "  add $$4, $7\n",
          "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}",
          "mr": spec["mr"], "nr": spec["nr"]}
print(json.dumps(answer))
