/*
** swimlane_gen.c — `swimlane-gen`: regenerate generated/ from schema/.
**
**   swimlane-gen [--schema DIR] [--out DIR] [--summary] [--check]
**
** Both directories default to the source tree this binary was configured from.
*/
#include "sl_gen_host.h"

#ifndef SL_SOURCE_DIR
#define SL_SOURCE_DIR "."
#endif

int main(int argc, char **argv) {
  return sl_gen_run("swimlane-gen", SL_SOURCE_DIR "/codegen", SL_SOURCE_DIR "/schema",
                    SL_SOURCE_DIR "/generated", argc, argv);
}
