/*
** test_codegen_schema_errors.c — every schema validation error, end to end: copy
** the schema to a temporary folder, break one thing, run swimlane-gen, and check
** the exit status, the message (file + entry + reason) and that the output folder
** was left exactly as it was.
**
** argv[1] = path of swimlane-gen.
*/
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include "sl_test_file.h"

static const char *gen_path;
static const char *FILES[] = {"records", "phases", "lanes", "levels", "platforms", "dtypes"};

static char *slurp(const char *path) { return sl_test_read_file(path, NULL); }

static void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* One broken schema: in FILE.lua replace the first `find` with `replace`. */
typedef struct bad_case {
  const char *file;
  const char *find;
  const char *replace;
  const char *expect; /* substring of stderr */
} bad_case;

/* Inserted as the first phase of the list. */
#define NEW_PHASE(ID, NAME, EXTRA)                                                                     \
  "  phases = {\n    { id = " #ID ", name = \"" NAME "\", display = \"x\", role = \"outer\", "         \
  "producers = { \"aicpu\" }, runtimes = { \"tmr\" }, lane = \"sched\", cname = \"olive\", "           \
  "tasks_processed = \"x\"" EXTRA " },\n"

static void run_case(const bad_case *c) {
  char tmpl[] = "/tmp/sl_schema_err_XXXXXX";
  char *dir = mkdtemp(tmpl);
  assert_non_null(dir);
  char path[512], cmd[2048];
  const char *home = getenv("SWIMLANE_HOME");
  assert_non_null(home);
  snprintf(path, sizeof path, "%s/schema", dir);
  assert_int_equal(mkdir(path, 0755), 0);
  for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
    char src[512];
    snprintf(src, sizeof src, "%s/schema/%s.lua", home, FILES[i]);
    char *text = slurp(src);
    assert_non_null(text);
    if (strcmp(FILES[i], c->file) == 0) {
      char *at = strstr(text, c->find);
      if (!at) fail_msg("case '%s': '%s' not found in %s.lua", c->expect, c->find, c->file);
      size_t pre = (size_t)(at - text), flen = strlen(c->find), rlen = strlen(c->replace);
      char *out = malloc(strlen(text) - flen + rlen + 1);
      memcpy(out, text, pre);
      memcpy(out + pre, c->replace, rlen);
      strcpy(out + pre + rlen, at + flen);
      free(text);
      text = out;
    }
    snprintf(path, sizeof path, "%s/schema/%s.lua", dir, FILES[i]);
    spit(path, text);
    free(text);
  }
  /* an output folder with something in it that must survive untouched */
  snprintf(path, sizeof path, "%s/out", dir);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof path, "%s/out/sl_records.h", dir);
  spit(path, "previous contents\n");

  snprintf(cmd, sizeof cmd, "'%s' --schema '%s/schema' --out '%s/out' 2>'%s/err' >/dev/null", gen_path, dir, dir, dir);
  int status = system(cmd);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 1);

  snprintf(path, sizeof path, "%s/err", dir);
  char *err = slurp(path);
  assert_non_null(err);
  if (!strstr(err, c->expect)) fail_msg("expected '%s' in stderr, got:\n%s", c->expect, err);
  assert_non_null(strstr(err, "swimlane-gen: "));
  free(err);

  /* output untouched: exactly the one file, same contents */
  snprintf(path, sizeof path, "%s/out", dir);
  DIR *d = opendir(path);
  assert_non_null(d);
  int entries = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      entries++;
      assert_string_equal(e->d_name, "sl_records.h");
    }
  }
  closedir(d);
  assert_int_equal(entries, 1);
  snprintf(path, sizeof path, "%s/out/sl_records.h", dir);
  char *kept = slurp(path);
  assert_string_equal(kept, "previous contents\n");
  free(kept);

  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void test_duplicate_phase_id(void **state) {
  (void)state;
  /* appended at the end of the list: the clash is reported on the new phase */
  bad_case c = {"phases", "  },\n\n  aliases = {",
                "    { id = 6, name = \"foo\", display = \"x\", role = \"outer\", producers = { \"aicpu\" }, "
                "runtimes = { \"tmr\" }, lane = \"sched\", cname = \"olive\", tasks_processed = \"x\" },\n"
                "  },\n\n  aliases = {",
                "phases.lua: phase 'foo': id 6 already used by 'resolve'"};
  run_case(&c);
  bad_case d = {"phases", "    { id = 18, name = \"refill\"", "    { id = 6, name = \"refill\"",
                "phases.lua: phase 'refill': id 6 already used by 'resolve'"};
  run_case(&d);
}

static void test_duplicate_phase_name(void **state) {
  (void)state;
  bad_case c = {"phases", "    { id = 18, name = \"refill\"", "    { id = 18, name = \"dispatch\"",
                "phases.lua: phase 'dispatch': name already used by phase id 1"};
  run_case(&c);
}

static void test_retired_id_and_name(void **state) {
  (void)state;
  bad_case c = {"phases", "  phases = {\n", NEW_PHASE(3, "foo", ""),
                "phases.lua: phase 'foo': id 3 is retired (unused value in the reference enum) and must not be reused"};
  run_case(&c);
  bad_case d = {"phases", "  phases = {\n", NEW_PHASE(40, "scan", ""), "phases.lua: phase 'scan': name is retired"};
  run_case(&d);
  bad_case e = {"phases", "  phases = {\n", NEW_PHASE(40, "fanout", ""),
                "phases.lua: phase 'fanout': name is a legacy alias of 'resolve'"};
  run_case(&e);
}

static void test_phase_references(void **state) {
  (void)state;
  bad_case c = {"phases", "  phases = {\n", NEW_PHASE(40, "foo", ", variant = \"nope\""),
                "phases.lua: phase 'foo': variant 'nope' is not a variant of the phase record's union"};
  run_case(&c);
  bad_case d = {"phases", "lane = \"sched_sub\"", "lane = \"nowhere\"",
                "phases.lua: phase 'resolve': lane 'nowhere' is not declared in lanes.lua"};
  run_case(&d);
  bad_case e = {"phases", "parent = { \"drain\" }", "parent = { \"drian\" }",
                "phases.lua: phase 'drain_prepare': parent 'drian' is not a phase"};
  run_case(&e);
  bad_case f = {"phases", "role = \"outer\"", "role = \"outermost\"",
                "phases.lua: phase 'complete': role must be outer, inner or marker"};
  run_case(&f);
}

static void test_overlapping_fields(void **state) {
  (void)state;
  bad_case c = {"records", "type = \"i16\", count = 3, offset = 36", "type = \"i16\", count = 3, offset = 34",
                "records.lua: record 'sched_phase_record': field 'shared_depth_at_start' at offset 34 overlaps "
                "'phase_data' (bytes 28..35)"};
  run_case(&c);
}

static void test_declared_size_mismatch(void **state) {
  (void)state;
  bad_case c = {"records", "{ name = \"orch_phase_record\", size = 32", "{ name = \"orch_phase_record\", size = 40",
                "records.lua: record 'orch_phase_record': declared size 40 != computed size 32"};
  run_case(&c);
  bad_case d = {"records", "size = { a2a3 = 127168", "size = { a2a3 = 127104",
                "records.lua: record 'data_header' (a2a3): declared size 127104 != computed size 127168"};
  run_case(&d);
}

static void test_unknown_type(void **state) {
  (void)state;
  bad_case c = {"records", "{ name = \"submit_idx\", type = \"u32\"", "{ name = \"submit_idx\", type = \"u33\"",
                "records.lua: record 'orch_phase_record': field 'submit_idx': unknown type 'u33'"};
  run_case(&c);
}

static void test_union_variant_missing_field(void **state) {
  (void)state;
  bad_case c = {"records", "hi = \"ring_id\"", "hi = \"ring\"",
                "records.lua: record 'sched_phase_record': union 'phase_data': variant 'task': compose 'task_id' "
                "names missing field 'ring'"};
  run_case(&c);
  bad_case d = {"records", "field = \"phase_data.dispatch.pop_hit\"", "field = \"phase_data.dispatch.pop_hits\"",
                "records.lua: record 'sched_phase_record': export column 2 (pop_hit): names missing field "
                "'phase_data.dispatch.pop_hits'"};
  run_case(&d);
}

/* Strict schema: unknown keys and wrong types name file, entry and key, all in one run. */
static void test_strict_keys(void **state) {
  (void)state;
  bad_case c = {"phases", "  phases = {\n", NEW_PHASE(40, "foo", ", varient = \"x\""),
                "phases.lua: phase 'foo': unknown key 'varient'"};
  run_case(&c);
  bad_case d = {"lanes", "tid_base = 30000, tid_stride = 10,", "tid_base = 30000, tid_stride = \"10\",",
                "lanes.lua: lane 'sched': key 'tid_stride' must be an integer (got string)"};
  run_case(&d);
  bad_case e = {"records", "{ name = \"submit_idx\", type = \"u32\"", "{ name = \"submit_idx\", tpye = \"u32\"",
                "records.lua: record 'orch_phase_record': field 'submit_idx': unknown key 'tpye'"};
  run_case(&e);
  /* two mistakes, both reported (the second one is checked here, the first above) */
  bad_case f = {"phases", "  phases = {\n", NEW_PHASE(40, "foo", ", varient = \"x\", lane_by_runtme = {}"),
                "phases.lua: phase 'foo': unknown key 'varient'"};
  run_case(&f);
  f.expect = "phases.lua: phase 'foo': unknown key 'lane_by_runtme'";
  run_case(&f);
  bad_case g = {"phases", "  phases = {\n", "  phases = {\n    { id = 41, name = \"bar\" },\n  },\n  oops = {\n",
                "phases.lua: top level: unknown key 'oops'"};
  run_case(&g);
}

/* A proto number of a removed field (records.lua `reserved`) is never given out again. */
static void test_reserved_pb_number(void **state) {
  (void)state;
  bad_case c = {"records", "{ name = \"orch_phase_record\", size = 32, align = 8,",
                "{ name = \"orch_phase_record\", size = 32, align = 8, reserved = { 4 },",
                "records.lua: record 'orch_phase_record': field 'submit_idx': proto field number 4 already used by "
                "'a removed field (reserved)'"};
  run_case(&c);
}

/* Orchestrator phases: on the orchestrator's view, exactly one default. */
static void test_orch_phases(void **state) {
  (void)state;
  bad_case c = {"phases", "name = \"orch_sync\", display = \"sync\", lane = \"orch\"",
                "name = \"orch_sync\", display = \"sync\", lane = \"sched\"",
                "phases.lua: orchestrator phase 'orch_sync': lane 'sched' is in view 'scheduler', not the "
                "orchestrator's 'orchestrator'"};
  run_case(&c);
  bad_case d = {"phases", "cname = \"rail_animation\", default = true,", "cname = \"rail_animation\",",
                "phases.lua: orch_phases: exactly one entry needs default = true (found 0)"};
  run_case(&d);
  bad_case e = {"phases", "{ id = 1, name = \"orch_sync\"", "{ id = 6, name = \"orch_sync\"",
                "phases.lua: orchestrator phase 'orch_fanin': id 6 already used by 'orch_sync'"};
  run_case(&e);
  bad_case f = {"phases", "{ id = 0, name = \"orch_submit\"", "{ id = 9, name = \"orch_submit\"",
                "phases.lua: orchestrator phase 'orch_submit': the default kind needs id 0 (what a capture without "
                "the kind field reads as)"};
  run_case(&f);
}

/* Orchestrator renames and retirements: aliases name a current kind, retired ids and names
** are never given to a kind again. */
static void test_orch_aliases_retired(void **state) {
  (void)state;
  bad_case a = {"phases", "  orch_aliases = {\n", "  orch_aliases = {\n    orch_old = \"orch_gone\",\n",
                "phases.lua: orchestrator alias 'orch_old': target 'orch_gone' is not an orchestrator phase"};
  run_case(&a);
  bad_case b = {"phases", "  orch_aliases = {\n", "  orch_aliases = {\n    orch_sync = \"orch_alloc\",\n",
                "phases.lua: orchestrator alias 'orch_sync': is a current orchestrator phase's name"};
  run_case(&b);
  bad_case c = {"phases", "  orch_retired = {\n", "  orch_retired = {\n    { id = 2, why = \"gone\" },\n",
                "phases.lua: orchestrator phase 'orch_alloc': id 2 is retired (gone) and must not be reused"};
  run_case(&c);
  bad_case d = {"phases", "  orch_retired = {\n", "  orch_retired = {\n    { name = \"orch_lookup\", why = \"gone\" },\n",
                "phases.lua: orchestrator phase 'orch_lookup': name is retired (gone)"};
  run_case(&d);
  bad_case e = {"phases", "  orch_retired = {\n", "  orch_retired = {\n    { name = \"lookup\" },\n",
                "phases.lua: retired orchestrator phase 'lookup': needs an integer id >= 0 and/or a name orch_<lowercase>"};
  run_case(&e);
  bad_case f = {"phases", "  orch_retired = {\n", "  orch_retired = {\n    { id = 9, nmae = \"orch_x\" },\n",
                "phases.lua: retired orchestrator phase #1: unknown key 'nmae'"};
  run_case(&f);
}

/* A record's spans name two of its scalar fields (a renamed field is caught here, not drawn
** as nothing). */
static void test_record_spans(void **state) {
  (void)state;
  bad_case a = {"records", "from = \"handshake_start_cycles\"", "from = \"handshake_begin_cycles\"",
                "records.lua: record 'aicpu_lifecycle_record': span 'Handshake': from 'handshake_begin_cycles' is "
                "not a scalar field of the record"};
  run_case(&a);
  bad_case b = {"records", "{ label = \"ExitWait\", from", "{ lable = \"ExitWait\", from",
                "records.lua: record 'aicpu_lifecycle_record': span #7: unknown key 'lable'"};
  run_case(&b);
}

/* Flows need unique keys; pipes are listed in id order; views stay below the rank stride. */
static void test_flows_pipes_views(void **state) {
  (void)state;
  bad_case a = {"lanes", "{ key = \"hb_violation\", name", "{ key = \"dependency\", name",
                "lanes.lua: flow 'dependency': key already used"};
  run_case(&a);
  bad_case b = {"lanes", "{ id = 1, name = \"MTE1\",", "{ id = 9, name = \"MTE1\",",
                "lanes.lua: pipe 'MTE1': id must be 1 (pipes are listed in id order from 0)"};
  run_case(&b);
  bad_case c = {"lanes", "{ pid = 40, key = \"l3_rank_host\"", "{ pid = 140, key = \"l3_rank_host\"",
                "lanes.lua: view 'l3_rank_host': pid 140 is not below rank_pid_stride 100"};
  run_case(&c);
}

/* A bar phase on a lane of another view than the scheduler's is refused. */
static void test_phase_lane_view(void **state) {
  (void)state;
  bad_case c = {"phases", "lane = \"sched_sub\"", "lane = \"graph\"",
                "phases.lua: phase 'resolve': lane 'graph' is in view 'graph_execution'"};
  run_case(&c);
}

static void test_unreadable_schema(void **state) {
  (void)state;
  bad_case c = {"lanes", "return {", "return {{", "lanes.lua:"};
  run_case(&c);
  /* data only: no library is reachable from a schema file */
  bad_case d = {"levels", "return {", "os.exit(0)\nreturn {", "levels.lua: "};
  run_case(&d);
  bad_case e = {"platforms", "max_cores = 108", "max_cores = 100",
                "platforms.lua: platform 'a5': max_cores = 100 but the check requires 108"};
  run_case(&e);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SWIMLANE_GEN\n", argv[0]);
    return 2;
  }
  gen_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_duplicate_phase_id),    cmocka_unit_test(test_duplicate_phase_name),
      cmocka_unit_test(test_retired_id_and_name),   cmocka_unit_test(test_phase_references),
      cmocka_unit_test(test_overlapping_fields),    cmocka_unit_test(test_declared_size_mismatch),
      cmocka_unit_test(test_unknown_type),          cmocka_unit_test(test_union_variant_missing_field),
      cmocka_unit_test(test_unreadable_schema),     cmocka_unit_test(test_strict_keys),
      cmocka_unit_test(test_phase_lane_view),       cmocka_unit_test(test_reserved_pb_number),
      cmocka_unit_test(test_orch_phases),           cmocka_unit_test(test_orch_aliases_retired),
      cmocka_unit_test(test_record_spans),
      cmocka_unit_test(test_flows_pipes_views),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
