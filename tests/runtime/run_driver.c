/* ** run_driver.c — `swimlane run` alone (sl_cmd_run), so the runtime's end-to-end
** tests do not depend on every other module linking into the full CLI. */
#include "sl_run.h"

int main(int argc, char **argv) { return sl_cmd_run(argc, argv); /* argv[0] plays the subcommand name */ }
