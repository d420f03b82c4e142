/*
** sl_generated_gate.h — refuse to compile against a generated/ folder written by another
** version of the generator (a stale checkout of generated/ after codegen/ changed).
** The build regenerates generated/ when schema/ or codegen/ change; this catches a
** generated/ that was committed or copied without regenerating.
*/
#ifndef SL_GENERATED_GATE_H
#define SL_GENERATED_GATE_H

#include "sl_fingerprint.h"

#define SL_GENERATED_FORMAT_WANTED 3

#if !defined(SL_GENERATED_FORMAT) || SL_GENERATED_FORMAT != SL_GENERATED_FORMAT_WANTED
#error "generated/ is stale: regenerate (cmake --build <build dir> --target regen)"
#endif

#endif /* SL_GENERATED_GATE_H */
