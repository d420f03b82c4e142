/*
** convert_labels.h — the text of trace labels: task ids (t7, r1t0), function
** letters (0_a, 26_aa), task labels and the SPMD suffix (as the reference converter names them).
*/
#ifndef SL_CONVERT_LABELS_H
#define SL_CONVERT_LABELS_H

#include <stddef.h>
#include <stdint.h>

/* "t{local}" for ring 0, else "r{ring}t{local}" (ring = bits 32..39). buf >= 32. */
char *sl_tdisp(char *buf, uint64_t raw);
/* "{n}_" + bijective base-26 of n+1 in lowercase; negative -> "{n}_". buf >= 40. */
char *sl_func_letters(char *buf, int64_t func_id);
/* Default function base name: "func_{letters}". buf >= 48. */
char *sl_func_default_name(char *buf, int64_t func_id);
/* "{base}({tdisp})", with "_spmd" inserted before "(" when spmd is set and base
** does not already contain "spmd" (case-insensitive). Never NULL; sl_mem_free it. */
char *sl_task_label(const char *base, uint64_t raw, int spmd);
/* Apply the SPMD rule to a finished label (split at the first '('). Never NULL; sl_mem_free it. */
char *sl_spmd_suffix(const char *label);

#endif
