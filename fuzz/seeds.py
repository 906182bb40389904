#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the repository's own tests and data.

    seeds.py OUTDIR

OUTDIR/<fuzzer>/ gets one file per seed:
  request     the quoted requests of `tensorop gen/tune/bench "..."` in test/,
              docs/ and README.md
  hints       hints/*.json and the hints files under test/ (good and bad)
  cpu-answer  the answers of test/Advisor/Inputs/scenarios.py and the
              "reply" strings of test/**/Inputs/*.json
  gpu-answer  the "reply" strings of test/**/Inputs/*.json (those naming a
              GPU kernel and the others: a wrong family is a seed too)
  pipeline    test/**/*.mlir and examples/*.mlir, split at `// -----`
  llm-reply   those answers wrapped as chat-completions bodies (with and
              without usage and model), and error bodies in the shapes
              servers send
Seeds are named by their content's hash, so a rerun replaces nothing.
"""
import glob
import hashlib
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
counts = {}


def seed(fuzzer, text):
    data = text.encode() if isinstance(text, str) else text
    if not data.strip():
        return
    d = os.path.join(out, fuzzer)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    counts[fuzzer] = counts.get(fuzzer, 0) + 1


def files(*patterns):
    for p in patterns:
        yield from sorted(glob.glob(os.path.join(root, p), recursive=True))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# Requests: the quoted argument of the tools' request commands.
request = re.compile(r'tensorop(?:\S*)? +(?:gen|tune|bench)\b[^"\n]*"([^"\n]+)"')
for path in files("test/**/*", "docs/**/*.md", "README.md"):
    if os.path.isfile(path):
        for m in request.finditer(read(path)):
            seed("request", m.group(1))

# Hints files.
for path in files("hints/*.json", "test/**/*.json"):
    text = read(path)
    if "tensorop-hints/1" in text:
        seed("hints", text)


# Model answers.
def replies(value):
    if isinstance(value, dict):
        if isinstance(value.get("reply"), str):
            yield value["reply"]
        for v in value.values():
            yield from replies(v)
    elif isinstance(value, list):
        for v in value:
            yield from replies(v)


answers = []
for path in files("test/**/Inputs/*.json"):
    try:
        answers += list(replies(json.loads(read(path))))
    except ValueError:
        pass
scenarios = os.path.join(root, "test/Advisor/Inputs/scenarios.py")
names = re.findall(r'^    "([a-z0-9-]+)": \[', read(scenarios), re.M)
names += ["script-" + n for n in re.findall(r'^    "([a-z0-9]+)": \(?"', read(scenarios), re.M)]
tmp = os.path.join(out, ".scenario.json")
os.makedirs(out, exist_ok=True)
for name in names:
    if subprocess.run([sys.executable, scenarios, name, tmp],
                      capture_output=True).returncode == 0:
        answers += list(replies(json.load(open(tmp))))
if os.path.exists(tmp):
    os.remove(tmp)
for a in answers:
    seed("cpu-answer", a)
    seed("gpu-answer", a)
for i, a in enumerate(answers):
    body = {"choices": [{"message": {"role": "assistant", "content": a}}]}
    if i % 2:
        body["usage"] = {"prompt_tokens": 812, "completion_tokens": 95}
        body["model"] = "served-model"
    seed("llm-reply", json.dumps(body))
for error in ({"error": {"message": "Rate limit reached", "type": "x"}},
              {"error": "model not found"}, {"detail": "Not Found"},
              {"message": "overloaded\u001b[2J"}):
    seed("llm-reply", json.dumps(error))
seed("llm-reply", "<html><body>502 Bad Gateway</body></html>")

# MLIR modules, one per split-input-file chunk.
for path in files("test/**/*.mlir", "examples/*.mlir"):
    for chunk in re.split(r"^// -----\s*$", read(path), flags=re.M):
        seed("pipeline", chunk)

print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
