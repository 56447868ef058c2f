/*
 * tprof-parse - turns the timing lines and tables of ML training logs into
 * typed records (NDJSON, CSV or a table). The CLI only reads options and
 * wires the library: parsing is parser.c, threads and order are driver.c,
 * formats are emit.c.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/common/common.h"

#define TOOL "tprof-parse"

enum { OPT_STRICT = 256, OPT_MAX_WARNINGS, OPT_LIST_FORMATS, OPT_EXPLAIN, OPT_NO_PROGRESS,
       OPT_NO_DISCOVERY, OPT_DISCOVER_MIN, OPT_DISCOVER };

/* The exit codes, after the options and the record types. */
static const char trailer[] =
	"Exit status: 0 ok, 1 warnings with --strict, 2 bad usage or unreadable\n"
	"input, 3 output could not be written, 4 out of memory.\n"
	"See tprof-parse(1) for every field.\n";

/* Set by SIGINT/SIGTERM while following: the one global, as signals need. */
static volatile sig_atomic_t stop_following;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_following = 1;
}

static void follow_note(void *ctx, const char *path, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "tprof-parse: %s: %s; reading it from the start\n", path, msg);
}

struct ctx {
	struct outfile of;
	int quiet;
	unsigned long max_warnings;
	unsigned long warnings;
};

static int write_out(void *vctx, const char *buf, size_t n)
{
	struct ctx *c = vctx;
	return outfile_write(&c->of, buf, n);
}

static void print_warning(void *vctx, const char *file, uint64_t line, const char *msg)
{
	struct ctx *c = vctx;
	c->warnings++;
	if (c->quiet || (c->max_warnings && c->warnings > c->max_warnings))
		return;
	fprintf(stderr, "tprof-parse: %s:%llu: warning: %s\n", file, (unsigned long long)line, msg);
}

/* --help's record types, from the schemas. */
static void record_types(struct strbuf *sb)
{
	struct strbuf names = STRBUF_INIT;
	tp_type_names(&names, " ");
	size_t col = 0;
	strbuf_addstr(sb, "Record types:");
	col = 13;
	char *save = NULL;
	for (char *w = strtok_r(names.buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(w);
		if (col + 1 + n + 1 > 78) {
			strbuf_addch(sb, '\n');
			col = 0;
		} else {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_addstr(sb, w);
		col += n;
	}
	strbuf_addstr(sb, ".\n");
	strbuf_release(&names);
}

static int parse_types(const char *list, unsigned *mask)
{
	const char *p = list;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int t = tp_type_from_name(p, n);
		if (t < 0) {
			tp_error(TOOL, "unknown record type '%.*s'", (int)n, p);
			return -1;
		}
		*mask |= 1u << t;
		p += n + (c ? 1 : 0);
	}
	return 0;
}

static void print_stats(const struct tp_stats *st, unsigned long warnings)
{
	fprintf(stderr, "lines read:          %llu\n", (unsigned long long)st->lines);
	fprintf(stderr, "bytes read:          %llu\n", (unsigned long long)st->bytes);
	uint64_t total = 0;
	for (int t = 0; t < TP_NTYPES; t++)
		total += st->records[t];
	fprintf(stderr, "records:             %llu\n", (unsigned long long)total);
	for (int t = 0; t < TP_NTYPES; t++)
		if (st->records[t])
			fprintf(stderr, "  %-18s %llu\n", tp_schemas[t].type_name,
				(unsigned long long)st->records[t]);
	fprintf(stderr, "unrecognized lines:  %llu\n", (unsigned long long)st->unrecognized);
	fprintf(stderr, "malformed markers:   %llu\n", (unsigned long long)warnings);
	if (st->long_lines)
		fprintf(stderr, "overlong lines:      %llu (parsed on their first %d KiB)\n",
			(unsigned long long)st->long_lines, TP_MAX_LINE / 1024);
	if (st->disc_lines)
		fprintf(stderr, "discovery:           %llu lines, %llu templates, %llu series, %llu evicted\n",
			(unsigned long long)st->disc_lines, (unsigned long long)st->disc_templates,
			(unsigned long long)st->disc_series, (unsigned long long)st->disc_evicted);
}

static int print_counts(struct ctx *c, const struct tp_stats *st, unsigned mask)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t total = 0;
	for (int t = 0; t < TP_NTYPES; t++) {
		if (mask && !(mask & (1u << t)))
			continue;
		total += st->records[t];
		if (st->records[t])
			strbuf_addf(&sb, "%-10s %llu\n", tp_schemas[t].type_name,
				    (unsigned long long)st->records[t]);
	}
	strbuf_addf(&sb, "%-10s %llu\n", "total", (unsigned long long)total);
	int rc = outfile_write(&c->of, sb.buf, sb.len);
	strbuf_release(&sb);
	return rc;
}

struct opts {
	struct ctx c;
	struct tp_run_opts o;
	const char *output;
	struct cli_rules rules;
	int stats, strict, follow, list, explain, discover;
};

/* Lines per rule; a user rule that matched nothing is a warning (a
 * pattern that silently matches nothing is the usual rules bug). */
static void print_rule_hits(const struct tp_rules *rules, const struct tp_stats *st, int all)
{
	size_t n = tp_rules_count(rules);
	int header = 0;
	for (size_t i = 0; i < n && i < TP_RULE_STATS; i++) {
		struct tp_rule_info ri;
		tp_rules_info(rules, i, &ri);
		if (!all || (ri.pack && !st->rule_hits[i]))
			continue;
		if (!header++)
			fprintf(stderr, "lines per rule:\n");
		fprintf(stderr, "  %-40s %-10s %llu\n", ri.origin, ri.makes,
			(unsigned long long)st->rule_hits[i]);
	}
	for (size_t i = 0; i < n && i < TP_RULE_STATS; i++) {
		struct tp_rule_info ri;
		tp_rules_info(rules, i, &ri);
		if (!ri.pack && !st->rule_hits[i])
			fprintf(stderr, TOOL ": warning: rule %s (%s) matched no line\n", ri.origin,
				ri.makes);
	}
}

/* --list-formats: each pack's name, description and markers. */
static void list_formats(const struct tp_rules *rules)
{
	size_t nm;
	const struct tp_rmarker *m = tp_rules_markers(rules, &nm);
	for (size_t g = 0; g < tp_rules_groups(rules); g++) {
		printf("%-16s %s\n", tp_rules_group_name(rules, g), tp_rules_group_desc(rules, g));
		int first = 1;
		for (size_t i = 0; i < nm; i++)
			if (m[i].group == g) {
				printf("%s\"%.*s\"", first ? "                 markers: " : " ",
				       (int)m[i].len, m[i].lit);
				first = 0;
			}
		if (!first)
			putchar('\n');
	}
}

/* The options with a syntax of their own; -1 after printing why. */
static int opt_format(void *ctx, const char *arg)
{
	struct opts *x = ctx;
	x->o.fmt = tp_out_format_from_name(arg);
	if (x->o.fmt >= 0)
		return 0;
	struct strbuf names = STRBUF_INIT;
	tp_out_format_names(&names);
	tp_error(TOOL, "unknown format '%s' (%s)", arg, names.buf);
	strbuf_release(&names);
	return -1;
}

static int opt_types(void *ctx, const char *arg)
{
	return parse_types(arg, &((struct opts *)ctx)->o.type_mask);
}

#define X struct opts
static const struct cli_option options[] = {
	{ "format", 'f', "FMT", "%F (default: ndjson)", "@formats", CLI_TO_CALL(opt_format) },
	{ "output", 'o', "FILE", "write to FILE (atomically: complete or not at all)", "@file", CLI_TO_STR(X, output) },
	{ "threads", 'j', "N", "parser threads for large files (default: cores)", NULL, CLI_TO_THREADS(X, o.threads) },
	{ "type", 't', "LIST", "only these record types (comma-separated)", NULL, CLI_TO_CALL(opt_types) },
	{ "rules", 'r', "FILE", "extra line formats: PCRE2 patterns with named captures\n"
				"(repeatable: files stack, earlier ones first); also\n"
				"read: $XDG_CONFIG_HOME/tprof/rules.d/*.rules", "@file", CLI_TO_RULES(X, rules) },
	CLI_OPT_NO_RULES_DIR(X, rules),
	{ "formats", CLI_KEY_FORMATS, "LIST", "only these format packs (comma-separated names)", NULL,
	  CLI_TO_RULES(X, rules) },
	{ "no-formats", CLI_KEY_NO_FORMATS, NULL, "no format packs (built-in formats and --rules only)", NULL,
	  CLI_TO_RULES(X, rules) },
	{ "list-formats", OPT_LIST_FORMATS, NULL, "list the format packs and their markers, then exit", NULL,
	  CLI_TO_FLAG(X, list) },
	{ "explain", OPT_EXPLAIN, NULL, "for each input line, say which reader or rule took\n"
					"it and what it extracted (one thread, text output)", NULL,
	  CLI_TO_FLAG(X, explain) },
	{ "discover", OPT_DISCOVER, NULL, "list the timing templates found in the inputs (lines no\n"
					  "reader knows, repeated with varying values), with\n"
					  "counts, a sample line and a rules entry for each", NULL,
	  CLI_TO_FLAG(X, discover) },
	{ "no-discovery", OPT_NO_DISCOVERY, NULL, "no records from discovered templates", NULL,
	  CLI_TO_FLAG(X, o.no_discovery) },
	{ "discover-min", OPT_DISCOVER_MIN, "N", "times a template is seen before its values are\n"
						 "records (default 3)", NULL,
	  CLI_TO_INT(X, o.discover_min, 1, 1000000) },
	{ "no-progress", OPT_NO_PROGRESS, NULL, "no progress records (one per progress bar redraw)", NULL,
	  CLI_TO_FLAG(X, o.no_progress) },
	{ "count", 'c', NULL, "print record counts per type instead of records", NULL, CLI_TO_FLAG(X, o.count_only) },
	{ "follow", 'F', NULL, "keep reading FILE as it grows, through rotation and\n"
			       "truncation, until interrupted (SIGINT/SIGTERM)", NULL, CLI_TO_FLAG(X, follow) },
	{ "stats", 's', NULL, "print lines read, records per type, unrecognized\n"
			      "lines, warnings and lines per rule to standard error", NULL, CLI_TO_FLAG(X, stats) },
	{ "strict", OPT_STRICT, NULL, "exit 1 if any marker line could not be read", NULL, CLI_TO_FLAG(X, strict) },
	{ "quiet", 'q', NULL, "do not print warnings (they are still counted)", NULL, CLI_TO_FLAG(X, c.quiet) },
	{ "max-warnings", OPT_MAX_WARNINGS, "N", "print at most N warnings (default 20, 0: all)", NULL,
	  CLI_TO_INT(X, c.max_warnings, 0, 1000000000L) },
	{ 0 },
};
#undef X

/* --follow FILE: records as the log grows, until SIGINT/SIGTERM. */
static int follow_one(struct opts *x, const char *path, struct tp_stats *st, struct strbuf *err)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: the sleep ends at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct tp_follow_opts fo = { .poll_ms = 200, .stop = &stop_following, .note = follow_note };
	if (tp_follow_run(path, &x->o, &fo, st, err) < 0) {
		tp_error(TOOL, "%s", err->buf);
		return -1;
	}
	return 0;
}

/* Every input in turn (none: standard input); -1 if one could not be read. */
static int read_all(struct opts *x, char **files, int nfiles, struct tp_stats *st, struct strbuf *err)
{
	int failed = 0;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
		const char *path = nfiles ? files[i] : "-";
		/* long runs show where they are, on a terminal only */
		struct tp_progress pg = { path, 0, 0 };
		if (isatty(2) && !x->c.quiet) {
			x->o.progress = tp_progress_bar;
			x->o.progress_ctx = &pg;
		}
		strbuf_reset(err);
		int rc = tp_read_input(path, &x->o, NULL, st, err);
		tp_progress_clear(&pg);
		x->o.progress = NULL;
		if (rc < 0) {
			tp_error(TOOL, "%s", err->len ? err->buf : path);
			failed = -1;
		} else if (rc > 0 || x->c.of.err) {
			break; /* the output is gone */
		}
	}
	return failed;
}

/* Reads the inputs into the output; the exit status. */
static int run(struct opts *x, char **files, int nfiles)
{
	struct strbuf err = STRBUF_INIT;
	struct ctx *c = &x->c;
	if (outfile_open(&c->of, x->output, &err) < 0) {
		tp_error(TOOL, "%s", err.buf);
		strbuf_release(&err);
		return TP_EXIT_OUTPUT;
	}
	x->o.write = write_out;
	x->o.ctx = c;
	x->o.sink.warn = print_warning;
	x->o.sink.ctx = c;
	if (!x->o.count_only) {
		struct strbuf head = STRBUF_INIT;
		tp_emit_header((enum tp_out_format)x->o.fmt, &head);
		if (head.len)
			outfile_write(&c->of, head.buf, head.len);
		strbuf_release(&head);
	}
	struct tp_stats st = { 0 };
	int failed = x->follow ? follow_one(x, files[0], &st, &err) : read_all(x, files, nfiles, &st, &err);
	strbuf_release(&err);
	if (x->o.count_only && !c->of.err)
		print_counts(c, &st, x->o.type_mask);
	if (x->stats)
		print_stats(&st, c->warnings);
	if (x->o.rules && !c->quiet)
		print_rule_hits(x->o.rules, &st, x->stats);
	if (!c->quiet && c->max_warnings && c->warnings > c->max_warnings)
		fprintf(stderr, TOOL ": %lu more warnings not shown (--max-warnings)\n",
			c->warnings - c->max_warnings);
	int werr = 0;
	if (failed && x->output) {
		/* a failed run never replaces a good file with a partial one */
		outfile_abort(&c->of);
		tp_error(TOOL, "%s not written because of the input errors above", x->output);
	} else {
		werr = outfile_close(&c->of);
	}
	if (werr == EPIPE)
		return failed ? TP_EXIT_INPUT : TP_EXIT_OK;
	if (werr) {
		tp_error(TOOL, "cannot write %s: %s", x->output ? x->output : "standard output", strerror(werr));
		return TP_EXIT_OUTPUT;
	}
	if (failed)
		return TP_EXIT_INPUT;
	if (x->strict && c->warnings)
		return TP_EXIT_WARN;
	return TP_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct opts x = { .c = { .max_warnings = 20 }, .o = { .threads = tp_ncpus(), .fmt = TP_OUT_NDJSON } };
	cli_rules_init(&x.rules);
	static const struct cli_tool tool = {
		.name = TOOL,
		.usage = "[OPTIONS] [FILE...]",
		.about = "Reads training logs (plain or .gz), the NDJSON of tprof-parse or a known\n"
			 "report document ('-' or no FILE: standard input) and prints one record per\n"
			 "timing line, table row or block.\n",
		.opts = options,
		.notes = record_types,
		.trailer = trailer,
		.operands = "@file",
		.formats = tp_out_format_names,
	};
	int first;
	int rc = cli_parse(&tool, argc, argv, NULL, &x, &first);
	if (rc != CLI_CONTINUE)
		return rc;
	if (x.follow && argc - first != 1) {
		tp_error(TOOL, "--follow wants exactly one FILE");
		return TP_EXIT_INPUT;
	}
	struct tp_rules *rules;
	if (x.list) /* the packs alone */
		x.rules.o = (struct tp_rules_opts){ NULL, 0, x.rules.o.formats, 0 };
	if (cli_load_rules(TOOL, &x.rules, &rules) < 0)
		return TP_EXIT_INPUT;
	if (x.list || x.explain || x.discover) {
		struct strbuf err = STRBUF_INIT;
		rc = TP_EXIT_OK;
		if (x.list && rules)
			list_formats(rules);
		else if (x.explain)
			rc = tp_explain(argc - first, argv + first, rules, &x.o, &err);
		else if (x.discover)
			rc = tp_discover_report(argc - first, argv + first, rules, &x.o, &err);
		strbuf_release(&err);
		tp_rules_free(rules);
		return rc;
	}
	x.o.rules = rules;
	/* the candidate search, compiled once for all files, if one is large enough to use it */
	struct tp_scanner *scanner = x.follow || !tp_inputs_want_scanner(argv + first, argc - first, x.o.chunk)
					     ? NULL
					     : tp_scanner_for(rules, tp_run_wants_progress(&x.o));
	x.o.scanner = scanner;
	signal(SIGPIPE, SIG_IGN);
	rc = run(&x, argv + first, argc - first);
	tp_scanner_free(scanner);
	tp_rules_free(rules);
	return rc;
}
