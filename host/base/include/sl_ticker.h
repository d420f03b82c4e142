/*
** sl_ticker.h — a progress line on a terminal: after SWIMLANE_PROGRESS_AFTER_MS
** (default 2000 ms) a background thread asks `line` for the text twice a second and
** redraws it on stderr as "\r\033[Kswimlane: <text>". Only when enabled and stderr
** is a TTY (so logs and pipes never see it); the line is erased on stop.
** `line` runs on the ticker's thread under its lock: state it reads that another
** thread changes is changed under sl_ticker_lock (or is atomic).
*/
#ifndef SL_TICKER_H
#define SL_TICKER_H

#include <stddef.h>

typedef struct sl_ticker sl_ticker;
/* Writes the text into buf (n bytes), given the seconds since start; returns 0 to skip
** this redraw. */
typedef int (*sl_ticker_line)(void *arg, double elapsed, char *buf, size_t n);

/* NULL (nothing drawn, every call below a no-op) unless enabled and stderr is a TTY. */
sl_ticker *sl_ticker_start(int enabled, sl_ticker_line line, void *arg);
void sl_ticker_lock(sl_ticker *t);
void sl_ticker_unlock(sl_ticker *t);
/* Erase the line now (before printing a line of one's own); the next tick redraws it. */
void sl_ticker_clear(sl_ticker *t);
/* Stop the thread, erase the line, free. */
void sl_ticker_stop(sl_ticker *t);

#endif /* SL_TICKER_H */
