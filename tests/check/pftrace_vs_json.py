#!/usr/bin/env python3
"""pftrace_vs_json.py — a .pftrace and the JSON of the same capture show the same thing.

    pftrace_vs_json.py PROTO_DIR TRACE.json TRACE.pftrace
    pftrace_vs_json.py --json-pair A.json B.json

The second form checks that two JSON traces (a default convert and one with
--reference-flows) give Perfetto the same slices and the same arrows (float args
compared at the picosecond: the reference's bytes keep its float noise; times
relative to each trace's earliest event: the default output starts its axis at
1 us, the reference's at 0).

The .pftrace is decoded with Python's protobuf runtime against PROTO_DIR's
sl_perfetto_trace.proto (compiled here with protoc), independently of the C writer,
and replayed the way trace_processor reads it: packets sorted by timestamp, ties in
file order, a flow arc from the first slice carrying a flow id to the next one.
The JSON is read the way Perfetto's JSON importer reads it: X slices per (pid, tid),
ns = round-half-away(us * 1000), flow ends bound by position ('s' and 'f' "bp":"e" to
the innermost slice open at ts, a bare 'f' to the next slice beginning after ts),
flow events read in ts order (an 'f' read before its 's' is dropped).

An arc whose sink slice begins before its source cannot keep its direction in a
.pftrace (TrackEvent flows link slices in time order); those are compared without
direction and counted in the summary as "backward in time".

Float args must be clean on both sides: each equals its value rounded to 6
decimals (picoseconds of a microsecond value), so its shortest round-trip form is
short (0.28, never 0.2799999999999727).

Compared: slices (track, start, end, name), their args (exact values), counter
samples, flow arcs WITH direction, process and thread order (sort_index versus
sibling_order_rank), and that the file is in one global time order. Prints a
one-line summary; exits 1 with the first differences on a mismatch, 77 when the
protobuf runtime or protoc is missing.
"""
import collections
import json
import math
import os
import subprocess
import sys
import tempfile


def load_pb2(proto_dir):
    try:
        import google.protobuf  # noqa: F401
    except ImportError:
        print("python3-protobuf not installed: skipped")
        sys.exit(77)
    out = tempfile.mkdtemp(prefix="pfvj")
    try:
        subprocess.run(["protoc", "--proto_path=" + proto_dir, "--python_out=" + out,
                        "sl_perfetto_trace.proto"], check=True)
    except (OSError, subprocess.CalledProcessError):
        print("protoc not usable: skipped")
        sys.exit(77)
    sys.path.insert(0, out)
    import sl_perfetto_trace_pb2
    return sl_perfetto_trace_pb2


def ns(us):
    v = us * 1000.0
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


def arg_value(v):
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, int):
        return ("i", v)
    if isinstance(v, float):
        return ("d", v)
    if v is None:
        return ("null", None)
    if isinstance(v, list):
        return ("l", tuple(v))
    return ("s", v)


# ---- JSON side ---------------------------------------------------------------------------

def bind_json(slices_by_lane, lane, ts, enclosing):
    """The slice a flow end at ts on lane binds to (index into that lane's list)."""
    lst = slices_by_lane.get(lane, [])
    if not enclosing:
        for i, s in enumerate(lst):
            if s["start"] > ts:
                return i
        return None
    stack = []
    for i, s in enumerate(lst):
        if s["start"] > ts:
            break
        while stack and lst[stack[-1]]["end"] <= s["start"]:
            stack.pop()
        if stack and lst[stack[-1]]["end"] < s["end"]:
            continue  # overlaps without nesting: another row
        stack.append(i)
    return stack[-1] if stack else None


def read_json(path):
    ev = json.load(open(path))["traceEvents"]
    lanes = collections.defaultdict(list)
    counters = collections.Counter()
    proc_rank, thread_rank = {}, {}
    flows = []
    for n, e in enumerate(ev):
        ph = e.get("ph")
        if ph == "X":
            lanes[(e["pid"], e["tid"])].append({
                "start": ns(e["ts"]), "end": ns(e["ts"]) + max(ns(e.get("dur", 0)), 0),
                "name": e["name"], "seq": n,
                "args": {k: arg_value(v) for k, v in e.get("args", {}).items()}})
        elif ph == "C":
            for k, v in e.get("args", {}).items():
                counters[(e["pid"], "%s %s" % (e["name"], k), ns(e["ts"]), float(v))] += 1
        elif ph in "sf":
            flows.append((ns(e["ts"]), n, e))
        elif ph == "M" and e["name"] == "process_sort_index":
            proc_rank[e["pid"]] = e["args"]["sort_index"]
        elif ph == "M" and e["name"] == "thread_sort_index":
            thread_rank[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    for lst in lanes.values():
        lst.sort(key=lambda s: (s["start"], -(s["end"] - s["start"]), s["seq"]))
    arcs = collections.Counter()
    open_flows = {}
    flows.sort(key=lambda x: (x[0], x[1]))  # the importer reads them in ts order
    for _, _, e in flows:
        key = (e["id"], e.get("cat"), e.get("name"))
        lane = (e["pid"], e["tid"])
        t = ns(e["ts"])
        i = bind_json(lanes, lane, t, e["ph"] == "s" or e.get("bp") == "e")
        end = None if i is None else (lane, lanes[lane][i]["start"], lanes[lane][i]["name"])
        if e["ph"] == "s":
            open_flows[key] = end
        elif key in open_flows:
            src = open_flows.pop(key)
            if src is not None and end is not None:
                arcs[(src, end)] += 1
    slices = collections.Counter()
    for lane, lst in lanes.items():
        for s in lst:
            slices[(lane, s["start"], s["end"], s["name"],
                    tuple(sorted(s["args"].items())))] += 1
    return slices, counters, arcs, proc_rank, thread_rank


# ---- pftrace side --------------------------------------------------------------------------

def ann_value(a):
    kind = a.WhichOneof("value")
    if kind == "bool_value":
        return ("b", a.bool_value)
    if kind in ("int_value", "uint_value"):
        return ("i", getattr(a, kind))
    if kind == "double_value":
        return ("d", a.double_value)
    if kind == "string_value":
        return ("s", a.string_value)
    if kind == "legacy_json_value" and a.legacy_json_value == "null":
        return ("null", None)
    if len(a.array_values):
        return ("l", tuple(x.int_value for x in a.array_values))
    return ("?", kind)


def read_frames(buf):
    pos = 0
    while pos < len(buf):
        if buf[pos] != 0x0A:
            raise SystemExit("pftrace: packet %d is not field 1" % pos)
        pos += 1
        n = shift = 0
        while True:
            b = buf[pos]
            pos += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        yield buf[pos:pos + n]
        pos += n


def read_pftrace(pb2, path):
    tracks, names, cats, keys = {}, {}, {}, {}
    events = []
    last_ts = -1
    time_order_breaks = 0
    for idx, raw in enumerate(read_frames(open(path, "rb").read())):
        p = pb2.TracePacket()
        p.ParseFromString(raw)
        if p.HasField("interned_data"):
            for x in p.interned_data.event_names:
                names[x.iid] = x.name
            for x in p.interned_data.debug_annotation_names:
                keys[x.iid] = x.name
        if p.HasField("track_descriptor"):
            td = p.track_descriptor
            t = {"parent": td.parent_uuid if td.HasField("parent_uuid") else None,
                 "rank": td.sibling_order_rank if td.HasField("sibling_order_rank") else None,
                 "name": td.name}
            if td.HasField("process"):
                t["pid"] = td.process.pid
            if td.HasField("thread"):
                t["pid"], t["tid"] = td.thread.pid, td.thread.tid
            tracks[td.uuid] = t
        if p.HasField("track_event"):
            if p.timestamp < last_ts:
                time_order_breaks += 1
            last_ts = max(last_ts, p.timestamp)
            events.append((p.timestamp, idx, p.track_event))
    for t in tracks.values():  # overflow rows and counters live under a thread/process
        if "pid" not in t and t["parent"] in tracks:
            par = tracks[t["parent"]]
            t["pid"], t["tid"] = par.get("pid"), par.get("tid")
    events.sort(key=lambda x: (x[0], x[1]))
    stacks = collections.defaultdict(list)
    slices = collections.Counter()
    counters = collections.Counter()
    arcs = collections.Counter()
    flow_last = {}
    T = pb2.TrackEvent
    for ts, _, te in events:
        tr = tracks[te.track_uuid]
        lane = (tr.get("pid"), tr.get("tid"))
        if te.type == T.TYPE_COUNTER:
            v = te.double_counter_value if te.HasField("double_counter_value") else te.counter_value
            counters[(tr["pid"], tr["name"], ts, float(v))] += 1
        elif te.type == T.TYPE_SLICE_BEGIN:
            args = {keys.get(a.name_iid, a.name): ann_value(a) for a in te.debug_annotations}
            s = {"lane": lane, "start": ts, "name": names.get(te.name_iid, te.name),
                 "args": tuple(sorted(args.items()))}
            stacks[te.track_uuid].append(s)
            me = (lane, ts, s["name"])
            for fid in te.flow_ids:
                if fid in flow_last:
                    arcs[(flow_last[fid], me)] += 1
                flow_last[fid] = me
        elif te.type == T.TYPE_SLICE_END:
            s = stacks[te.track_uuid].pop()
            slices[(s["lane"], s["start"], ts, s["name"], s["args"])] += 1
    return slices, counters, arcs, tracks, time_order_breaks


def undirect_backward(arcs):
    """Arcs whose sink slice begins before their source: a TrackEvent flow links
    slices in time order, so a .pftrace draws these the other way round. Compared
    without direction; returns (arcs, how many)."""
    out, n = collections.Counter(), 0
    for (src, dst), k in arcs.items():
        if dst[1] < src[1]:
            n += k
            src, dst = dst, src
        out[(src, dst)] += k
    return out, n


def diff(label, want, got, problems):
    a, b = want - got, got - want
    if a or b:
        problems.append("%s: %d only in JSON, %d only in pftrace; e.g. %s | %s" % (
            label, sum(a.values()), sum(b.values()), list(a)[:2], list(b)[:2]))


def ps_args(slices):
    """The slices with float args rounded to the picosecond."""
    out = collections.Counter()
    for (lane, start, end, name, args), k in slices.items():
        args = tuple((key, ("d", round(v[1], 6)) if v[0] == "d" else v) for key, v in args)
        out[(lane, start, end, name, args)] += k
    return out


def noisy_floats(slices):
    """Float args whose shortest form is longer than 6 decimals: (count, an example)."""
    n, example = 0, None
    for (_, _, _, name, args), k in slices.items():
        for key, v in args:
            if v[0] == "d" and math.isfinite(v[1]) and round(v[1], 6) != v[1]:
                n += k
                example = example or "%s %s=%r" % (name, key, v[1])
    return n, example


def relative(slices, counters, arcs):
    """Everything shifted so the earliest slice starts at 0 (ns); time-point args
    (dispatch / finish / execution start) moved with it."""
    t0 = min((k[1] for k in slices), default=0)
    timed = ("dispatch-time-us", "finish-time-us", "execution_start_us")

    def lane_t(end):
        return (end[0], end[1] - t0, end[2])

    s2 = collections.Counter()
    for (lane, start, end, name, args), k in slices.items():
        args = tuple((key, ("d", round(v[1] - t0 / 1000.0, 6)) if key in timed and v[0] == "d" else v)
                     for key, v in args)
        s2[(lane, start - t0, end - t0, name, args)] += k
    c2 = collections.Counter({(p, n, ts - t0, v): k for (p, n, ts, v), k in counters.items()})
    a2 = collections.Counter({(lane_t(s), lane_t(d)): k for (s, d), k in arcs.items()})
    return s2, c2, a2


def json_pair(a, b):
    sa, ca, aa = relative(*read_json(a)[:3])
    sb, cb, ab = relative(*read_json(b)[:3])
    sa, sb = ps_args(sa), ps_args(sb)
    problems = []
    diff("slices", sa, sb, problems)
    diff("counter samples", ca, cb, problems)
    diff("flow arcs", aa, ab, problems)
    if problems:
        print("DIFFERENT: " + "; ".join(problems))
        sys.exit(1)
    print("SAME in Perfetto: %d slices, %d flow arcs" % (sum(sa.values()), sum(aa.values())))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--json-pair":
        json_pair(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    pb2 = load_pb2(sys.argv[1])
    js, jc, ja, prank, trank = read_json(sys.argv[2])
    ps, pc, pa, tracks, breaks = read_pftrace(pb2, sys.argv[3])
    problems = []
    diff("slices", js, ps, problems)
    diff("counter samples", jc, pc, problems)
    ja, backward = undirect_backward(ja)
    pa, _ = undirect_backward(pa)
    diff("flow arcs (direction kept)", ja, pa, problems)
    for side, sl in (("JSON", js), ("pftrace", ps)):
        n, example = noisy_floats(sl)
        if n:
            problems.append("%d float args in the %s carry rounding noise, e.g. %s" % (n, side, example))
    if breaks:
        problems.append("%d packets go back in time (one global order expected)" % breaks)
    for t in tracks.values():
        if "tid" in t and t.get("tid") is not None and t["parent"] is None:
            want = trank.get((t["pid"], t["tid"]), t["tid"])
            if t["rank"] != want:
                problems.append("thread %s:%s rank %s, JSON sort_index %s" % (
                    t["pid"], t["tid"], t["rank"], want))
        elif "pid" in t and "tid" not in t:
            want = prank.get(t["pid"], t["pid"])
            if t["rank"] != want:
                problems.append("process %s rank %s, JSON sort_index %s" % (
                    t["pid"], t["rank"], want))
    summary = "%d slices, %d counter samples, %d flow arcs (%d backward in time), %d tracks" % (
        sum(js.values()), sum(jc.values()), sum(ja.values()), backward, len(tracks))
    if problems:
        print("DIFFERENT (%s)" % summary)
        for p in problems[:10]:
            print("  " + p)
        sys.exit(1)
    print("SAME: " + summary)


if __name__ == "__main__":
    main()
