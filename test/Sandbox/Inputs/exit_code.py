import sys
print("failing on purpose", file=sys.stderr)
sys.exit(7)
