#!/usr/bin/env bash
# The product on PostgreSQL at its own target, side by side with SQLite in
# one run (loadtest/figures/08-postgres-at-the-target.md): 100 merchants x 50
# sockets, 5,000 commands at 500/s, on
#   sqlite: one node on the embedded database;
#   pg1:    one node on PostgreSQL;
#   pg2:    two nodes sharing one PostgreSQL database, each merchant's
#           sockets spread over both (the other node's deltas come through
#           NOTIFY).
# Then the commit rate PostgreSQL gives with and without a NOTIFY in each
# transaction (pgbench, a listener connected as each node has one): where
# NOTIFY's one queue and one lock at commit cap the cluster.
#
#   loadtest/postgres-bench.sh [rounds]        (default 1)
#
# PG_BASE: a role that may create databases (default
# postgres://dashboard:dashboard@127.0.0.1:5432). Each run gets a fresh
# database. FANOUT_BENCH_SKIP_BUILD=1 reuses target/release as built.
set -euo pipefail

ROUNDS="${1:-1}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${POSTGRES_BENCH_DIR:-$ROOT/target/postgres-bench}"
PG_BASE="${PG_BASE:-postgres://dashboard:dashboard@127.0.0.1:5432}"
PORT_A="${POSTGRES_BENCH_PORT:-18195}"
PORT_B=$((PORT_A + 1))
FLAGS="${FLAGS:---sockets 5000 --merchants 100 --mutations 5000 --rate 500}"
# Every node of one database needs the same server key.
BENCH_KEY="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
cd "$ROOT"

if [ "${FANOUT_BENCH_SKIP_BUILD:-}" != 1 ]; then
    cargo build --release -p backend -p loadtest --bin backend --bin loadtest
fi
ulimit -n 20000 2>/dev/null || true
rm -rf "$OUT"
mkdir -p "$OUT/web"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "== PostgreSQL: $(psql "$PG_BASE/postgres" -Atc 'SHOW server_version') synchronous_commit=$(psql "$PG_BASE/postgres" -Atc 'SHOW synchronous_commit')"

PIDS=()
stop_all() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; PIDS=(); }
trap 'stop_all; drop_databases' EXIT

# shellcheck source=loadtest/wait-port.sh
. "$ROOT/loadtest/wait-port.sh"

fresh_database() {
    local name="bench_$1_$$"
    psql "$PG_BASE/postgres" -qc "CREATE DATABASE $name" >/dev/null
    echo "$PG_BASE/$name"
}
# This run's databases (named for its process id), dropped at the end.
drop_databases() {
    for name in $(psql "$PG_BASE/postgres" -Atc "SELECT datname FROM pg_database WHERE datname LIKE 'bench\_%\_$$'"); do
        psql "$PG_BASE/postgres" -qc "DROP DATABASE IF EXISTS $name" >/dev/null 2>&1 || true
    done
}

# One node of the product on `database`, listening on `port`; prints its pid.
node() {
    local run="$1" database="$2" port="$3"
    mkdir -p "$OUT/$run-$port"
    SIGNUP_LIMIT_PER_ADDRESS=100000 SOCKETS_PER_USER=100000 \
    SOCKET_FRAME_BURST=100000 SOCKET_FRAMES_PER_SECOND=100000 \
    RUST_LOG=warn MAIL_DIR="$OUT/$run-$port/mail" WEB_DIR="$OUT/web" \
    SECRET_KEY="$BENCH_KEY" \
        "$ROOT/target/release/backend" serve --bind "127.0.0.1:$port" --database "$database" \
        >"$OUT/$run-$port.log" 2>&1 &
    echo $!
}

cpu_ticks() { local sum=0; for pid in "$@"; do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done; echo "$sum"; }

printf '%s\n' "| round | database | nodes | load avg before | sent | committed | deltas received / expected | out of order | round trip p50 / p99 (ms) | delta p50 / p99 / max (ms) | deltas/s | server cores while sending |"
printf '%s\n' "|---|---|---|---|---|---|---|---|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
    for config in sqlite pg1 pg2; do
        run="r$round-$config"
        urls=()
        case "$config" in
            sqlite)
                mkdir -p "$OUT/$run"
                PIDS=("$(node "$run" "sqlite://$OUT/$run/load.db" "$PORT_A")")
                urls=(--url "http://127.0.0.1:$PORT_A") ;;
            pg1)
                database="$(fresh_database "$round$config")"
                PIDS=("$(node "$run" "$database" "$PORT_A")")
                urls=(--url "http://127.0.0.1:$PORT_A") ;;
            pg2)
                database="$(fresh_database "$round$config")"
                # The first node migrates the database; the second starts on it after.
                PIDS=("$(node "$run" "$database" "$PORT_A")")
                wait_port "$PORT_A"
                PIDS+=("$(node "$run" "$database" "$PORT_B")")
                urls=(--url "http://127.0.0.1:$PORT_A" --url "http://127.0.0.1:$PORT_B") ;;
        esac
        wait_port "$PORT_A"
        [ "$config" = pg2 ] && wait_port "$PORT_B"
        load="$(cut -d' ' -f1 /proc/loadavg)"
        # shellcheck disable=SC2086
        "$ROOT/target/release/loadtest" "${urls[@]}" $FLAGS --json \
            >"$OUT/$run.json" 2>"$OUT/$run.err" &
        generator=$!
        until grep -q '^opened' "$OUT/$run.err" 2>/dev/null || ! kill -0 "$generator" 2>/dev/null; do
            sleep 0.05
        done
        cpu_from="$(cpu_ticks "${PIDS[@]}") $(date +%s.%N)"
        wait "$generator" || true
        cpu_to="$(cpu_ticks "${PIDS[@]}") $(date +%s.%N)"
        python3 - "$OUT/$run.json" "$round" "$config" "${#PIDS[@]}" "$load" "$cpu_from" "$cpu_to" "$(getconf CLK_TCK)" <<'PY'
import json, sys
path, rnd, config, nodes, load, cpu_from, cpu_to, tick = sys.argv[1:]
database = "SQLite" if config == "sqlite" else "PostgreSQL"
try:
    r = json.load(open(path))
except Exception:
    print(f"| {rnd} | {database} | {nodes} | {load} | run failed: see {path.replace('.json', '.err')} |")
    sys.exit(0)
(ticks0, t0), (ticks1, t1) = (map(float, cpu_from.split()), map(float, cpu_to.split()))
cores = (ticks1 - ticks0) / float(tick) / (t1 - t0) if t1 > t0 else 0
ms = lambda us: f"{us / 1000:.2f}"
rt, d = r["round_trip_us"], r["delta_us"]
rate = r["deltas_received"] / r["sending_seconds"] if r["sending_seconds"] else 0
print(f"| {rnd} | {database} | {nodes} | {load} | {r['mutations_sent']} | {r['committed']} | "
      f"{r['deltas_received']} / {r['deltas_expected']} | {r['deltas_out_of_order']} | "
      f"{ms(rt['p50'])} / {ms(rt['p99'])} | {ms(d['p50'])} / {ms(d['p99'])} / {ms(d['max'])} | {rate:.0f} | {cores:.2f} |")
PY
        stop_all
        sleep 1
    done
done

# The commit ceiling: one event row per transaction, as the product writes
# one per command, with and without the NOTIFY each carries on PostgreSQL.
ceiling="$(fresh_database ceiling)"
psql "$ceiling" -qc "CREATE TABLE bench_events (id BIGSERIAL PRIMARY KEY, merchant TEXT NOT NULL, payload BYTEA NOT NULL, created_at BIGINT NOT NULL)"
cat >"$OUT/plain.sql" <<'SQL'
BEGIN;
INSERT INTO bench_events (merchant, payload, created_at) VALUES ('m' || (random() * 100)::int, '\x0102030405060708', 0);
COMMIT;
SQL
cat >"$OUT/notify.sql" <<'SQL'
BEGIN;
INSERT INTO bench_events (merchant, payload, created_at) VALUES ('m' || (random() * 100)::int, '\x0102030405060708', 0);
SELECT pg_notify('merchant_events', 'm' || (random() * 100)::int || '|test|1');
COMMIT;
SQL
# Listening, as every node of the product is, so each NOTIFY is queued and read.
psql "$ceiling" -qc "LISTEN merchant_events; SELECT pg_sleep(600)" >/dev/null 2>&1 &
PIDS=($!)
echo
echo "| transactions | clients | commits/s | latency avg (ms) |"
echo "|---|---|---|---|"
for clients in 8 32; do
    for script in plain notify; do
        result="$(pgbench -n -c "$clients" -j 2 -T 15 -f "$OUT/$script.sql" "$ceiling" 2>/dev/null)"
        tps="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$result")"
        latency="$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$result")"
        echo "| $script | $clients | ${tps%.*} | $latency |"
    done
done
stop_all
