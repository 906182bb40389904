#!/usr/bin/env python3
"""Rigs a tuning database so that the fastest row is not the confirmed one.

  rig_confirmations.py DB           the first verified row becomes the slowest
                                    and the only confirmed one; the next one
                                    the fastest, unconfirmed. Prints
                                    "CONFIRMED <hash>" and "FAST <hash>".
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
                  "ORDER BY id").fetchall()
if len(rows) < 2:
    sys.exit("need two verified rows, found %d" % len(rows))
(slow_id, slow_hash), (fast_id, fast_hash) = rows[0], rows[1]
db.execute("DELETE FROM confirmations")
db.execute("UPDATE candidates SET median_seconds = 1.0 WHERE status='ok'")
db.execute("UPDATE candidates SET median_seconds = 1e-6 WHERE id=?", (fast_id,))
db.execute("INSERT INTO confirmations(candidate_id, gflops, confirmed_at) "
           "VALUES(?, 1.0, '2026-01-01T00:00:00Z')", (slow_id,))
db.commit()
print("CONFIRMED %s" % slow_hash)
print("FAST %s" % fast_hash)
