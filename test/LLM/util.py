#!/usr/bin/env python3
"""Helpers for the LLM tests.

    util.py log LOG [--count N] [--min-gap I:SECONDS]
        Prints one line per request in server.py's log:
          request N: POST /v1/chat/completions auth=... model=M
            response_format=json_object|none messages=role,role max_tokens=K
        and fails unless there were exactly N requests (--count) and request
        I came at least SECONDS after request I-1 (--min-gap).
    util.py corrupt DIR
        Overwrites every cache entry (*.json) under DIR with garbage; prints
        how many.
"""
import argparse
import glob
import json
import os
import sys


def cmd_log(args):
    with open(args.log) as f:
        entries = [json.loads(line) for line in f if line.strip()]
    for e in entries:
        body = e.get("body") if isinstance(e.get("body"), dict) else {}
        rf = body.get("response_format")
        rf = rf.get("type", "?") if isinstance(rf, dict) else "none"
        roles = ",".join(m.get("role", "?") for m in body.get("messages", []))
        print("request %d: %s %s auth=%s model=%s response_format=%s "
              "messages=%s max_tokens=%s temperature=%s" % (
                  e["n"], e["method"], e["path"], e["auth"], body.get("model"),
                  rf, roles, body.get("max_tokens"), body.get("temperature")))
    ok = True
    if args.count is not None and len(entries) != args.count:
        print("error: %d requests, expected %d" % (len(entries), args.count))
        ok = False
    for gap in args.min_gap:
        i, seconds = gap.split(":")
        i, seconds = int(i), float(seconds)
        if i >= len(entries) or i < 1:
            print("error: no request %d" % i)
            ok = False
            continue
        got = entries[i]["t"] - entries[i - 1]["t"]
        if got < seconds:
            print("error: request %d came %.3f s after request %d, expected "
                  ">= %g s" % (i, got, i - 1, seconds))
            ok = False
        else:
            print("gap %d: ok" % i)
    return 0 if ok else 1


def cmd_corrupt(args):
    paths = glob.glob(os.path.join(args.dir, "**", "*.json"), recursive=True)
    for p in paths:
        with open(p, "w") as f:
            f.write('{"format": "tensorop-llm-cache/1", "content": ')
    print("corrupted %d" % len(paths))
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("log")
    p.add_argument("log")
    p.add_argument("--count", type=int)
    p.add_argument("--min-gap", action="append", default=[])
    p = sub.add_parser("corrupt")
    p.add_argument("dir")
    args = parser.parse_args()
    return {"log": cmd_log, "corrupt": cmd_corrupt}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
