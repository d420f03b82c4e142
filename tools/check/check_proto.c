/* placeholder, replaced below */
#include "check_ctx.h"
#include "sl_base.h"
int sl_check_proto(sl_check_ctx *c, FILE *fp) { (void)fp; sl_error(c->file, "proto: not yet"); return -1; }
