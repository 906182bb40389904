#!/usr/bin/env python3
"""Rigs a tuning database's confirmations so that the fastest row is not
the confirmed one (the candidate rows themselves, integrity-hashed, are not
touched).

  rig_confirmations.py DB           only the slowest verified row is
                                    confirmed. Prints "CONFIRMED <hash>" (that
                                    row) and "FAST <hash>" (the fastest).
  rig_confirmations.py DB --drop    forgets every confirmation.
"""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
if sys.argv[2:] == ["--drop"]:
    db.execute("DELETE FROM confirmations")
    db.commit()
    sys.exit(0)
rows = db.execute("SELECT id, config_hash FROM candidates WHERE status='ok' "
                  "ORDER BY median_seconds ASC").fetchall()
if len(rows) < 2:
    sys.exit("need two verified rows, found %d" % len(rows))
(fast_id, fast_hash), (slow_id, slow_hash) = rows[0], rows[-1]
db.execute("DELETE FROM confirmations")
db.execute("INSERT INTO confirmations(candidate_id, gflops, confirmed_at) "
           "VALUES(?, 1.0, '2026-01-01T00:00:00Z')", (slow_id,))
db.commit()
print("CONFIRMED %s" % slow_hash)
print("FAST %s" % fast_hash)
