/*
 * rules.c - user-defined formats and format packs: loads rules files
 * ("TYPE [@OPTION]... [FIELD="..."]... PATTERN" per line, plus @format,
 * @marker and @block directives) into compiled PCRE2 patterns. Matching is
 * rules_match.c; see rules.h for the API and tprof-parse(1), RULES FILES,
 * for the syntax.
 *
 * Load time does all the work that can fail on the rules' side (unknown
 * type, unknown field or unit, bad regex, unreadable constant), so that
 * matching can only fail on the log's side (a captured value that is not a
 * number), which is a warning for that line.
 */
#include "rules_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/base.h"
#include "parse/record.h"

/* Where the line being loaded is, for "name:LINE:COL:" messages. */
struct src {
	const char *name;
	unsigned lineno;
	const char *line; /* start of the line */
	struct strbuf *err;
};

/* PCRE2 allocates through x*alloc so that running out of memory is the
 * same exit for PCRE2 as for the rest of tprof. */
static void *pcre_alloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return xmalloc(n);
}

static void pcre_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/* ---- messages ---------------------------------------------------------- */

/* Quotes at most EXCERPT_MAX bytes of a value; control bytes become '?'
 * because the text comes from arbitrary input and goes to a terminal. */
void tp_rules_add_excerpt(struct strbuf *sb, const char *p, size_t n)
{
	size_t k = n > EXCERPT_MAX ? EXCERPT_MAX : n;
	while (k < n && k > 0 && ((unsigned char)p[k] & 0xC0) == 0x80)
		k--; /* do not cut a UTF-8 sequence in two */
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < k; i++) {
		unsigned char c = (unsigned char)p[i];
		strbuf_addch(sb, c < 0x20 || c == 0x7f ? '?' : c);
	}
	if (k < n)
		strbuf_addstr(sb, "...");
	strbuf_addch(sb, '"');
}

/* 1-based column of at within the line, counting UTF-8 characters. */
static unsigned col_of(const char *line, const char *at)
{
	unsigned col = 1;
	for (const char *p = line; p < at; p++)
		col += ((unsigned char)*p & 0xC0) != 0x80;
	return col;
}

/* Starts a load error: "name:LINE:COL: "; the caller appends the message. */
static struct strbuf *load_error(const struct src *s, const char *at)
{
	strbuf_addf(s->err, "%s:%u:%u: ", s->name, s->lineno, col_of(s->line, at));
	return s->err;
}

static void add_type_names(struct strbuf *sb)
{
	for (int t = 0; t < TP_NTYPES; t++)
		strbuf_addf(sb, "%s%s", t ? ", " : "", tp_schemas[t].type_name);
}

static void add_field_names(struct strbuf *sb, enum tp_type t)
{
	const struct tp_schema *sc = &tp_schemas[t];
	for (int i = 0; i < sc->nfields; i++)
		strbuf_addf(sb, "%s, ", sc->fields[i].name);
	strbuf_addstr(sb, "ts, rank");
}

/* ---- fields and values -------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
	return tp_ends_with(s, s + strlen(s), suffix);
}

/* A numeric field's reader follows its unit (record.c), and its name for
 * fields whose unit the schema leaves blank. */
static enum conv conv_for_num(const struct tp_field *f)
{
	if (!strcmp(f->unit, "s") || !strcmp(f->name, "seconds") || ends_with(f->name, "_s"))
		return CV_SEC;
	if (!strcmp(f->unit, "ms") || ends_with(f->name, "_ms"))
		return CV_MS;
	if (!strcmp(f->unit, "MB") || ends_with(f->name, "_mb"))
		return CV_MB;
	return CV_NUM;
}

/* Finds field name[0,n) of type t; 0 if the type has no such field. */
static int fspec_lookup(enum tp_type t, const char *name, size_t n, struct fspec *out)
{
	static const struct fspec common[] = {
		{ "ts", "", CV_TS, 0, FID_TS },
		{ "rank", "", CV_RANK, 0, FID_RANK },
		{ "role", "", CV_ROLE, 0, FID_ROLE },
		{ "parent", "", CV_PARENT, 0, FID_PARENT },
	};
	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		if (strlen(common[i].name) == n && !memcmp(name, common[i].name, n)) {
			*out = common[i];
			return 1;
		}
	int i = tp_field_index(t, name, n);
	if (i < 0)
		return 0;
	const struct tp_field *f = &tp_schemas[t].fields[i];
	static const enum conv by_kind[] = {
		[TP_F_NAME] = CV_NAME, [TP_F_TEXT] = CV_TEXT, [TP_F_NUM] = CV_NUM,
		[TP_F_INT] = CV_INT, [TP_F_VALUE] = CV_VALUE
	};
	*out = (struct fspec){ f->name, f->unit, by_kind[f->kind], f->slot, i };
	if (f->kind == TP_F_NUM)
		out->conv = t == TP_RATE ? CV_RATE : conv_for_num(f);
	return 1;
}

int tp_rules_duration_field(enum tp_type t, const char *name, size_t n, int *slot, double *unit)
{
	struct fspec f;
	if (!fspec_lookup(t, name, n, &f) || (f.conv != CV_SEC && f.conv != CV_MS))
		return 0;
	*slot = f.slot;
	*unit = f.conv == CV_MS ? 0.001 : 1.0;
	return 1;
}

/* The fields a rule can set: its type's, or ctx for a context rule. */
static int rule_field(const struct rule *ru, const char *name, size_t n, struct fspec *out)
{
	static const struct fspec ctx = { "ctx", "", CV_CTX, 0, FID_CTX };
	if (ru->kind == RK_CONTEXT) {
		if (n != 3 || memcmp(name, "ctx", 3))
			return 0;
		*out = ctx;
		return 1;
	}
	return ru->kind == RK_RECORD && fspec_lookup(ru->type, name, n, out);
}

static void add_rule_fields(struct strbuf *sb, const struct rule *ru)
{
	if (ru->kind == RK_CONTEXT)
		strbuf_addstr(sb, "ctx");
	else if (ru->kind == RK_RECORD)
		add_field_names(sb, ru->type);
	else
		strbuf_addstr(sb, "none; FIELD__u unit groups in a header");
}

/* Pseudo-types of v2 rules that make no record. */
static const char *const kind_names[] = {
	[RK_CONTEXT] = "context", [RK_START] = "start", [RK_END] = "end",
	[RK_SKIP] = "skip", [RK_HEADER] = "header",
};

static const char *rule_makes(const struct rule *ru)
{
	return ru->kind == RK_RECORD ? tp_schemas[ru->type].type_name : kind_names[ru->kind];
}

/* After a number, accepts nothing or the field's unit (any case), plus a
 * plural 's' ("GFLOPs"), so "12.5%" and "2.5x" read as 12.5 and 2.5. */
static int only_unit_left(const char *q, const char *end, const char *unit)
{
	q = tp_skip_blanks(q, end);
	size_t k = strlen(unit);
	if (q == end)
		return 1;
	if (!k || (size_t)(end - q) < k || strncasecmp(q, unit, k) != 0)
		return 0;
	q += k;
	return q == end || (q + 1 == end && (*q == 's' || *q == 'S'));
}

double tp_rules_rescale(double v, double bare, double target)
{
	if (bare == target)
		return v;
	/* the units' ratio, a whole number when it is one (1e-3 / 1e-6 is not 1000 in doubles) */
	double r = bare < target ? target / bare : bare / target, w = round(r);
	if (fabs(r - w) <= 1e-9 * w)
		r = w;
	return bare < target ? v / r : v * r;
}

/*
 * A duration in target seconds-per-unit: a bare number counts in bare
 * seconds-per-unit (converted exactly when the units agree, so "1.2" ms
 * stays 1.2), a clock or compound form ("0:24:37.11", "2m8.77s"), or a
 * number with its unit ("12ms", "2345.67s (39.09min)").
 */
static int read_dur(const char *p, const char *end, double bare, double target, double *out)
{
	const char *q;
	double v, sec;
	if (tp_read_number(p, end, &v, &q) && tp_skip_blanks(q, end) == end) {
		*out = tp_rules_rescale(v, bare, target);
		return 1;
	}
	if (tp_read_clock(p, end, &sec)) {
		*out = target == 1.0 ? sec : sec / target;
		return 1;
	}
	return tp_read_duration_to(p, end, -1, target, out, &q) && tp_skip_blanks(q, end) == end;
}

/* A rate: a number, an optional SI prefix (k K M G T), nothing else. */
static int read_rate(const char *p, const char *end, double *v)
{
	const char *q;
	return tp_read_si(p, end, v, &q) && tp_skip_blanks(q, end) == end;
}

/* Reads the numeric kinds; 0 if [p,end) is not entirely one. A non-finite
 * value (nan, inf) reads: the caller decides (a capture drops the field). */
static int read_numeric(enum conv c, const char *unit, double bare, const char *p,
			const char *end, double *v)
{
	const char *q;
	switch (c) {
	case CV_NUM:
		return tp_read_number(p, end, v, &q) && only_unit_left(q, end, unit);
	case CV_INT:
		/* "40/165": the 40th of 165 (a table's batch column) */
		if (!tp_read_number(p, end, v, &q) || !isfinite(*v) || *v != trunc(*v) ||
		    fabs(*v) > 9007199254740992.0)
			return 0;
		if (q < end && *q == '/' && q + 1 < end && tp_is_digit(q[1]))
			for (q++; q < end && tp_is_digit(*q);)
				q++;
		return q == end;
	case CV_SEC:
		return read_dur(p, end, bare > 0 ? bare : 1.0, 1.0, v);
	case CV_MS:
		return read_dur(p, end, bare > 0 ? bare : 0.001, 0.001, v);
	case CV_MB:
		return tp_read_mb(p, end, 1, v, &q) && q == end;
	case CV_RATE:
		return read_rate(p, end, v);
	default:
		return 0;
	}
}

/* What a field expected, for "cannot read X as ...". */
const char *tp_rules_expectation(enum conv c)
{
	switch (c) {
	case CV_INT: return "an integer";
	case CV_SEC: case CV_MS: return "a duration";
	case CV_MB: return "a memory size";
	case CV_TS: return "a timestamp (YYYY-MM-DD HH:MM:SS[.fff])";
	case CV_RANK: return "a rank (integer from 0 to 10^9)";
	case CV_RATE: return "a rate (number with optional k/M/G/T)";
	case CV_ROLE: return "a role (step, component, phase, running, average, clock, rate, eta, quantity)";
	default: return "a number";
	}
}

static int read_rank(const char *p, const char *end, double *v)
{
	unsigned long long u;
	const char *q;
	/* the bound tprof-analyze reads back from NDJSON (ndjson_in.c) */
	if (!tp_read_uint(p, end, &u, &q) || q != end || u > 1000000000)
		return 0;
	*v = (double)u;
	return 1;
}

/*
 * Reads field f from [p, p+n) (already trimmed, non-empty); bare: seconds
 * per bare number for a duration (0: the field's own unit). Strings are
 * borrowed from p; a timestamp is normalised into tsbuf. Returns 1, or 0 if
 * the text is not a value of the field's kind.
 */
int tp_rules_read_value(const struct fspec *f, const char *p, size_t n, double bare,
			struct value *v, char *tsbuf)
{
	const char *end = p + n, *q;
	*v = (struct value){ 0, p, n, 1 };
	switch (f->conv) {
	case CV_NAME:
	case CV_TEXT:
	case CV_CTX:
	case CV_PARENT:
		v->is_num = 0;
		return 1;
	case CV_ROLE: {
		int role = tp_role_from_name(p, n);
		v->num = role;
		return role > 0;
	}
	case CV_VALUE:
		v->is_num = tp_read_number(p, end, &v->num, &q) && q == end && isfinite(v->num);
		return 1;
	case CV_TS:
		if (tp_ts_read(p, end, TP_TS_MS, tsbuf) != end)
			return 0;
		v->str = tsbuf;
		v->len = strlen(tsbuf);
		return 1;
	case CV_RANK:
		return read_rank(p, end, &v->num);
	default:
		return read_numeric(f->conv, f->unit, bare, p, end, &v->num);
	}
}

/* ---- loading ------------------------------------------------------------ */

static void rule_release(struct rule *ru)
{
	pcre2_code_free(ru->code);
	free(ru->caps);
	free(ru->ucaps);
	for (size_t i = 0; i < ru->nconsts; i++)
		free(ru->consts[i].owned);
	free(ru->consts);
	for (size_t i = 0; i < ru->ncolrefs; i++)
		free(ru->colrefs[i].col);
	free(ru->colrefs);
	free(ru->origin);
	free(ru->need);
}

/* Parses the body of "..." starting after the opening quote; \" and \\ are
 * escapes, any other backslash is kept. Returns the closing quote or NULL. */
static const char *unquote(const char *p, const char *end, struct strbuf *out)
{
	for (; p < end; p++) {
		if (*p == '"')
			return p;
		if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\'))
			p++;
		strbuf_addch(out, *p);
	}
	return NULL;
}

/* Length of an identifier [A-Za-z_][A-Za-z0-9_]* at p. */
static size_t ident_len(const char *p, const char *end)
{
	size_t k = 0;
	while (p + k < end) {
		char c = p[k];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			 (k > 0 && c >= '0' && c <= '9');
		if (!ok)
			break;
		k++;
	}
	return k;
}

/* Is field id given already: a constant (column 0) or a column (1)? A name
 * template and a column may both give the name: the template uses it. */
static int has_constant(const struct rule *ru, int id, int column, int tmpl)
{
	for (size_t i = 0; i < ru->nconsts; i++)
		if (ru->consts[i].f.id == id && !(column && ru->consts[i].tmpl))
			return 1;
	for (size_t i = 0; i < ru->ncolrefs; i++)
		if (ru->colrefs[i].f.id == id && !tmpl)
			return 1;
	return 0;
}

/* FIELD=@"Column": the field's value is the row's cell under that column. */
static int add_colref(const struct src *s, const char *at, struct rule *ru, const struct fspec *f,
		      struct strbuf *val, int each)
{
	/* one name, or several separated by '|' (the column under any of them);
	 * "" is the column with a blank heading */
	for (size_t b = 0, e; val->len && b <= val->len; b = e + 1) {
		const char *bar = memchr(val->buf + b, '|', val->len - b);
		e = bar ? (size_t)(bar - val->buf) : val->len;
		if (e == b || e - b > COLUMN_NAME_MAX) {
			strbuf_addf(load_error(s, at), "a column name of 1 to %d bytes, or several "
				    "separated by '|', please", COLUMN_NAME_MAX);
			return -1;
		}
	}
	if (f->conv == CV_CTX || f->conv == CV_TS || f->conv == CV_RANK) {
		strbuf_addf(load_error(s, at), "field '%s' cannot come from a column", f->name);
		return -1;
	}
	for (size_t i = 0; each && i < ru->ncolrefs; i++)
		if (ru->colrefs[i].each) {
			strbuf_addstr(load_error(s, at), "one field of a rule takes @*, please");
			return -1;
		}
	ALLOC_GROW(ru->colrefs, ru->ncolrefs + 1, ru->colrefs_alloc);
	ru->colrefs[ru->ncolrefs++] = (struct colref){ *f, xmemdup(val->buf ? val->buf : "", val->len), each };
	return 0;
}

/* A name constant with {N}, {ctx} or {name}: expanded at each match. */
static int is_template(const struct fspec *f, const struct strbuf *val)
{
	return (f->conv == CV_NAME || f->conv == CV_TEXT || f->conv == CV_PARENT) && val->len &&
	       memchr(val->buf, '{', val->len) && memchr(val->buf, '}', val->len);
}

/* Converts and stores the constant text val for field f; -1 on error. */
static int add_constant(const struct src *s, const char *at, struct rule *ru,
			const struct fspec *f, struct strbuf *val)
{
	char tsbuf[TP_TS_MAX];
	struct value v;
	if (!val->len || !tp_rules_read_value(f, val->buf, val->len, 0, &v, tsbuf) ||
	    (v.is_num && f->conv != CV_VALUE && !isfinite(v.num))) {
		struct strbuf *e = load_error(s, at);
		strbuf_addf(e, "cannot read ");
		tp_rules_add_excerpt(e, val->buf ? val->buf : "", val->len);
		strbuf_addf(e, " as %s for field '%s'", tp_rules_expectation(f->conv), f->name);
		return -1;
	}
	struct constant c = { *f, v, NULL, is_template(f, val) };
	/* v.str points into val or tsbuf, both gone after this: own a copy */
	c.owned = xmemdup(v.str, v.len);
	c.v.str = c.owned;
	ALLOC_GROW(ru->consts, ru->nconsts + 1, ru->consts_alloc);
	ru->consts[ru->nconsts++] = c;
	return 0;
}

/*
 * If *pp starts a FIELD="VALUE" constant, reads it and moves *pp past it
 * and the blanks after. Returns 1 if one was read, 0 if *pp starts the
 * pattern instead, -1 on error (reported).
 */
static int parse_constant(const struct src *s, const char **pp, const char *end,
			  struct rule *ru)
{
	const char *p = *pp;
	size_t k = ident_len(p, end);
	int column = end - p >= (ptrdiff_t)k + 3 && p[k] == '=' && p[k + 1] == '@' && p[k + 2] == '"';
	/* FIELD=@*: every column that no other field names */
	int each = end - p >= (ptrdiff_t)k + 3 && p[k] == '=' && p[k + 1] == '@' && p[k + 2] == '*' &&
		   (end - p == (ptrdiff_t)k + 3 || tp_is_blank(p[k + 3]));
	if (!k || end - p < (ptrdiff_t)k + 2 || p[k] != '=' || (p[k + 1] != '"' && !column && !each))
		return 0;
	struct fspec f;
	if (!rule_field(ru, p, k, &f)) {
		struct strbuf *e = load_error(s, p);
		strbuf_addf(e, "type '%s' has no field '%.*s' (fields: ", rule_makes(ru), (int)k, p);
		add_rule_fields(e, ru);
		strbuf_addstr(e, "; a pattern that starts like FIELD=\"...\" can be "
				 "written (?:)FIELD=\"...\")");
		return -1;
	}
	struct strbuf val = STRBUF_INIT;
	const char *open = p + k + 2 + column;
	const char *close = each ? p + k + 2 : unquote(open, end, &val);
	column |= each;
	int rc = -1;
	if (close && has_constant(ru, f.id, column, !column && is_template(&f, &val)))
		strbuf_addf(load_error(s, p), "field '%s' given twice", f.name);
	else if (!close)
		strbuf_addstr(load_error(s, p + k + 1), "unterminated \"");
	else if (close + 1 < end && !tp_is_blank(close[1]))
		strbuf_addstr(load_error(s, close + 1), "expected a blank after the closing \"");
	else if (column && !(ru->flags & RF_COLUMNS))
		strbuf_addf(load_error(s, p + k + 1), "%.*s=@\"...\" takes a column: the rule needs @columns",
			    (int)k, p);
	else if (column)
		rc = add_colref(s, open, ru, &f, &val, each);
	else
		rc = add_constant(s, open, ru, &f, &val);
	strbuf_release(&val);
	if (rc < 0)
		return -1;
	*pp = tp_skip_blanks(close + 1, end);
	return 1;
}

/* @need="LITERAL": the rule is tried only on lines that hold it. */
static int parse_need(const struct src *s, const char **pp, const char *end, struct rule *ru)
{
	const char *q = tp_eat(*pp, end, "@need=\"");
	if (!q)
		return 0;
	struct strbuf val = STRBUF_INIT;
	const char *close = unquote(q, end, &val);
	if (!close || !val.len || val.len > NEED_MAX || ru->need ||
	    (close + 1 < end && !tp_is_blank(close[1]))) {
		strbuf_addf(load_error(s, *pp), "@need wants one \"LITERAL\" of 1 to %d bytes, "
				"then a blank", NEED_MAX);
		strbuf_release(&val);
		return -1;
	}
	ru->need = val.buf;
	ru->need_len = val.len;
	*pp = tp_skip_blanks(close + 1, end);
	return 1;
}

/* Options after the type: @each @more @raw @bar @snake @columns @add. Returns 1
 * if one was read (and *pp moved past it), 0 if *pp is not an option. */
static int parse_option(const char **pp, const char *end, struct rule *ru)
{
	static const struct { const char *w; unsigned f; } opts[] = {
		{ "@each", RF_EACH }, { "@more", RF_MORE }, { "@raw", RF_RAW },
		{ "@bar", RF_BAR }, { "@snake", RF_SNAKE }, { "@columns", RF_COLUMNS },
		{ "@add", RF_ADD },
	};
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const char *q = tp_eat(*pp, end, opts[i].w);
		if (q && q < end && tp_is_blank(*q)) {
			ru->flags |= opts[i].f;
			*pp = tp_skip_blanks(q, end);
			return 1;
		}
	}
	return 0;
}

/* Where group name is declared in the pattern ((?<n>, (?'n', (?P<n>),
 * for pointing at an unknown field; NULL if not found. */
static const char *find_group_name(const char *pat, size_t n, const char *name)
{
	size_t k = strlen(name);
	for (size_t i = 0; i + 3 < n; i++) {
		if (pat[i] != '(' || pat[i + 1] != '?')
			continue;
		size_t j = i + 2 + (pat[i + 2] == 'P');
		if (j < n && (pat[j] == '<' || pat[j] == '\'') && n - j - 1 >= k &&
		    !memcmp(pat + j + 1, name, k))
			return pat + j + 1;
	}
	return NULL;
}

/* Seconds per unit of a __UNIT group-name suffix; 0 if not one. */
static double suffix_unit(const char *u)
{
	static const struct { const char *n; double s; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "sec", 1 },
		{ "min", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(u, units[i].n))
			return units[i].s;
	return 0;
}

/* Reports a group whose name is not a field of the rule. */
static int unknown_group(const struct src *s, const char *pat, size_t plen, const struct rule *ru,
			 const char *name, const char *why)
{
	const char *at = find_group_name(pat, plen, name);
	struct strbuf *err = load_error(s, at ? at : pat);
	if (why) {
		strbuf_addf(err, "group '%s': %s", name, why);
		return -1;
	}
	strbuf_addf(err, "type '%s' has no field '%s' (fields: ", rule_makes(ru), name);
	add_rule_fields(err, ru);
	strbuf_addch(err, ')');
	return -1;
}

/* Maps one named group "FIELD", "FIELD__UNIT" or "FIELD__u" of the rule. */
static int map_group(const struct src *s, const char *pat, size_t plen, struct rule *ru,
		     uint32_t group, const char *name)
{
	const char *sep = strstr(name, "__");
	size_t base = sep ? (size_t)(sep - name) : strlen(name);
	const char *suffix = sep ? sep + 2 : NULL;
	struct fspec f;
	if (ru->kind == RK_HEADER || ru->kind == RK_END) {
		if (!suffix || strcmp(suffix, "u"))
			return unknown_group(s, pat, plen, ru, name,
					     "a header or end rule captures units only, as FIELD__u");
		struct capture *c = &ru->caps[ru->ncaps++];
		c->group = group;
		c->unit_of = 1;
		c->unit_name = name; /* the name table lives as long as the code */
		return 0;
	}
	if (!rule_field(ru, name, base, &f))
		return unknown_group(s, pat, plen, ru, name, NULL);
	int dur = f.conv == CV_SEC || f.conv == CV_MS;
	if (suffix && !strcmp(suffix, "u")) {
		if (!dur)
			return unknown_group(s, pat, plen, ru, name,
					     "a unit group (__u) is for a duration field");
		ru->ucaps[ru->nucaps++] = (struct ucap){ group, f.id };
		return 0;
	}
	double bare = 0;
	if (suffix && (!dur || !(bare = suffix_unit(suffix))))
		return unknown_group(s, pat, plen, ru, name,
				     dur ? "unknown unit (ns, us, ms, s, min, h, d)"
					 : "a unit suffix is for a duration field");
	struct capture *c = &ru->caps[ru->ncaps++];
	c->group = group;
	c->f = f;
	c->bare = bare;
	return 0;
}

/* Maps every named group of ru->code to a field of the rule. */
static int map_captures(const struct src *s, const char *pat, size_t plen, struct rule *ru)
{
	uint32_t count = 0, esize = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMEENTRYSIZE, &esize);
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMETABLE, &table);
	ru->caps = xcalloc(count ? count : 1, sizeof(*ru->caps));
	ru->ucaps = xcalloc(count ? count : 1, sizeof(*ru->ucaps));
	for (uint32_t i = 0; i < count; i++) {
		PCRE2_SPTR e = table + (size_t)i * esize;
		if (map_group(s, pat, plen, ru, (uint32_t)e[0] << 8 | e[1], (const char *)e + 2) < 0)
			return -1;
	}
	return 0;
}

/* Compiles the pattern [p, end) of the rule; -1 on error (reported). */
static int compile_pattern(const struct src *s, const char *p, const char *end,
			   struct rule *ru, pcre2_compile_context *cctx)
{
	int ec;
	PCRE2_SIZE off;
	/* DUPNAMES: (?|(?<seconds>..)s|(?<seconds>..)ms)-style alternatives */
	ru->code = pcre2_compile((PCRE2_SPTR)p, (PCRE2_SIZE)(end - p), PCRE2_DUPNAMES, &ec,
				 &off, cctx);
	if (!ru->code) {
		PCRE2_UCHAR msg[256];
		if (pcre2_get_error_message(ec, msg, sizeof(msg)) < 0)
			strcpy((char *)msg, "unknown error");
		if (off > (PCRE2_SIZE)(end - p))
			off = (PCRE2_SIZE)(end - p);
		strbuf_addf(load_error(s, p + off), "bad pattern: %s", (const char *)msg);
		return -1;
	}
	/* JIT compiling all the packs' patterns took more than the rest of a
	 * short run: a rule is compiled on its first match (rules_match.c) */
	atomic_init(&ru->jitted, 0);
	return map_captures(s, p, (size_t)(end - p), ru);
}

/* A type with a name field needs one from a group or a constant. */
static int check_name(const struct src *s, const char *at, struct rule *ru)
{
	ru->name_id = -1;
	if (ru->kind != RK_RECORD)
		return 0;
	const struct tp_schema *sc = &tp_schemas[ru->type];
	for (int i = 0; i < sc->nfields; i++)
		if (sc->fields[i].kind == TP_F_NAME)
			ru->name_id = i;
	if (ru->name_id < 0 || (ru->flags & RF_ADD) || has_constant(ru, ru->name_id, 0, 0))
		return 0;
	for (size_t i = 0; i < ru->ncaps; i++)
		if (ru->caps[i].f.id == ru->name_id)
			return 0;
	const char *fname = sc->fields[ru->name_id].name;
	strbuf_addf(load_error(s, at),
		    "a '%s' rule needs a '%s': capture it with (?<%s>...) or give %s=\"...\"",
		    sc->type_name, fname, fname, fname);
	return -1;
}

/* Reads "TYPE" at p into ru; returns the end of the word or NULL. */
static const char *parse_type(const struct src *s, const char *p, const char *end,
			      struct rule *ru, int in_block)
{
	const char *q = p;
	while (q < end && !tp_is_blank(*q))
		q++;
	size_t n = (size_t)(q - p);
	for (int k = RK_CONTEXT; k <= RK_HEADER; k++) {
		if (strlen(kind_names[k]) != n || memcmp(kind_names[k], p, n))
			continue;
		if (k != RK_CONTEXT && k != RK_SKIP && !in_block) {
			strbuf_addf(load_error(s, p), "'%s' rules belong inside @block ... @endblock",
				    kind_names[k]);
			return NULL;
		}
		ru->kind = (enum rule_kind)k;
		return q;
	}
	int t = tp_type_from_name(p, n);
	if (t < 0) {
		struct strbuf *e = load_error(s, p);
		strbuf_addstr(e, "unknown record type ");
		tp_rules_add_excerpt(e, p, n);
		strbuf_addstr(e, " (types: ");
		add_type_names(e);
		strbuf_addstr(e, "; in rules v2 also context, and start, header, skip, end in a block)");
		return NULL;
	}
	ru->kind = RK_RECORD;
	ru->type = (enum tp_type)t;
	return q;
}

/* Parses one rule line [p, end) into ru; -1 on error (reported). */
static int parse_rule(const struct src *s, const char *p, const char *end, struct rule *ru,
		      pcre2_compile_context *cctx, int in_block)
{
	const char *type_at = p;
	p = parse_type(s, p, end, ru, in_block);
	if (!p)
		return -1;
	p = tp_skip_blanks(p, end);
	int rc;
	while (p < end) {
		if (parse_option(&p, end, ru))
			continue;
		rc = parse_need(s, &p, end, ru);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
	}
	while (p < end && (rc = parse_constant(s, &p, end, ru)) != 0)
		if (rc < 0)
			return -1;
	if (p == end) {
		strbuf_addf(load_error(s, end), "missing pattern after '%s'", rule_makes(ru));
		return -1;
	}
	if (ru->flags & RF_COLUMNS) {
		/* the columns are a block's, named by its header */
		const char *why = !in_block ? "@columns belongs to a start, header or row rule of a @block"
			: ru->kind == RK_RECORD && !ru->ncolrefs ? "a @columns row takes FIELD=@\"Column\" fields"
			: ru->kind != RK_RECORD && ru->kind != RK_HEADER && ru->kind != RK_START
				? "@columns is for start, header and row rules"
											  : NULL;
		if (why) {
			strbuf_addstr(load_error(s, type_at), why);
			return -1;
		}
	}
	if (compile_pattern(s, p, end, ru, cctx) < 0)
		return -1;
	return check_name(s, type_at, ru);
}

/* ---- directives: @format @describe @marker @block @endblock ------------- */

/* What one add() call is loading. */
struct loading {
	struct tp_rules *rs;
	int group;
	int block; /* open @block or -1 */
	pcre2_compile_context *cctx;
	size_t sample0; /* the group's first sample (rs->samples[sample0..]) */
};

/* Reads the quoted strings after a directive into a new string each. */
static int quoted_args(const struct src *s, const char *p, const char *end,
		       void (*take)(struct loading *, struct strbuf *), struct loading *ld)
{
	int got = 0;
	for (p = tp_skip_blanks(p, end); p < end; p = tp_skip_blanks(p, end)) {
		if (*p != '"') {
			strbuf_addstr(load_error(s, p), "expected a \"quoted\" string");
			return -1;
		}
		struct strbuf val = STRBUF_INIT;
		const char *close = unquote(p + 1, end, &val);
		if (!close || !val.len) {
			strbuf_addstr(load_error(s, p), close ? "empty string" : "unterminated \"");
			strbuf_release(&val);
			return -1;
		}
		take(ld, &val);
		strbuf_release(&val);
		p = close + 1;
		got++;
	}
	if (!got) {
		strbuf_addstr(load_error(s, end), "expected a \"quoted\" string");
		return -1;
	}
	return 0;
}

static void take_marker(struct loading *ld, struct strbuf *val)
{
	struct tp_rules *rs = ld->rs;
	/* a marker may hold a tab, written \t */
	size_t k = 0;
	for (size_t i = 0; i < val->len; i++) {
		if (val->buf[i] == '\\' && i + 1 < val->len && val->buf[i + 1] == 't') {
			val->buf[k++] = '\t';
			i++;
		} else {
			val->buf[k++] = val->buf[i];
		}
	}
	val->len = k;
	ALLOC_GROW(rs->markers, rs->nmarkers + 1, rs->malloc_n);
	rs->markers[rs->nmarkers++] = (struct tp_rmarker){ xmemdup(val->buf, val->len), val->len,
							  (unsigned)ld->group };
	rs->groups[ld->group].nmarkers++;
}

static void take_desc(struct loading *ld, struct strbuf *val)
{
	struct rgroup *g = &ld->rs->groups[ld->group];
	free(g->desc);
	g->desc = xmemdup(val->buf, val->len);
}

/* "@block NAME [lines=N]" */
static int open_block(const struct src *s, const char *p, const char *end, struct loading *ld)
{
	if (ld->block >= 0) {
		strbuf_addstr(load_error(s, p), "@block inside a @block (close it with @endblock)");
		return -1;
	}
	p = tp_skip_blanks(p, end);
	size_t k = ident_len(p, end);
	if (!k) {
		strbuf_addstr(load_error(s, p), "@block wants a NAME");
		return -1;
	}
	struct rblock b = { xmemdup(p, k), ld->group, 3, 0, 0, 0, 0 };
	const char *q = tp_skip_blanks(p + k, end);
	while (q < end) {
		const char *v = tp_eat(q, end, "lines="), *h = tp_eat(q, end, "hold"), *o = tp_eat(q, end, "one");
		unsigned long long n = 0;
		if (h && (h == end || tp_is_blank(*h)) && !b.hold) {
			b.hold = 1;
			q = tp_skip_blanks(h, end);
		} else if (o && (o == end || tp_is_blank(*o)) && !b.one) {
			b.hold = b.one = 1; /* one record, held until the block ends */
			q = tp_skip_blanks(o, end);
		} else if (v && tp_read_uint(v, end, &n, &v) && (v == end || tp_is_blank(*v)) && n >= 1 &&
			   n <= 1000) {
			b.lines = (unsigned)n;
			q = tp_skip_blanks(v, end);
		} else {
			strbuf_addstr(load_error(s, q), "expected lines=N (1 to 1000), hold or one "
							"after the block name");
			free(b.name);
			return -1;
		}
	}
	struct tp_rules *rs = ld->rs;
	ALLOC_GROW(rs->blocks, rs->nblocks + 1, rs->balloc);
	rs->blocks[rs->nblocks] = b;
	ld->block = (int)rs->nblocks++;
	return 0;
}

static int close_block(const struct src *s, const char *at, struct loading *ld)
{
	if (ld->block < 0) {
		strbuf_addstr(load_error(s, at), "@endblock without @block");
		return -1;
	}
	if (!ld->rs->blocks[ld->block].has_start) {
		strbuf_addf(load_error(s, at), "block '%s' has no start rule",
			    ld->rs->blocks[ld->block].name);
		return -1;
	}
	ld->block = -1;
	return 0;
}

/* ---- @sample and @expect: the file's own proof ----------------------------- */

static void sample_release(struct tp_rsample *sm)
{
	for (size_t i = 0; i < sm->nexpect; i++) {
		struct tp_rexpect *e = &sm->expect[i];
		for (size_t k = 0; k < e->nkv; k++) {
			free(e->keys[k]);
			free(e->vals[k]);
		}
		free(e->keys);
		free(e->vals);
	}
	free(sm->expect);
	free(sm->text);
}

/* "@sample LINE": the line as a log prints it, after one blank. Appends to
 * the group's last piece while that has no @expect yet. */
static void add_sample(const struct src *s, const char *q, const char *end, struct loading *ld)
{
	struct tp_rules *rs = ld->rs;
	struct tp_rsample *sm = rs->nsamples > ld->sample0 ? &rs->samples[rs->nsamples - 1] : NULL;
	if (q < end)
		q++; /* the one blank after the directive */
	if (!sm || sm->nexpect) {
		ALLOC_GROW(rs->samples, rs->nsamples + 1, rs->salloc);
		sm = &rs->samples[rs->nsamples++];
		*sm = (struct tp_rsample){ rs->groups[ld->group].source, (size_t)ld->group,
					   rs->groups[ld->group].pack, s->lineno, NULL, 0, NULL, 0 };
	}
	size_t n = (size_t)(end - q);
	sm->text = xrealloc(sm->text, sm->len + n + 2);
	memcpy(sm->text + sm->len, q, n);
	sm->len += n;
	sm->text[sm->len++] = '\n';
	sm->text[sm->len] = '\0';
}

/* One FIELD=VALUE of an @expect (VALUE bare, or "quoted"); the end of it, or NULL. */
static const char *expect_pair(const struct src *s, const char *p, const char *end, enum tp_type t,
			       struct tp_rexpect *e)
{
	size_t k = ident_len(p, end);
	struct fspec f;
	if (!k || p + k >= end || p[k] != '=') {
		strbuf_addstr(load_error(s, p), "@expect wants FIELD=VALUE pairs after the type");
		return NULL;
	}
	if (!fspec_lookup(t, p, k, &f)) {
		struct strbuf *e2 = load_error(s, p);
		strbuf_addf(e2, "%s has no field '%.*s' (fields: ", tp_schemas[t].type_name, (int)k, p);
		add_field_names(e2, t);
		strbuf_addstr(e2, ", role, parent)");
		return NULL;
	}
	struct strbuf v = STRBUF_INIT;
	const char *q = p + k + 1;
	if (q < end && *q == '"') {
		const char *close = unquote(q + 1, end, &v);
		if (!close) {
			strbuf_addstr(load_error(s, q), "unterminated \"");
			strbuf_release(&v);
			return NULL;
		}
		q = close + 1;
	} else {
		while (q < end && !tp_is_blank(*q))
			strbuf_addch(&v, *q++);
	}
	if (f.id == FID_ROLE && tp_role_from_name(v.buf, v.len) < 0) {
		strbuf_addf(load_error(s, p + k + 1), "'%s' is not a role", v.buf);
		strbuf_release(&v);
		return NULL;
	}
	e->keys = xrealloc(e->keys, (e->nkv + 1) * sizeof(*e->keys));
	e->vals = xrealloc(e->vals, (e->nkv + 1) * sizeof(*e->vals));
	e->keys[e->nkv] = xmemdup(p, k);
	e->vals[e->nkv++] = xmemdup(v.buf ? v.buf : "", v.len);
	strbuf_release(&v);
	return q;
}

/* "@expect TYPE FIELD=VALUE ..." or "@expect nothing", after an @sample. */
static int add_expect(const struct src *s, const char *p, const char *end, struct loading *ld)
{
	struct tp_rules *rs = ld->rs;
	if (rs->nsamples <= ld->sample0) {
		strbuf_addstr(load_error(s, tp_skip_blanks(s->line, end)), "@expect without an @sample before it");
		return -1;
	}
	struct tp_rsample *sm = &rs->samples[rs->nsamples - 1];
	p = tp_skip_blanks(p, end);
	size_t k = ident_len(p, end);
	int type = -1;
	for (int t = 0; t < TP_NTYPES && k; t++)
		if (strlen(tp_schemas[t].type_name) == k && !memcmp(tp_schemas[t].type_name, p, k))
			type = t;
	int nothing = k == 7 && !memcmp(p, "nothing", 7);
	if (type < 0 && !nothing) {
		struct strbuf *e = load_error(s, p);
		strbuf_addstr(e, "@expect wants a record type (");
		add_type_names(e);
		strbuf_addstr(e, ") or nothing");
		return -1;
	}
	if (nothing && (sm->nexpect || tp_skip_blanks(p + k, end) != end)) {
		strbuf_addstr(load_error(s, p), "@expect nothing stands alone: no fields, no other @expect");
		return -1;
	}
	if (sm->nexpect && sm->expect[sm->nexpect - 1].type < 0) {
		strbuf_addstr(load_error(s, p), "@expect after @expect nothing");
		return -1;
	}
	sm->expect = xrealloc(sm->expect, (sm->nexpect + 1) * sizeof(*sm->expect));
	struct tp_rexpect *e = &sm->expect[sm->nexpect++];
	*e = (struct tp_rexpect){ s->lineno, type, 0, NULL, NULL };
	for (p = tp_skip_blanks(p + k, end); !nothing && p < end; p = tp_skip_blanks(p, end))
		if (!(p = expect_pair(s, p, end, (enum tp_type)type, e)))
			return -1;
	return 0;
}

/* A line starting with '@'. */
static int directive(const struct src *s, const char *p, const char *end, struct loading *ld)
{
	const char *q;
	if ((q = tp_eat(p, end, "@marker")) && (q == end || tp_is_blank(*q)))
		return quoted_args(s, q, end, take_marker, ld);
	if ((q = tp_eat(p, end, "@sample")) && (q == end || tp_is_blank(*q))) {
		add_sample(s, q, end, ld);
		return 0;
	}
	if ((q = tp_eat(p, end, "@expect")) && (q == end || tp_is_blank(*q)))
		return add_expect(s, q, end, ld);
	if ((q = tp_eat(p, end, "@describe")) && (q == end || tp_is_blank(*q)))
		return quoted_args(s, q, end, take_desc, ld);
	if ((q = tp_eat(p, end, "@first")) && tp_skip_blanks(q, end) == end) {
		ld->rs->groups[ld->group].early = 1; /* tried before the built-in readers */
		return 0;
	}
	if ((q = tp_eat(p, end, "@endblock")) && tp_skip_blanks(q, end) == end)
		return close_block(s, p, ld);
	if ((q = tp_eat(p, end, "@block")) && (q == end || tp_is_blank(*q)))
		return open_block(s, q, end, ld);
	if ((q = tp_eat(p, end, "@format")) && (q == end || tp_is_blank(*q))) {
		q = tp_skip_blanks(q, end);
		const char *w = q;
		while (w < end && !tp_is_blank(*w))
			w++;
		if (w == q || tp_skip_blanks(w, end) != end) {
			strbuf_addstr(load_error(s, q), "@format wants one NAME");
			return -1;
		}
		struct rgroup *g = &ld->rs->groups[ld->group];
		free(g->name);
		g->name = xmemdup(q, (size_t)(w - q));
		return 0;
	}
	strbuf_addstr(load_error(s, p), "unknown directive (@format, @describe, @marker, "
					"@first, @block, @endblock, @sample, @expect)");
	return -1;
}

/* Handles one line of the rules file: comment, blank, directive or rule. */
static int load_line(struct loading *ld, const struct src *s, const char *end)
{
	struct tp_rules *rs = ld->rs;
	/* trailing blanks are never meant: write [ ] or \x20 for a final space */
	while (end > s->line && (tp_is_blank(end[-1]) || end[-1] == '\r'))
		end--;
	const char *p = tp_skip_blanks(s->line, end);
	if (p == end || *p == '#')
		return 0;
	if (*p == '@')
		return directive(s, p, end, ld);
	struct rule ru = { .lineno = s->lineno, .name_id = -1, .group = ld->group,
			   .block = ld->block };
	if (parse_rule(s, p, end, &ru, ld->cctx, ld->block >= 0) < 0) {
		rule_release(&ru);
		return -1;
	}
	const char *why = NULL;
	struct rblock *b = ld->block >= 0 ? &rs->blocks[ld->block] : NULL;
	if ((ru.flags & RF_ADD) && (ru.kind != RK_RECORD || !b || !b->hold))
		why = "@add is for the record rules of a hold block (@block NAME hold)";
	else if (ru.kind == RK_END && ru.ncaps && !b->hold)
		why = "an end rule gives units to the rows of a hold block only (@block NAME hold)";
	if (why) {
		strbuf_addstr(load_error(s, p), why);
		rule_release(&ru);
		return -1;
	}
	if (ru.kind == RK_START)
		b->has_start = 1;
	if (ru.kind == RK_END && ru.ncaps)
		b->end_units = 1;
	struct strbuf o = STRBUF_INIT;
	strbuf_addf(&o, "%s:%u", rs->groups[ld->group].source, s->lineno);
	ru.origin = o.buf;
	uint32_t groups = 0;
	pcre2_pattern_info(ru.code, PCRE2_INFO_CAPTURECOUNT, &groups);
	ru.npairs = groups + 1;
	if (groups + 1 > rs->max_pairs)
		rs->max_pairs = groups + 1;
	ALLOC_GROW(rs->rules, rs->n + 1, rs->alloc);
	rs->rules[rs->n++] = ru;
	rs->groups[ld->group].end = rs->n;
	return 0;
}

struct tp_rules *tp_rules_new(void)
{
	struct tp_rules *rs = xcalloc(1, sizeof(*rs));
	rs->max_pairs = 1;
	rs->jit_lock = xmalloc(sizeof(*rs->jit_lock));
	if (pthread_mutex_init(rs->jit_lock, NULL) != 0) {
		/* only resources can fail here: as an allocation does */
		fprintf(stderr, "tprof: cannot create a mutex\n");
		exit(TP_EXIT_NOMEM);
	}
	rs->gctx = pcre2_general_context_create(pcre_alloc, pcre_free, NULL);
	return rs;
}

/* "dir/name.rules" -> "name" */
static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 6 && !strcmp(b + n - 6, ".rules"))
		n -= 6;
	return xmemdup(b, n);
}

/* Drops what a failed add() appended, so the set is as before. */
static void roll_back(struct tp_rules *rs, size_t nrules, size_t nmarkers, size_t nblocks)
{
	while (rs->n > nrules)
		rule_release(&rs->rules[--rs->n]);
	while (rs->nmarkers > nmarkers)
		free((char *)rs->markers[--rs->nmarkers].lit);
	while (rs->nblocks > nblocks)
		free(rs->blocks[--rs->nblocks].name);
	struct rgroup *g = &rs->groups[--rs->ngroups];
	free(g->name);
	free(g->desc);
	free(g->source);
}

/* The marker scanner and the pass flags follow the rules. */
static void refresh(struct tp_rules *rs)
{
	tp_gate_free(rs->mset);
	rs->mset = NULL;
	if (!rs->deferred)
		rs->mset = tp_gate_new(rs->markers, rs->nmarkers);
	memset(rs->has_pass, 0, sizeof(rs->has_pass));
	memset(rs->has_bar, 0, sizeof(rs->has_bar));
	memset(rs->gated, 0, sizeof(rs->gated));
	memset(rs->ungated, 0, sizeof(rs->ungated));
	free(rs->scan_m);
	rs->scan_m = xcalloc(rs->nmarkers + 1, sizeof(*rs->scan_m));
	for (size_t i = 0; i < rs->nmarkers; i++)
		rs->scan_m[i] = (struct tp_marker){ rs->markers[i].lit, TP_AT_ANY, 0,
						    rs->groups[rs->markers[i].group].name };
	/* a finished progress bar, for the @bar rules */
	rs->scan_m[rs->nmarkers] = (struct tp_marker){ "100%|", TP_AT_ANY, 0, "@bar rules" };
	rs->scan_set = (struct tp_marker_set){ "rules", rs->scan_m, rs->nmarkers + 1 };
	rs->min_marker = 0;
	for (size_t i = 0; i < rs->nmarkers; i++)
		if (!rs->min_marker || rs->markers[i].len < rs->min_marker)
			rs->min_marker = rs->markers[i].len;
	free(rs->bar_rules);
	rs->bar_rules = xcalloc(rs->n ? rs->n : 1, sizeof(*rs->bar_rules));
	rs->nbar = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct rgroup *g = &rs->groups[rs->rules[i].group];
		int pass = group_pass(g);
		rs->has_pass[pass] = 1;
		if (rs->rules[i].flags & RF_BAR) {
			rs->has_bar[pass] = 1;
			rs->bar_rules[rs->nbar++] = i;
		}
		else if (g->nmarkers)
			rs->gated[pass] = 1;
		else
			rs->ungated[pass] = 1;
	}
}

int tp_rules_add(struct tp_rules *rs, const char *text, size_t n, const char *name, int pack,
		 struct strbuf *err)
{
	name = name ? name : "<rules>";
	if (!rs->name)
		rs->name = xstrdup(name);
	size_t n0 = rs->n, m0 = rs->nmarkers, b0 = rs->nblocks;
	ALLOC_GROW(rs->groups, rs->ngroups + 1, rs->galloc);
	rs->groups[rs->ngroups] = (struct rgroup){ base_name(name), NULL, xstrdup(name), pack, 0, 0,
						   rs->n, rs->n };
	struct loading ld = { rs, (int)rs->ngroups++, -1, pcre2_compile_context_create(rs->gctx), rs->nsamples };
	const char *p = text ? text : "", *end = p + (text ? n : 0);
	if (end - p >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3; /* a UTF-8 byte order mark some editors write */
	struct src s = { rs->groups[ld.group].source, 0, p, err };
	int rc = 0;
	while (rc == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		s.lineno++;
		s.line = p;
		rc = load_line(&ld, &s, nl ? nl : end);
		p = nl ? nl + 1 : end;
	}
	if (rc == 0 && ld.block >= 0) {
		s.line = end;
		strbuf_addf(load_error(&s, end), "block '%s' is not closed (@endblock)",
			    rs->blocks[ld.block].name);
		rc = -1;
	}
	if (rc == 0 && rs->nsamples > ld.sample0 && !rs->samples[rs->nsamples - 1].nexpect) {
		s.lineno = rs->samples[rs->nsamples - 1].lineno;
		strbuf_addf(err, "%s:%u: @sample without @expect (write \"@expect nothing\" for none)",
			    s.name, s.lineno);
		rc = -1;
	}
	pcre2_compile_context_free(ld.cctx);
	if (rc < 0) {
		while (rs->nsamples > ld.sample0)
			sample_release(&rs->samples[--rs->nsamples]);
		roll_back(rs, n0, m0, b0);
		return -1;
	}
	refresh(rs);
	return 0;
}

struct tp_rules *tp_rules_compile(const char *text, size_t n, const char *name,
				  struct strbuf *err)
{
	struct tp_rules *rs = tp_rules_new();
	if (tp_rules_add(rs, text, n, name, 0, err) < 0) {
		tp_rules_free(rs);
		return NULL;
	}
	return rs;
}

/* Reads all of fp into sb, at most max bytes; 0, an errno, or EFBIG. */
static int read_all(FILE *fp, struct strbuf *sb, size_t max)
{
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (sb->len + got > max)
			return EFBIG;
		strbuf_add(sb, buf, got);
	}
	return ferror(fp) ? (errno ? errno : EIO) : 0;
}

int tp_rules_add_file(struct tp_rules *rs, const char *path, struct strbuf *err)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	errno = 0;
	int e = read_all(fp, &sb, TP_RULES_MAX_FILE);
	fclose(fp);
	int rc = -1;
	if (e == EFBIG)
		strbuf_addf(err, "%s: rules file larger than %d bytes", path, TP_RULES_MAX_FILE);
	else if (e)
		strbuf_addf(err, "%s: %s", path, strerror(e));
	else
		rc = tp_rules_add(rs, sb.buf, sb.len, path, 0, err);
	strbuf_release(&sb);
	return rc;
}

struct tp_rules *tp_rules_load(const char *path, struct strbuf *err)
{
	struct tp_rules *rs = tp_rules_new();
	if (tp_rules_add_file(rs, path, err) < 0) {
		tp_rules_free(rs);
		return NULL;
	}
	return rs;
}

size_t tp_rules_count(const struct tp_rules *rules)
{
	return rules ? rules->n : 0;
}

void tp_rules_info(const struct tp_rules *rs, size_t i, struct tp_rule_info *out)
{
	const struct rule *ru = &rs->rules[i];
	out->origin = ru->origin;
	out->makes = rule_makes(ru);
	out->group = rs->groups[ru->group].name;
	out->pack = rs->groups[ru->group].pack;
}

size_t tp_rules_groups(const struct tp_rules *rs)
{
	return rs ? rs->ngroups : 0;
}

const char *tp_rules_group_name(const struct tp_rules *rs, size_t g)
{
	return rs->groups[g].name;
}

const char *tp_rules_group_desc(const struct tp_rules *rs, size_t g)
{
	return rs->groups[g].desc ? rs->groups[g].desc : "";
}

const struct tp_rmarker *tp_rules_markers(const struct tp_rules *rs, size_t *n)
{
	*n = rs ? rs->nmarkers : 0;
	return rs ? rs->markers : NULL;
}

void tp_rules_defer(struct tp_rules *rs, int defer)
{
	rs->deferred = defer;
	if (!defer)
		refresh(rs);
}

int tp_rules_has_pass(const struct tp_rules *rs, int pass)
{
	return rs && rs->has_pass[pass ? 1 : 0];
}

int tp_rules_scan_safe(const struct tp_rules *rs)
{
	return !rs || (!rs->ungated[0] && !rs->ungated[1]);
}

const struct tp_marker_set *tp_rules_scan_markers(const struct tp_rules *rs)
{
	return &rs->scan_set;
}

int tp_rules_has_bar(const struct tp_rules *rs, int pass)
{
	return rs && rs->has_bar[pass ? 1 : 0];
}

const struct tp_rsample *tp_rules_samples(const struct tp_rules *rules, size_t *n)
{
	*n = rules ? rules->nsamples : 0;
	return rules ? rules->samples : NULL;
}

void tp_rules_free(struct tp_rules *rules)
{
	if (!rules)
		return;
	pthread_mutex_destroy(rules->jit_lock);
	free(rules->jit_lock);
	for (size_t i = 0; i < rules->n; i++)
		rule_release(&rules->rules[i]);
	free(rules->rules);
	for (size_t i = 0; i < rules->nmarkers; i++)
		free((char *)rules->markers[i].lit);
	free(rules->markers);
	for (size_t i = 0; i < rules->nblocks; i++)
		free(rules->blocks[i].name);
	free(rules->blocks);
	for (size_t i = 0; i < rules->ngroups; i++) {
		free(rules->groups[i].name);
		free(rules->groups[i].desc);
		free(rules->groups[i].source);
	}
	free(rules->groups);
	for (size_t i = 0; i < rules->nsamples; i++)
		sample_release(&rules->samples[i]);
	free(rules->samples);
	tp_gate_free(rules->mset);
	free(rules->bar_rules);
	free(rules->scan_m);
	free(rules->name);
	pcre2_general_context_free(rules->gctx);
	free(rules);
}
