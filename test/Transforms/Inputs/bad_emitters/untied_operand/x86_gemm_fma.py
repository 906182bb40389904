#!/usr/bin/env python3
"""Bad emitter for tests: valid code, but operand 2 (C) is not tied in/out,
which breaks the operand contract (UKernelOperands.h)."""
import json
import sys

spec = json.load(sys.stdin)
print(json.dumps({"name": "bad_untied", "dialect": "att", "asm": "  nop\n",
                  "constraints": "=r,=r,=r,=r,=r,=r,=r,0,1,r,3,4,5,6,~{memory}",
                  "mr": spec["mr"], "nr": spec["nr"]}))
