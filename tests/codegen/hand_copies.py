import re,subprocess,sys,glob,os
root=sys.argv[1] if len(sys.argv)>1 else '.'
lua=lambda f: open(f"{root}/schema/{f}").read()
names=set()
for m in re.finditer(r'\bname = "([^"]+)"', lua("phases.lua")): names.add(m.group(1))
for m in re.finditer(r'\bkey = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'process_name = "([^"]+)"', lua("lanes.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("platforms.lua")): names.add(m.group(1))
for m in re.finditer(r'\bname = "([^"]+)"', lua("levels.lua")): names.add(m.group(1))
names={n for n in names if "{" not in n and len(n)>2}
files=[f for d in ("tools","host","runtime","codegen") for f in glob.glob(f"{root}/{d}/**/*.[ch]",recursive=True)]
hits=[]
for f in files:
    for i,line in enumerate(open(f,errors="replace"),1):
        code=re.sub(r'/\*.*?\*/|//.*','',line)
        for n in names:
            if f'"{n}"' in code: hits.append((f[len(root)+1:],i,n,line.strip()))
        if re.search(r'\blevel\w*\s*(>=|<=|==|!=|<|>)\s*[0-9]\b', code): hits.append((f[len(root)+1:],i,"level-number",line.strip()))
# Hits read one by one and found not to be schema facts: (file, name) -> why. A level-number
# hit inside a comment is prose. Anything else is a real hand copy (exit 1).
ALLOWED = {
    ("tools/diff/diff_trace.c", "orchestrator"): "trace category of the diff's slices",
    ("tools/diff/diff_trace.c", "scheduler"): "trace category of the diff's slices",
    ("tools/diff/diff_print.c", "orchestrator"): "key of the diff report's JSON",
    ("host/l3merge/l3_place.c", "chip.run"): "host-log span name (L3 log format)",
    ("host/l3merge/l3_xhost.c", "chip.run"): "host-log span name (L3 log format)",
    ("host/l3merge/l3_host.c", "chip.run"): "host-log span name (L3 log format)",
    ("host/l3merge/l3_host.c", "node.run"): "host-log span name (L3 log format)",
    ("host/l3merge/l3_host.c", "dispatch"): "metadata key of the merged trace",
    ("host/l3/sl_l3_worker.c", "chip.run"): "host-log span name (L3 log format)",
    ("host/l3/sl_l3_sched.c", "node.dispatch"): "host-log span name (L3 log format)",
    ("host/l3/sl_l3_sched.c", "node.run"): "host-log span name (L3 log format)",
    ("host/convert/convert_health.c", "complete"): "capture status word",
    ("host/convert/convert_host.c", "complete"): "capture status word",
    ("host/convert/convert_host.c", "host_h2d"): "trace category of upload slices",
    ("host/reader/reader_host.c", "complete"): "host_capture status word",
    ("host/run/sl_run_hbg.c", "complete"): "host_capture status word",
    ("host/convert/convert_engine.c", "graph_execution"): "trace category",
    ("host/convert/convert_engine.c", "scheduler"): "trace category",
    ("host/convert/convert_engine.c", "orchestrator"): "trace category",
    ("host/convert/convert_engine.c", "lifecycle"): "trace category",
    ("host/convert/convert_engine.c", "custom"): "comment",
    ("host/convert/convert_rules.c", "sched"): "the rules' route word",
    ("host/convert/convert_rules.c", "lifecycle"): "the rules' table key",
    ("host/run/sl_run_graph.c", "graph"): "workload Lua API key",
    ("host/run/sl_run_lua.c", "graph"): "workload Lua API function name",
    ("host/run/sl_run_lua.c", "dummy"): "workload Lua API function name",
    ("host/run/sl_run_outputs.c", "graph"): "deps.json edge source word / comment",
    ("host/run/sl_run_outputs.c", "level-number"): "the --dump-args level, not a swimlane level",
    ("host/trace/sink_proto.c", "level-number"): "an event's nesting level, not a swimlane level",
    ("tools/l3/l3_cmd.c", "dispatch"): "the --dispatch option's name",
    ("tools/overhead/overhead_dir.c", "dispatch"): "the --dispatch option's name",
    ("tools/overhead/overhead_cmd.c", "level-number"): "help text",
    ("host/l3merge/l3_place.c", "task_slot"): "dispatch_identity.json / host-log attribute (L3 format), not the lane",
    ("host/l3merge/l3_xhost.c", "task_slot"): "host-log attribute (L3 log format), not the lane",
    ("host/l3merge/l3_meta.c", "task_slot"): "dispatch_identity.json key (L3 format), not the lane",
    ("host/l3merge/l3_host.c", "task_slot"): "dispatch_identity in the merged trace's metadata, not the lane",
    ("host/l3/sl_l3_worker.c", "task_slot"): "host-log attribute (L3 log format), not the lane",
    ("host/l3/sl_l3_sched.c", "task_slot"): "host-log attribute (L3 log format), not the lane",
    ("host/convert/convert_slots.c", "task_timing"): "trace category",
}
real = 0
for h in hits:
    f, _, n, text = h
    comment = n == "level-number" and re.match(r'\s*(\*|/\*|"|\*\*)', text)
    why = ALLOWED.get((f, n)) or ("comment or help text" if comment else None)
    if why:
        print("%s:%d: [%s] allowed (%s)" % (f, h[1], n, why))
    else:
        real += 1
        print("%s:%d: [%s] %s" % h)
print(len(hits), "hits,", real, "real hand copies")
sys.exit(1 if real else 0)
