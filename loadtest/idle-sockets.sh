#!/usr/bin/env bash
# What idle signed-in sockets cost a server (loadtest/figures/
# 02-ceiling-and-disk.md, "Idle sockets"): resident memory per socket and
# CPU while they sit open, for the product and, side by side, the two bare
# fan-out servers.
#
#   loadtest/idle-sockets.sh [sockets] [merchants] [hold seconds]   (default 10000 100 90)
#
# For each server, started fresh (the product on a new SQLite database):
#   1. the product gets two throwaway sign-ups and sockets first, so its
#      password-hashing threads have their memory before the baseline;
#   2. `loadtest --storm --wait-to-open --hold` signs up the merchants
#      (product only) and waits;
#   3. the baseline: VmRSS with the merchants there and no socket open;
#   4. the load generator opens every socket at once and holds them open,
#      idle, answering pings;
#   5. 10 s into the hold, VmRSS again, and the server's CPU time (user +
#      system, from /proc) over the rest of the hold, which spans at least two
#      of the product's session re-checks (every 30 s).
# Prints one table row per server. FANOUT_BENCH_SKIP_BUILD=1 reuses
# target/release as built; PRODUCTS as in fanout-bench.sh.
set -euo pipefail

SOCKETS="${1:-10000}"
MERCHANTS="${2:-100}"
HOLD="${3:-90}"
SETTLE=10
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/target/idle-sockets"
PORT="${IDLE_BENCH_PORT:-18195}"
PRODUCTS="${PRODUCTS:-product=$ROOT/target/release/backend}"
cd "$ROOT"

if [ "$HOLD" -le "$((SETTLE + 30))" ]; then
    echo "idle-sockets: hold at least $((SETTLE + 31)) s, to span a session re-check" >&2
    exit 1
fi
if [ "${FANOUT_BENCH_SKIP_BUILD:-}" != 1 ]; then
    cargo build --release -p backend -p loadtest --bin backend --bin loadtest --bin bare_tokio --bin bare_actix
fi
ulimit -n 20000 2>/dev/null || true
rm -rf "$OUT"
mkdir -p "$OUT/web"
TICKS="$(getconf CLK_TCK)"

PID=""
# A server killed by the signal exits non-zero: that is not the script failing.
stop() {
    if [ -n "$PID" ]; then
        kill "$PID" 2>/dev/null || true
        wait "$PID" 2>/dev/null || true
    fi
    PID=""
}
trap stop EXIT

# shellcheck source=loadtest/wait-port.sh
. "$ROOT/loadtest/wait-port.sh"

rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$PID/status"; }
# utime + stime of the whole process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }

printf '%s\n' "| server | sockets | merchants | RSS before (MB) | RSS held (MB) | per socket (KiB) | CPU while idle (% of one core, over s) | closed while held |"
printf '%s\n' "|---|---|---|---|---|---|---|---|"
for server in $PRODUCTS bare_tokio=- bare_actix=-; do
    label="${server%%=*}"
    path="${server#*=}"
    bare=""
    case "$label" in
        bare_tokio) "$ROOT/target/release/bare_tokio" --port "$PORT" >"$OUT/$label.log" 2>&1 & bare="--bare" ;;
        bare_actix) "$ROOT/target/release/bare_actix" --port "$PORT" >"$OUT/$label.log" 2>&1 & bare="--bare" ;;
        *)
            mkdir -p "$OUT/$label"
            SIGNUP_LIMIT_PER_ADDRESS=100000 SOCKETS_PER_USER=100000 RUST_LOG=warn \
            MAIL_DIR="$OUT/$label/mail" WEB_DIR="$OUT/web" \
                "$path" serve --bind "127.0.0.1:$PORT" --database "sqlite://$OUT/$label/load.db" \
                >"$OUT/$label.log" 2>&1 & ;;
    esac
    PID=$!
    wait_port "$PORT"
    if [ -z "$bare" ]; then
        "$ROOT/target/release/loadtest" --url "http://127.0.0.1:$PORT" --storm --sockets 2 --merchants 2 \
            >/dev/null 2>"$OUT/$label.warmup.err"
    fi
    rm -f "$OUT/open"
    mkfifo "$OUT/open"
    # shellcheck disable=SC2086
    "$ROOT/target/release/loadtest" --url "http://127.0.0.1:$PORT" $bare --storm --wait-to-open \
        --sockets "$SOCKETS" --merchants "$MERCHANTS" --hold "$HOLD" --json \
        <"$OUT/open" >"$OUT/$label.json" 2>"$OUT/$label.err" &
    LOAD=$!
    exec 3>"$OUT/open"
    until grep -q '^waiting to open' "$OUT/$label.err"; do sleep 0.2; done
    sleep 2
    before="$(rss_kib)"
    echo open >&3
    exec 3>&-
    until grep -q '^holding ' "$OUT/$label.err"; do
        if ! kill -0 "$LOAD" 2>/dev/null; then
            echo "| $label | run failed: see $OUT/$label.err |"
            stop
            continue 2
        fi
        sleep 0.5
    done
    sleep "$SETTLE"
    held="$(rss_kib)"
    ticks_from="$(cpu_ticks)"
    seconds_from="$(date +%s.%N)"
    until grep -q '^hold over' "$OUT/$label.err"; do sleep 0.2; done
    ticks_to="$(cpu_ticks)"
    seconds_to="$(date +%s.%N)"
    wait "$LOAD" || true
    python3 - "$OUT/$label.json" "$label" "$SOCKETS" "$MERCHANTS" "$before" "$held" \
        "$ticks_from" "$ticks_to" "$seconds_from" "$seconds_to" "$TICKS" <<'PY'
import json, sys
path, label, sockets, merchants, before, held, t0, t1, s0, s1, hz = sys.argv[1:]
report = json.load(open(path))
before, held, sockets = int(before), int(held), int(sockets)
span = float(s1) - float(s0)
cpu = (int(t1) - int(t0)) / int(hz) / span * 100
print(f"| {label} | {sockets} | {merchants} | {before / 1024:.1f} | {held / 1024:.1f} | "
      f"{(held - before) / sockets:.1f} | {cpu:.2f} % over {span:.0f} s | {report['closed_while_held']} |")
PY
    stop
    sleep 1
done
