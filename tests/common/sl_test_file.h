/*
** sl_test_file.h — test helper: read a whole file into memory.
*/
#ifndef SL_TEST_FILE_H
#define SL_TEST_FILE_H

#include <stddef.h>

/* The file's bytes, NUL-terminated, in a malloc'd buffer (caller frees); *len (if
** non-NULL) gets the size. NULL when the file cannot be opened or read whole. */
char *sl_test_read_file(const char *path, size_t *len);

#endif
