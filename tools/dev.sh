#!/usr/bin/env bash
# tools/dev.sh — set up a fresh Debian machine, build, and run swimlane.
#
#   tools/dev.sh demo    install what is missing, build, run the main job
#   tools/dev.sh test    install what is missing, build, run every test suite
#                        (plain, ASan+UBSan, and the concurrency suite under TSan)
#   tools/dev.sh build   install + build only
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

PACKAGES=(cmake ninja-build pkg-config gcc libc6-dev
          liblua5.4-dev libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
          libcjson-dev libcmocka-dev libyajl-dev
          python3-protobuf)

install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
}

# Chrome DevTools' trace engine (npm) for the real-client test (tests/e2e/devtools_engine.mjs),
# with node / npm from Debian when missing.
TRACE_ENGINE_DIR="$ROOT/build-tools/trace-engine"
install_trace_engine() {
  [ -d "$TRACE_ENGINE_DIR/node_modules/@paulirish/trace_engine" ] && return 0
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    local saved=("${PACKAGES[@]}")
    PACKAGES=(nodejs npm)
    install_missing
    PACKAGES=("${saved[@]}")
  fi
  echo "== installing @paulirish/trace_engine into $TRACE_ENGINE_DIR"
  mkdir -p "$TRACE_ENGINE_DIR"
  npm install --prefix "$TRACE_ENGINE_DIR" --no-audit --no-fund -q @paulirish/trace_engine@0.0.65
}

# build DIR [cmake options...] — Release unless the options say otherwise (the
# sanitizer builds pass -DCMAKE_BUILD_TYPE=Debug for readable stacks).
build() {
  local dir=$1; shift
  cmake -S "$ROOT" -B "$ROOT/$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$ROOT/$dir" -j"$(nproc)"
}

demo() {
  build build
  local sw="$ROOT/build/tools/cli/swimlane" out="$ROOT/outputs"
  # The main job: mixed_example on the simulated a2a3 chip at full collection, with the
  # task graph and the args dump; run converts the capture (Perfetto trace + summary).
  "$sw" run mixed_example --platform a2a3sim --enable-chip-swimlane 4 --enable-dep-gen \
        --dump-args 3 -o "$out"
  local dir
  dir=$(ls -td "$out"/MixedExample_*/ | head -n 1)
  # check-trace's verdict on the trace just written: OK line, notes, any warning
  echo "== check-trace ${dir}merged_swimlane.json"
  "$sw" check-trace "${dir}merged_swimlane.json" 2>&1
}

run_tests() {
  build build
  echo "== test suite (plain build)"
  ctest --test-dir build --output-on-failure -j"$(nproc)" -LE bench
  echo "== test suite (ASan + UBSan)"
  build build-asan -DCMAKE_BUILD_TYPE=Debug -DSL_SANITIZE=ON
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -LE 'bench|nosan'
  echo "== concurrency suite (TSan)"
  build build-tsan -DCMAKE_BUILD_TYPE=Debug -DSL_TSAN=ON
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    ctest --test-dir build-tsan --output-on-failure -j"$(nproc)" -L concurrency
}

case "${1:-}" in
  demo)  install_missing; demo ;;
  test)  install_missing; install_trace_engine; run_tests ;;
  build) install_missing; build build ;;
  *) echo "usage: tools/dev.sh demo|test|build" >&2; exit 2 ;;
esac
