--[[
** l3/mixed_pair.lua — an L3 group: two chips, each running mixed_example's graph,
** dispatched by the L3 scheduler in two rounds (a submit group of both chips, then
** one task per chip). `swimlane run l3/mixed_pair` runs it as `run mixed_example
** --ranks 2 --dispatches 2` would; `--ranks N` / `--dispatches K` override the counts.
--]]
local chip = require("workloads.mixed_example")

local group = {}
for k, v in pairs(chip) do group[k] = v end
group.class = "MixedPair"
group.l3 = { ranks = 2, dispatches = 2 }
return group
