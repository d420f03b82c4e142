/*
** sl_opt.h — the one option parser of every `swimlane` command.
**
** A command describes its options in one table (name, short name, kind, value
** name, help text, target); sl_opt_parse fills the targets from argv and
** sl_opt_help prints `--help` from the same table, so the two cannot disagree.
** Every command therefore accepts the same spellings: `--opt value`,
** `--opt=value`, `-o value`, and `--` (end of options unless the command uses it
** as a separator), and reports a usage mistake in one form on stderr:
**
**   swimlane <cmd>: <what is wrong>
**   Try 'swimlane <cmd> --help' for the options.
**
** with exit status 2. Runtime errors keep sl_error's "swimlane: <file>: <what>".
*/
#ifndef SL_OPT_H
#define SL_OPT_H

#include <stddef.h>
#include <stdio.h>

/* What an option's target is and how its value is read. */
typedef enum sl_opt_kind {
  SL_OPT_FLAG,   /* no value; int *target = .set (1 when .set is 0) */
  SL_OPT_STRING, /* const char **target = the value */
  SL_OPT_INT,    /* int *target = a whole decimal in [lo, hi] */
  SL_OPT_CHOICE, /* const char **target = the value, one of .choices ("json|proto") */
  SL_OPT_CALL    /* .call(target, value): repeatable or checked options; value NULL without .arg */
} sl_opt_kind;

/* SL_OPT_INT with SL_OPT_OPTIONAL_VALUE: a bare option stores .set, and the next
** argument is taken as its value only when it is an integer. */
enum { SL_OPT_OPTIONAL_VALUE = 1 };

/* 0 ok; -1 with a message in err (printed as a usage error). */
typedef int (*sl_opt_call_fn)(void *target, const char *value, char *err, size_t errlen);

typedef struct sl_opt {
  const char *name;   /* long name without the dashes ("output"); NULL ends the table */
  char short_name;    /* 'o' for -o, or 0 */
  sl_opt_kind kind;
  const char *arg;    /* the value's name in --help ("DIR"); NULL for FLAG (and value-less CALL) */
  const char *help;   /* one or more lines ('\n' continues); NULL hides the option from --help */
  void *target;
  long lo, hi;        /* SL_OPT_INT: the accepted range */
  const char *choices;/* SL_OPT_CHOICE: the accepted values separated by '|' */
  sl_opt_call_fn call;/* SL_OPT_CALL */
  int set;            /* FLAG: the value stored; INT with SL_OPT_OPTIONAL_VALUE: the bare value */
  int flags;
} sl_opt;

/* A positional argument; 0 ok, -1 with a message in err. */
typedef int (*sl_opt_arg_fn)(void *ctx, const char *arg, char *err, size_t errlen);

typedef struct sl_opt_spec {
  const char *cmd;      /* "run": the messages say "swimlane run: ..." */
  const char *synopsis; /* after "usage: swimlane <cmd> "; '\n' starts another usage line */
  const char *about;    /* a paragraph printed after the usage lines, or NULL */
  const sl_opt *opts;   /* ends with an entry whose name is NULL */
  const char **arg;     /* the one positional argument (a second is an error), or NULL */
  sl_opt_arg_fn on_arg; /* or a function taking every positional (wins over .arg) */
  void *arg_ctx;
  int dashdash_is_arg;  /* "--" is given to on_arg (diff's BASE... -- NEW...) */
  void (*more_help)(FILE *out); /* text after the option list (computed lists, examples) */
} sl_opt_spec;

/* sl_opt_parse's "carry on": the others are the exit status of the command. */
#define SL_OPT_GO (-1)

/* Parse argv[1..argc-1] (argv[0] is the command name) into the targets. Returns
** SL_OPT_GO when the command should run, 0 after --help/-h (printed to stdout),
** 2 after a usage error (printed to stderr). Targets keep their values for
** options not given, so a command sets its defaults first. */
int sl_opt_parse(const sl_opt_spec *spec, int argc, char **argv);

/* The --help text generated from the table. */
void sl_opt_help(FILE *out, const sl_opt_spec *spec);

/* Print a usage error in the one format (see the top of this file); returns 2. */
int sl_opt_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1 when arg is an option of opts that takes a value and is spelt without
** "=value", so the next argument is its value (for code that scans argv before
** parsing it, such as the directory forms of convert and check-trace). */
int sl_opt_value_follows(const sl_opt *opts, const char *arg);

/* A copy of argv in which every `--name=value` of an option of opts that takes a
** value is split into `--name` `value` (for code that scans argv itself, such as
** the L3 hand-over of `run`). NULL-terminated, in one malloc'd block holding the
** strings too (sl_mem_free(v) releases all). */
char **sl_opt_split_values(const sl_opt *opts, int argc, char **argv, int *out_argc);

#endif /* SL_OPT_H */
