--[[
** summary.lua — the text `swimlane schema` prints: records with sizes, phases with
** ids / roles / lanes, Perfetto views and lanes, perf levels, platforms.
--]]
local util = require("util")

local layout = require("layout")

local function field_lines(b, lay)
  for _, m in ipairs(lay.members) do
    if m.union then
      b:addf("      @%-6d %-28s %4d B  union", m.offset, m.name, m.size)
      for _, leaf in ipairs(layout.leaves({ members = { m } })) do
        b:addf("      @%-6d   %-26s %4d B  %s", leaf.offset, leaf.variant.name .. "." .. leaf.member.name,
          leaf.member.size, leaf.member.ctype)
      end
    else
      local dims = ""
      for _, d in ipairs(m.dims) do dims = dims .. "[" .. d .. "]" end
      b:addf("      @%-6d %-28s %4d B  %s%s", m.offset, m.gap and "(padding)" or m.name, m.size, m.ctype, dims)
    end
  end
end

return function(model, with_fields)
  local b = util.buffer()
  b:addf("swimlane schema %s (fingerprint %s)", model.schema.dir, model.fingerprint)
  b:add("")
  b:add("records:")
  b:addf("  %-30s %7s %5s  %-13s %s", "struct", "size", "align", "min level", "buffer kind")
  for _, rec in ipairs(model.records) do
    for _, lay in ipairs(rec.layouts or { rec.layout }) do
      local kind = rec.spec.buffer and string.format("%s (%d)", rec.spec.buffer.kind, rec.spec.buffer.id) or "-"
      b:addf("  %-30s %7d %5d  %-13s %s", lay.ctype, lay.size, lay.align, rec.min_level and rec.min_level.name or "-", kind)
      if with_fields then field_lines(b, lay) end
    end
  end
  b:add("")
  b:add("phases:")
  b:addf("  %3s %-19s %-7s %-13s %-9s %-13s %-9s %s", "id", "name", "role", "producers", "runtimes", "lane", "variant", "colour")
  for _, p in ipairs(model.phases) do
    b:addf("  %3d %-19s %-7s %-13s %-9s %-13s %-9s %s%s", p.id, p.name, p.role, table.concat(p.producers, "+"),
      table.concat(p.runtimes, "+"), p.lane, p.variant and p.variant.name or "-", p.cname or "-",
      p.parent and ("  (inside " .. table.concat(p.parent, "/") .. ")") or
      (p.render_as and ("  (drawn as " .. p.render_as .. ")") or ""))
  end
  local aliases = {}
  for _, a in ipairs(model.aliases) do aliases[#aliases + 1] = a.from .. " -> " .. a.to end
  b:add("  legacy aliases: " .. table.concat(aliases, ", "))
  local retired = {}
  for _, id in ipairs(model.retired_ids) do retired[#retired + 1] = "id " .. id end
  for _, n in ipairs(model.retired_names) do retired[#retired + 1] = n end
  b:add("  retired (parsed, never drawn): " .. table.concat(retired, ", "))
  b:add("")
  b:add("orchestrator phases (orch_phases):")
  for _, o in ipairs(model.orch_phases or {}) do
    b:addf("  %3d %-19s %-9s %-13s %s%s", o.id, o.name, o.display, o.lane, o.cname, o.default and "  (default)" or "")
  end
  local oa, orr = {}, {}
  for _, a in ipairs(model.orch_aliases or {}) do oa[#oa + 1] = a.from .. " -> " .. a.to end
  for _, r in ipairs(model.orch_retired or {}) do
    orr[#orr + 1] = (r.id and ("id " .. r.id) or "") .. ((r.id and r.name) and " " or "") .. (r.name or "")
  end
  b:add("  renamed (orch_aliases): " .. (#oa > 0 and table.concat(oa, ", ") or "-"))
  b:add("  retired (orch_retired; read, never drawn): " .. (#orr > 0 and table.concat(orr, ", ") or "-"))
  b:add("")
  b:add("host upload phases (host_phases, host_build_graph):")
  for _, h in ipairs(model.host_phases or {}) do
    b:addf("  %-19s %-13s %-13s %-20s bytes: %s", h.name, h.display, h.lane, h.cname, h.bytes or "-")
  end
  b:add("")
  b:add("views:")
  for _, v in ipairs(model.views) do
    b:addf("  pid %d %-20s sort %-3s %s", v.pid, v.process_name, v.sort_index and tostring(v.sort_index) or "-", v.when or "")
    for _, l in ipairs(model.lanes) do
      if l.view == v.key then
        local tid = l.tid_stride ~= 0 and string.format("%d + %d*i", l.tid_base, l.tid_stride) or tostring(l.tid_base)
        b:addf("        lane %-19s tid %-13s %-28s %s", l.key, tid, l.name, l.indexed_by or "")
      end
    end
  end
  b:add("")
  b:add("levels:")
  for _, l in ipairs(model.levels) do
    b:addf("  %d %-14s %s", l.value, l.name, l.collects)
  end
  b:add("")
  b:add("platforms:")
  for _, p in ipairs(model.platforms) do
    b:addf("  %-8s %10d Hz  %3d cores  %d AICPU threads  ready queue %4d  %s", p.name, p.clock_freq_hz,
      p.max_cores, p.max_aicpu_threads, p.readyqueue_size, p.is_sim and ("(simulates " .. p.arch .. ")") or "")
  end
  return b:text()
end
