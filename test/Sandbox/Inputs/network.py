# Tries to reach the test server on the host's loopback (port from stdin) and,
# unless the spec says "outside": false, outside addresses. None may work.
import json
import socket
import sys

spec = json.load(sys.stdin)
targets = [("127.0.0.1", spec["port"])]
if spec.get("outside", True):
    targets += [("1.1.1.1", 53), ("10.0.0.1", 80)]
reached = False
for host, p in targets:
    try:
        s = socket.create_connection((host, p), timeout=3)
        s.sendall(b"GET /from-the-sandbox HTTP/1.0\r\n\r\n")
        print("REACHED %s:%d" % (host, p))
        reached = True
    except OSError as e:
        print("%s: %s" % ("loopback" if host == "127.0.0.1" else "outside",
                          type(e).__name__))
print("interfaces: %s" % ",".join(n for _, n in socket.if_nameindex()))
sys.exit(1 if reached else 0)
