#!/usr/bin/env python3
"""l3_picture.py TRACE.json OUT.svg [T0_MS T1_MS] — draw a merged L3 trace's lanes as an SVG
(one row per Perfetto thread, processes in pid order, the way Perfetto lays them out), for
the README. Not part of the toolchain: a documentation helper."""
import json
import sys
from html import escape

trace = json.load(open(sys.argv[1]))
ev = trace["traceEvents"]
pname, tname, slices = {}, {}, {}
for e in ev:
    if e.get("ph") == "M" and e["name"] == "process_name":
        pname[e["pid"]] = e["args"]["name"]
    elif e.get("ph") == "M" and e["name"] == "thread_name":
        tname.setdefault((e["pid"], e["tid"]), e["args"]["name"])
    elif e.get("ph") == "X":
        slices.setdefault((e["pid"], e["tid"]), []).append(e)
t0 = min(e["ts"] for s in slices.values() for e in s)
t1 = max(e["ts"] + e["dur"] for s in slices.values() for e in s)
if len(sys.argv) > 4:
    t0, t1 = float(sys.argv[3]) * 1000, float(sys.argv[4]) * 1000
W, LABEL, ROW = 1100, 300, 13
x = lambda t: LABEL + (min(max(t, t0), t1) - t0) / (t1 - t0) * (W - LABEL - 10)
colors = {"host": "#6b8fd6", "clk=dev": "#d69a3c", "placement": "#9c6bd6"}
rows, y = [], 30
for pid in sorted(pname):
    lanes = sorted({tid for (p, tid) in slices if p == pid})
    if not lanes:
        continue
    rows.append(f'<text x="4" y="{y + 10}" font-weight="bold">{escape(pname[pid])}</text>')
    y += ROW + 2
    for tid in lanes:
        rows.append(f'<text x="16" y="{y + 10}">{escape(tname.get((pid, tid), str(tid)))}</text>')
        for e in slices[(pid, tid)]:
            if e["ts"] > t1 or e["ts"] + e["dur"] < t0:
                continue
            a, b = x(e["ts"]), x(e["ts"] + e["dur"])
            c = colors.get(e.get("cat"), "#4caf7a" if pid >= 100 else "#888")
            rows.append(f'<rect x="{a:.1f}" y="{y + 1}" width="{max(b - a, 0.6):.1f}" height="{ROW - 2}" '
                        f'fill="{c}" fill-opacity="0.85"><title>{escape(e["name"])}</title></rect>')
        y += ROW
    y += 4
ticks = "".join(f'<text x="{x(t0 + i * (t1 - t0) / 5):.0f}" y="20">{(t0 + i * (t1 - t0) / 5) / 1000:.1f} ms</text>'
                for i in range(6))
open(sys.argv[2], "w").write(
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{y + 10}" font-family="sans-serif" '
    f'font-size="10"><rect width="100%" height="100%" fill="white"/>{ticks}{"".join(rows)}</svg>\n')
