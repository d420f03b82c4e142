/*
** sl_hostlog.c — writing and reading host.<pid>.log (format in sl_hostlog.h).
*/
#include "sl_hostlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_base.h"
#include "sl_mem.h"
#include "sl_vec.h"

int64_t sl_hl_true_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The simulated host clock of this process (sl_hl_set_host_clock); off by default. */
static int64_t hc_offset, hc_ppb, hc_epoch;
static int hc_on;

void sl_hl_set_host_clock(int64_t offset_ns, int64_t drift_ppb, int64_t epoch_true_ns) {
  hc_offset = offset_ns;
  hc_ppb = drift_ppb;
  hc_epoch = epoch_true_ns;
  hc_on = offset_ns != 0 || drift_ppb != 0;
}

int64_t sl_hl_host_of_true(int64_t t) {
  if (!hc_on) return t;
  return t + hc_offset + (int64_t)((__int128)(t - hc_epoch) * hc_ppb / 1000000000);
}

int64_t sl_hl_now_ns(void) { return sl_hl_host_of_true(sl_hl_true_ns()); }

void sl_hl_domain_id(char *out, size_t len) {
  char id[64] = "unknown";
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f) {
    if (fgets(id, sizeof id, f)) id[strcspn(id, "\n")] = 0;
    fclose(f);
  }
  snprintf(out, len, "linux-boot-id:%s", id);
}

FILE *sl_hostlog_create(const char *dir, long pid, const char *role, const char *domain) {
  char name[64];
  snprintf(name, sizeof name, "host.%ld.log", pid);
  char *p = sl_path_join(dir, name);
  FILE *f = fopen(p, "w");
  if (!f) sl_error(p, "cannot create host log: %s", strerror(errno));
  else fprintf(f, "swimlane-hostlog 1 pid=%ld role=%s host_clock_domain_id=%s\n", pid, role, domain);
  if (f) fflush(f);
  sl_mem_free(p);
  return f;
}

void sl_hostlog_span(FILE *f, const sl_hl_span *s) {
  fprintf(f, "span inv=%d name=%s clk=%s start_ns=%" PRId64 " dur_ns=%" PRId64, s->inv, s->name,
          s->clk_dev ? "dev" : "host", s->start_ns, s->dur_ns);
  for (int i = 0; i < s->nattrs; i++) fprintf(f, " %s=%" PRId64, s->keys[i], s->vals[i]);
  fputc('\n', f);
  fflush(f);
}

int sl_hl_attr(const sl_hl_span *s, const char *key, int64_t *out) {
  for (int i = 0; i < s->nattrs; i++)
    if (!strcmp(s->keys[i], key)) {
      *out = s->vals[i];
      return 1;
    }
  return 0;
}

const sl_hl_span *sl_hostlog_find(const sl_hostlog *h, int inv, const char *name) {
  for (size_t i = 0; i < h->n; i++)
    if (h->spans[i].inv == inv && !strcmp(h->spans[i].name, name)) return &h->spans[i];
  return NULL;
}

void sl_hostlog_free(sl_hostlog *h) {
  if (!h) return;
  sl_mem_free(h->path);
  sl_mem_free(h->spans);
  sl_mem_free(h);
}

static int parse_i64(const char *v, int64_t *out) {
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (!*v || *end || errno) return -1;
  *out = x;
  return 0;
}

/* One "key=value" token of a span line into s; -1 when malformed. */
static int span_token(sl_hl_span *s, char *tok, unsigned *seen) {
  char *eq = strchr(tok, '=');
  if (!eq) return -1;
  *eq = 0;
  const char *k = tok, *v = eq + 1;
  int64_t x = 0;
  if (!strcmp(k, "name")) {
    if (strlen(v) >= sizeof s->name) return -1;
    strcpy(s->name, v);
    *seen |= 1;
    return 0;
  }
  if (!strcmp(k, "clk")) {
    if (strcmp(v, "dev") && strcmp(v, "host")) return -1;
    s->clk_dev = !strcmp(v, "dev");
    return 0;
  }
  if (parse_i64(v, &x)) return -1;
  if (!strcmp(k, "inv")) s->inv = (int)x, *seen |= 2;
  else if (!strcmp(k, "start_ns")) s->start_ns = x, *seen |= 4;
  else if (!strcmp(k, "dur_ns")) s->dur_ns = x, *seen |= 8;
  else if (s->nattrs < SL_HL_MAX_ATTRS && strlen(k) < sizeof s->keys[0]) {
    strcpy(s->keys[s->nattrs], k);
    s->vals[s->nattrs++] = x;
  }
  return 0;
}

static int parse_header(sl_hostlog *h, char *line) {
  if (strncmp(line, "swimlane-hostlog 1 ", 19)) return -1;
  unsigned seen = 0;
  for (char *save = NULL, *t = strtok_r(line + 19, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
    if (!strncmp(t, "pid=", 4)) h->pid = strtol(t + 4, NULL, 10), seen |= 1;
    else if (!strncmp(t, "role=", 5)) snprintf(h->role, sizeof h->role, "%s", t + 5), seen |= 2;
    else if (!strncmp(t, "host_clock_domain_id=", 21))
      snprintf(h->domain, sizeof h->domain, "%s", t + 21), seen |= 4;
  }
  return seen == 7 ? 0 : -1;
}

static int add_span_line(sl_hostlog *h, char *line, size_t *cap) {
  sl_hl_span s;
  memset(&s, 0, sizeof s);
  unsigned seen = 0;
  for (char *save = NULL, *t = strtok_r(line + 5, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
    if (span_token(&s, t, &seen)) return -1;
  if (seen != 15 || s.dur_ns < 0) return -1;
  *sl_array_push(h->spans, h->n, *cap) = s;
  return 0;
}

sl_hostlog *sl_hostlog_load(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    sl_error(path, "cannot read host log: %s", strerror(errno));
    return NULL;
  }
  sl_hostlog *h = sl_mem_calloc(1, sizeof *h);
  char line[1024];
  size_t cap = 0, lineno = 0;
  h->path = sl_mem_strdup(path);
  int bad = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    lineno++;
    if (lineno == 1) bad = parse_header(h, line) ? 1 : 0;
    else if (!strncmp(line, "span ", 5)) bad = add_span_line(h, line, &cap) ? 2 : 0;
  }
  int err = ferror(f) ? errno : 0; /* a directory, an I/O error */
  if (!bad && lineno == 0) bad = 1;
  fclose(f);
  if (err) bad = 3;
  if (bad) {
    if (bad == 3) sl_error(path, "cannot read host log: %s", strerror(err));
    else if (bad == 1) sl_error(path, "not a swimlane host log (bad or missing header line)");
    else sl_error(path, "line %zu: malformed span", lineno);
    sl_hostlog_free(h);
    return NULL;
  }
  return h;
}
