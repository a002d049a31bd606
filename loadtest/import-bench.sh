#!/usr/bin/env bash
# The import benchmark (docs/benchmarks.md, "Import"): a 100,000-row xlsx
# checked by the backend beside pandas.read_excel (openpyxl) on the same
# file, committed into a fresh SQLite database, and imported over the socket
# into a running server while a second merchant's commands are timed.
#
#   loadtest/import-bench.sh [rows]        (default 100000; COMMIT_RUNS=3)
#
# Builds in release once; pandas and openpyxl go into a venv under target/
# when python3 lacks them. Scratch files go to target/import-bench/.
set -euo pipefail

ROWS="${1:-100000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/target/import-bench"
FILE="$OUT/payments-$ROWS.xlsx"
PORT="${IMPORT_BENCH_PORT:-18090}"
cd "$ROOT"

cargo build --release -p backend -p loadtest --bin backend --bin import_bench
BENCH="$ROOT/target/release/import_bench"
SERVER="$ROOT/target/release/backend"

PYTHON=python3
if ! "$PYTHON" -c 'import pandas, openpyxl' 2>/dev/null; then
    VENV="$ROOT/target/import-bench-venv"
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    "$VENV/bin/python" -c 'import pandas, openpyxl' 2>/dev/null ||
        "$VENV/bin/pip" install --quiet pandas openpyxl
    PYTHON="$VENV/bin/python"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
echo "== machine"
echo "nproc: $(nproc)"
free -g | sed 's/^/free -g: /'
grep -m1 'model name' /proc/cpuinfo || true
"$PYTHON" -c 'import pandas, openpyxl, sys; print("python", sys.version.split()[0], "pandas", pandas.__version__, "openpyxl", openpyxl.__version__)'

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows every figure)"

echo "== generate"
"$BENCH" generate --out "$FILE" --rows "$ROWS"

echo "== parse, validate and keep the rows (backend check_file_keeping_rows), 3 runs"
PARSE="$(/usr/bin/time -f 'parse_max_rss_kb=%M' "$BENCH" parse "$FILE" --runs 3 2>&1)"
echo "$PARSE"

echo "== pandas.read_excel(engine='openpyxl'), same file"
PANDAS="$("$PYTHON" -c "import pandas, sys, time; t=time.time(); df=pandas.read_excel(sys.argv[1], engine='openpyxl'); print('pandas_seconds=%.3f pandas_rows=%d' % (time.time()-t, len(df)))" "$FILE")"
echo "$PANDAS"

RUST_S="$(sed -n 's/^parse_median_seconds=//p' <<<"$PARSE")"
PANDAS_S="$(sed -n 's/^pandas_seconds=\([0-9.]*\).*/\1/p' <<<"$PANDAS")"
awk -v r="$RUST_S" -v p="$PANDAS_S" 'BEGIN { printf "ratio (pandas / backend median) = %.1fx (target: at least 5x)\n", p / r }'

echo "== commit into fresh SQLite (jobs::imports::run_import), ${COMMIT_RUNS:=3} runs"
COMMITS=""
for run in $(seq 1 "$COMMIT_RUNS"); do
    echo "load average before run $run: $(cut -d' ' -f1-3 /proc/loadavg)"
    RUN="$(/usr/bin/time -f 'commit_max_rss_kb=%M commit_wall_seconds=%e' "$BENCH" commit "$FILE" --dir "$OUT/commit-$run" 2>&1)"
    echo "$RUN"
    COMMITS="$COMMITS $(sed -n 's/^commit_seconds=//p' <<<"$RUN")"
done
echo "commit_runs_seconds=$(tr ' ' '\n' <<<"$COMMITS" | sed '/^$/d' | sort -n | paste -sd, -)"
echo "commit_median_seconds=$(tr ' ' '\n' <<<"$COMMITS" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"

echo "== live: a second merchant's commands while a server commits the same file"
SIGNUP_LIMIT_PER_ADDRESS=1000 RUST_LOG=warn MAIL_DIR="$OUT/mail" "$SERVER" serve --bind "127.0.0.1:$PORT" \
    --database "sqlite://$OUT/live/live.db" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PORT/api/auth/csrf" >/dev/null 2>&1 && break
    sleep 0.1
done
echo "load average before the live run: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BENCH" live "$FILE" --url "http://127.0.0.1:$PORT"
echo "server_peak_rss_mb=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER_PID/status")"
