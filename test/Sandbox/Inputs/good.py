# A well-behaved emitter: JSON spec in, JSON answer out, a note on stderr.
import json
import sys

spec = json.load(sys.stdin)
print("note: got %d fields" % len(spec), file=sys.stderr)
print(json.dumps({"name": "kernel_%dx%d" % (spec["mr"], spec["nr"]), "mr": spec["mr"],
                  "nr": spec["nr"], "unicode": "\u00e9\u4e2d"}, sort_keys=True))
