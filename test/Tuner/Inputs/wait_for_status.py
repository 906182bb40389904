"""wait_for_status.py DB STATUS SECONDS: waits until a row with STATUS exists."""
import sqlite3, sys, time
db, status, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
end = time.time() + limit
while time.time() < end:
    try:
        c = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        if c.execute("select count(*) from candidates where status=?", (status,)).fetchone()[0]:
            sys.exit(0)
    except sqlite3.Error:
        pass
    time.sleep(0.2)
sys.exit(f"no '{status}' row in {db} after {limit} s")
