#!/usr/bin/env bash
# The pay page benchmark (docs/benchmarks.md, "Pay page"): wrk against
# GET /pay/{id} on a release backend (fresh SQLite, one test-mode page) and
# against a bare actix-web handler returning a small static page
# (loadtest/src/bin/bare_page), same wrk settings, alternating rounds, both
# servers on this machine.
#
#   loadtest/pay-bench.sh [rounds] [duration]     (default 3 rounds of 20s)
#
# WRK_THREADS and WRK_CONNECTIONS override -t2 -c64; PAY_BENCH_SKIP_BUILD=1
# reuses target/release as built. Needs wrk
# (apt-get install -y wrk). Scratch files go to target/pay-bench/.
set -euo pipefail

ROUNDS="${1:-3}"
DURATION="${2:-20s}"
THREADS="${WRK_THREADS:-2}"
CONNECTIONS="${WRK_CONNECTIONS:-64}"
WARMUP="5s"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/target/pay-bench"
PAY_PORT="${PAY_BENCH_PORT:-18091}"
BARE_PORT="${PAY_BENCH_BARE_PORT:-18092}"
cd "$ROOT"

command -v wrk >/dev/null || { echo "pay-bench: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }
if [ "${PAY_BENCH_SKIP_BUILD:-}" != 1 ]; then
    cargo build --release -p backend -p loadtest --bin backend --bin bare_page --bin pay_bench
fi
SERVER="$ROOT/target/release/backend"

rm -rf "$OUT"
mkdir -p "$OUT/web"
echo "== machine"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo || true
echo "loadavg: $(cut -d' ' -f1-3 /proc/loadavg)"
wrk --version 2>&1 | head -1 || true

# An empty web dir: only /pay/{id} is measured, not the app's files.
SIGNUP_LIMIT_PER_ADDRESS=1000 RUST_LOG=warn MAIL_DIR="$OUT/mail" WEB_DIR="$OUT/web" \
    "$SERVER" serve --bind "127.0.0.1:$PAY_PORT" --database "sqlite://$OUT/pay.db" \
    >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
"$ROOT/target/release/bare_page" --port "$BARE_PORT" >"$OUT/bare.log" 2>&1 &
BARE_PID=$!
trap 'kill "$SERVER_PID" "$BARE_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -fs "http://127.0.0.1:$PAY_PORT/api/auth/csrf" >/dev/null 2>&1 &&
        curl -fs "http://127.0.0.1:$BARE_PORT/" >/dev/null 2>&1 && break
    sleep 0.1
done

echo "== setup: a merchant and a test-mode pay page over the socket"
PAGE_ID="$("$ROOT/target/release/pay_bench" --url "http://127.0.0.1:$PAY_PORT" | sed -n 's/^page_id=//p')"
PAY_URL="http://127.0.0.1:$PAY_PORT/pay/$PAGE_ID"
BARE_URL="http://127.0.0.1:$BARE_PORT/"
echo "pay page: $PAY_URL"
for url in "$PAY_URL" "$BARE_URL"; do
    curl -s -o /dev/null -w "GET $url: %{http_code}, %{size_download} bytes of HTML\n" "$url"
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$PAY_URL")" = 200 ] ||
    { echo "pay-bench: the pay page does not answer 200" >&2; exit 1; }

# wrk's requests/s, p50 and p99 (ms) and non-2xx count from its --latency report.
summary() {
    awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
        /Requests\/sec/ { rps = $2 } /Non-2xx/ { bad = $NF }
        END { printf "%.0f %.2f %.2f %d\n", rps, p50, p99, bad }'
}

run_wrk() { wrk -t"$THREADS" -c"$CONNECTIONS" -d"$1" --latency "$2"; }

echo "== warm-up ($WARMUP each)"
run_wrk "$WARMUP" "$PAY_URL" >/dev/null
run_wrk "$WARMUP" "$BARE_URL" >/dev/null

echo "== wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency, $ROUNDS rounds, alternating"
printf '%-5s %-6s %10s %9s %9s %7s\n' round server 'req/s' 'p50 ms' 'p99 ms' non2xx
PAY_SUM=0
BARE_SUM=0
for round in $(seq 1 "$ROUNDS"); do
    for which in pay bare; do
        url="$PAY_URL"; [ "$which" = bare ] && url="$BARE_URL"
        run_wrk "$DURATION" "$url" >"$OUT/wrk-$which-$round.txt"
        read -r rps p50 p99 bad < <(summary <"$OUT/wrk-$which-$round.txt")
        printf '%-5s %-6s %10s %9s %9s %7s\n' "$round" "$which" "$rps" "$p50" "$p99" "$bad"
        if [ "$which" = pay ]; then PAY_SUM=$((PAY_SUM + rps)); else BARE_SUM=$((BARE_SUM + rps)); fi
    done
done
awk -v p="$PAY_SUM" -v b="$BARE_SUM" -v n="$ROUNDS" 'BEGIN {
    printf "mean req/s: pay page %.0f, bare handler %.0f\n", p / n, b / n
    printf "ratio (pay page / bare) = %.3f (target: at least 0.35)\n", p / b }'
echo "server_peak_rss_mb=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER_PID/status")"
