#!/usr/bin/env bash
# Runs every cargo-fuzz target of grip for SECONDS each (default 60) and prints, per target, the
# executions and seconds libFuzzer reports, then a total line. Exits nonzero on any crash (the
# reproducer is left in fuzz/artifacts/TARGET/; turn it into a regression test in
# tests/fuzz_replay.rs).
#
# Needs a nightly toolchain (cargo-fuzz builds with sanitizer coverage). cargo-fuzz itself is
# installed from crates.io when missing. Without nightly the same decoders run on stable as a
# bounded random replay (tests/fuzz_replay.rs, GRIP_FUZZ_SECONDS per target) instead.
#
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(api_sequence mesh_input)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: no nightly toolchain: running the stable replay for ${seconds} s per target instead"
    cd .. && GRIP_FUZZ_SECONDS="$seconds" cargo test --release --test fuzz_replay -- --nocapture
    exit $?
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# A nightly build that fails (a toolchain without sanitizer support, a full disk) is not a fuzz
# finding: say why, with the build's last lines and the free disk, and run the stable replay.
mkdir -p artifacts
for t in "${targets[@]}"; do
    build_log="artifacts/build-$t.log"
    if cargo +nightly fuzz build -O "$t" >"$build_log" 2>&1; then
        tail -1 "$build_log"
    else
        echo "fuzz: the nightly build of $t failed; its last lines:"
        tail -40 "$build_log"
        echo "fuzz: disk free: $(df -Ph . | awk 'NR==2 {print $4}')"
        echo "fuzz: running the stable replay for ${seconds} s per target instead"
        cd .. && GRIP_FUZZ_SECONDS="$seconds" cargo test --release --test fuzz_replay -- --nocapture
        exit $?
    fi
done
total_runs=0
total_seconds=0
status=0
passed=0
failed=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    # Seeds: the stable replay's corpus, so both start from the same inputs.
    cp -n seeds/"$t"/* "corpus/$t/" 2>/dev/null || true
    log="artifacts/$t/last-run.log"
    set +e
    # Leak detection off (per input and at exit): LeakSanitizer reports the 48-byte thread handles of rayon workers of
    # destroyed solvers that are still shutting down when the process exits (a rayon pool does
    # not join its threads on drop). Leaks are checked by valgrind (cli/tests/host_example.rs) and by
    # RSS over 10,000 steps and 1,000 create/destroy cycles (tests/memory.rs) instead.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$seconds" -rss_limit_mb=4096 \
        -timeout=60 -detect_leaks=0 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1)
    took=$(grep -oE 'in [0-9]+ second' "$log" | grep -oE '[0-9]+' | tail -1)
    runs=${runs:-0}
    took=${took:-0}
    echo "fuzz $t: $runs executions in $took s, exit $rc"
    if [ $rc -ne 0 ]; then
        status=1
        failed=$((failed + 1))
        tail -40 "$log"
    else
        passed=$((passed + 1))
    fi
    total_runs=$((total_runs + runs))
    total_seconds=$((total_seconds + took))
done
echo "fuzz total: $total_runs executions in $total_seconds s over ${#targets[@]} targets"
echo "fuzz: $passed passed, $failed failed"
exit $status
