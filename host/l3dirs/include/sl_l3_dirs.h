/*
** sl_l3_dirs.h — the directory side of an L3 dfx_outputs folder (rankN/dK), shared by
** the merge (convert) and the commands that take the directory form per rank
** (sched-overhead, check-trace).
*/
#ifndef SL_L3_DIRS_H
#define SL_L3_DIRS_H

#include <stddef.h>

/* "<prefix><digits>" -> the number, else -1. */
long sl_l3_numbered(const char *name, const char *prefix);
int sl_l3_is_dir(const char *path);
int sl_l3_is_file(const char *path);
/* The numbers N of dir's <prefix>N subdirectories, sorted; two names for one number
** (rank1/ and rank01/) are an error. 0 ok, -1 reported. */
int sl_l3_list_numbered(const char *dir, const char *prefix, long *out, int max, int *n);
/* Every root/rankN/dK directory (dnum >= 0: only dK = dnum), sorted by rank then K;
** *labels gets "rankN/dK" for each. 0 ok (n may be 0), -1 reported. */
int sl_l3_capture_dirs(const char *root, long dnum, char ***dirs, char ***labels, size_t *n);
void sl_l3_free_list(char **v, size_t n);

#endif
