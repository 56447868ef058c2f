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

#include "parse/parse.h"
#include "base/base.h"

static const char usage[] =
	"usage: tprof-parse [OPTIONS] [FILE...]\n"
	"\n"
	"Reads training logs (plain or .gz; '-' or no FILE: standard input) and\n"
	"prints one record per timing line, table row or block.\n"
	"\n"
	"  -f, --format FMT     ndjson (default), csv or table\n"
	"  -o, --output FILE    write to FILE (atomically: complete or not at all)\n"
	"  -j, --threads N      parser threads for large files (default: cores)\n"
	"  -t, --type LIST      only these record types (comma-separated)\n"
	"  -r, --rules FILE     extra line formats: PCRE2 patterns with named captures\n"
	"  -c, --count          print record counts per type instead of records\n"
	"  -F, --follow         keep reading FILE as it grows, through rotation and\n"
	"                       truncation, until interrupted (SIGINT/SIGTERM)\n"
	"  -s, --stats          print lines read, records per type, unrecognized\n"
	"                       lines and warnings to standard error\n"
	"      --strict         exit 1 if any marker line could not be read\n"
	"  -q, --quiet          do not print warnings (they are still counted)\n"
	"      --max-warnings N print at most N warnings (default 20, 0: all)\n"
	"  -h, --help           show this help\n"
	"      --version        show the version\n"
	"\n"
	"Record types: stage timing summary gpm meta complete speedup latency\n"
	"warmup runtime scaling memory flops metric batch epoch aggregate perf.\n"
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

static int parse_types(const char *list, unsigned *mask)
{
	const char *p = list;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int t = tp_type_from_name(p, n);
		if (t < 0) {
			tp_error("tprof-parse", "unknown record type '%.*s'", (int)n, p);
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

/* A document input (seed 002 JSON report, seed 001 exports) read whole. */
static int try_document(const char *path, const struct tp_run_opts *o, struct tp_stats *st,
			int *handled);

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "type", required_argument, NULL, 't' },
		{ "rules", required_argument, NULL, 'r' },
		{ "count", no_argument, NULL, 'c' },
		{ "follow", no_argument, NULL, 'F' },
		{ "stats", no_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "max-warnings", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx c = { .max_warnings = 20 };
	struct tp_run_opts o = { .threads = tp_ncpus(), .fmt = TP_OUT_NDJSON };
	const char *output = NULL, *rules_path = NULL;
	int stats = 0, strict = 0, follow = 0, opt;
	char *end;

	while ((opt = getopt_long(argc, argv, "f:o:j:t:r:cFsqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			o.fmt = tp_out_format_from_name(optarg);
			if (o.fmt < 0) {
				tp_error("tprof-parse", "unknown format '%s' (ndjson, csv, table)", optarg);
				return TP_EXIT_INPUT;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case 'j':
			errno = 0;
			o.threads = (int)strtol(optarg, &end, 10);
			if (errno || *end || o.threads < 1 || o.threads > 256) {
				tp_error("tprof-parse", "--threads wants a number from 1 to 256");
				return TP_EXIT_INPUT;
			}
			break;
		case 't':
			if (parse_types(optarg, &o.type_mask) < 0)
				return TP_EXIT_INPUT;
			break;
		case 'r':
			rules_path = optarg;
			break;
		case 'c':
			o.count_only = 1;
			break;
		case 'F':
			follow = 1;
			break;
		case 's':
			stats = 1;
			break;
		case 'S':
			strict = 1;
			break;
		case 'q':
			c.quiet = 1;
			break;
		case 'W':
			c.max_warnings = strtoul(optarg, &end, 10);
			if (*end) {
				tp_error("tprof-parse", "--max-warnings wants a number");
				return TP_EXIT_INPUT;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return TP_EXIT_OK;
		case 'V':
			printf("tprof-parse %s\n", TPROF_VERSION);
			return TP_EXIT_OK;
		default:
			fputs(usage, stderr);
			return TP_EXIT_INPUT;
		}
	}
	signal(SIGPIPE, SIG_IGN);

	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rules = NULL;
	if (rules_path) {
		rules = tp_rules_load(rules_path, &err);
		if (!rules) {
			tp_error("tprof-parse", "%s", err.buf);
			strbuf_release(&err);
			return TP_EXIT_INPUT;
		}
		o.rules = rules;
	}
	if (outfile_open(&c.of, output, &err) < 0) {
		tp_error("tprof-parse", "%s", err.buf);
		strbuf_release(&err);
		tp_rules_free(rules);
		return TP_EXIT_OUTPUT;
	}
	o.write = write_out;
	o.ctx = &c;
	o.sink.warn = print_warning;
	o.sink.ctx = &c;

	struct tp_stats st = { 0 };
	struct strbuf head = STRBUF_INIT;
	int input_failed = 0, stop = 0;
	if (!o.count_only) {
		tp_emit_header((enum tp_out_format)o.fmt, &head);
		if (head.len)
			outfile_write(&c.of, head.buf, head.len);
	}
	int nfiles = argc - optind;
	if (follow && nfiles != 1) {
		tp_error("tprof-parse", "--follow wants exactly one FILE");
		outfile_abort(&c.of);
		tp_rules_free(rules);
		strbuf_release(&err);
		strbuf_release(&head);
		return TP_EXIT_INPUT;
	}
	if (follow) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal; /* no SA_RESTART: the sleep ends at once */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		struct tp_follow_opts fo = { .poll_ms = 200, .stop = &stop_following, .note = follow_note };
		int rc = tp_follow_run(argv[optind], &o, &fo, &st, &err);
		if (rc < 0) {
			tp_error("tprof-parse", "%s", err.buf);
			input_failed = 1;
		}
		nfiles = -1; /* done: skip the loop below */
	}
	for (int i = 0; nfiles >= 0 && i < (nfiles ? nfiles : 1) && !stop; i++) {
		const char *path = nfiles ? argv[optind + i] : "-";
		int handled = 0;
		int rc = try_document(path, &o, &st, &handled);
		if (!handled) {
			/* long runs show where they are, on a terminal only */
			struct tp_progress pg = { path, 0, 0 };
			if (isatty(2) && !c.quiet) {
				o.progress = tp_progress_bar;
				o.progress_ctx = &pg;
			}
			strbuf_reset(&err);
			rc = tp_run_file(path, NULL, &o, &st, &err);
			tp_progress_clear(&pg);
			o.progress = NULL;
		}
		if (rc == -2) {
			input_failed = 1; /* a broken document, already reported */
		} else if (rc < 0) {
			tp_error("tprof-parse", "%s", err.len ? err.buf : path);
			input_failed = 1;
		} else if (rc > 0 || c.of.err) {
			stop = 1;
		}
	}
	if (o.count_only && !c.of.err)
		print_counts(&c, &st, o.type_mask);
	if (stats)
		print_stats(&st, c.warnings);
	if (!c.quiet && c.max_warnings && c.warnings > c.max_warnings)
		fprintf(stderr, "tprof-parse: %lu more warnings not shown (--max-warnings)\n",
			c.warnings - c.max_warnings);

	int werr;
	if (input_failed && output) {
		/* a failed run never replaces a good file with a partial one */
		outfile_abort(&c.of);
		tp_error("tprof-parse", "%s not written because of the input errors above", output);
		werr = 0;
	} else {
		werr = outfile_close(&c.of);
	}
	strbuf_release(&err);
	strbuf_release(&head);
	tp_rules_free(rules);
	if (werr == EPIPE)
		return input_failed ? TP_EXIT_INPUT : TP_EXIT_OK;
	if (werr) {
		tp_error("tprof-parse", "cannot write %s: %s", output ? output : "standard output",
			 strerror(werr));
		return TP_EXIT_OUTPUT;
	}
	if (input_failed)
		return TP_EXIT_INPUT;
	if (strict && c.warnings)
		return TP_EXIT_WARN;
	return TP_EXIT_OK;
}

struct doc_sink_ctx {
	const struct tp_run_opts *o;
	struct tp_stats *st;
	struct strbuf sb;
};

static int doc_emit(void *vctx, const struct tp_record *r)
{
	struct doc_sink_ctx *d = vctx;
	d->st->records[r->type]++;
	if (d->o->count_only || (d->o->type_mask && !(d->o->type_mask & (1u << r->type))))
		return 0;
	tp_emit_record((enum tp_out_format)d->o->fmt, r, &d->sb);
	return 0;
}

static void doc_warn(void *vctx, const char *file, uint64_t line, const char *msg)
{
	struct doc_sink_ctx *d = vctx;
	d->st->malformed++;
	d->o->sink.warn(d->o->sink.ctx, file, line, msg);
}

static int try_document(const char *path, const struct tp_run_opts *o, struct tp_stats *st,
			int *handled)
{
	*handled = 0;
	struct strbuf buf = STRBUF_INIT;
	int kind = tp_doc_load(path, &buf);
	if (!kind) {
		strbuf_release(&buf);
		return 0;
	}
	*handled = 1;
	struct doc_sink_ctx d = { .o = o, .st = st };
	struct tp_sink s = { doc_emit, doc_warn, &d };
	struct strbuf err = STRBUF_INIT;
	int rc = tp_doc_parse(kind, buf.buf, buf.len, path, &s, &err);
	st->bytes += buf.len;
	if (d.sb.len && o->write(o->ctx, d.sb.buf, d.sb.len))
		rc = 1;
	if (rc < 0)
		tp_error("tprof-parse", "%s", err.len ? err.buf : path);
	strbuf_release(&err);
	strbuf_release(&d.sb);
	strbuf_release(&buf);
	return rc < 0 ? -2 : rc > 0 ? 1 : 0;
}
