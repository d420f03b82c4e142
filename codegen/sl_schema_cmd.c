/*
** sl_schema_cmd.c — `swimlane schema`: validate the schema under $SWIMLANE_HOME
** and print a summary (records with sizes, phases with ids/roles/lanes, views,
** levels, platforms). `--regen` also rewrites <home>/generated.
**
** The options are read here (sl_opt, like every command's) and handed to the
** generator (main.lua) one argument each, in its command mode.
*/
#include <stdlib.h>

#include "sl_base.h"
#include "sl_gen_host.h"
#include "sl_mem.h"
#include "sl_opt.h"

typedef struct schema_args {
  const char *schema, *out;
  int fields, regen;
} schema_args;

static schema_args g_args; /* what the table below fills */

static const sl_opt schema_table[] = {
    {.name = "schema", .kind = SL_OPT_STRING, .arg = "DIR", .target = &g_args.schema,
     .help = "schema folder (default: $SWIMLANE_HOME/schema)"},
    {.name = "fields", .kind = SL_OPT_FLAG, .target = &g_args.fields,
     .help = "also list every record's fields with offsets and sizes"},
    {.name = "regen", .kind = SL_OPT_FLAG, .target = &g_args.regen,
     .help = "also regenerate the generated/ folder (or --out DIR)"},
    {.name = "out", .kind = SL_OPT_STRING, .arg = "DIR", .target = &g_args.out,
     .help = "with --regen: the folder to regenerate"},
    {.name = NULL},
};

static const sl_opt_spec schema_spec = {
    .cmd = "schema",
    .synopsis = "[--schema DIR] [--fields] [--regen [--out DIR]]",
    .about = "Validates the schema and prints a summary: records with sizes, phases with ids,\n"
             "roles and lanes, Perfetto views, perf levels, platforms.",
    .opts = schema_table,
};

/* The generator's command line: "--command-schema" and each option given. */
static int run_generator(const char *home, const char *prog) {
  char *codegen = sl_path_join(home, "codegen");
  char *schema = sl_path_join(home, "schema");
  char *out = sl_path_join(home, "generated");
  int rc;
  {
    char *args[8];
    int n = 0;
    args[n++] = (char *)prog;
    args[n++] = (char *)"--command-schema";
    if (g_args.schema) args[n++] = (char *)"--schema", args[n++] = (char *)g_args.schema;
    if (g_args.out) args[n++] = (char *)"--out", args[n++] = (char *)g_args.out;
    if (g_args.fields) args[n++] = (char *)"--fields";
    if (g_args.regen) args[n++] = (char *)"--regen";
    args[n] = NULL;
    rc = sl_gen_run("swimlane", codegen, schema, out, n, args);
  }
  sl_mem_free(codegen);
  sl_mem_free(schema);
  sl_mem_free(out);
  return rc;
}

int sl_cmd_schema(int argc, char **argv); /* declared for the CLI in tools/cli/commands.h */

int sl_cmd_schema(int argc, char **argv) {
  g_args = (schema_args){0};
  int prc = sl_opt_parse(&schema_spec, argc, argv);
  if (prc != SL_OPT_GO) return prc;
  return run_generator(sl_home(), argv[0]);
}
