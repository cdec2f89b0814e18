#!/usr/bin/env bash
# Build the native rules core with AddressSanitizer and UndefinedBehaviorSanitizer and run the
# tests that exercise it (issue 15: "no crash, ever, at the boundary"). Any sanitizer report
# fails the run. The normal build is reinstalled afterwards, whatever happens.
#
#   scripts/sanitize.sh                 # the core's tests (tests/core/test_core_*.py)
#   scripts/sanitize.sh tests/          # the whole suite
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(tests/core/test_core_*.py)

restore() {
  echo "sanitize: reinstalling the normal build"
  python -m pip install -e . --no-deps -q
}
trap restore EXIT

echo "sanitize: building the core with -fsanitize=address,undefined (build/sanitize)"
python -m pip install -e . --no-deps -q \
  -C cmake.define.HEXDOJO_SANITIZE=ON -C cmake.build-type=Debug -C build-dir=build/sanitize

# Python itself is not built with ASan: the runtime must be loaded first. Leak checking is off
# (the interpreter keeps memory until exit by design); UBSan stops at its first finding.
asan=$(g++ -print-file-name=libasan.so)
ubsan=$(g++ -print-file-name=libubsan.so)
LD_PRELOAD="$asan:$ubsan" \
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  python -m pytest -p no:cacheprovider -x "${targets[@]}"
echo "sanitize: clean"
