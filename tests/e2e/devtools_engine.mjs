// devtools_engine.mjs — load Chrome Trace Event JSON files with the Chrome
// DevTools Performance panel's own trace engine (npm @paulirish/trace_engine)
// and check what a DevTools user would see:
//   - the engine parses the file without an error;
//   - every X event of the file is an entry of its thread, and every entry is in
//     the thread's tree (nothing dropped);
//   - with --flows, the engine binds at least one flow arrow; with --flows-if-deps,
//     so does every file that holds dependency arrows (converted with deps.json;
//     without, the complete / dispatch arrows join slices of different categories,
//     which DevTools never pairs: check-trace notes them);
//   - with --bounds, every X event lies inside the trace bounds DevTools shows
//     (it reads ts 0 as "no timestamp", so a slice there starts before the window).
//   - with --parse-only (the L0 Insight-format traces, whose pipelined requests share
//     one lane by Insight's convention: the perfetto-friendly copy is the one for
//     DevTools and Perfetto), only that the engine parses the file.
// Prints one JSON line per file: {file, x, entries, in_tree, flows, problems} (+ path when
// it has problems, for devtools_engine.sh to keep the file and ask check-trace about it).
//   node devtools_engine.mjs ENGINE_DIR [--flows | --flows-if-deps] [--bounds] [--parse-only] TRACE.json...
// ENGINE_DIR holds node_modules/@paulirish/trace_engine (installed by tools/dev.sh).
import fs from 'node:fs';
import path from 'node:path';

const [engineDir, ...rest] = process.argv.slice(2);
const wantFlows = rest.includes('--flows');
const flowsIfDeps = rest.includes('--flows-if-deps');
const wantBounds = rest.includes('--bounds');
const parseOnly = rest.includes('--parse-only');
const files = rest.filter(a => !['--flows', '--flows-if-deps', '--bounds', '--parse-only'].includes(a));
const pkg = path.join(engineDir, 'node_modules', '@paulirish', 'trace_engine');
const {polyfillDOMRect} = await import(path.join(pkg, 'analyze-trace.mjs'));
const Trace = await import(path.join(pkg, 'models', 'trace', 'trace.js'));
polyfillDOMRect();

let failed = 0;
for (const file of files) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = Array.isArray(doc) ? doc : doc.traceEvents;
  const xByThread = new Map();
  for (const e of events)
    if (e.ph === 'X') xByThread.set(`${e.pid}:${e.tid}`, (xByThread.get(`${e.pid}:${e.tid}`) || 0) + 1);
  const model = Trace.TraceModel.Model.createWithAllHandlers();
  const problems = [];
  let entries = 0, inTree = 0, flows = 0, x = 0;
  try {
    await model.parse(events);
    const data = model.parsedTrace().data;
    const seen = new Set();
    for (const [pid, proc] of data.Renderer.processes) {
      for (const [tid, th] of proc.threads) {
        const key = `${pid}:${tid}`;
        seen.add(key);
        const want = xByThread.get(key) || 0;
        const nodes = th.entries.filter(ev => data.Renderer.entryToNode.has(ev)).length;
        entries += th.entries.length;
        inTree += nodes;
        if (th.entries.length !== want) problems.push(`${key}: ${th.entries.length} entries, file has ${want} X`);
        if (nodes !== th.entries.length) problems.push(`${key}: ${th.entries.length - nodes} entries dropped from the tree`);
      }
    }
    for (const [key, n] of xByThread) {
      x += n;
      if (!seen.has(key)) problems.push(`${key}: ${n} X events, no thread in the engine`);
    }
    flows = data.Flows.flows.length;
    const hasDeps = flowsIfDeps && events.some(e => e.ph === 's' && e.name === 'dependency');
    if ((wantFlows || hasDeps) && flows === 0) problems.push('no flow arrow bound');
    let first = Infinity;
    for (const e of events) if (e.ph === 'X' && e.ts < first) first = e.ts;
    if (wantBounds && first < data.Meta.traceBounds.min)
      problems.push(`the first slice (ts ${first}) starts before DevTools' trace bounds (${data.Meta.traceBounds.min}): hidden`);
  } catch (e) {
    problems.push(`engine error: ${String(e && e.message || e)}`);
  }
  if (parseOnly) problems.splice(0, problems.length, ...problems.filter(p => p.startsWith('engine error')));
  console.log(JSON.stringify({file: path.basename(file), x, entries, in_tree: inTree, flows, problems: problems.slice(0, 5),
                              ...(problems.length ? {path: file} : {})}));
  if (problems.length) failed++;
}
process.exit(failed ? 1 : 0);
