# Sourced by the benchmark scripts: waits up to 20 s for a server to listen
# on 127.0.0.1:PORT, and stops the calling script if none does.
wait_port() {
    for _ in $(seq 1 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "$(basename "$0"): nothing listens on $1" >&2
    exit 1
}
