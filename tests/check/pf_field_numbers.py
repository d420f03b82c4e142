#!/usr/bin/env python3
"""pf_field_numbers.py — the project's subset of Perfetto's protos uses Perfetto's
published field numbers, as recorded in docs/check-trace.md.

    pf_field_numbers.py DOC.md PROTO_DIR

Compiles PROTO_DIR/sl_perfetto_trace.proto with protoc into a descriptor set,
reads it with Python's protobuf runtime, and compares every (message, field,
number) with the "Perfetto field numbers" table of DOC.md, both ways. Exits 77
without protoc or python3-protobuf.
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    doc, proto_dir = sys.argv[1:3]
    try:
        from google.protobuf import descriptor_pb2
    except ImportError:
        print("python3-protobuf not installed: skipped")
        sys.exit(77)
    out = os.path.join(tempfile.mkdtemp(prefix="pffn"), "d.pb")
    try:
        subprocess.run(["protoc", "--proto_path=" + proto_dir, "--descriptor_set_out=" + out,
                        "sl_perfetto_trace.proto"], check=True)
    except (OSError, subprocess.CalledProcessError):
        print("protoc not usable: skipped")
        sys.exit(77)
    fs = descriptor_pb2.FileDescriptorSet()
    fs.ParseFromString(open(out, "rb").read())
    ours = {}

    def walk(prefix, msgs):
        for m in msgs:
            for f in m.field:
                ours[(prefix + m.name, f.name)] = f.number
            walk(prefix + m.name + ".", m.nested_type)

    for f in fs.file:
        walk("", f.message_type)
    text = open(doc).read()
    table = text[text.index("## Perfetto field numbers"):]
    recorded = {}
    for m, n, v in re.findall(r"^\| (\S+) \| (\S+) \| (\d+) \|$", table, re.M):
        recorded[(m, n)] = int(v)
    bad = []
    for k, v in sorted(ours.items()):
        if k not in recorded:
            bad.append("%s.%s = %d is not in the table" % (k[0], k[1], v))
        elif recorded[k] != v:
            bad.append("%s.%s = %d, Perfetto's number is %d" % (k[0], k[1], v, recorded[k]))
    for k in sorted(set(recorded) - set(ours)):
        bad.append("%s.%s is in the table but not in the proto" % k)
    if bad or not ours:
        print("FAIL: " + "; ".join(bad[:10] or ["no fields"]))
        sys.exit(1)
    print("pf_field_numbers: %d fields agree with Perfetto's published numbers" % len(ours))


if __name__ == "__main__":
    main()
