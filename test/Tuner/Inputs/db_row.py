"""Edits rows of a TensorOp tuning database the way a tuner or a person would.

  db_row.py rehash DB ID                 recompute row ID's integrity hash
  db_row.py set DB ID COLUMN VALUE       change one column (hash left stale)
  db_row.py inflight DB ID OWNER_PID     make row ID a started row held by a
                                          live tuner (pid OWNER_PID, this host)
  db_row.py count DB                     print the number of rows
  db_row.py id-of DB CONFIG_HASH         print the id of the row with that hash
  db_row.py config-with DB ID KNOB VALUE print row ID's config with one
                                          integer knob changed
  db_row.py config-replace DB ID OLD NEW print row ID's config with the text
                                          OLD replaced by NEW (once)

The integrity hash mirrors rowIntegrityHash() in lib/Tuner/TuningDB.cpp:
SHA-256 over length-prefixed fields, reals as "%.17e" or "null".
"""
import hashlib
import socket
import sqlite3
import sys
import time

FIELDS = ["op_signature", "target_fingerprint", "config", "config_hash",
          "emitter_hash", "tool_version", "status", "median_seconds",
          "min_seconds", "gflops", "error_ratio", "provenance", "error",
          "started_at", "finished_at"]
REALS = {"median_seconds", "min_seconds", "gflops", "error_ratio"}


def row_hash(row):
    text = ""
    for name in FIELDS:
        v = row[name]
        if name in REALS:
            v = "null" if v is None else "%.17e" % v
        elif v is None:
            v = ""
        text += "%d:%s;" % (len(v.encode()), v)
    return hashlib.sha256(text.encode()).hexdigest()


def rehash(db, rid):
    db.row_factory = sqlite3.Row
    row = db.execute("SELECT * FROM candidates WHERE id=?", (rid,)).fetchone()
    db.execute("UPDATE candidates SET row_hash=? WHERE id=?", (row_hash(row), rid))


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(path)
    if cmd == "count":
        print(db.execute("SELECT COUNT(*) FROM candidates").fetchone()[0])
        return
    if cmd == "id-of":
        print(db.execute("SELECT id FROM candidates WHERE config_hash=?",
                         (sys.argv[3],)).fetchone()[0])
        return
    rid = int(sys.argv[3])
    if cmd == "rehash":
        rehash(db, rid)
    elif cmd == "set":
        column, value = sys.argv[4], sys.argv[5]
        assert column.isidentifier()
        db.execute("UPDATE candidates SET %s=? WHERE id=?" % column, (value, rid))
    elif cmd == "config-with":
        import re
        knob, value = sys.argv[4], sys.argv[5]
        config = db.execute("SELECT config FROM candidates WHERE id=?",
                            (rid,)).fetchone()[0]
        print(re.sub(r"\b%s = \d+" % knob, "%s = %s" % (knob, value), config, count=1))
        return
    elif cmd == "config-replace":
        config = db.execute("SELECT config FROM candidates WHERE id=?",
                            (rid,)).fetchone()[0]
        assert sys.argv[4] in config, "%r is not in %r" % (sys.argv[4], config)
        print(config.replace(sys.argv[4], sys.argv[5], 1))
        return
    elif cmd == "inflight":
        owner = "%s:%s:test" % (socket.gethostname(), sys.argv[4])
        db.execute("UPDATE candidates SET status='started', median_seconds=NULL, "
                   "min_seconds=NULL, gflops=NULL, error_ratio=NULL, error=NULL, "
                   "finished_at=NULL, owner=?, lease_until=? WHERE id=?",
                   (owner, int(time.time()) + 600, rid))
        rehash(db, rid)
    else:
        sys.exit("unknown command " + cmd)
    db.commit()


if __name__ == "__main__":
    main()
