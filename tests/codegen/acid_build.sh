#!/bin/sh
# acid_build.sh ROOT WORK KIND — copy the tree (no tests/, docs/, builds) to WORK/src, apply
# the schema edit KIND (acid_edit.py), and build only the CLI from it: the build itself
# regenerates WORK/src/generated from the edited schema. Shared by the acid tests of KIND.
# The copy builds with the project's warning set and -Werror, like the tree itself.
set -eu
ROOT=$1 WORK=$2 KIND=$3
rm -rf "$WORK"
mkdir -p "$WORK/src"
for d in CMakeLists.txt codegen generated host runtime tools lua schema; do
  cp -r "$ROOT/$d" "$WORK/src/"
done
mkdir -p "$WORK/src/docs"   # what the install rules of the top level read
cp "$ROOT/LICENSE" "$WORK/src/"
cp "$ROOT/docs/swimlane.1.in" "$WORK/src/docs/"
python3 "$ROOT/tests/codegen/acid_edit.py" "$KIND" "$WORK/src"
cmake -S "$WORK/src" -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSL_WERROR=ON -DBUILD_TESTING=OFF >"$WORK/configure.log" 2>&1 \
  || { tail -n 20 "$WORK/configure.log"; exit 1; }
cmake --build "$WORK/build" --target swimlane -j2 >"$WORK/build.log" 2>&1 || { grep -m5 -i error "$WORK/build.log"; exit 1; }
test -x "$WORK/build/tools/cli/swimlane"
# the build regenerated generated/ from the edited schema
"$WORK/build/codegen/swimlane-gen" --quiet --check --schema "$WORK/src/schema" --out "$WORK/src/generated"
echo "acid build $KIND: ok"
