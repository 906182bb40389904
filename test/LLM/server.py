#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat-completions server for the LLM tests.

    server.py --scenario FILE --port-file FILE --log FILE
              [--expect-key-sha256 HEX] [--max-seconds 60]

Listens on 127.0.0.1, port chosen by the kernel, written to --port-file once
the socket is bound. Every request except GET/POST /shutdown takes the next
response of the scenario, a JSON list (or {"responses": [...]}) of objects:

    {"reply": "text", "prompt_tokens": 11, "completion_tokens": 7}
                               a normal chat completion with that content
                               ("no_usage": true leaves `usage` out)
    {"status": 429, "body": {...}}   any status with a JSON body
    {"raw": "text"}                  a body sent as it is
    {"headers": {"Retry-After": "1"}}
    {"delay": 0.5}                   wait before answering
    {"hang": true}                   never answer
    {"drop": true}                   close the connection without a word
    {"echo_auth": true}              "{auth}" in body/raw becomes the
                                     Authorization header received (to
                                     test that the client redacts it)

Past the end of the list: 500 "no scripted response left". Each request is
appended to --log as one JSON line: its number, time since start, method,
path, headers, and body; the Authorization header is never written, only
"auth": "absent" | "matches-expected" | "does-not-match" (by SHA-256 of the
bearer token against --expect-key-sha256). The server stops on /shutdown or
after --max-seconds, whichever comes first.
"""

import argparse
import hashlib
import http.server
import json
import os
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--expect-key-sha256", default="")
    parser.add_argument("--max-seconds", type=float, default=60)
    args = parser.parse_args()

    with open(args.scenario) as f:
        scenario = json.load(f)
    if isinstance(scenario, dict):
        scenario = scenario.get("responses", [])
    start = time.monotonic()
    stop = threading.Event()
    lock = threading.Lock()
    state = {"next": 0, "count": 0}
    log = open(args.log, "a")

    def auth_marker(value):
        if value is None:
            return "absent"
        token = value[len("Bearer "):] if value.startswith("Bearer ") else value
        digest = hashlib.sha256(token.encode()).hexdigest()
        if args.expect_key_sha256 and digest == args.expect_key_sha256:
            return "matches-expected"
        return "does-not-match"

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, *unused):
            pass  # Quiet: the log file is the record.

        def do_GET(self):
            self.handle_any()

        def do_POST(self):
            self.handle_any()

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/").endswith("/shutdown"):
                self.send(200, b"bye\n", {})
                stop.set()
                threading.Thread(target=server.shutdown, daemon=True).start()
                return
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            auth = self.headers.get("Authorization")
            with lock:
                n = state["count"]
                state["count"] += 1
                entry = scenario[state["next"]] if state["next"] < len(scenario) else None
                state["next"] += 1
                record = {
                    "n": n,
                    "t": round(time.monotonic() - start, 3),
                    "method": self.command,
                    "path": self.path,
                    "auth": auth_marker(auth),
                    "headers": {k.lower(): v for k, v in self.headers.items()
                                if k.lower() != "authorization"},
                    "body": body,
                }
                log.write(json.dumps(record, sort_keys=True) + "\n")
                log.flush()
            if entry is None:
                self.send(500, json.dumps({"error": {
                    "message": "test server: no scripted response left"}}).encode(),
                    {"Content-Type": "application/json"})
                return
            if entry.get("delay"):
                stop.wait(float(entry["delay"]))
            if entry.get("hang"):
                stop.wait()
                return
            if entry.get("drop"):
                self.close_connection = True
                return
            status = int(entry.get("status", 200))
            headers = dict(entry.get("headers", {}))
            if "reply" in entry:
                doc = {
                    "id": "chatcmpl-test-%d" % n,
                    "object": "chat.completion",
                    "created": 0,
                    "model": entry.get("model", "test-model"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant",
                                             "content": entry["reply"]}}],
                }
                if not entry.get("no_usage"):
                    p = entry.get("prompt_tokens", 0)
                    c = entry.get("completion_tokens", 0)
                    doc["usage"] = {"prompt_tokens": p, "completion_tokens": c,
                                    "total_tokens": p + c}
                text = json.dumps(doc)
                headers.setdefault("Content-Type", "application/json")
            elif "body" in entry:
                text = json.dumps(entry["body"])
                headers.setdefault("Content-Type", "application/json")
            else:
                text = entry.get("raw", "")
            if entry.get("echo_auth"):
                text = text.replace("{auth}", auth or "")
            self.send(status, text.encode(), headers)

        def send(self, status, data, headers):
            try:
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, str(v))
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # The client gave up (timeout test); not our problem.

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.replace(tmp, args.port_file)

    def deadline():
        if not stop.wait(args.max_seconds):
            print("server.py: stopping after %g s" % args.max_seconds, file=sys.stderr)
            stop.set()
            server.shutdown()

    threading.Thread(target=deadline, daemon=True).start()
    server.serve_forever(poll_interval=0.05)
    server.server_close()
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
