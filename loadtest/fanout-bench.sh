#!/usr/bin/env bash
# The live socket benchmark (loadtest/figures/01-write-path-and-fan-out.md,
# "Fan-out side by side"): the product and two bare fan-out servers without
# a database (bare_tokio, bare_actix) under the same load generator shapes,
# alternating round by round so that the shared machine's noise falls on all
# of them alike. The load average is printed before every run.
#
#   loadtest/fanout-bench.sh [rounds]          (default 2)
#
# Shapes (override with SHAPES, one "name:loadtest flags" per line):
#   one:      1 merchant x 1,000 sockets, 300 commands at 50/s
#   hundred:  100 merchants x 50 sockets, 5,000 commands at 500/s
# PRODUCTS: space-separated "label=path" of backend builds to compare (default
# "product=target/release/backend"), e.g. "before=/tmp/backend-before after=target/release/backend".
# BARE_SERVERS: which bare servers run beside them (default "bare_tokio
# bare_actix"); "bare_tokio" alone for the ceiling, which is measured
# against it.
# FANOUT_BENCH_SKIP_BUILD=1 reuses target/release as built. Scratch files,
# the product's databases among them, go to target/fanout-bench/, or to
# FANOUT_BENCH_DIR (a memory file system, such as /dev/shm/fanout-bench, to
# measure the server's CPU without the disk's syncs).
#
# Besides the load generator's figures, each row has the server's CPU
# (user and system time, in cores) from the last socket opened to the end of
# the run: what the commands and their deltas cost it.
set -euo pipefail

ROUNDS="${1:-2}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${FANOUT_BENCH_DIR:-$ROOT/target/fanout-bench}"
PORT="${FANOUT_BENCH_PORT:-18095}"
TOKIO_PORT="${FANOUT_BENCH_TOKIO_PORT:-18096}"
ACTIX_PORT="${FANOUT_BENCH_ACTIX_PORT:-18097}"
PRODUCTS="${PRODUCTS:-product=$ROOT/target/release/backend}"
SHAPES="${SHAPES:-one:--sockets 1000 --merchants 1 --mutations 300 --rate 50
hundred:--sockets 5000 --merchants 100 --mutations 5000 --rate 500}"
cd "$ROOT"

if [ "${FANOUT_BENCH_SKIP_BUILD:-}" != 1 ]; then
    cargo build --release -p backend -p loadtest --bin backend --bin loadtest --bin bare_tokio --bin bare_actix
fi
ulimit -n 20000 2>/dev/null || true
rm -rf "$OUT"
mkdir -p "$OUT/web"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

PIDS=()
stop_all() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; PIDS=(); }
trap stop_all EXIT

# shellcheck source=loadtest/wait-port.sh
. "$ROOT/loadtest/wait-port.sh"

# Starts one server fresh (a new database for the product) and prints its pid.
start() {
    local label="$1" path="$2" run="$3"
    case "$label" in
        bare_tokio) "$ROOT/target/release/bare_tokio" --port "$TOKIO_PORT" >"$OUT/$run.log" 2>&1 & ;;
        bare_actix) "$ROOT/target/release/bare_actix" --port "$ACTIX_PORT" >"$OUT/$run.log" 2>&1 & ;;
        *)
            mkdir -p "$OUT/$run"
            SIGNUP_LIMIT_PER_ADDRESS=100000 SOCKETS_PER_USER=100000 \
            SOCKET_FRAME_BURST=100000 SOCKET_FRAMES_PER_SECOND=100000 \
            RUST_LOG=warn MAIL_DIR="$OUT/$run/mail" WEB_DIR="$OUT/web" \
                "$path" serve --bind "127.0.0.1:$PORT" --database "sqlite://$OUT/$run/load.db" \
                >"$OUT/$run.log" 2>&1 & ;;
    esac
    echo $!
}

# A process's CPU time so far, user and system, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

port_of() {
    case "$1" in bare_tokio) echo "$TOKIO_PORT" ;; bare_actix) echo "$ACTIX_PORT" ;; *) echo "$PORT" ;; esac
}

SERVERS="$PRODUCTS"
for bare_server in ${BARE_SERVERS:-bare_tokio bare_actix}; do
    SERVERS="$SERVERS $bare_server=-"
done
printf '%s\n' "| round | shape | server | load avg before | sent | committed | deltas received / expected | out of order | round trip p50 / p99 (ms) | delta p50 / p99 / max (ms) | deltas/s | server cores while sending |"
printf '%s\n' "|---|---|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
    while IFS= read -r shape_line; do
        shape="${shape_line%%:*}"
        flags="${shape_line#*:}"
        for server in $SERVERS; do
            label="${server%%=*}"
            path="${server#*=}"
            run="r$round-$shape-$label"
            pid="$(start "$label" "$path" "$run")"
            PIDS=("$pid")
            port="$(port_of "$label")"
            wait_port "$port"
            bare=""
            case "$label" in bare_*) bare="--bare" ;; esac
            load="$(cut -d' ' -f1 /proc/loadavg)"
            # shellcheck disable=SC2086
            "$ROOT/target/release/loadtest" --url "http://127.0.0.1:$port" $flags $bare --json \
                >"$OUT/$run.json" 2>"$OUT/$run.err" &
            generator=$!
            # The server's CPU while the commands run: from the last socket
            # opened to the end of the run, so the sign-ups and handshakes
            # before do not count.
            until grep -q '^opened' "$OUT/$run.err" 2>/dev/null || ! kill -0 "$generator" 2>/dev/null; do
                sleep 0.05
            done
            cpu_from="$(cpu_ticks "$pid") $(date +%s.%N)"
            wait "$generator" || true
            cpu_to="$(cpu_ticks "$pid") $(date +%s.%N)"
            python3 - "$OUT/$run.json" "$round" "$shape" "$label" "$load" "$cpu_from" "$cpu_to" "$(getconf CLK_TCK)" <<'PY'
import json, sys
path, rnd, shape, label, load, cpu_from, cpu_to, tick = sys.argv[1:]
try:
    r = json.load(open(path))
except Exception as err:
    print(f"| {rnd} | {shape} | {label} | {load} | run failed: see {path.replace('.json', '.err')} |")
    sys.exit(0)
(ticks0, t0), (ticks1, t1) = (map(float, cpu_from.split()), map(float, cpu_to.split()))
cores = (ticks1 - ticks0) / float(tick) / (t1 - t0) if t1 > t0 else 0
ms = lambda us: f"{us / 1000:.2f}"
rt, d = r["round_trip_us"], r["delta_us"]
rate = r["deltas_received"] / r["sending_seconds"] if r["sending_seconds"] else 0
print(f"| {rnd} | {shape} | {label} | {load} | {r['mutations_sent']} | {r['committed']} | "
      f"{r['deltas_received']} / {r['deltas_expected']} | {r['deltas_out_of_order']} | "
      f"{ms(rt['p50'])} / {ms(rt['p99'])} | {ms(d['p50'])} / {ms(d['p99'])} / {ms(d['max'])} | {rate:.0f} | {cores:.2f} |")
PY
            stop_all
            sleep 1
        done
    done <<<"$SHAPES"
done
