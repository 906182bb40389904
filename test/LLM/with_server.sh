#!/bin/sh
# Runs a command against a scripted test server (server.py next to this file).
#
#   with_server.sh DIR SCENARIO [--expect-key-sha256 HEX] -- COMMAND [ARG...]
#
# Starts server.py in the background with DIR/port and DIR/log.jsonl, waits
# for the port, exports TENSOROP_LLM_URL (http://127.0.0.1:PORT/v1),
# TEST_SERVER_PORT, TENSOROP_LLM_MODEL (test-model unless set) and
# TENSOROP_CACHE_DIR=DIR/cache (so tests never share a cache; set
# TENSOROP_LLM_CACHE_DIR to share one between runs), runs COMMAND, stops the
# server, and exits with COMMAND's status. The interpreter is $PYTHON
# (default python3).
set -u
usage() {
  echo "usage: with_server.sh DIR SCENARIO [--expect-key-sha256 HEX] -- COMMAND..." >&2
  exit 2
}
[ $# -ge 4 ] || usage
dir=$1
scenario=$2
shift 2
keysha=""
if [ "$1" = "--expect-key-sha256" ]; then
  keysha=$2
  shift 2
fi
[ $# -ge 2 ] && [ "$1" = "--" ] || usage
shift
python=${PYTHON:-python3}
here=$(dirname "$0")
mkdir -p "$dir"
rm -f "$dir/port"
: > "$dir/log.jsonl"
"$python" "$here/server.py" --scenario "$scenario" --port-file "$dir/port" \
  --log "$dir/log.jsonl" --max-seconds 60 --expect-key-sha256 "$keysha" &
server=$!
tries=0
while [ ! -s "$dir/port" ]; do
  tries=$((tries + 1))
  if [ $tries -gt 400 ] || ! kill -0 $server 2>/dev/null; then
    echo "with_server.sh: the test server did not start" >&2
    kill $server 2>/dev/null
    exit 99
  fi
  sleep 0.05
done
port=$(cat "$dir/port")
TENSOROP_LLM_URL="http://127.0.0.1:$port/v1"
TEST_SERVER_PORT=$port
TENSOROP_LLM_MODEL=${TENSOROP_LLM_MODEL:-test-model}
TENSOROP_CACHE_DIR="$dir/cache"
export TENSOROP_LLM_URL TEST_SERVER_PORT TENSOROP_LLM_MODEL TENSOROP_CACHE_DIR
"$@"
rc=$?
"$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/shutdown', timeout=5).read()" \
  >/dev/null 2>&1 || kill $server 2>/dev/null
wait $server
exit $rc
