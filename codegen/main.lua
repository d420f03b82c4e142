--[[
** main.lua — the schema generator's driver: load schema/*.lua, validate, lay out,
** run one emitter per artifact, and replace the output files only when every
** step succeeded (written into a temporary directory first, then renamed).
**
** Run by the C host (codegen/sl_gen_host.c), which provides `arg` and `slgen`.
**   swimlane-gen [--schema DIR] [--out DIR] [--summary] [--check] [--quiet]
--]]
local load = require("load")
local model_mod = require("model")

local PROG = slgen.prog

local EMITTERS = {
  "emit_records", "emit_phases", "emit_lanes", "emit_levels", "emit_platforms", "emit_dtypes",
  "emit_writers", "emit_export", "emit_proto", "emit_glue", "emit_readside", "emit_fingerprint", "emit_luadata", "emit_umbrella",
  "emit_cmake",
}

local USAGE = [==[
usage: swimlane-gen [--schema DIR] [--out DIR] [--summary] [--check] [--quiet]
  --schema DIR  schema folder (default: the source tree's schema/)
  --out DIR     output folder (default: the source tree's generated/)
  --summary     validate and print a summary; write nothing
  --fields      with --summary: list every record's fields with offsets and sizes
  --check       exit 1 (listing the files) if DIR's generated files differ from a fresh run
  --quiet       no progress output
]==]
local CMD_USAGE = [==[
usage: swimlane schema [--schema DIR] [--fields] [--regen [--out DIR]]
  Validates the schema and prints a summary: records with sizes, phases with ids,
  roles and lanes, Perfetto views, perf levels, platforms.
  --schema DIR  schema folder (default: $SWIMLANE_HOME/schema)
  --fields      also list every record's fields with offsets and sizes
  --regen       also regenerate the generated/ folder (or --out DIR)
]==]

local function eprint(msg) io.stderr:write(PROG, ": ", msg, "\n") end

local function parse_args(argv)
  local opts = { schema = slgen.default_schema, out = slgen.default_out }
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "--schema" or a == "--out" then
      if not argv[i + 1] then return nil, a .. " needs a directory" end
      opts[a:sub(3)] = argv[i + 1]
      i = i + 1
    elseif a == "--summary" then opts.summary = true
    elseif a == "--check" then opts.check = true
    elseif a == "--quiet" then opts.quiet = true
    elseif a == "--regen" then opts.regen = true
    elseif a == "--fields" then opts.fields = true
    elseif a == "--command-schema" then opts.command = true
    elseif a == "-h" or a == "--help" then opts.help = true
    else return nil, "unknown option '" .. a .. "'" end
    i = i + 1
  end
  if opts.command then
    opts.summary = true -- `swimlane schema` always prints the summary; --regen also writes
  end
  return opts
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function write_file(path, text)
  local f, err = io.open(path, "wb")
  if not f then return nil, err end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then return nil, werr or cerr end
  return true
end

local function generate(model)
  local files, seen = {}, {}
  for _, name in ipairs(EMITTERS) do
    -- emitters see what earlier ones produced (emit_cmake lists the .c files)
    for _, f in ipairs(require(name)(model, files)) do
      if seen[f.path] then error("two emitters produce " .. f.path) end
      seen[f.path] = true
      files[#files + 1] = f
    end
  end
  table.sort(files, function(a, b) return a.path < b.path end)
  return files
end

-- Replace out/<file> for every changed file; all-or-nothing up to the renames.
local function install(files, out, quiet)
  local ok, err = slgen.mkdirs(out)
  if not ok then return nil, err end
  local tmp
  tmp, err = slgen.mkdtemp(out .. "/.regen-")
  if not tmp then return nil, err end
  local changed = {}
  for _, f in ipairs(files) do
    if read_file(out .. "/" .. f.path) ~= f.text then
      local wok, werr = write_file(tmp .. "/" .. f.path, f.text)
      if not wok then
        for _, c in ipairs(changed) do os.remove(tmp .. "/" .. c.path) end
        slgen.rmdir(tmp)
        return nil, out .. "/" .. f.path .. ": " .. tostring(werr)
      end
      changed[#changed + 1] = f
    end
  end
  for _, f in ipairs(changed) do
    local rok, rerr = os.rename(tmp .. "/" .. f.path, out .. "/" .. f.path)
    if not rok then return nil, rerr end
    if not quiet then print("  wrote " .. out .. "/" .. f.path) end
  end
  slgen.rmdir(tmp)
  return #changed
end

local function main(argv)
  local opts, perr = parse_args(argv)
  if not opts then
    eprint(perr)
    io.stderr:write(argv[1] == "--command-schema" and CMD_USAGE or USAGE)
    return 2
  end
  if opts.help then
    io.stdout:write(opts.command and CMD_USAGE or USAGE)
    return 0
  end
  local schema, lerr = load.load(opts.schema)
  if not schema then
    eprint(lerr)
    return 1
  end
  local model, errors = model_mod.build(schema)
  if not model then
    for _, e in ipairs(errors) do eprint(e) end
    eprint(string.format("%d schema error(s); nothing written", #errors))
    return 1
  end
  -- the fingerprint captures carry: of the capture layout only (not colours or prose)
  local fp = require("emit_fingerprint")
  model.layout_text = fp.describe(model)
  model.fingerprint = fp.hash(model.layout_text)
  local fingerprint = model.fingerprint
  if opts.summary then
    io.stdout:write(require("summary")(model, opts.fields))
    if not opts.regen then return 0 end
  end
  local files = generate(model)
  if opts.check then
    local stale = {}
    for _, f in ipairs(files) do
      if read_file(opts.out .. "/" .. f.path) ~= f.text then stale[#stale + 1] = f.path end
    end
    if #stale > 0 then
      for _, p in ipairs(stale) do eprint(opts.out .. "/" .. p .. ": stale (differs from a fresh run)") end
      return 1
    end
    if not opts.quiet then print(string.format("%s: %d files up to date", opts.out, #files)) end
    return 0
  end
  local n, ierr = install(files, opts.out, opts.quiet)
  if not n then
    eprint(ierr)
    return 1
  end
  if not opts.quiet then
    print(string.format("%s: %d files, %d changed (schema fingerprint %s)", opts.out, #files, n, fingerprint))
  end
  return 0
end

return main(arg)
