#!/usr/bin/env bash
# update.sh BUILD — regenerate the golden files after an intended change, from the swimlane
# binary of build folder BUILD (e.g. tests/golden/update.sh build). Review with git diff.
set -eu
build=${1:?usage: tests/golden/update.sh BUILD}
exec "$(dirname "$0")/golden.sh" update "$build/tools/cli/swimlane"
