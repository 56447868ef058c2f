/*
 * common.h - what the mains of cli/ share, after git's parse-options and
 * run-command: one option table per tool, from which getopt_long's
 * arrays, the --help text and the bash and zsh completions are all made
 * (so they cannot disagree); the validators every tool needs (numbers,
 * --threads, --color); the choice of a renderer by name or by the output's
 * extension; writing a report atomically; and reading the inputs into the
 * analysis model.
 *
 * A main reads like one of git's builtin commands: its table, a callback that stores
 * each option, then calls into the libraries and maps their errors to the
 * exit codes of base/util.h.
 */
#ifndef TPROF_CLI_COMMON_H
#define TPROF_CLI_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/analyze.h"
#include "base/base.h"
#include "parse/parse.h"
#include "render/render.h"

/*
 * One row of a tool's option table. A row with only `help` set is a
 * heading ("Analyses:"). The table ends with a row of all zeros; --help,
 * --version and --completion are added to every tool by cli_parse.
 */
struct cli_option {
	const char *name;     /* long name without "--" */
	int key;              /* the short letter, or a value >= 256 */
	const char *arg;      /* NULL: no argument; else its name in --help ("N");
			       * "[=N]": an optional argument, given as --name=N */
	const char *help;     /* "\n" continues under the help column; "%F" is the
			       * list of the tool's output formats */
	const char *complete; /* the argument's completions: "@file", "@dir",
			       * "@formats", or the words themselves */
	/* What cli_parse does with the value (git's parse-options): the row
	 * holds its variable, a field at `off` in the tool's context, and its
	 * validator, so that a tool has no switch over its options. Rows
	 * written with the five fields above only are CLI_OWN. */
	enum cli_store {
		CLI_OWN,     /* the set callback given to cli_parse */
		CLI_FLAG,    /* int field = 1 */
		CLI_UNFLAG,  /* int field = 0 */
		CLI_STR,     /* const char * field = the argument */
		CLI_NUM,     /* double field, a number from lo to hi (cli_number) */
		CLI_WHOLE,   /* double field, a whole number from lo to hi */
		CLI_INT,     /* an integer field of `size` bytes, a whole number from lo to hi */
		CLI_THREADS, /* int field, cli_threads */
		CLI_COLOR,   /* enum cli_color field, cli_color */
		CLI_BITS,    /* unsigned field |= bits */
		CLI_RULES,   /* struct cli_rules field, cli_rules_option */
		CLI_PARAM,   /* struct cli_runs field: --param NAME=V, one per run */
		CLI_LABEL,   /* struct cli_runs field: --label NAME, one per run */
		CLI_CALL,    /* call(ctx, arg): an option with a syntax of its own */
	} store;
	size_t off, size;
	double lo, hi;
	unsigned bits;
	int (*call)(void *ctx, const char *arg); /* prints why and returns -1 on a bad value */
};

/* A heading row ("Settings:"). */
#define CLI_HEADING(h) { .help = (h) }

/* The tail of a row: where the value goes and how it is checked (T is the
 * type of the tool's context, f the field). */
#define CLI_TO_FLAG(T, f) .store = CLI_FLAG, .off = offsetof(T, f)
#define CLI_TO_UNFLAG(T, f) .store = CLI_UNFLAG, .off = offsetof(T, f)
#define CLI_TO_STR(T, f) .store = CLI_STR, .off = offsetof(T, f)
#define CLI_TO_NUM(T, f, l, h) .store = CLI_NUM, .off = offsetof(T, f), .lo = (l), .hi = (h)
#define CLI_TO_WHOLE(T, f, l, h) .store = CLI_WHOLE, .off = offsetof(T, f), .lo = (l), .hi = (h)
#define CLI_TO_INT(T, f, l, h) \
	.store = CLI_INT, .off = offsetof(T, f), .size = sizeof(((T *)0)->f), .lo = (l), .hi = (h)
#define CLI_TO_THREADS(T, f) .store = CLI_THREADS, .off = offsetof(T, f)
#define CLI_TO_COLOR(T, f) .store = CLI_COLOR, .off = offsetof(T, f)
#define CLI_TO_RULES(T, f) .store = CLI_RULES, .off = offsetof(T, f)
#define CLI_TO_CALL(fn) .store = CLI_CALL, .call = (fn)
#define CLI_TO_BITS(T, f, b) .store = CLI_BITS, .off = offsetof(T, f), .bits = (b)
#define CLI_TO_PARAM(T, f) .store = CLI_PARAM, .off = offsetof(T, f)
#define CLI_TO_LABEL(T, f) .store = CLI_LABEL, .off = offsetof(T, f)

/* What --param and --label give, run by run (tprof-analyze, tprof-plot). */
#define CLI_MAX_RUN_OPTS 256
struct cli_runs {
	struct an_param params[CLI_MAX_RUN_OPTS];
	const char *labels[CLI_MAX_RUN_OPTS];
	size_t nparams, nlabels;
};

/* Rows that several tools share, so that they read alike everywhere. */
#define CLI_OPT_FORMAT(T, f) \
	{ "format", 'f', "FMT", "%F\n(default: table, or by -o's extension)", "@formats", CLI_TO_STR(T, f) }
#define CLI_OPT_OUTPUT(T, f) \
	{ "output", 'o', "FILE", "write to FILE (format from its extension)", "@file", CLI_TO_STR(T, f) }
#define CLI_OPT_THREADS(T, f) \
	{ "threads", 'j', "N", "parser threads for large logs (default: cores)", NULL, CLI_TO_THREADS(T, f) }
#define CLI_OPT_RULES(T, f) { "rules", 'r', "FILE", "extra line formats for raw logs (see tprof-parse;\n" \
			     "repeatable; also $XDG_CONFIG_HOME/tprof/rules.d)", "@file", CLI_TO_RULES(T, f) }
#define CLI_OPT_FORMATS(T, f) { "formats", CLI_KEY_FORMATS, "LIST", \
			       "only these format packs (names: see tprof-parse(1))", NULL, CLI_TO_RULES(T, f) }
#define CLI_OPT_NO_FORMATS(T, f) { "no-formats", CLI_KEY_NO_FORMATS, NULL, "no format packs", NULL, CLI_TO_RULES(T, f) }
/* The rows cli_rules_option reads, for a tool that reads raw logs; f: its struct cli_rules. */
#define CLI_OPTS_RULES(T, f) CLI_OPT_RULES(T, f), CLI_OPT_FORMATS(T, f), CLI_OPT_NO_FORMATS(T, f)
#define CLI_OPT_NO_RULES_DIR(T, f) \
	{ "no-rules-dir", CLI_KEY_NO_RULES_DIR, NULL, "do not read the rules directory", NULL, CLI_TO_RULES(T, f) }

/* Keys of the shared rules options: a tool keeps its own keys below
 * 0x7e00 (cli_parse refuses a table where two options share a key). */
enum { CLI_KEY_FORMATS = 0x7e00, CLI_KEY_NO_FORMATS, CLI_KEY_NO_RULES_DIR };
#define CLI_OPT_QUIET(T, f) { "quiet", 'q', NULL, "do not print parse warnings", NULL, CLI_TO_FLAG(T, f) }
#define CLI_OPT_COLOR(key, T, f) { "color", (key), "WHEN", "auto (default), always, never; NO_COLOR is respected", \
				  "auto always never", CLI_TO_COLOR(T, f) }

struct cli_tool {
	const char *name;      /* "tprof-analyze" */
	const char *usage;     /* after "usage: NAME ": "[OPTIONS] [FILE...]"; "\n"
				* starts another usage line */
	const char *about;     /* the paragraph after the usage lines */
	const struct cli_option *opts;
	void (*notes)(struct strbuf *sb); /* text after the options made at run
					   * time (lists from tables); or NULL */
	const char *trailer;   /* text after the options (exit status, ...) */
	const char *operands;  /* what operands complete to: "@file", command
				* words ("add list ...", then files), or NULL */
	/* the output formats --help and completions list for "%F" / "@formats" */
	void (*formats)(struct strbuf *sb);
};

enum { CLI_CONTINUE = -1 };

/*
 * Parses argv with t's table: each option's value goes where its row says
 * (store), after the row's validator; a CLI_OWN row calls set(ctx, key,
 * arg) (arg NULL for a flag; set may be NULL where no row is CLI_OWN). A
 * validator or set prints why a value is wrong and returns -1.
 * --help, --version and --completion SHELL are answered here.
 * Operands stay in argv from *first on (GNU order: options and operands
 * may mix). Returns CLI_CONTINUE, or the exit status to end with.
 */
int cli_parse(const struct cli_tool *t, int argc, char **argv, int (*set)(void *ctx, int key, const char *arg),
	      void *ctx, int *first);

/* The --help text. */
void cli_usage(const struct cli_tool *t, FILE *fp);

/* A completion script for shell "bash" or "zsh" from t's table into sb; -1 for another shell. */
int cli_completion(const struct cli_tool *t, const char *shell, struct strbuf *sb);

/* ---- validators: each prints "TOOL: --opt wants ..." and returns -1 ---- */

int cli_number(const char *tool, const char *opt, const char *arg, double lo, double hi, double *v);
/* cli_number, and whole: only a whole number (a count held in a double). */
int cli_number_in(const char *tool, const char *opt, const char *arg, double lo, double hi, int whole, double *v);
int cli_int(const char *tool, const char *opt, const char *arg, long lo, long hi, long *v);
/* --threads N: 1 to 256. */
int cli_threads(const char *tool, const char *arg, int *n);

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
int cli_color(const char *tool, const char *arg, enum cli_color *when);
/* Colours on: always, or auto on a terminal (no -o) without NO_COLOR. */
int cli_color_on(enum cli_color when, const char *output);

/* ---- analyses ---- */

/*
 * tprof-analyze's option table from analyze's table of analyses t: the
 * heading "Analyses:", a row for each row of t with a name (key: key0 +
 * the row's index, its help the row's; it ors the row's bit into the
 * unsigned at offset which of the tool's context), then the rows of rest,
 * which ends with a row of zeros. So a new analysis is an option, a --help
 * line and a completion with no line here. Free with free().
 */
struct cli_option *cli_analysis_options(const struct an_analysis *t, int key0, size_t which,
					const struct cli_option *rest);

/* Their entries in tprof-analyze(1), into sb: for each row of t with a
 * name, .TP, .B \-\-NAME and the row's man text. */
void cli_analysis_man(const struct an_analysis *t, struct strbuf *sb);

/*
 * A man page with its generated parts, into sb: the text of page, with a
 * line that starts .\" @ANALYSES@ (and the comment lines after it)
 * replaced by cli_analysis_man(an_analyses). The build makes the pages it
 * installs this way (man/mkman.c), so an analysis's entry is in its row.
 */
void cli_man(const char *page, size_t n, struct strbuf *sb);

/* ---- reports ---- */

/* By --format, else by the output's extension, else the table; NULL
 * (after the message) for an unknown format. */
const struct renderer *cli_renderer(const char *tool, const char *format, const char *output);

/* The renderers' names, for a tool's "%F". */
void cli_report_formats(struct strbuf *sb);

struct cli_report_out {
	const struct renderer *rd;
	const char *output;   /* NULL or "-": standard output */
	enum cli_color color;
	const char *title;
	int clear;            /* clear the terminal first (--follow) */
	int input_failed;     /* keep an existing output file: write nothing */
};

/* Renders rep atomically; an exit status (TP_EXIT_OK, or TP_EXIT_OUTPUT after the message). */
int cli_write_report(const char *tool, const struct report *rep, const struct cli_report_out *out);

/* ---- inputs ---- */

/* What the rules options chose: --rules files, packs, the rules directory. */
struct cli_rules {
	const char *files[TP_MAX_RULES_FILES];
	struct tp_rules_opts o;
};
void cli_rules_init(struct cli_rules *r);
/* -r and the CLI_KEY_* options: 1 if key was one (0 if not; -1 after the message). */
int cli_rules_option(const char *tool, struct cli_rules *r, int key, const char *arg);
/* The rule set they chose (NULL: none); -1 after the message. */
int cli_load_rules(const char *tool, const struct cli_rules *r, struct tp_rules **rules);

/*
 * Reads files (n == 0: standard input) into m, each a run, then names the
 * first runs by labels. Returns 0, or -1 if an input could not be read
 * (the message is printed; the other inputs are still read).
 */
int cli_load_runs(const char *tool, struct an_model *m, char **files, int n, int threads,
		  const struct tp_rules *rules, int quiet, const char *const *labels, size_t nlabels);

#endif
