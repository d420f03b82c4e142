/*
** sl_test_keep.h — test helper: keep the traces an end-to-end test wrote.
*/
#ifndef SL_TEST_KEEP_H
#define SL_TEST_KEEP_H

/* With SL_KEEP_TRACES=DIR in the environment (set by ctest, tests/CMakeLists.txt
** sl_keep_traces): every *.json below scratch whose head holds "traceEvents" is
** copied to DIR/<name>/<its path below scratch, '/' -> '__'>, for the DevTools engine
** test (check_devtools_engine) to load. Without it, nothing. Returns the count kept. */
int sl_test_keep_traces(const char *scratch, const char *name);

#endif
