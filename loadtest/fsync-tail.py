#!/usr/bin/env python3
"""How long this machine's disk takes to make a small write durable.

Writes 8 KiB and calls fdatasync, as SQLite's commit syncs its log, every
2 ms (or the pause given, in ms) for the given seconds (default 60), in the
folder given (default the current one: run it where the database lives),
then prints the latency
percentiles and every sync over 50 ms with when it happened. A commit
waits for this sync, so a stall here is a stall of every write queued
behind it, whatever the server does.

    python3 loadtest/fsync-tail.py [seconds] [folder] [pause in ms]
"""
import os
import sys
import time

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
folder = sys.argv[2] if len(sys.argv) > 2 else "."
pause = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.002
path = os.path.join(folder, "fsync-tail.probe")
fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
block = b"x" * 8192
latencies, stalls = [], []
start = time.monotonic()
try:
    while time.monotonic() - start < seconds:
        os.pwrite(fd, block, (len(latencies) % 256) * len(block))
        before = time.perf_counter()
        os.fdatasync(fd)
        took = time.perf_counter() - before
        latencies.append(took)
        if took > 0.05:
            stalls.append((time.monotonic() - start, took))
        time.sleep(pause)
finally:
    os.close(fd)
    os.unlink(path)

latencies.sort()
n = len(latencies)
ms = lambda q: latencies[min(n - 1, int(n * q))] * 1000
print(f"{n} syncs in {seconds:.0f} s: p50 {ms(0.5):.2f} ms, p99 {ms(0.99):.2f} ms, "
      f"p99.9 {ms(0.999):.2f} ms, max {latencies[-1] * 1000:.1f} ms")
for at, took in stalls:
    print(f"  at {at:6.1f} s: {took * 1000:.0f} ms")
