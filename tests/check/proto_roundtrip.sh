#!/bin/sh
# proto_roundtrip.sh — the .pftrace we write decodes with protoc against our own
# subset of the Perfetto protos, with no unknown fields, and re-encodes byte for
# byte. Skipped (exit 77) without protoc.
#   proto_roundtrip.sh JSON2PROTO PROTOC PROTO_DIR WORKDIR
set -u
J2P=$1 PROTOC=$2 PROTO_DIR=$3 W=$4
FIX=${SL_FIXTURES:?}/anchor-l4/expected_l4.trace.json
if [ -z "$PROTOC" ] || [ ! -x "$PROTOC" ]; then echo "protoc not found: skipped"; exit 77; fi
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$W" && mkdir -p "$W" || exit 1
"$J2P" "$FIX" "$W/t.pftrace" || fail "json2proto"
"$PROTOC" --proto_path="$PROTO_DIR" --decode=perfetto.protos.Trace sl_perfetto_trace.proto \
  < "$W/t.pftrace" > "$W/t.txt" || fail "protoc --decode"
grep -q 'thread_name: "AIC_0"' "$W/t.txt" || fail "decoded text lacks thread AIC_0"
grep -q 'type: TYPE_SLICE_BEGIN' "$W/t.txt" || fail "decoded text lacks slices"
grep -qE '^[[:space:]]*[0-9]+:' "$W/t.txt" && fail "unknown fields in the decoded trace"
"$PROTOC" --proto_path="$PROTO_DIR" --encode=perfetto.protos.Trace sl_perfetto_trace.proto \
  < "$W/t.txt" > "$W/t2.pftrace" || fail "protoc --encode"
cmp -s "$W/t.pftrace" "$W/t2.pftrace" || fail "re-encoded trace differs"
# and protoc rejects a truncated file, as the checker does
head -c 1000 "$W/t.pftrace" > "$W/cut.pftrace"
"$PROTOC" --proto_path="$PROTO_DIR" --decode=perfetto.protos.Trace sl_perfetto_trace.proto \
  < "$W/cut.pftrace" >/dev/null 2>&1 && fail "protoc decoded a truncated file"
echo "proto_roundtrip: all passed"
