--[[
** platforms.lua — per-platform constants (docs/a5.md compares the two platforms).
**
** Data only. Shape:
**   platforms = list of {
**     name   "a2a3" | "a5" | a simulated variant
**     sim_of nil, or the name of the platform this simulates (inherits every constant;
**            sim entries may override any field)
**     ... the constants below (integers)
**   }
**     transport    "shared_memory" (host-registered memory both sides touch) or "host_shadow"
**            (no shared memory: the host mirrors the device region through copies)
**     memops_callbacks  MemoryOps callbacks the transport needs (3: alloc, reg, free_;
**            5: + copy_to_device, copy_from_device)
**     hbg_producer "aicpu" | "aicore": who schedules under host_build_graph (a5: the AICore
**            Scheduler on AIV cores)
**     vclock_*: the latencies of `run --clock virtual` (device cycles): an idle poll,
**            a clock read, a dispatch (register write), an AICore's receive, its FIN,
**            a ready-queue pop, an orchestrator submit; a kernel costs
**            kernel_base + kernel_instr per intrinsic + its work / work_per_cycle
**   constants = list of { name, value, doc }: platform-independent protocol constants
**   checks    = list of { field, equals = {"op", a, b, ...} }: relations the generator
**               verifies for every platform (op: "mul", "sum" of products {x, y})
--]]
return {
  platforms = {
    { name = "a2a3",
      clock_freq_hz = 50000000,
      transport = "shared_memory", memops_callbacks = 3, hbg_producer = "aicpu",
      max_blockdim = 24, cores_per_blockdim = 3, max_cores = 72,
      max_aicpu_threads = 4, default_aicpu_threads = 4, launch_aicpu_threads = 6,
      sim_blockdim = 8,
      prof_buffer_size = 1000, aicore_buffer_size = 1024, phase_records_per_thread = 16384,
      slot_count = 4,
      prof_buffers_per_core = 8, aicore_buffers_per_core = 4,
      sched_buffers_per_thread = 6, orch_buffers_per_thread = 8,
      readyqueue_buffers_per_thread = 16, readyqueue_size = 992,
      num_queue_shapes = 3,
      backpressure_timeout_seconds = 30, prof_timeout_seconds = 30,
      host_phase_records_per_buffer = 512, host_phase_buffers = 24,
      vclock_poll_cycles = 2, vclock_read_cycles = 1, vclock_dispatch_cycles = 3,
      vclock_receive_cycles = 5, vclock_fin_cycles = 2, vclock_pop_cycles = 2,
      vclock_submit_cycles = 20, vclock_kernel_base_cycles = 50, vclock_kernel_instr_cycles = 1,
      vclock_work_per_cycle = 64 },
    { name = "a2a3sim", sim_of = "a2a3" },
    { name = "a5",
      clock_freq_hz = 1000000000,
      transport = "host_shadow", memops_callbacks = 5, hbg_producer = "aicore",
      max_blockdim = 36, cores_per_blockdim = 3, max_cores = 108,
      max_aicpu_threads = 5, default_aicpu_threads = 5, launch_aicpu_threads = 14,
      sim_blockdim = 8,
      prof_buffer_size = 1000, aicore_buffer_size = 1024, phase_records_per_thread = 16384,
      slot_count = 4,
      prof_buffers_per_core = 8, aicore_buffers_per_core = 4,
      sched_buffers_per_thread = 6, orch_buffers_per_thread = 8,
      readyqueue_buffers_per_thread = 16, readyqueue_size = 1456,
      num_queue_shapes = 3,
      backpressure_timeout_seconds = 30, prof_timeout_seconds = 30,
      host_phase_records_per_buffer = 512, host_phase_buffers = 24,
      vclock_poll_cycles = 40, vclock_read_cycles = 20, vclock_dispatch_cycles = 60,
      vclock_receive_cycles = 100, vclock_fin_cycles = 40, vclock_pop_cycles = 40,
      vclock_submit_cycles = 400, vclock_kernel_base_cycles = 1000, vclock_kernel_instr_cycles = 20,
      vclock_work_per_cycle = 4 },
    { name = "a5sim", sim_of = "a5" },
  },

  constants = {
    { name = "task_id_mask", value = 0x7FFFFFFF, doc = "reg_task_id bits (COND bits 30..0)" },
    { name = "task_state_mask", value = 0x80000000, doc = "COND bit 31: 0 = ACK, 1 = FIN" },
    { name = "aicore_exit_signal", value = 0x7FFFFFF0, doc = "DATA_MAIN_BASE value that stops an AICore" },
    { name = "aicore_idle_task_id", value = 0x7FFFFFFF, doc = "reserved reg_task_id" },
    { name = "aicore_exit_task_id", value = 0x7FFFFFFE, doc = "reserved reg_task_id" },
    { name = "aicpu_idle_task_id", value = 0x7FFFFFFD, doc = "reserved reg_task_id" },
    { name = "reg_task_id_limit", value = 0x7FFFFFF0, doc = "tokens >= this are skipped (wrap)" },
    { name = "dfx_flag_chip_swimlane", value = 2, doc = "enable_profiling_flag bit 1" },
    { name = "queue_shape_aic", value = 0, doc = "ready-queue shape index" },
    { name = "queue_shape_aiv", value = 1, doc = "ready-queue shape index" },
    { name = "queue_shape_mix", value = 2, doc = "ready-queue shape index" },
  },

  checks = {
    { field = "max_cores", equals = { "mul", "max_blockdim", "cores_per_blockdim" } },
    { field = "readyqueue_size",
      equals = { "sum", { "max_cores", 8 }, { 2, "max_aicpu_threads", "readyqueue_buffers_per_thread" },
                 { "max_cores", 4 } } },
  },
}
