#!/usr/bin/env python3
"""Bad emitter for tests: well-formed JSON, but the code names zmm99."""
import json
import sys

spec = json.load(sys.stdin)
answer = {"name": "bad_register", "dialect": "att",
          "asm": "  vxorps %zmm0, %zmm0, %zmm0\n  vfmadd231ps %zmm99, %zmm1, %zmm2\n",
          "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,~{memory}",
          "mr": spec["mr"], "nr": spec["nr"]}
print(json.dumps(answer))
