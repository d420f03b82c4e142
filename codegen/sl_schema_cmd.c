/*
** sl_schema_cmd.c — `swimlane schema`: validate the schema under $SWIMLANE_HOME
** and print a summary (records with sizes, phases with ids/roles/lanes, views,
** levels, platforms). `--regen` also rewrites <home>/generated.
*/
#include <stdlib.h>

#include "sl_base.h"
#include "sl_gen_host.h"

int sl_cmd_schema(int argc, char **argv) {
  const char *home = sl_home();
  char *codegen = sl_path_join(home, "codegen");
  char *schema = sl_path_join(home, "schema");
  char *out = sl_path_join(home, "generated");
  int rc = 1;
  if (codegen && schema && out) {
    /* summary mode unless the user asked for something else */
    char **args = malloc(sizeof(char *) * (size_t)(argc + 2));
    if (args) {
      int n = 0;
      args[n++] = argv[0];
      args[n++] = "--command-schema";
      for (int i = 1; i < argc; i++) args[n++] = argv[i];
      rc = sl_gen_run("swimlane", codegen, schema, out, n, args);
      free(args);
    }
  }
  free(codegen);
  free(schema);
  free(out);
  return rc;
}
