#!/bin/bash
# Resident memory of a server before and after 1,000 sign-ins of one account,
# 100 in flight at a time (the server queues their password hashes).
# usage: loadtest/signin-rss.sh PATH/TO/backend PORT
set -u
BIN=$1; PORT=$2; DIR=$(mktemp -d)
SIGNUP_LIMIT_PER_ADDRESS=1000 SIGNIN_LIMIT_PER_ADDRESS=100000 RUST_LOG=warn $BIN serve --bind 127.0.0.1:$PORT \
  --database sqlite://$DIR/load.db --web-dir $DIR/web --mail-dir $DIR/mail >$DIR/log 2>&1 &
PID=$!
for i in $(seq 100); do curl -sf http://127.0.0.1:$PORT/healthz >/dev/null 2>&1 && break; sleep 0.2; done
J=$DIR/jar
TOKEN=$(curl -s -c $J -b $J http://127.0.0.1:$PORT/api/auth/csrf | sed 's/.*"csrfToken":"\([^"]*\)".*/\1/')
curl -s -c $J -b $J -H 'content-type: application/json' -d "{\"name\":\"Load\",\"email\":\"rss@example.co.za\",\"password\":\"karoo-sunset-41\",\"businessName\":\"Rss\",\"csrfToken\":\"$TOKEN\"}" http://127.0.0.1:$PORT/api/auth/signup -o /dev/null -w "signup %{http_code}\n"
echo "before: $(grep -E 'VmRSS' /proc/$PID/status)"
START=$(date +%s)
seq 1000 | xargs -P 100 -I{} curl -s -m 900 -b $J -o /dev/null -w "%{http_code}\n" \
  --data-urlencode "csrfToken=$TOKEN" --data-urlencode "callbackUrl=/home" --data-urlencode "json=true" \
  --data-urlencode "email=rss@example.co.za" --data-urlencode "password=karoo-sunset-41" \
  http://127.0.0.1:$PORT/api/auth/callback/credentials | sort | uniq -c
END=$(date +%s)
echo "took $((END-START))s"
echo "after: $(grep -E 'VmRSS|VmHWM' /proc/$PID/status | tr '\n' ' ')"
kill $PID; wait $PID 2>/dev/null; rm -rf $DIR
