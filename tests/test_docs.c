/*
 * test_docs.c - keeps the man pages complete: every record type and field
 * of the schema (tp_schemas, record.c) has an entry in the RECORD TYPES AND
 * FIELDS section of man/tprof-parse.1 (and nothing else is documented
 * there as a field), every long option that `tprof-parse --help' and
 * `tprof --help' print has a .TP entry in the OPTIONS section of its page,
 * and the CSV column list and the exit codes match the code. Every tool's
 * page and --help list the same exit codes, all of them tprof(1)'s.
 *
 * For man/tprof-analyze.1: every long option of `tprof-analyze --help' has
 * a .TP entry under OPTIONS, and every table id, table column and finding
 * kind that `tprof-analyze -f json' emits for the samples (and for a few
 * small logs written here: a two-run comparison, a regression gate, a
 * scaling fit with a prediction, a table that does not add up) has a .TP
 * entry under TABLES (columns written "\fBname\fP [unit]" in their table's
 * entry) or under FINDINGS, subsection Kinds.
 *
 * The pages are read as roff source. Conventions they follow (and this
 * test relies on): a record type is a ".SS <type>" subsection; a field or
 * an option is the tag line after a ".TP" (".B seconds", ".BR seconds
 * \" (s)\"", ".BR \-c \", \" \-\-count"); roff escapes are undone before
 * comparing (\- is -, \e is a backslash, font changes are dropped).
 *
 * Run from the repository root (make check does), after make.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse/emit.h"
#include "base/json.h"
#include "parse/record.h"
#include "base/util.h"

#define PARSE_PAGE "man/tprof-parse.1"
#define TPROF_PAGE "man/tprof.1"
#define ANALYZE_PAGE "build/man/tprof-analyze.1" /* man/tprof-analyze.1 and the analyses' rows */

/* ---- reading pages and commands --------------------------------------- */

static int slurp_file(const char *path, struct strbuf *sb)
{
	FILE *fp = fopen(path, "rb");
	char buf[65536];
	size_t n;
	if (!fp)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	fclose(fp);
	if (!sb->buf)
		strbuf_addstr(sb, "");
	return 0;
}

/* The page's source; fails the test if it cannot be read. */
static void read_page(const char *path, struct strbuf *sb)
{
	cr_assert_eq(slurp_file(path, sb), 0, "cannot read %s (run the tests from the repository root)",
		     path);
}

/* Standard output of a command; fails the test unless it exits 0. */
static void run_help(const char *cmd, struct strbuf *sb)
{
	FILE *fp = popen(cmd, "r");
	char buf[4096];
	size_t n;
	cr_assert_not_null(fp, "cannot run %s", cmd);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	int st = pclose(fp);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "'%s' failed (status %d): build the tools with make first", cmd, st);
	cr_assert_not_null(sb->buf, "'%s' printed nothing", cmd);
}

/* ---- roff ------------------------------------------------------------- */

/*
 * Appends [s,e) to out with the roff escapes the pages use undone: \- and
 * \(hy are '-', \e is '\', \(aq and \(dq are quotes, font changes (\fB,
 * \fI, \fR, \fP), \& and \c vanish.
 */
static void unroff(struct strbuf *out, const char *s, const char *e)
{
	while (s < e) {
		if (*s != '\\' || s + 1 >= e) {
			strbuf_addch(out, *s++);
			continue;
		}
		char c = s[1];
		if (c == '-') {
			strbuf_addch(out, '-');
			s += 2;
		} else if (c == 'e') {
			strbuf_addch(out, '\\');
			s += 2;
		} else if (c == '&' || c == 'c') {
			s += 2;
		} else if (c == 'f' && s + 2 < e) {
			s += 3;
		} else if (c == '(' && s + 3 < e) {
			if (!strncmp(s + 2, "aq", 2))
				strbuf_addch(out, '\'');
			else if (!strncmp(s + 2, "dq", 2))
				strbuf_addch(out, '"');
			else if (!strncmp(s + 2, "hy", 2))
				strbuf_addch(out, '-');
			else
				strbuf_addch(out, '?');
			s += 4;
		} else {
			strbuf_addch(out, c);
			s += 2;
		}
	}
}

/* A view of part of a page: [s, e). */
struct span {
	const char *s, *e;
};

static const char *line_end(const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	return nl ? nl : e;
}

static const char *next_line(const char *p, const char *e)
{
	const char *le = line_end(p, e);
	return le < e ? le + 1 : e;
}

/* If the line at p is the request `req` (".SH", ".SS"), returns its
 * argument with surrounding blanks and quotes removed, in out. */
static int request_arg(const char *p, const char *e, const char *req, struct strbuf *out)
{
	size_t n = strlen(req);
	const char *le = line_end(p, e);
	if ((size_t)(le - p) <= n || strncmp(p, req, n) != 0 || (p[n] != ' ' && p[n] != '\t'))
		return 0;
	const char *a = p + n;
	while (a < le && (*a == ' ' || *a == '\t' || *a == '"'))
		a++;
	const char *b = le;
	while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '"'))
		b--;
	strbuf_reset(out);
	unroff(out, a, b);
	if (!out->buf)
		strbuf_addstr(out, "");
	return 1;
}

/*
 * The part of [in) from the line after the `req` request titled `title`
 * to the next request of the same level (or of any level in `stop`).
 */
static int find_part(struct span in, const char *req, const char *stop, const char *title,
		     struct span *out)
{
	struct strbuf arg = STRBUF_INIT;
	int found = 0;
	for (const char *p = in.s; p < in.e; p = next_line(p, in.e)) {
		if (!found) {
			if (request_arg(p, in.e, req, &arg) && !strcmp(arg.buf, title)) {
				found = 1;
				out->s = next_line(p, in.e);
			}
			continue;
		}
		if (request_arg(p, in.e, req, &arg) || (stop && request_arg(p, in.e, stop, &arg))) {
			out->e = p;
			strbuf_release(&arg);
			return 1;
		}
	}
	if (found)
		out->e = in.e;
	strbuf_release(&arg);
	return found;
}

static struct span whole(const struct strbuf *sb)
{
	struct span sp = { sb->buf, sb->buf + sb->len };
	return sp;
}

/* Section `title` of a page; fails the test if there is none. */
static struct span section(const struct strbuf *page, const char *path, const char *title)
{
	struct span sp;
	cr_assert(find_part(whole(page), ".SH", NULL, title, &sp), "%s has no '.SH %s' section",
		  path, title);
	return sp;
}

/*
 * The first word of the tag line of every .TP paragraph in sp (the macro
 * argument: ".BR seconds \" (s)\"" gives "seconds"), one per line in out.
 */
static void tag_words(struct span sp, struct strbuf *out)
{
	for (const char *p = sp.s; p < sp.e; p = next_line(p, sp.e)) {
		const char *le = line_end(p, sp.e);
		if (le - p < 3 || strncmp(p, ".TP", 3) != 0 || (le - p > 3 && p[3] != ' '))
			continue;
		const char *t = next_line(p, sp.e), *te = line_end(t, sp.e);
		if (t >= sp.e)
			break;
		if (*t == '.') { /* a macro: skip its name */
			while (t < te && *t != ' ' && *t != '\t')
				t++;
			while (t < te && (*t == ' ' || *t == '\t'))
				t++;
		}
		const char *w = t;
		if (w < te && *w == '"') {
			w++;
			t = w;
			while (t < te && *t != '"')
				t++;
		} else {
			while (t < te && *t != ' ' && *t != '\t')
				t++;
		}
		unroff(out, w, t);
		strbuf_addch(out, '\n');
	}
	if (!out->buf)
		strbuf_addstr(out, "");
}

/* Whole tag lines (unroffed) of every .TP paragraph in sp, one per line. */
static void tag_lines(struct span sp, struct strbuf *out)
{
	for (const char *p = sp.s; p < sp.e; p = next_line(p, sp.e)) {
		const char *le = line_end(p, sp.e);
		if (le - p < 3 || strncmp(p, ".TP", 3) != 0 || (le - p > 3 && p[3] != ' '))
			continue;
		const char *t = next_line(p, sp.e);
		if (t >= sp.e)
			break;
		unroff(out, t, line_end(t, sp.e));
		strbuf_addch(out, '\n');
	}
	if (!out->buf)
		strbuf_addstr(out, "");
}

/* Is word one of the lines of list? */
static int has_line(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		const char *nl = strchr(p, '\n');
		size_t k = nl ? (size_t)(nl - p) : strlen(p);
		if (k == n && !strncmp(p, word, n))
			return 1;
		p += k + (nl ? 1 : 0);
	}
	return 0;
}

static int is_opt_char(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Does text hold the option opt as a whole word ("--type", not "--types")? */
static int has_option(const char *text, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		int left = p == text || !is_opt_char(p[-1]);
		int right = !is_opt_char(p[n]);
		if (left && right)
			return 1;
	}
	return 0;
}

/* Every distinct "--word" in text, one per line in out. */
static void long_options(const char *text, struct strbuf *out)
{
	for (const char *p = strstr(text, "--"); p; p = strstr(p, "--")) {
		const char *q = p + 2;
		if ((p > text && is_opt_char(p[-1])) || !isalpha((unsigned char)*q)) {
			p = q;
			continue;
		}
		while (is_opt_char(*q))
			q++;
		struct strbuf opt = STRBUF_INIT;
		strbuf_add(&opt, p, (size_t)(q - p));
		if (!out->buf || !has_line(out->buf, opt.buf)) {
			strbuf_addstr(out, opt.buf);
			strbuf_addch(out, '\n');
		}
		strbuf_release(&opt);
		p = q;
	}
	if (!out->buf)
		strbuf_addstr(out, "");
}

/*
 * Checks that every long option in the help text of cmd has a .TP entry
 * in the OPTIONS section of page; returns how many options were checked.
 */
static int check_options(const char *cmd, const char *path)
{
	struct strbuf help = STRBUF_INIT, page = STRBUF_INIT, opts = STRBUF_INIT, tags = STRBUF_INIT;
	run_help(cmd, &help);
	read_page(path, &page);
	tag_lines(section(&page, path, "OPTIONS"), &tags);
	long_options(help.buf, &opts);
	int n = 0;
	for (char *p = opts.buf, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		*nl = '\0';
		cr_expect(has_option(tags.buf, p),
			  "%s: option %s (printed by '%s') has no .TP entry in OPTIONS", path, p, cmd);
		n++;
	}
	strbuf_release(&help);
	strbuf_release(&page);
	strbuf_release(&opts);
	strbuf_release(&tags);
	return n;
}

/* ---- tprof-parse(1): record types and fields ------------------------- */

static const char *const common_fields[] = { "type", "file", "line", "ts", "rank" };

Test(docs, every_record_type_and_field_is_documented)
{
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	read_page(PARSE_PAGE, &page);
	struct span rt = section(&page, PARSE_PAGE, "RECORD TYPES AND FIELDS");

	struct span common = { NULL, NULL };
	cr_expect(find_part(rt, ".SS", NULL, "Common fields", &common),
		  "%s: RECORD TYPES AND FIELDS has no '.SS Common fields' subsection", PARSE_PAGE);
	if (common.s) {
		tag_words(common, &tags);
		for (size_t i = 0; i < ARRAY_SIZE(common_fields); i++)
			cr_expect(has_line(tags.buf, common_fields[i]),
				  "%s: common field '%s' has no .TP entry under 'Common fields'",
				  PARSE_PAGE, common_fields[i]);
	}

	for (int t = 0; t < TP_NTYPES; t++) {
		const struct tp_schema *sc = &tp_schemas[t];
		struct span sub = { NULL, NULL };
		if (!find_part(rt, ".SS", NULL, sc->type_name, &sub)) {
			cr_expect_fail("%s: record type '%s' has no '.SS %s' subsection in RECORD TYPES "
				       "AND FIELDS",
				       PARSE_PAGE, sc->type_name, sc->type_name);
			continue;
		}
		strbuf_reset(&tags);
		tag_words(sub, &tags);
		for (int i = 0; i < sc->nfields; i++)
			cr_expect(has_line(tags.buf, sc->fields[i].name),
				  "%s: field '%s' of record type '%s' has no .TP entry under '.SS %s'",
				  PARSE_PAGE, sc->fields[i].name, sc->type_name, sc->type_name);
	}
	strbuf_release(&page);
	strbuf_release(&tags);
}

/* The other way round: the page documents no type or field that the
 * schema does not have (a renamed or removed field must leave the page). */
Test(docs, no_stale_record_type_or_field_is_documented)
{
	struct strbuf page = STRBUF_INIT, arg = STRBUF_INIT, tags = STRBUF_INIT;
	read_page(PARSE_PAGE, &page);
	struct span rt = section(&page, PARSE_PAGE, "RECORD TYPES AND FIELDS");

	for (const char *p = rt.s; p < rt.e; p = next_line(p, rt.e)) {
		if (!request_arg(p, rt.e, ".SS", &arg) || !strcmp(arg.buf, "Common fields"))
			continue;
		int t = tp_type_from_name(arg.buf, arg.len);
		if (t < 0) {
			cr_expect_fail("%s: '.SS %s' in RECORD TYPES AND FIELDS is not a record type",
				       PARSE_PAGE, arg.buf);
			continue;
		}
		struct span sub;
		cr_assert(find_part(rt, ".SS", NULL, arg.buf, &sub));
		strbuf_reset(&tags);
		tag_words(sub, &tags);
		for (char *w = tags.buf, *nl; *w; w = nl + 1) {
			nl = strchr(w, '\n');
			*nl = '\0';
			cr_expect(tp_field_index((enum tp_type)t, w, strlen(w)) >= 0,
				  "%s: '.SS %s' documents a field '%s' that record type '%s' does not "
				  "have",
				  PARSE_PAGE, arg.buf, w, arg.buf);
		}
	}
	strbuf_release(&page);
	strbuf_release(&arg);
	strbuf_release(&tags);
}

/* ---- options ---------------------------------------------------------- */

Test(docs, every_tprof_parse_option_is_documented)
{
	int n = check_options("bin/tprof-parse --help", PARSE_PAGE);
	cr_expect_geq(n, 10, "bin/tprof-parse --help printed only %d long options", n);
}

Test(docs, every_tprof_option_is_documented)
{
	int n = check_options("bin/tprof --help", TPROF_PAGE);
	cr_expect_geq(n, 2, "bin/tprof --help printed only %d long options", n);
}

/* Every command that `tprof --help' lists has a .TP entry in COMMANDS. */
Test(docs, every_tprof_command_is_documented)
{
	struct strbuf help = STRBUF_INIT, page = STRBUF_INIT, tags = STRBUF_INIT;
	run_help("bin/tprof --help", &help);
	read_page(TPROF_PAGE, &page);
	tag_words(section(&page, TPROF_PAGE, "COMMANDS"), &tags);
	const char *p = strstr(help.buf, "Commands:\n");
	cr_assert_not_null(p, "bin/tprof --help has no 'Commands:' list");
	int n = 0;
	for (p = strchr(p, '\n') + 1; p[0] == ' ' && p[1] == ' ' && isalpha((unsigned char)p[2]);
	     p = strchr(p, '\n') + 1) {
		const char *w = p + 2, *we = w;
		while (isalnum((unsigned char)*we) || *we == '-')
			we++;
		struct strbuf cmd = STRBUF_INIT;
		strbuf_add(&cmd, w, (size_t)(we - w));
		cr_expect(has_line(tags.buf, cmd.buf), "%s: command '%s' has no .TP entry in COMMANDS",
			  TPROF_PAGE, cmd.buf);
		strbuf_release(&cmd);
		n++;
		if (!strchr(p, '\n'))
			break;
	}
	cr_expect_geq(n, 4, "bin/tprof --help listed only %d commands", n);
	strbuf_release(&help);
	strbuf_release(&page);
	strbuf_release(&tags);
}

/* ---- exit codes and CSV columns --------------------------------------- */

Test(docs, every_exit_code_is_documented)
{
	static const int codes[] = { TP_EXIT_OK,     TP_EXIT_WARN,   TP_EXIT_INPUT,
				     TP_EXIT_OUTPUT, TP_EXIT_NOMEM,  TP_EXIT_INTERNAL };
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	read_page(TPROF_PAGE, &page);
	tag_words(section(&page, TPROF_PAGE, "EXIT STATUS"), &tags);
	for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
		char num[16];
		snprintf(num, sizeof(num), "%d", codes[i]);
		cr_expect(has_line(tags.buf, num), "%s: exit status %s has no .TP entry in EXIT STATUS",
			  TPROF_PAGE, num);
	}
	strbuf_release(&page);
	strbuf_release(&tags);
}

/* The numeric tags of a page's EXIT STATUS section, as "0 1 2 ". */
static void page_codes(const char *path, struct strbuf *out)
{
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	read_page(path, &page);
	tag_words(section(&page, path, "EXIT STATUS"), &tags);
	for (const char *p = tags.buf; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n");
		if (n == 1 && isdigit((unsigned char)*p))
			strbuf_addf(out, "%c ", *p);
	}
	strbuf_release(&page);
	strbuf_release(&tags);
}

/* The codes listed by "Exit status: 0 ok, 2 bad ..., 3 ..." in --help. */
static void help_codes(const char *cmd, struct strbuf *out)
{
	struct strbuf help = STRBUF_INIT;
	run_help(cmd, &help);
	const char *p = strstr(help.buf, "Exit status:");
	cr_assert_not_null(p, "'%s' does not say its exit status", cmd);
	p += strlen("Exit status:");
	const char *end = strstr(p, ".\n");
	for (; p && *p && (!end || p < end); p++)
		if (isdigit((unsigned char)p[0]) && !isdigit((unsigned char)p[1]) &&
		    (p[-1] == ' ' || p[-1] == '\n') && (p[-2] == ',' || p[-2] == ':' || p[-1] == '\n'))
			strbuf_addf(out, "%c ", *p);
	strbuf_release(&help);
}

/*
 * Every tool's page and --help list the same exit codes, and each is one
 * of the codes tprof(1) defines for all tools.
 */
Test(docs, exit_codes_agree_across_tools)
{
	static const char *const tools[] = { "tprof-parse", "tprof-analyze", "tprof-plot", "tprof-replay",
					     "tprof-history" };
	struct strbuf all = STRBUF_INIT;
	page_codes(TPROF_PAGE, &all);
	cr_assert_str_eq(all.buf, "0 1 2 3 4 5 ");
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		struct strbuf path = STRBUF_INIT, cmd = STRBUF_INIT, page = STRBUF_INIT, help = STRBUF_INIT;
		strbuf_addf(&path, "man/%s.1", tools[i]);
		strbuf_addf(&cmd, "bin/%s --help", tools[i]);
		page_codes(path.buf, &page);
		help_codes(cmd.buf, &help);
		cr_expect_str_eq(help.buf, page.buf, "%s --help lists exit codes %s, its page %s", tools[i],
				 help.buf, page.buf);
		for (const char *c = page.buf; *c; c += 2) {
			char code[3] = { c[0], ' ', '\0' };
			cr_expect(strstr(all.buf, code), "%s: exit code %c is not one of tprof(1)'s", tools[i], c[0]);
		}
		cr_expect(strstr(page.buf, "0 ") && strstr(page.buf, "2 ") && strstr(page.buf, "3 ") &&
				  strstr(page.buf, "4 "),
			  "%s: ok, bad input, output error and out of memory are codes of every tool: %s",
			  tools[i], page.buf);
		strbuf_release(&path);
		strbuf_release(&cmd);
		strbuf_release(&page);
		strbuf_release(&help);
	}
	strbuf_release(&all);
}

/* Every field of every record type has its CSV column (a benchmark's median
 * and a profiler row's device cells were once left out of the CSV). */
Test(docs, every_record_field_has_a_csv_column)
{
	const char *const *cols;
	size_t n = tp_csv_columns(&cols);
	for (int t = 0; t < TP_NTYPES; t++)
		for (int f = 0; f < tp_schemas[t].nfields; f++) {
			const char *name = tp_schemas[t].fields[f].name;
			int found = 0;
			for (size_t c = 0; c < n && !found; c++)
				found = !strcmp(cols[c], name);
			cr_expect(found, "field '%s' of type '%s' has no CSV column", name, tp_schemas[t].type_name);
		}
}

/* The column list under OUTPUT FORMATS / CSV is emit.c's, in order. */
Test(docs, csv_columns_are_documented)
{
	struct strbuf page = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	const char *const *cols;
	size_t n = tp_csv_columns(&cols);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&want, ',');
		strbuf_addstr(&want, cols[i]);
	}
	read_page(PARSE_PAGE, &page);
	struct span out = section(&page, PARSE_PAGE, "OUTPUT FORMATS"), csv;
	cr_assert(find_part(out, ".SS", NULL, "CSV", &csv), "%s: OUTPUT FORMATS has no '.SS CSV'",
		  PARSE_PAGE);
	/* the first example of the subsection, its lines joined */
	const char *ex = NULL;
	for (const char *p = csv.s; p < csv.e; p = next_line(p, csv.e)) {
		if (!ex && !strncmp(p, ".EX", 3)) {
			ex = next_line(p, csv.e);
			continue;
		}
		if (ex && !strncmp(p, ".EE", 3))
			break;
		if (ex)
			unroff(&got, p, line_end(p, csv.e));
	}
	cr_assert_not_null(ex, "%s: the CSV subsection has no .EX example of the columns", PARSE_PAGE);
	cr_assert_not_null(got.buf, "%s: the CSV column example is empty", PARSE_PAGE);
	cr_expect_str_eq(got.buf, want.buf, "%s: the CSV columns in the page are not emit.c's:\n%s",
			 PARSE_PAGE, want.buf);
	strbuf_release(&page);
	strbuf_release(&want);
	strbuf_release(&got);
}

/* ---- tprof-analyze(1) ------------------------------------------------- */

#define ANALYZE "bin/tprof-analyze -q -f json "

Test(docs, every_tprof_analyze_option_is_documented)
{
	int n = check_options("bin/tprof-analyze --help", ANALYZE_PAGE);
	cr_expect_geq(n, 25, "bin/tprof-analyze --help printed only %d long options", n);
}

Test(docs, every_tprof_analyze_exit_code_is_documented)
{
	static const int codes[] = { TP_EXIT_OK, TP_EXIT_WARN, TP_EXIT_INPUT, TP_EXIT_OUTPUT,
				     TP_EXIT_NOMEM };
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	read_page(ANALYZE_PAGE, &page);
	tag_words(section(&page, ANALYZE_PAGE, "EXIT STATUS"), &tags);
	for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
		char num[16];
		snprintf(num, sizeof(num), "%d", codes[i]);
		cr_expect(has_line(tags.buf, num), "%s: exit status %s has no .TP entry in EXIT STATUS",
			  ANALYZE_PAGE, num);
	}
	strbuf_release(&page);
	strbuf_release(&tags);
}

/* What the reports of the runs below held: distinct lines of each kind. */
struct emitted {
	struct strbuf tables;  /* table ids */
	struct strbuf columns; /* "id\tname\tunit" */
	struct strbuf kinds;   /* finding kinds */
};

static void add_distinct(struct strbuf *list, const char *s)
{
	if (!list->buf || !has_line(list->buf, s)) {
		strbuf_addstr(list, s);
		strbuf_addch(list, '\n');
	}
}

static const char *json_text(const struct json_value *v)
{
	return v && v->kind == JSON_STR ? v->str.s : NULL;
}

static const struct json_value *json_array(const struct json_value *obj, const char *key,
					   const char *cmd)
{
	const struct json_value *v = json_get(obj, key);
	cr_assert(v && v->kind == JSON_ARR, "'%s': the report has no '%s' array", cmd, key);
	return v;
}

/* Adds the table ids, columns and finding kinds of one JSON report. */
static void collect_report(const char *cmd, const struct strbuf *out, struct emitted *em)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	cr_assert_eq(json_parse(out->buf, out->len, &doc, &je), 0, "'%s' wrote invalid JSON: %s (line %u)",
		     cmd, je.msg, (unsigned)je.line);
	const struct json_value *secs = json_array(doc.root, "sections", cmd);
	for (size_t i = 0; i < secs->arr.n; i++) {
		const struct json_value *sec = &secs->arr.items[i];
		const struct json_value *tabs = json_array(sec, "tables", cmd);
		const struct json_value *finds = json_array(sec, "findings", cmd);
		for (size_t k = 0; k < tabs->arr.n; k++) {
			const struct json_value *t = &tabs->arr.items[k];
			const char *id = json_text(json_get(t, "id"));
			cr_assert_not_null(id, "'%s': a table without an id", cmd);
			add_distinct(&em->tables, id);
			const struct json_value *cols = json_array(t, "columns", cmd);
			for (size_t c = 0; c < cols->arr.n; c++) {
				const char *name = json_text(json_get(&cols->arr.items[c], "name"));
				const char *unit = json_text(json_get(&cols->arr.items[c], "unit"));
				cr_assert(name && unit, "'%s': a column of table '%s' without name or unit",
					  cmd, id);
				struct strbuf line = STRBUF_INIT;
				strbuf_addf(&line, "%s\t%s\t%s", id, name, unit);
				add_distinct(&em->columns, line.buf);
				strbuf_release(&line);
			}
		}
		for (size_t k = 0; k < finds->arr.n; k++) {
			const char *kind = json_text(json_get(&finds->arr.items[k], "kind"));
			cr_assert_not_null(kind, "'%s': a finding without a kind", cmd);
			add_distinct(&em->kinds, kind);
		}
	}
	json_free(&doc);
}

/* Runs `bin/tprof-analyze -q -f json ARGS' (through the shell) and collects
 * its report; its exit status must be `status'. */
static void analyze_run(const char *args, int status, struct emitted *em)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	strbuf_addstr(&cmd, ANALYZE);
	strbuf_addstr(&cmd, args);
	FILE *fp = popen(cmd.buf, "r");
	char buf[65536];
	size_t n;
	cr_assert_not_null(fp, "cannot run %s", cmd.buf);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&out, buf, n);
	int st = pclose(fp);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == status,
		  "'%s' exited with status %d, not %d (build the tools with make first)", cmd.buf,
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, status);
	cr_assert_not_null(out.buf, "'%s' printed nothing", cmd.buf);
	collect_report(cmd.buf, &out, em);
	strbuf_release(&cmd);
	strbuf_release(&out);
}

static void write_log(const char *dir, const char *name, const struct strbuf *text)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	FILE *fp = fopen(path.buf, "wb");
	cr_assert_not_null(fp, "cannot create %s", path.buf);
	cr_assert_eq(fwrite(text->buf, 1, text->len, fp), text->len);
	cr_assert_eq(fclose(fp), 0);
	strbuf_release(&path);
}

/* A small run: a [TIMING] stage around 40 batches of about `batch' seconds,
 * each `growth' (a fraction of `batch') slower than the one before. */
static void batch_log(const char *dir, const char *name, double batch, double growth)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "[2024-10-13 22:30:00] [TIMING] Data loading: 10.00s\n");
	for (int i = 0; i < 40; i++)
		strbuf_addf(&sb, "  Batch %d: %.3fs, GPU 100.0MB, CPU 2000.0MB, loss=%.4f\n", i,
			    batch * (1 + growth * i + 0.01 * (i % 7)), 1.0 / (i + 1));
	strbuf_addf(&sb, "[2024-10-13 22:31:00] [TIMING] Main training loop: %.2fs\n", 40 * batch);
	write_log(dir, name, &sb);
	strbuf_release(&sb);
}

/*
 * Every table id, column and finding kind that tprof-analyze emits for the
 * samples, for a two-run comparison with a regression gate, for three runs
 * with sizes and a prediction (one of them drifting), and for a log whose
 * summary table and clock do not add up.
 */
static void analyze_everything(struct emitted *em)
{
	char dir[] = "/tmp/tprof-docs-XXXXXX";
	cr_assert_not_null(mkdtemp(dir), "cannot create a temporary directory");
	batch_log(dir, "fast.log", 0.20, 0);
	batch_log(dir, "slow.log", 0.26, 0);
	batch_log(dir, "big.log", 0.90, 0.01); /* drifts */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "[2024-10-13 22:30:10] [TIMING] Argument parsing: 0.12s\n"
			   "[2024-10-13 22:30:05] [TIMING] LLM model loading: 44.23s\n"
			   "[2024-10-13 22:31:00] [TIMING] Main training loop: 200.00s\n"
			   "================================\n"
			   "[TIMING SUMMARY]\n"
			   "================================\n"
			   "  Argument parsing     : 0.12s                (0.0%)\n"
			   "  LLM model loading    : 44.23s               (50.0%)\n"
			   "  Main training loop   : 210.00s              (70.0%)\n"
			   "  TOTAL                : 300.00s\n"
			   "================================\n");
	write_log(dir, "bad.log", &sb);
	strbuf_release(&sb);

	analyze_run("samples/*.log", TP_EXIT_OK, em);
	analyze_run("samples/*.json samples/*.csv", TP_EXIT_OK, em);
	analyze_run("--loss-threshold 0.005 samples/pde-physical.log", TP_EXIT_OK, em);
	analyze_run("--loss-threshold 0.0001 samples/ddp-4rank.log", TP_EXIT_OK, em);

	struct strbuf args = STRBUF_INIT;
	strbuf_addf(&args, "--fail-on-regression 10 %s/fast.log %s/slow.log", dir, dir);
	analyze_run(args.buf, TP_EXIT_WARN, em);
	strbuf_reset(&args);
	strbuf_addf(&args,
		    "--param N=200 --param N=100 --param N=400 --predict N=800 "
		    "%s/slow.log %s/fast.log %s/big.log",
		    dir, dir, dir);
	analyze_run(args.buf, TP_EXIT_OK, em);
	strbuf_reset(&args);
	strbuf_addf(&args, "%s/bad.log", dir);
	analyze_run(args.buf, TP_EXIT_OK, em);
	strbuf_release(&args);

	static const char *const files[] = { "fast.log", "slow.log", "big.log", "bad.log" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, files[i]);
		unlink(path.buf);
		strbuf_release(&path);
	}
	rmdir(dir);
	if (!em->tables.buf)
		strbuf_addstr(&em->tables, "");
	if (!em->columns.buf)
		strbuf_addstr(&em->columns, "");
	if (!em->kinds.buf)
		strbuf_addstr(&em->kinds, "");
}

static void emitted_release(struct emitted *em)
{
	strbuf_release(&em->tables);
	strbuf_release(&em->columns);
	strbuf_release(&em->kinds);
}

Test(docs, every_tprof_analyze_table_is_documented)
{
	struct emitted em = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	analyze_everything(&em);
	/* the runs above are there to make these appear */
	static const char *const wanted[] = { "breakdown", "compare", "convergence", "ranks",
					      "scaling" };
	for (size_t i = 0; i < ARRAY_SIZE(wanted); i++)
		cr_expect(has_line(em.tables.buf, wanted[i]),
			  "tprof-analyze emitted no '%s' table in the runs of this test", wanted[i]);
	read_page(ANALYZE_PAGE, &page);
	tag_words(section(&page, ANALYZE_PAGE, "TABLES"), &tags);
	int n = 0;
	for (char *p = em.tables.buf, *nl; *p; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		*nl = '\0';
		cr_expect(has_line(tags.buf, p), "%s: table '%s' has no .TP entry in TABLES",
			  ANALYZE_PAGE, p);
	}
	cr_expect_geq(n, 10, "tprof-analyze emitted only %d table ids", n);
	emitted_release(&em);
	strbuf_release(&page);
	strbuf_release(&tags);
}

static int is_tp(const char *p, const char *e)
{
	const char *le = line_end(p, e);
	return le - p >= 3 && !strncmp(p, ".TP", 3) && (le - p == 3 || p[3] == ' ');
}

/* The .TP paragraph of sp whose tag word is word, from its tag line to the
 * next .TP, .SS or .SH. */
static int tp_entry(struct span sp, const char *word, struct span *out)
{
	for (const char *p = sp.s; p < sp.e; p = next_line(p, sp.e)) {
		if (!is_tp(p, sp.e))
			continue;
		struct span tp = { p, next_line(next_line(p, sp.e), sp.e) };
		struct strbuf w = STRBUF_INIT;
		tag_words(tp, &w);
		int hit = has_line(w.buf, word);
		strbuf_release(&w);
		if (!hit)
			continue;
		const char *q = next_line(p, sp.e);
		out->s = q;
		for (q = next_line(q, sp.e); q < sp.e; q = next_line(q, sp.e))
			if (is_tp(q, sp.e) || !strncmp(q, ".SS", 3) || !strncmp(q, ".SH", 3))
				break;
		out->e = q;
		return 1;
	}
	return 0;
}

/*
 * Is the column written in the entry as "\fBname\fP [unit]" (or, without a
 * unit, "\fBname\fP" not followed by a unit)? The entry's lines are joined
 * with blanks.
 */
static int has_column(struct span entry, const char *name, const char *unit)
{
	struct strbuf text = STRBUF_INIT, needle = STRBUF_INIT, tail = STRBUF_INIT;
	for (const char *p = entry.s; p < entry.e; p = next_line(p, entry.e)) {
		strbuf_add(&text, p, (size_t)(line_end(p, entry.e) - p));
		strbuf_addch(&text, ' ');
	}
	strbuf_addstr(&needle, "\\fB");
	for (const char *c = name; *c; c++)
		if (*c == '-')
			strbuf_addstr(&needle, "\\-");
		else
			strbuf_addch(&needle, *c);
	strbuf_addstr(&needle, "\\fP");
	strbuf_addf(&tail, " [%s]", unit);
	int found = 0;
	for (const char *p = text.buf ? strstr(text.buf, needle.buf) : NULL; p && !found;
	     p = strstr(p + 1, needle.buf)) {
		const char *after = p + needle.len;
		found = *unit ? !strncmp(after, tail.buf, tail.len) : strncmp(after, " [", 2) != 0;
	}
	strbuf_release(&text);
	strbuf_release(&needle);
	strbuf_release(&tail);
	return found;
}

Test(docs, every_tprof_analyze_column_is_documented)
{
	struct emitted em = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf page = STRBUF_INIT;
	analyze_everything(&em);
	read_page(ANALYZE_PAGE, &page);
	struct span tables = section(&page, ANALYZE_PAGE, "TABLES");
	int n = 0;
	for (char *p = em.columns.buf, *nl; *p; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		*nl = '\0';
		char *name = strchr(p, '\t'), *unit = name ? strchr(name + 1, '\t') : NULL;
		cr_assert(name && unit);
		*name++ = '\0';
		*unit++ = '\0';
		struct span entry;
		if (!tp_entry(tables, p, &entry))
			continue; /* every_tprof_analyze_table_is_documented reports it */
		if (*unit)
			cr_expect(has_column(entry, name, unit),
				  "%s: column '%s' [%s] of table '%s' is not written as "
				  "'\\fB%s\\fP [%s]' in its entry under TABLES",
				  ANALYZE_PAGE, name, unit, p, name, unit);
		else
			cr_expect(has_column(entry, name, unit),
				  "%s: column '%s' (no unit) of table '%s' is not written as "
				  "'\\fB%s\\fP' in its entry under TABLES",
				  ANALYZE_PAGE, name, p, name);
	}
	cr_expect_geq(n, 50, "tprof-analyze emitted only %d table columns", n);
	emitted_release(&em);
	strbuf_release(&page);
}

Test(docs, every_tprof_analyze_finding_kind_is_documented)
{
	struct emitted em = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	analyze_everything(&em);
	read_page(ANALYZE_PAGE, &page);
	struct span kinds;
	cr_assert(find_part(section(&page, ANALYZE_PAGE, "FINDINGS"), ".SS", NULL, "Kinds", &kinds),
		  "%s: FINDINGS has no '.SS Kinds' subsection", ANALYZE_PAGE);
	tag_words(kinds, &tags);
	int n = 0;
	for (char *p = em.kinds.buf, *nl; *p; p = nl + 1, n++) {
		nl = strchr(p, '\n');
		*nl = '\0';
		cr_expect(has_line(tags.buf, p),
			  "%s: finding kind '%s' has no .TP entry under FINDINGS, Kinds", ANALYZE_PAGE,
			  p);
	}
	cr_expect_geq(n, 10, "tprof-analyze emitted only %d finding kinds", n);
	emitted_release(&em);
	strbuf_release(&page);
	strbuf_release(&tags);
}
