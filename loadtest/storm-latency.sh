#!/usr/bin/env bash
# Whether a join storm on some merchants moves the latency of the others
# (loadtest/figures/02-ceiling-and-disk.md, "Join storm beside other
# merchants' commands").
#
#   loadtest/storm-latency.sh [storm sockets] [storm merchants]   (default 5000 100)
#
# On one product server (release build, fresh SQLite database), the same
# command load runs twice, each time on merchants of its own: 200 sockets over
# 20 merchants, 3,000 commands at 100/s. The first run is alone. In the
# second, once its commands are flowing, a second load generator opens all the
# sockets of the storm's merchants (signed up before the run began) at once,
# reading none until all are open (`--storm --wait-to-open`, as when a node
# restarts and every tab reconnects).
# Prints a row per run, and the storm's own figures.
# STORM_CLIENT_NICE=<n> runs the storm's load generator at that niceness: its
# 5,000 handshakes stand for browsers on other machines, and on one machine
# they otherwise take CPU from the server and the measured run alike.
# FANOUT_BENCH_SKIP_BUILD=1 reuses target/release as built.
set -euo pipefail

STORM_SOCKETS="${1:-5000}"
STORM_MERCHANTS="${2:-100}"
COMMANDS="--sockets 200 --merchants 20 --mutations 3000 --rate 100"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/target/storm-latency"
PORT="${STORM_BENCH_PORT:-18295}"
URL="http://127.0.0.1:$PORT"
LOADTEST="$ROOT/target/release/loadtest"
cd "$ROOT"

if [ "${FANOUT_BENCH_SKIP_BUILD:-}" != 1 ]; then
    cargo build --release -p backend -p loadtest --bin backend --bin loadtest
fi
ulimit -n 20000 2>/dev/null || true
rm -rf "$OUT"
mkdir -p "$OUT/web"

SIGNUP_LIMIT_PER_ADDRESS=100000 SOCKETS_PER_USER=100000 RUST_LOG=warn \
MAIL_DIR="$OUT/mail" WEB_DIR="$OUT/web" \
    "$ROOT/target/release/backend" serve --bind "127.0.0.1:$PORT" --database "sqlite://$OUT/load.db" \
    >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
# shellcheck source=loadtest/wait-port.sh
. "$ROOT/loadtest/wait-port.sh"
wait_port "$PORT"

row() {
    python3 - "$1" "$2" <<'PY'
import json, sys
path, label = sys.argv[1:]
r = json.load(open(path))
ms = lambda us: f"{us / 1000:.2f}"
rt, d = r["round_trip_us"], r["delta_us"]
print(f"| {label} | {r['committed']} of {r['mutations_sent']} | {r['deltas_received']} / {r['deltas_expected']} | "
      f"{r['deltas_out_of_order']} | {ms(rt['p50'])} / {ms(rt['p99'])} / {ms(rt['max'])} | "
      f"{ms(d['p50'])} / {ms(d['p90'])} / {ms(d['p99'])} / {ms(d['max'])} |")
PY
}

echo "== load average before: $(cut -d' ' -f1 /proc/loadavg)"
# shellcheck disable=SC2086
"$LOADTEST" --url "$URL" $COMMANDS --json >"$OUT/alone.json" 2>"$OUT/alone.err"

# The storm's merchants sign up first, before the second run starts: a
# restart reconnects tabs without any sign-up, so the storm is the sockets only.
mkfifo "$OUT/open"
nice -n "${STORM_CLIENT_NICE:-0}" "$LOADTEST" --url "$URL" --storm --wait-to-open --sockets "$STORM_SOCKETS" --merchants "$STORM_MERCHANTS" \
    <"$OUT/open" >"$OUT/storm-only.txt" 2>"$OUT/storm-only.err" &
STORM_PID=$!
exec 3>"$OUT/open"
until grep -q '^waiting to open' "$OUT/storm-only.err"; do sleep 0.2; done
sleep 2

# shellcheck disable=SC2086
"$LOADTEST" --url "$URL" $COMMANDS --json >"$OUT/storm.json" 2>"$OUT/storm.err" &
COMMANDS_PID=$!
until grep -q '^opened ' "$OUT/storm.err"; do sleep 0.2; done
sleep 2
STORM_FROM="$(date +%s.%N)"
echo open >&3
exec 3>&-
wait "$STORM_PID"
STORM_TO="$(date +%s.%N)"
wait "$COMMANDS_PID" || true

printf '%s\n' "| command run | committed | deltas received / expected | out of order | round trip p50 / p99 / max (ms) | delta p50 / p90 / p99 / max (ms) |"
printf '%s\n' "|---|---|---|---|---|---|"
row "$OUT/alone.json" "alone"
row "$OUT/storm.json" "beside a storm of $STORM_SOCKETS sockets over $STORM_MERCHANTS merchants"
echo
echo "storm (started 2 s into the second run, $(python3 -c "print(f'{$STORM_TO - $STORM_FROM:.1f}')") s from its start to its last socket settled):"
grep -E '^(signed up|opened)' "$OUT/storm-only.err" || true
cat "$OUT/storm-only.txt"
