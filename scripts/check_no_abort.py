#!/usr/bin/env python3
"""Fails if lib/, tools/ or include/ stop the process where they should report.

User input (options, requests, modules, databases, model answers) must end in
a located diagnostic and a non-zero exit, never in report_fatal_error, abort,
llvm_unreachable, cantFail or a trap. Every remaining occurrence is listed in
scripts/no_abort_allowlist.txt with the reason it is a genuine internal
invariant; a new occurrence, or an allowlist entry that no longer matches,
fails this check.

  check_no_abort.py [ROOT]      (ROOT: the repository, default: this one)
"""
import os
import re
import sys

# What stops a process without a diagnostic. exit()/_Exit() are only
# flagged in lib/: a library must hand errors to its caller.
EVERYWHERE = re.compile(
    r"\b(report_fatal_error|llvm_unreachable|cantFail|__builtin_trap|"
    r"LLVM_BUILTIN_TRAP|LLVM_BUILTIN_UNREACHABLE)\b|\babort\s*\(|"
    r"std::terminate\s*\(")
LIBRARY_ONLY = re.compile(r"\b(_?exit|_Exit|quick_exit)\s*\(")
SOURCES = (".cpp", ".cc", ".c", ".h", ".hpp", ".inc")


def strip_comment(line):
    i = line.find("//")
    return line if i < 0 else line[:i]


def load_allowlist(path):
    entries = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not all(parts):
                sys.exit("%s:%d: expected 'file | code | reason'" % (path, n))
            entries.append({"file": parts[0], "code": parts[1],
                            "reason": parts[2], "line": n, "used": False})
    return entries


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    allow_path = os.path.join(root, "scripts", "no_abort_allowlist.txt")
    allow = load_allowlist(allow_path) if os.path.exists(allow_path) else []
    bad = []
    for top in ("lib", "tools", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        code = strip_comment(line)
                        if not (EVERYWHERE.search(code) or
                                (top == "lib" and LIBRARY_ONLY.search(code))):
                            continue
                        hits = [e for e in allow
                                if e["file"] == rel and e["code"] in code]
                        for e in hits:
                            e["used"] = True
                        if not hits:
                            bad.append("%s:%d: %s" % (rel, n, line.strip()))
    stale = ["%s:%d: allowlist entry matches nothing: %s | %s" %
             (os.path.relpath(allow_path, root), e["line"], e["file"],
              e["code"]) for e in allow if not e["used"]]
    for b in bad:
        print(b)
    if bad:
        print("error: %d place(s) stop the process instead of reporting an "
              "error; return a diagnostic / llvm::Error instead, or, for a "
              "genuine internal invariant, add 'file | code | reason' to "
              "scripts/no_abort_allowlist.txt" % len(bad))
    for s in stale:
        print(s)
    if bad or stale:
        return 1
    print("no-abort check: %d allowlisted internal invariant(s), nothing else"
          % len(allow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
