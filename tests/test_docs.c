/*
 * test_docs.c - keeps the man pages complete: every record type and field
 * of the schema (tp_schemas, record.c) has an entry in the RECORD TYPES AND
 * FIELDS section of man/tprof-parse.1 (and nothing else is documented
 * there as a field), every long option that `tprof-parse --help' and
 * `tprof --help' print has a .TP entry in the OPTIONS section of its page,
 * and the CSV column list and the exit codes match the code.
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
#include <string.h>
#include <sys/wait.h>

#include "emit.h"
#include "record.h"
#include "util.h"

#define PARSE_PAGE "man/tprof-parse.1"
#define TPROF_PAGE "man/tprof.1"

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
