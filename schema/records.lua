--[[
** records.lua — every record kind and every shared-region struct, byte-exact
** (docs/capture-format.md describes each of them as a user reads it).
**
** Data only. Shape:
**   records = list (dependency order: a struct is declared before it is used) of {
**     name         C name without "sl_" (C type: sl_<name>)
**     doc          one line, becomes the struct's comment
**     size, align  declared; the generator checks them against the computed layout
**     per_platform true: sizes use platform constants; one struct per platform
**                  (sl_<name>_<platform>)
**     min_level    level name (levels.lua) below which the device writes nothing
**     buffer       record kinds moved through buffers: { kind = "AICPU_TASK" (C enum
**                  SL_BUF_<kind>), id = stable enum value, capacity = platform field
**                  (records per buffer), buffers = platform field (buffers per pool),
**                  pool = "core" | "thread" }
**     proto        capture message name (nil = not in the capture)
**     writer       name of the device writer (sl_write_<writer>); nil = none
**     reserved     optional list of proto numbers of removed fields (never reused; `reserved`
**                  in the .proto)
**     phase_kind   name of the field holding a phase id (phases.lua): one writer per
**                  phase (sl_write_phase_<name>) and the union variant follows the phase
**     orch_kind    name of the field holding an orchestrator phase id (phases.lua
**                  orch_phases): one writer per kind (sl_write_orch_<x> for orch_<x>)
**     fields       list of {
**       name       C field name ("_" prefix = padding/reserved: zeroed, not exported)
**       type       u8 u16 u32 u64 i8 i16 i32 i64 | another record's name | "union"
**       count      array length: integer, platform constant name, or list of those (dims)
**       offset     optional declared offset (checked; a gap before it becomes padding)
**       pb         proto field number (arrays: one per element, see elements)
**       elements   arrays in the capture: element names ("aic", ...) -> <field>_<element>
**       doc        one line
**       -- type = "union" only:
**       default    variant used when a phase kind names none
**       variants   list of { name, fields = {...}, compose = list of
**                  { name, hi = field, lo = field } (64-bit value = hi << 32 | lo) }
**     }
**     export       JSON writer for chip_swimlane_records.json:
**                  { section = where it goes, shape = "row" | "object",
**                    context = list of { name, type } extra writer parameters,
**                    columns = list of { key = JSON key (objects), and one of
**                      field = "a.b" field path | ctx = context name |
**                      phase_name = kind field (string from the phase table) |
**                      orch_phase_name = kind field (string from orch_phases) |
**                      compose = composite name (when = variant; null otherwise) ;
**                      when = variant name: column present only for that variant } }
**                  metrics (sched phases): a second object writer, same column forms
**     spans        optional list of { label, from = field, to = field }: the slices the
**                  converter draws from a record's timestamp pairs (label, start, end)
**   }
**   capture = the protobuf container (proto emitter): list of messages
**             { name, doc, fields = list of { name, type, pb, repeated, doc } }; types are proto
**             scalars or record proto names / other capture messages
--]]
return {
  records = {
    { name = "aicpu_task_record", size = 32, align = 32,
      doc = "AICPU per-dispatch timing, written on FIN (level >= 2)",
      min_level = "aicpu_timing", writer = "aicpu_task", proto = "AicpuTaskRecord",
      buffer = { kind = "AICPU_TASK", id = 0, capacity = "prof_buffer_size",
                 buffers = "prof_buffers_per_core", pool = "core" },
      fields = {
        { name = "dispatch_time", type = "u64", pb = 1, doc = "sys-cnt right before DATA_MAIN_BASE is written" },
        { name = "finish_time", type = "u64", pb = 2, doc = "sys-cnt at FIN observation" },
        { name = "reg_task_id", type = "u32", pb = 3, doc = "per-core dispatch token; join key with the AICore record" },
        { name = "member", type = "u32", pb = 4,
          doc = "which member of the task this dispatch ran: 1 + its index in the task's kernel_ids (1 AIC, 2 first AIV, 3 second AIV); 0 = not recorded" },
      },
      export = { section = "scheduler_tasks.records", shape = "row",
                 context = { { name = "core_id", type = "u32" } },
                 columns = { { ctx = "core_id" }, { field = "reg_task_id" },
                             { field = "dispatch_time" }, { field = "finish_time" },
                             { field = "member" } } } },

    { name = "aicore_task_record", size = 32, align = 32,
      doc = "AICore per-task timing (level >= 1)",
      min_level = "aicore_timing", writer = "aicore_task", proto = "AicoreTaskRecord",
      buffer = { kind = "AICORE_TASK", id = 3, capacity = "aicore_buffer_size",
                 buffers = "aicore_buffers_per_core", pool = "core" },
      fields = {
        { name = "start_time", type = "u64", pb = 1, doc = "sys-cnt after payload read + ACK; kernel starts next" },
        { name = "end_time", type = "u64", pb = 2, doc = "sys-cnt right after the kernel returns" },
        { name = "task_token_raw", type = "u64", pb = 3, doc = "(ring_id << 32) | local_id; identity, not a join key" },
        { name = "reg_task_id", type = "u32", pb = 4, doc = "the DATA_MAIN_BASE token AICore consumed" },
        { name = "receive_to_start_cycles", type = "u32", pb = 5, doc = "start_time - receive time" },
      },
      export = { section = "aicore_tasks", shape = "row",
                 context = { { name = "core_id", type = "u32" } },
                 columns = { { ctx = "core_id" }, { field = "task_token_raw" }, { field = "reg_task_id" },
                             { field = "start_time" }, { field = "end_time" },
                             { field = "receive_to_start_cycles" } } } },

    { name = "sched_phase_record", size = 64, align = 8,
      doc = "one scheduler phase (level >= 3); kind is a phase id from phases.lua",
      min_level = "sched_phases", writer = "sched_phase", proto = "SchedPhaseRecord",
      phase_kind = "kind",
      buffer = { kind = "SCHED_PHASE", id = 1, capacity = "phase_records_per_thread",
                 buffers = "sched_buffers_per_thread", pool = "thread" },
      fields = {
        { name = "start_time", type = "u64", pb = 1 },
        { name = "end_time", type = "u64", pb = 2 },
        { name = "loop_iter", type = "u32", pb = 3, doc = "scheduler-loop iteration on this thread" },
        { name = "kind", type = "u32", pb = 4, doc = "enum sl_phase_kind" },
        { name = "tasks_processed", type = "u32", pb = 5 },
        { name = "phase_data", type = "union", offset = 28, default = "dispatch",
          doc = "interpretation selected by the phase's variant",
          variants = {
            { name = "dispatch",
              fields = { { name = "pop_hit", type = "u32", pb = 6, doc = "ready-queue pop hits since the last dispatch emit" },
                         { name = "pop_miss", type = "u32", pb = 7 } } },
            { name = "task",
              fields = { { name = "local_id", type = "u32", pb = 8, doc = "task id bits 31..0" },
                         { name = "ring_id", type = "u32", pb = 9, doc = "task id bits 63..32" } },
              compose = { { name = "task_id", hi = "ring_id", lo = "local_id" } } },
          } },
        { name = "shared_depth_at_start", type = "i16", count = 3, offset = 36,
          pb = { 10, 11, 12 }, elements = { "aic", "aiv", "mix" },
          doc = "shared ready-queue depth per shape at phase start" },
        { name = "shared_depth_at_end", type = "i16", count = 3, offset = 42,
          pb = { 13, 14, 15 }, elements = { "aic", "aiv", "mix" } },
        { name = "_pad", type = "u32", count = 4, offset = 48 },
      },
      export = { section = "scheduler_records.streams[].records", shape = "object",
                 columns = { { key = "start_cycles", field = "start_time" },
                             { key = "end_cycles", field = "end_time" },
                             { key = "loop_iter", field = "loop_iter" },
                             { key = "kind", phase_name = "kind" },
                             { key = "tasks_processed", field = "tasks_processed" },
                             { key = "task_id", compose = "task_id", when = "task" } } },
      metrics = { section = "scheduler_records.streams[].metrics", shape = "object",
                  context = { { name = "record_index", type = "u64" } },
                  columns = { { key = "record_index", ctx = "record_index" },
                              { key = "pop_hit", field = "phase_data.dispatch.pop_hit", when = "dispatch" },
                              { key = "pop_miss", field = "phase_data.dispatch.pop_miss", when = "dispatch" },
                              { key = "shared_at_start", field = "shared_depth_at_start" },
                              { key = "shared_at_end", field = "shared_depth_at_end" } } } },

    { name = "orch_phase_record", size = 32, align = 8,
      doc = "one orchestrator submit_task() / alloc_tensors() envelope (level 4)",
      min_level = "orch_phases", writer = "orch_phase", proto = "OrchPhaseRecord",
      orch_kind = "kind",
      buffer = { kind = "ORCH_PHASE", id = 2, capacity = "phase_records_per_thread",
                 buffers = "orch_buffers_per_thread", pool = "thread" },
      fields = {
        { name = "start_time", type = "u64", pb = 1 },
        { name = "end_time", type = "u64", pb = 2 },
        { name = "task_id", type = "u64", pb = 3, doc = "full task id" },
        { name = "submit_idx", type = "u32", pb = 4, doc = "monotonic submit counter" },
        { name = "kind", type = "u32", pb = 5, doc = "orchestrator phase id (phases.lua orch_phases)" },
      },
      export = { section = "aicpu_orchestrator_phases[]", shape = "object",
                 columns = { { key = "submit_idx", field = "submit_idx" },
                             { key = "task_id", field = "task_id" },
                             { key = "start_cycles", field = "start_time" },
                             { key = "end_cycles", field = "end_time" },
                             { key = "phase", orch_phase_name = "kind" } } } },

    { name = "aicpu_lifecycle_record", size = 128, align = 64,
      doc = "A5 HBG AICPU control-plane spans of one AICPU thread (level >= 2)",
      min_level = "aicpu_timing", writer = "lifecycle", proto = "AicpuLifecycleRecord",
      fields = {
        { name = "aicpu_thread_id", type = "u32", pb = 1 },
        { name = "_reserved", type = "u32" },
        { name = "handshake_start_cycles", type = "u64", pb = 2 },
        { name = "handshake_complete_cycles", type = "u64", pb = 3 },
        { name = "config_start_cycles", type = "u64", pb = 4, doc = "leader thread only" },
        { name = "topology_complete_cycles", type = "u64", pb = 5, doc = "leader thread only" },
        { name = "context_publish_start_cycles", type = "u64", pb = 6 },
        { name = "context_publish_complete_cycles", type = "u64", pb = 7 },
        { name = "bootstrap_wait_start_cycles", type = "u64", pb = 8 },
        { name = "bootstrap_complete_cycles", type = "u64", pb = 9 },
        { name = "register_release_start_cycles", type = "u64", pb = 10 },
        { name = "register_release_end_cycles", type = "u64", pb = 11 },
        { name = "exit_signal_start_cycles", type = "u64", pb = 12 },
        { name = "exit_signal_end_cycles", type = "u64", pb = 13 },
        { name = "exit_wait_start_cycles", type = "u64", pb = 14 },
        { name = "exit_wait_end_cycles", type = "u64", pb = 15 },
      },
      export = { section = "aicpu_lifecycle_records", shape = "object",
                 columns = { { key = "aicpu_thread_id", field = "aicpu_thread_id" },
                             { key = "handshake_start_cycles", field = "handshake_start_cycles" },
                             { key = "handshake_complete_cycles", field = "handshake_complete_cycles" },
                             { key = "config_start_cycles", field = "config_start_cycles" },
                             { key = "topology_complete_cycles", field = "topology_complete_cycles" },
                             { key = "context_publish_start_cycles", field = "context_publish_start_cycles" },
                             { key = "context_publish_complete_cycles", field = "context_publish_complete_cycles" },
                             { key = "bootstrap_wait_start_cycles", field = "bootstrap_wait_start_cycles" },
                             { key = "bootstrap_complete_cycles", field = "bootstrap_complete_cycles" },
                             { key = "register_release_start_cycles", field = "register_release_start_cycles" },
                             { key = "register_release_end_cycles", field = "register_release_end_cycles" },
                             { key = "exit_signal_start_cycles", field = "exit_signal_start_cycles" },
                             { key = "exit_signal_end_cycles", field = "exit_signal_end_cycles" },
                             { key = "exit_wait_start_cycles", field = "exit_wait_start_cycles" },
                             { key = "exit_wait_end_cycles", field = "exit_wait_end_cycles" } } },
      -- what the AICPU Lifecycle view draws, one slice per pair present
      spans = {
        { label = "Handshake", from = "handshake_start_cycles", to = "handshake_complete_cycles" },
        { label = "TopologyConfig", from = "config_start_cycles", to = "topology_complete_cycles" },
        { label = "ContextPublish", from = "context_publish_start_cycles", to = "context_publish_complete_cycles" },
        { label = "BootstrapWait", from = "bootstrap_wait_start_cycles", to = "bootstrap_complete_cycles" },
        { label = "RegisterRelease", from = "register_release_start_cycles", to = "register_release_end_cycles" },
        { label = "ExitSignal", from = "exit_signal_start_cycles", to = "exit_signal_end_cycles" },
        { label = "ExitWait", from = "exit_wait_start_cycles", to = "exit_wait_end_cycles" },
      } },

    -- ---- shared-region structs (host and device both map them) ---------------------

    { name = "active_head", size = 64, align = 64,
      doc = "a pool's active buffer + accounting; one cache line, single writer (AICPU)",
      fields = {
        { name = "current_buf_ptr", type = "u64", doc = "device address of the active buffer, 0 = none" },
        { name = "current_buf_seq", type = "u32", doc = "monotonic; AICore pools: rotation generation" },
        { name = "total_record_count", type = "u32" },
        { name = "dropped_record_count", type = "u32" },
        { name = "_pad", type = "u32", count = 11 },
      } },

    { name = "free_queue", size = 128, align = 64,
      doc = "SPSC ring of empty buffers: host pushes (tail), AICPU pops (head)",
      fields = {
        { name = "buffer_ptrs", type = "u64", count = 4, doc = "slot = index % 4 (PROF_SLOT_COUNT)" },
        { name = "head", type = "u32", offset = 32, doc = "consumer index (AICPU), free-running" },
        { name = "tail", type = "u32", offset = 36, doc = "producer index (host), free-running" },
        { name = "_pad", type = "u32", count = 13 },
      } },

    { name = "buffer_pool", size = 192, align = 64,
      doc = "one pool of any buffer kind: head @0 and free_queue @64 are ABI-locked",
      fields = {
        { name = "head", type = "active_head", offset = 0 },
        { name = "free_queue", type = "free_queue", offset = 64 },
      } },

    { name = "ready_entry", size = 32, align = 32,
      doc = "one full buffer handed to the host through a per-AICPU-thread ready queue",
      fields = {
        { name = "core_index", type = "u32", doc = "core id (task kinds) or pool ordinal (phase kinds)" },
        { name = "kind", type = "u32", doc = "enum sl_buffer_kind" },
        { name = "buffer_ptr", type = "u64", doc = "0 = not yet published (torn-read guard)" },
        { name = "buffer_seq", type = "u32" },
        { name = "_pad", type = "u32" },
      } },

    { name = "backpressure", size = 16, align = 4,
      doc = "dual freeze flags between host and device (0/1 each)",
      fields = {
        { name = "rq_freeze_active", type = "u32", doc = "host -> device" },
        { name = "rq_contended", type = "u32", doc = "device -> host" },
        { name = "fq_freeze_active", type = "u32", doc = "host -> device" },
        { name = "fq_contended", type = "u32", doc = "device -> host" },
      } },

    { name = "data_header", per_platform = true, align = 64,
      size = { a2a3 = 127168, a5 = 233152 },
      doc = "start of the shared region: ready queues, their indices and run metadata",
      fields = {
        { name = "queues", type = "ready_entry", count = { "max_aicpu_threads", "readyqueue_size" },
          doc = "per-AICPU-thread SPSC rings" },
        { name = "queue_heads", type = "u32", count = "max_aicpu_threads", doc = "host writes (consumer)" },
        { name = "queue_tails", type = "u32", count = "max_aicpu_threads", doc = "AICPU writes (producer)" },
        { name = "num_cores", type = "u32" },
        { name = "chip_swimlane_level", type = "u32" },
        { name = "num_sched_phase_threads", type = "u32" },
        { name = "num_orch_phase_threads", type = "u32" },
        { name = "num_phase_cores", type = "u32" },
        { name = "core_to_thread", type = "i8", count = "max_cores", doc = "-1 = unassigned" },
        { name = "backpressure", type = "backpressure" },
      } },

    -- ---- kernel argument descriptor (the L0 args dump, docs/l0.md) ------------------

    { name = "tensor_desc", size = 128, align = 64,
      doc = "128-byte tensor descriptor a kernel argument slot points to",
      fields = {
        { name = "addr", type = "u64", doc = "device byte address of the buffer" },
        { name = "size", type = "u64", doc = "buffer bytes" },
        { name = "owner_task_id", type = "u64" },
        { name = "start_offset", type = "u64", doc = "view origin, in elements" },
        { name = "version", type = "i32" },
        { name = "ndims", type = "u32" },
        { name = "dtype", type = "u8", doc = "enum sl_dtype" },
        { name = "manual_dep", type = "u8" },
        { name = "is_contiguous", type = "u8" },
        { name = "address_space", type = "u8", doc = "0 host, 1 device" },
        { name = "shapes", type = "u32", count = 5 },
        { name = "extent_elem_cache", type = "u64", offset = 64 },
        { name = "strides", type = "u32", count = 5, doc = "element strides, > 0" },
        { name = "reserved", type = "u8", count = 36 },
      } },
  },

  capture = {
    { name = "PoolAccount", doc = "one profiler pool's loss accounting (metadata.capture.pools.<name>)", fields = {
        { name = "name", type = "string", pb = 1, doc = "aicore_task | aicpu_task | sched_phase | orch_phase" },
        { name = "total", type = "uint64", pb = 2, doc = "records the device attempted" },
        { name = "collected", type = "uint64", pb = 3 },
        { name = "dropped", type = "uint64", pb = 4 },
        { name = "unflushed", type = "uint64", pb = 5 },
    } },
    { name = "CaptureHealth", doc = "the whole capture's accounting (metadata.capture)", fields = {
        { name = "truncated", type = "bool", pb = 1, doc = "interrupted (SIGINT, failed run)" },
        { name = "balanced", type = "bool", pb = 2, doc = "collected + dropped == total on every pool" },
        { name = "pools", type = "PoolAccount", pb = 3, repeated = true },
    } },
    { name = "Metadata", doc = "chip_swimlane_records.json \"metadata\"", fields = {
        { name = "clock_freq_hz", type = "uint64", pb = 1 },
        { name = "num_cores", type = "uint32", pb = 2 },
        { name = "core_types", type = "string", pb = 3, repeated = true, doc = "\"aic\" | \"aiv\" by core id" },
        { name = "core_to_thread", type = "sint32", pb = 4, repeated = true, doc = "-1 = unassigned (level >= 3)" },
        { name = "platform", type = "string", pb = 5 },
        { name = "runtime", type = "string", pb = 6 },
        { name = "task_producer", type = "string", pb = 7, doc = "scheduler_tasks.producer: aicpu | aicore" },
        { name = "transport", type = "string", pb = 8, doc = "host <-> device transport: shared_memory | host_shadow" },
        -- host-orchestrated captures (host_build_graph); empty / absent otherwise
        { name = "orchestrator_source", type = "string", pb = 9, doc = "\"host\" for host_build_graph" },
        { name = "orchestrator_clock_domain", type = "string", pb = 10 },
        { name = "device_clock_domain", type = "string", pb = 11 },
        { name = "host_timestamp_resolution_ns", type = "uint64", pb = 12 },
        { name = "host_timestamp_quantization_ns", type = "sint64", pb = 13 },
        { name = "host_orchestration_origin_ns", type = "uint64", pb = 14, doc = "0 = absent" },
        { name = "timeline_relation", type = "string", pb = 15 },
        { name = "host_capture", type = "HostCapture", pb = 16 },
        { name = "clock_anchors", type = "ClockAnchors", pb = 17, doc = "also TMR runs with --clock-anchors" },
        { name = "capture", type = "CaptureHealth", pb = 18, doc = "loss accounting; absent in captures before it" },
        { name = "host_clock_domain_id", type = "string", pb = 19, doc = "which host clock the host ns belong to (L3 rank captures)" },
        { name = "device_wall", type = "DeviceWall", pb = 20, doc = "the device window (L3 rank captures)" },
        { name = "task_timing_slots", type = "TaskTimingSlot", pb = 21, repeated = true,
          doc = "set_task_timing_slot(N) windows of the captured run; absent when no task was tagged" },
    } },
    { name = "HostCapture", doc = "metadata.host_capture: the host record pool's accounting", fields = {
        { name = "status", type = "string", pb = 1, doc = "complete | partial | truncated" },
        { name = "expected_records", type = "uint64", pb = 2 },
        { name = "recorded_records", type = "uint64", pb = 3 },
        { name = "pool_records", type = "uint64", pb = 4 },
        { name = "dropped_records", type = "uint64", pb = 5 },
        { name = "error", type = "string", pb = 6, doc = "empty = null" },
    } },
    { name = "ClockAnchorSample", doc = "metadata.clock_anchors.samples[]: host ns around one device counter read", fields = {
        { name = "position", type = "string", pb = 1, doc = "pre_host_orchestration | post_device_execution" },
        { name = "sample_idx", type = "uint32", pb = 2 },
        { name = "host_before_ns", type = "uint64", pb = 3 },
        { name = "raw_device_timestamp", type = "uint64", pb = 4 },
        { name = "device_cycles", type = "uint64", pb = 5 },
        { name = "host_after_ns", type = "uint64", pb = 6 },
        { name = "rtt_ns", type = "uint64", pb = 7 },
        { name = "uncertainty_ns", type = "uint64", pb = 8 },
        { name = "error", type = "string", pb = 9, doc = "empty = null" },
    } },
    { name = "ClockAnchors", doc = "metadata.clock_anchors", fields = {
        { name = "schema_version", type = "uint32", pb = 1 },
        { name = "provider", type = "string", pb = 2 },
        { name = "device_timestamp_unit", type = "string", pb = 3 },
        { name = "raw_device_timestamp_unit", type = "string", pb = 4 },
        { name = "samples_per_position", type = "uint32", pb = 5 },
        { name = "samples", type = "ClockAnchorSample", pb = 6, repeated = true },
    } },
    { name = "HostOrchPhase", doc = "host_orchestrator_phases[][]: one host submit (host monotonic ns)", fields = {
        { name = "submit_idx", type = "uint32", pb = 1 },
        { name = "task_id", type = "uint64", pb = 2 },
        { name = "start_host_ns", type = "uint64", pb = 3 },
        { name = "end_host_ns", type = "uint64", pb = 4 },
    } },
    { name = "HostOrchThread", doc = "host_orchestrator_phases[]: one host thread's records", fields = {
        { name = "records", type = "HostOrchPhase", pb = 1, repeated = true },
    } },
    { name = "HostDeviceUpload", doc = "host_device_uploads[]: one H2D step (phases.lua host_phases)", fields = {
        { name = "phase", type = "string", pb = 1 },
        { name = "start_host_ns", type = "uint64", pb = 2 },
        { name = "end_host_ns", type = "uint64", pb = 3 },
        { name = "detail", type = "uint64", pb = 4, doc = "bytes copied" },
    } },
    { name = "DeviceWall", doc = "metadata.device_wall: the device window of one dispatch, in device cycles", fields = {
        { name = "open_cycles", type = "uint64", pb = 1, doc = "collector start (the opening anchor)" },
        { name = "sched_start_cycles", type = "uint64", pb = 2, doc = "the scheduler loop starts" },
        { name = "sched_end_cycles", type = "uint64", pb = 3, doc = "the scheduler loop ends" },
        { name = "close_cycles", type = "uint64", pb = 4, doc = "device threads joined (the closing anchor)" },
    } },
    { name = "TaskTimingSlot", doc = "metadata.task_timing_slots[]: one slot's device_wall.task_slot_<N> window, device cycles", fields = {
        { name = "slot", type = "uint32", pb = 1, doc = "N of set_task_timing_slot(N), 0..15" },
        { name = "dispatch_cycles", type = "uint64", pb = 2, doc = "earliest dispatch of a task tagged N" },
        { name = "finish_cycles", type = "uint64", pb = 3, doc = "latest finish of a task tagged N" },
    } },
    { name = "StreamCapture", doc = "per-stream accounting (scheduler_records.streams[].capture)", fields = {
        { name = "committed", type = "uint64", pb = 1 },
        { name = "dropped", type = "uint64", pb = 2 },
        { name = "truncated", type = "bool", pb = 3 },
    } },
    { name = "AicoreTaskStream", fields = {
        { name = "core_id", type = "uint32", pb = 1 },
        { name = "capture", type = "StreamCapture", pb = 2 },
        { name = "records", type = "AicoreTaskRecord", pb = 3, repeated = true },
    } },
    { name = "AicpuTaskStream", fields = {
        { name = "core_id", type = "uint32", pb = 1 },
        { name = "capture", type = "StreamCapture", pb = 2 },
        { name = "records", type = "AicpuTaskRecord", pb = 3, repeated = true },
    } },
    { name = "SchedPhaseStream", fields = {
        { name = "scheduler_id", type = "uint32", pb = 1 },
        { name = "worker_id", type = "uint32", pb = 2 },
        { name = "platform", type = "string", pb = 3 },
        { name = "runtime", type = "string", pb = 4 },
        { name = "producer", type = "string", pb = 5 },
        { name = "core_type", type = "string", pb = 6 },
        { name = "physical_core_id", type = "sint64", pb = 7, doc = "-1 = null (AICPU producers)" },
        { name = "capture", type = "StreamCapture", pb = 8 },
        { name = "records", type = "SchedPhaseRecord", pb = 9, repeated = true },
    } },
    { name = "OrchPhaseStream", fields = {
        { name = "thread_id", type = "uint32", pb = 1 },
        { name = "capture", type = "StreamCapture", pb = 2 },
        { name = "records", type = "OrchPhaseRecord", pb = 3, repeated = true },
    } },
    { name = "Capture", doc = "the whole capture: everything chip_swimlane_records.json carries", fields = {
        { name = "schema_fingerprint", type = "string", pb = 1, doc = "SL_SCHEMA_FINGERPRINT of the writer" },
        { name = "chip_swimlane_level", type = "uint32", pb = 2 },
        { name = "metadata", type = "Metadata", pb = 3 },
        { name = "aicore_tasks", type = "AicoreTaskStream", pb = 4, repeated = true },
        { name = "scheduler_tasks", type = "AicpuTaskStream", pb = 5, repeated = true },
        { name = "scheduler_records", type = "SchedPhaseStream", pb = 6, repeated = true },
        { name = "orchestrator_phases", type = "OrchPhaseStream", pb = 7, repeated = true },
        { name = "aicpu_lifecycle_records", type = "AicpuLifecycleRecord", pb = 8, repeated = true },
        { name = "num_orch_phase_threads", type = "uint32", pb = 9 },
        { name = "schema_layout", type = "string", pb = 10, doc = "SL_SCHEMA_LAYOUT of the writer (what readers check)" },
        { name = "host_orchestrator_phases", type = "HostOrchThread", pb = 11, repeated = true },
        { name = "host_device_uploads", type = "HostDeviceUpload", pb = 12, repeated = true },
    } },
  },
}
