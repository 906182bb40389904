# Fails if stdin has more lines than argv[1] (a --help that grew back).
import sys

limit = int(sys.argv[1])
n = len(sys.stdin.read().splitlines())
print("%d lines (limit %d)" % (n, limit))
sys.exit(1 if n > limit else 0)
