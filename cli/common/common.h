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
};

/* Rows that several tools share, so that they read alike everywhere. */
#define CLI_OPT_FORMAT \
	{ "format", 'f', "FMT", "%F\n(default: table, or by -o's extension)", "@formats" }
#define CLI_OPT_OUTPUT { "output", 'o', "FILE", "write to FILE (format from its extension)", "@file" }
#define CLI_OPT_THREADS { "threads", 'j', "N", "parser threads for large logs (default: cores)", NULL }
#define CLI_OPT_RULES { "rules", 'r', "FILE", "extra line formats for raw logs (see tprof-parse;\n" \
			 "repeatable; also $XDG_CONFIG_HOME/tprof/rules.d)", "@file" }
#define CLI_OPT_FORMATS \
	{ "formats", CLI_KEY_FORMATS, "LIST", "only these format packs (names: see tprof-parse(1))", NULL }
#define CLI_OPT_NO_FORMATS { "no-formats", CLI_KEY_NO_FORMATS, NULL, "no format packs", NULL }
/* The rows cli_rules_option reads, for a tool that reads raw logs. */
#define CLI_OPTS_RULES CLI_OPT_RULES, CLI_OPT_FORMATS, CLI_OPT_NO_FORMATS
#define CLI_OPT_NO_RULES_DIR { "no-rules-dir", CLI_KEY_NO_RULES_DIR, NULL, "do not read the rules directory", NULL }

/* Keys of the shared rules options: a tool keeps its own keys below
 * 0x7e00 (cli_parse refuses a table where two options share a key). */
enum { CLI_KEY_FORMATS = 0x7e00, CLI_KEY_NO_FORMATS, CLI_KEY_NO_RULES_DIR };
#define CLI_OPT_QUIET { "quiet", 'q', NULL, "do not print parse warnings", NULL }
#define CLI_OPT_COLOR(key) \
	{ "color", (key), "WHEN", "auto (default), always, never; NO_COLOR is respected", "auto always never" }

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
 * Parses argv with t's table, calling set(ctx, key, arg) for each option
 * (arg NULL for a flag); set returns 0, or -1 after printing why the value
 * is wrong. --help, --version and --completion SHELL are answered here.
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
 * the row's index, its help the row's), then the rows of rest, which ends
 * with a row of zeros. So a new analysis is an option, a --help line and a
 * completion with no line here. Free with free().
 */
struct cli_option *cli_analysis_options(const struct an_analysis *t, int key0, const struct cli_option *rest);
/* If key is one of those options, the row's bit; else 0. */
unsigned cli_analysis_bit(const struct an_analysis *t, int key0, int key);

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
