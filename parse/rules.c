/*
 * rules.c - user-defined formats: loads a rules file ("TYPE [FIELD="..."]...
 * PATTERN" per line) into compiled PCRE2 patterns, and turns a line that a
 * pattern matches into a record whose fields come from the pattern's named
 * groups. See rules.h for the API and tprof-parse(1), RULES FILES, for the file syntax.
 *
 * Load time does all the work that can fail on the rules' side (unknown
 * type, unknown field, bad regex, unreadable constant), so that matching
 * can only fail on the log's side (a captured value that is not a number),
 * which is a warning for that line.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rules.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/base.h"
#include "record.h"

/* How a field's text becomes a value. */
enum conv {
	CV_NAME,  /* rec->name */
	CV_TEXT,  /* rec->text */
	CV_VALUE, /* meta value: a number if the whole text is one, else text */
	CV_NUM,   /* plain number, optionally followed by the field's unit */
	CV_INT,   /* integral number */
	CV_SEC,   /* duration, bare number = seconds, stored in seconds */
	CV_MS,    /* duration, bare number = ms, stored in ms */
	CV_MB,    /* memory size, bare number = MB, stored in MB */
	CV_TS,    /* timestamp, normalised to ISO 8601 */
	CV_RANK   /* launcher rank, a non-negative int */
};

/* Ids of the two fields every type has besides its schema's. Schema fields
 * use their index, so an id is a bit in a "field already set" mask. */
enum { FID_TS = TP_NUM_SLOTS + 2, FID_RANK = TP_NUM_SLOTS + 3 };

/* "YYYY-MM-DDTHH:MM:SS.fff" and its NUL. */

/* Longest excerpt of a value quoted in a message. */
#define EXCERPT_MAX 40

/* One assignable field of a rule's record type. */
struct fspec {
	const char *name; /* public name (static storage) */
	const char *unit; /* for CV_NUM: unit text accepted after the number */
	enum conv conv;
	int slot; /* num[] slot for numeric kinds */
	int id;   /* FID_* or schema index */
};

/* A value read from text, ready to be stored in a record. */
struct value {
	double num;
	const char *str;
	size_t len;
	int is_num; /* CV_VALUE: which of num / str */
};

/* A named group and the field it fills. */
struct capture {
	uint32_t group;
	struct fspec f;
};

/* A FIELD="..." default from the rules file; str points into owned. */
struct constant {
	struct fspec f;
	struct value v;
	char *owned;
};

struct rule {
	enum tp_type type;
	unsigned lineno; /* in the rules file, for messages */
	int name_id;     /* schema index of the type's name field, -1 if none */
	pcre2_code *code;
	struct capture *caps;
	size_t ncaps;
	struct constant *consts;
	size_t nconsts, consts_alloc;
};

struct tp_rules {
	char *name; /* rules file name, for messages */
	struct rule *rules;
	size_t n, alloc;
	uint32_t max_pairs; /* ovector pairs the largest pattern needs */
	pcre2_general_context *gctx;
};

struct tp_rules_scratch {
	const struct tp_rules *rules; /* the rules it was sized for */
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit;
	struct strbuf msg; /* warning text, reused */
	char ts[TP_TS_MAX]; /* the record's normalised timestamp */
};

/* Where the line being loaded is, for "name:LINE:COL:" messages. */
struct src {
	const char *name;
	unsigned lineno;
	const char *line; /* start of the line */
	struct strbuf *err;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

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
static void add_excerpt(struct strbuf *sb, const char *p, size_t n)
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
	static const struct fspec ts = { "ts", "", CV_TS, 0, FID_TS };
	static const struct fspec rank = { "rank", "", CV_RANK, 0, FID_RANK };
	if (n == 2 && !memcmp(name, "ts", 2)) {
		*out = ts;
		return 1;
	}
	if (n == 4 && !memcmp(name, "rank", 4)) {
		*out = rank;
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
		out->conv = conv_for_num(f);
	return 1;
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

/* Milliseconds of a duration; a bare number or "N ms" is taken as is so
 * that "1.2" stays exactly 1.2 rather than 1.2 * 0.001 * 1000. */
static int read_ms(const char *p, const char *end, double *ms)
{
	const char *q, *r;
	double v, sec;
	if (tp_read_number(p, end, &v, &q)) {
		r = tp_skip_blanks(q, end);
		if (r == end || (end - r == 2 && strncasecmp(r, "ms", 2) == 0)) {
			*ms = v;
			return 1;
		}
	}
	if (!tp_read_duration(p, end, 0.001, &sec, &q) || q != end)
		return 0;
	*ms = sec * 1000.0;
	return 1;
}

/* Reads the plain numeric kinds; 0 if [p,end) is not entirely one. */
static int read_numeric(enum conv c, const char *unit, const char *p, const char *end,
			double *v)
{
	const char *q;
	switch (c) {
	case CV_NUM:
		/* nan/inf are reported like a value that cannot be read */
		return tp_read_number(p, end, v, &q) && only_unit_left(q, end, unit) && isfinite(*v);
	case CV_INT:
		return tp_read_number(p, end, v, &q) && q == end && isfinite(*v) &&
		       *v == trunc(*v) && fabs(*v) <= 9007199254740992.0;
	case CV_SEC:
		return tp_read_duration(p, end, 1.0, v, &q) && q == end && isfinite(*v);
	case CV_MS:
		return read_ms(p, end, v) && isfinite(*v);
	case CV_MB:
		return tp_read_mb(p, end, 1, v, &q) && q == end && isfinite(*v);
	default:
		return 0;
	}
}

/* What a field expected, for "cannot read X as ...". */
static const char *expectation(enum conv c)
{
	switch (c) {
	case CV_INT: return "an integer";
	case CV_SEC: case CV_MS: return "a duration";
	case CV_MB: return "a memory size";
	case CV_TS: return "a timestamp (YYYY-MM-DD HH:MM:SS[.fff])";
	case CV_RANK: return "a rank (integer >= 0)";
	default: return "a number";
	}
}

static int read_rank(const char *p, const char *end, double *v)
{
	unsigned long long u;
	const char *q;
	if (!tp_read_uint(p, end, &u, &q) || q != end || u > INT_MAX)
		return 0;
	*v = (double)u;
	return 1;
}

/*
 * Reads field f from [p, p+n) (already trimmed, non-empty). Strings are
 * borrowed from p; a timestamp is normalised into tsbuf. Returns 1, or 0 if
 * the text is not a value of the field's kind.
 */
static int read_value(const struct fspec *f, const char *p, size_t n, struct value *v,
		      char *tsbuf)
{
	const char *end = p + n, *q;
	*v = (struct value){ 0, p, n, 1 };
	switch (f->conv) {
	case CV_NAME:
	case CV_TEXT:
		v->is_num = 0;
		return 1;
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
		return read_numeric(f->conv, f->unit, p, end, &v->num);
	}
}

static void store_value(struct tp_record *r, const struct fspec *f, const struct value *v)
{
	switch (f->conv) {
	case CV_NAME:
		r->name = v->str;
		r->name_len = v->len;
		break;
	case CV_TEXT:
		r->text = v->str;
		r->text_len = v->len;
		break;
	case CV_VALUE: /* a capture overrides a constant of the other form */
		r->has &= ~(1u << f->slot);
		r->text = NULL;
		r->text_len = 0;
		if (v->is_num)
			tp_set(r, f->slot, v->num);
		else
			store_value(r, &(struct fspec){ .conv = CV_TEXT }, v);
		break;
	case CV_TS:
		r->ts = v->str;
		break;
	case CV_RANK:
		r->rank = (int)v->num;
		break;
	default:
		tp_set(r, f->slot, v->num);
	}
}

/* ---- loading ------------------------------------------------------------ */

static void rule_release(struct rule *ru)
{
	pcre2_code_free(ru->code);
	free(ru->caps);
	for (size_t i = 0; i < ru->nconsts; i++)
		free(ru->consts[i].owned);
	free(ru->consts);
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

static int has_constant(const struct rule *ru, int id)
{
	for (size_t i = 0; i < ru->nconsts; i++)
		if (ru->consts[i].f.id == id)
			return 1;
	return 0;
}

/* Converts and stores the constant text val for field f; -1 on error. */
static int add_constant(const struct src *s, const char *at, struct rule *ru,
			const struct fspec *f, struct strbuf *val)
{
	char tsbuf[TP_TS_MAX];
	struct value v;
	if (!val->len || !read_value(f, val->buf, val->len, &v, tsbuf)) {
		struct strbuf *e = load_error(s, at);
		strbuf_addf(e, "cannot read ");
		add_excerpt(e, val->buf ? val->buf : "", val->len);
		strbuf_addf(e, " as %s for field '%s'", expectation(f->conv), f->name);
		return -1;
	}
	struct constant c = { *f, v, NULL };
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
	if (!k || end - p < (ptrdiff_t)k + 2 || p[k] != '=' || p[k + 1] != '"')
		return 0;
	struct fspec f;
	if (!fspec_lookup(ru->type, p, k, &f)) {
		struct strbuf *e = load_error(s, p);
		strbuf_addf(e, "type '%s' has no field '%.*s' (fields: ",
			    tp_schemas[ru->type].type_name, (int)k, p);
		add_field_names(e, ru->type);
		strbuf_addstr(e, "; a pattern that starts like FIELD=\"...\" can be "
				 "written (?:)FIELD=\"...\")");
		return -1;
	}
	if (has_constant(ru, f.id)) {
		strbuf_addf(load_error(s, p), "field '%s' given twice", f.name);
		return -1;
	}
	struct strbuf val = STRBUF_INIT;
	const char *close = unquote(p + k + 2, end, &val);
	int rc = -1;
	if (!close)
		strbuf_addstr(load_error(s, p + k + 1), "unterminated \"");
	else if (close + 1 < end && !is_blank(close[1]))
		strbuf_addstr(load_error(s, close + 1), "expected a blank after the closing \"");
	else
		rc = add_constant(s, p + k + 2, ru, &f, &val);
	strbuf_release(&val);
	if (rc < 0)
		return -1;
	*pp = tp_skip_blanks(close + 1, end);
	return 1;
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

/* Maps every named group of ru->code to a field of ru->type. */
static int map_captures(const struct src *s, const char *pat, size_t plen, struct rule *ru)
{
	uint32_t count = 0, esize = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMEENTRYSIZE, &esize);
	pcre2_pattern_info(ru->code, PCRE2_INFO_NAMETABLE, &table);
	ru->caps = xcalloc(count ? count : 1, sizeof(*ru->caps));
	for (uint32_t i = 0; i < count; i++) {
		PCRE2_SPTR e = table + (size_t)i * esize;
		const char *name = (const char *)e + 2;
		struct capture *c = &ru->caps[ru->ncaps];
		c->group = (uint32_t)e[0] << 8 | e[1];
		if (!fspec_lookup(ru->type, name, strlen(name), &c->f)) {
			const char *at = find_group_name(pat, plen, name);
			struct strbuf *err = load_error(s, at ? at : pat);
			strbuf_addf(err, "type '%s' has no field '%s' (fields: ",
				    tp_schemas[ru->type].type_name, name);
			add_field_names(err, ru->type);
			strbuf_addch(err, ')');
			return -1;
		}
		ru->ncaps++;
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
	/* JIT is an optimisation: if it is unavailable pcre2_match interprets */
	(void)pcre2_jit_compile(ru->code, PCRE2_JIT_COMPLETE);
	return map_captures(s, p, (size_t)(end - p), ru);
}

/* A type with a name field needs one from a group or a constant. */
static int check_name(const struct src *s, const char *at, struct rule *ru)
{
	const struct tp_schema *sc = &tp_schemas[ru->type];
	ru->name_id = -1;
	for (int i = 0; i < sc->nfields; i++)
		if (sc->fields[i].kind == TP_F_NAME)
			ru->name_id = i;
	if (ru->name_id < 0 || has_constant(ru, ru->name_id))
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

/* Reads "TYPE" at p into ru->type; returns the end of the word or NULL. */
static const char *parse_type(const struct src *s, const char *p, const char *end,
			      struct rule *ru)
{
	const char *q = p;
	while (q < end && !is_blank(*q))
		q++;
	int t = tp_type_from_name(p, (size_t)(q - p));
	if (t < 0) {
		struct strbuf *e = load_error(s, p);
		strbuf_addstr(e, "unknown record type ");
		add_excerpt(e, p, (size_t)(q - p));
		strbuf_addstr(e, " (types: ");
		add_type_names(e);
		strbuf_addch(e, ')');
		return NULL;
	}
	ru->type = (enum tp_type)t;
	return q;
}

/* Parses one non-comment line [p, end) into ru; -1 on error (reported). */
static int parse_rule(const struct src *s, const char *p, const char *end, struct rule *ru,
		      pcre2_compile_context *cctx)
{
	const char *type_at = p;
	p = parse_type(s, p, end, ru);
	if (!p)
		return -1;
	p = tp_skip_blanks(p, end);
	int rc;
	while (p < end && (rc = parse_constant(s, &p, end, ru)) != 0)
		if (rc < 0)
			return -1;
	if (p == end) {
		strbuf_addf(load_error(s, end), "missing pattern after '%s'",
			    tp_schemas[ru->type].type_name);
		return -1;
	}
	if (compile_pattern(s, p, end, ru, cctx) < 0)
		return -1;
	return check_name(s, type_at, ru);
}

/* Handles one line of the rules file: comment, blank or rule. */
static int load_line(struct tp_rules *rs, const struct src *s, const char *end,
		     pcre2_compile_context *cctx)
{
	/* trailing blanks are never meant: write [ ] or \x20 for a final space */
	while (end > s->line && (is_blank(end[-1]) || end[-1] == '\r'))
		end--;
	const char *p = tp_skip_blanks(s->line, end);
	if (p == end || *p == '#')
		return 0;
	struct rule ru = { .lineno = s->lineno, .name_id = -1 };
	if (parse_rule(s, p, end, &ru, cctx) < 0) {
		rule_release(&ru);
		return -1;
	}
	uint32_t groups = 0;
	pcre2_pattern_info(ru.code, PCRE2_INFO_CAPTURECOUNT, &groups);
	if (groups + 1 > rs->max_pairs)
		rs->max_pairs = groups + 1;
	ALLOC_GROW(rs->rules, rs->n + 1, rs->alloc);
	rs->rules[rs->n++] = ru;
	return 0;
}

struct tp_rules *tp_rules_compile(const char *text, size_t n, const char *name,
				  struct strbuf *err)
{
	struct tp_rules *rs = xcalloc(1, sizeof(*rs));
	rs->name = xstrdup(name ? name : "<rules>");
	rs->max_pairs = 1;
	rs->gctx = pcre2_general_context_create(pcre_alloc, pcre_free, NULL);
	pcre2_compile_context *cctx = pcre2_compile_context_create(rs->gctx);
	const char *p = text ? text : "", *end = p + (text ? n : 0);
	if (end - p >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3; /* a UTF-8 byte order mark some editors write */
	struct src s = { rs->name, 0, p, err };
	int rc = 0;
	while (rc == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		s.lineno++;
		s.line = p;
		rc = load_line(rs, &s, nl ? nl : end, cctx);
		p = nl ? nl + 1 : end;
	}
	pcre2_compile_context_free(cctx);
	if (rc < 0) {
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

struct tp_rules *tp_rules_load(const char *path, struct strbuf *err)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	errno = 0;
	int e = read_all(fp, &sb, TP_RULES_MAX_FILE);
	fclose(fp);
	struct tp_rules *rs = NULL;
	if (e == EFBIG)
		strbuf_addf(err, "%s: rules file larger than %d bytes", path, TP_RULES_MAX_FILE);
	else if (e)
		strbuf_addf(err, "%s: %s", path, strerror(e));
	else
		rs = tp_rules_compile(sb.buf, sb.len, path, err);
	strbuf_release(&sb);
	return rs;
}

size_t tp_rules_count(const struct tp_rules *rules)
{
	return rules ? rules->n : 0;
}

void tp_rules_free(struct tp_rules *rules)
{
	if (!rules)
		return;
	for (size_t i = 0; i < rules->n; i++)
		rule_release(&rules->rules[i]);
	free(rules->rules);
	free(rules->name);
	pcre2_general_context_free(rules->gctx);
	free(rules);
}

/* ---- matching ----------------------------------------------------------- */

struct tp_rules_scratch *tp_rules_scratch_new(const struct tp_rules *rules)
{
	struct tp_rules_scratch *s = xcalloc(1, sizeof(*s));
	s->rules = rules;
	s->md = pcre2_match_data_create(rules->max_pairs, rules->gctx);
	s->mctx = pcre2_match_context_create(rules->gctx);
	pcre2_set_match_limit(s->mctx, TP_RULES_MATCH_LIMIT);
	pcre2_set_depth_limit(s->mctx, TP_RULES_MATCH_LIMIT);
	pcre2_set_heap_limit(s->mctx, TP_RULES_HEAP_LIMIT_KIB);
	/* JIT's default 32 KiB machine stack is too small for some legitimate
	 * patterns on long lines; without a JIT stack they still run */
	s->jit = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, rules->gctx);
	if (s->jit)
		pcre2_jit_stack_assign(s->mctx, NULL, s->jit);
	return s; /* s->msg is zeroed, i.e. empty: it grows on the first warning */
}

void tp_rules_scratch_free(struct tp_rules_scratch *s)
{
	if (!s)
		return;
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->jit);
	strbuf_release(&s->msg);
	free(s);
}

/* Everything one match attempt needs to build and report a record. */
struct attempt {
	const struct tp_rules *rs;
	const struct rule *ru;
	struct tp_rules_scratch *s;
	const char *line;
	size_t n;
	const char *file;
	uint64_t lineno;
	const struct tp_sink *sink;
};

/* Starts a warning "rule FILE:LINE (type): " in the scratch buffer. */
static struct strbuf *warn_start(const struct attempt *a)
{
	strbuf_reset(&a->s->msg);
	strbuf_addf(&a->s->msg, "rule %s:%u (%s): ", a->rs->name, a->ru->lineno,
		    tp_schemas[a->ru->type].type_name);
	return &a->s->msg;
}

static void warn_send(const struct attempt *a)
{
	if (a->sink->warn)
		a->sink->warn(a->sink->ctx, a->file, a->lineno, a->s->msg.buf);
}

static void warn_pcre2(const struct attempt *a, int rc)
{
	PCRE2_UCHAR msg[256];
	if (pcre2_get_error_message(rc, msg, sizeof(msg)) < 0)
		strcpy((char *)msg, "unknown error");
	strbuf_addf(warn_start(a), "pattern gave up on this line: %s", (const char *)msg);
	warn_send(a);
}

static void warn_value(const struct attempt *a, const struct fspec *f, const char *p,
		       size_t n)
{
	struct strbuf *m = warn_start(a);
	strbuf_addf(m, "field '%s': cannot read ", f->name);
	add_excerpt(m, p, n);
	strbuf_addf(m, " as %s", expectation(f->conv));
	warn_send(a);
}

/* The record with position and the rule's constants, before captures. */
static void record_init(struct tp_record *r, const struct attempt *a)
{
	memset(r, 0, sizeof(*r));
	r->type = a->ru->type;
	r->file = a->file ? a->file : "-";
	r->line = a->lineno;
	r->rank = -1;
	for (size_t i = 0; i < a->ru->nconsts; i++)
		store_value(r, &a->ru->consts[i].f, &a->ru->consts[i].v);
}

/* Captured text of group g, trimmed of blanks; 0 if it did not take part
 * or is empty (then the field keeps its constant or stays absent). */
static int group_text(const struct attempt *a, uint32_t g, const char **p, size_t *n)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(a->s->md);
	PCRE2_SIZE b = ov[2 * g], e = ov[2 * g + 1];
	if (b == PCRE2_UNSET || e == PCRE2_UNSET || e <= b || e > a->n)
		return 0;
	const char *q = a->line + b, *end = a->line + e;
	q = tp_skip_blanks(q, end);
	while (end > q && is_blank(end[-1]))
		end--;
	*p = q;
	*n = (size_t)(end - q);
	return *n > 0;
}

/* Fills r from the named groups; 0, or -1 after warning about a value. */
static int fill_captures(const struct attempt *a, struct tp_record *r)
{
	unsigned done = 0; /* fields set by a group: the first set group wins */
	for (size_t i = 0; i < a->ru->ncaps; i++) {
		const struct capture *c = &a->ru->caps[i];
		const char *p;
		size_t n;
		struct value v;
		if ((done >> c->f.id) & 1u || !group_text(a, c->group, &p, &n))
			continue;
		if (!read_value(&c->f, p, n, &v, a->s->ts)) {
			warn_value(a, &c->f, p, n);
			return -1;
		}
		store_value(r, &c->f, &v);
		done |= 1u << c->f.id;
	}
	return 0;
}

/* Tries one rule: 1 emitted, 0 no match, -1 bad value, -2 PCRE2 gave up. */
static int match_rule(const struct attempt *a)
{
	int rc = pcre2_match(a->ru->code, (PCRE2_SPTR)a->line, a->n, 0, 0, a->s->md,
			     a->s->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0) {
		warn_pcre2(a, rc);
		return -2;
	}
	struct tp_record r;
	record_init(&r, a);
	if (fill_captures(a, &r) < 0)
		return -1;
	if (a->ru->name_id >= 0 && !r.name_len) {
		strbuf_addf(warn_start(a), "matched but its '%s' is empty",
			    tp_schemas[a->ru->type].fields[a->ru->name_id].name);
		warn_send(a);
		return -1;
	}
	a->sink->emit(a->sink->ctx, &r);
	return 1;
}

int tp_rules_match(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		   const char *line, size_t n, const char *file, uint64_t lineno,
		   const struct tp_sink *sink)
{
	if (!rules || !rules->n)
		return 0;
	struct tp_rules_scratch *own = NULL;
	if (!scratch || scratch->rules != rules) /* a scratch is sized for its rules */
		scratch = own = tp_rules_scratch_new(rules);
	if (!line) {
		line = "";
		n = 0;
	}
	if (n && line[n - 1] == '\r')
		n--;
	struct attempt a = { rules, NULL, scratch, line, n, file, lineno, sink };
	int result = 0;
	for (size_t i = 0; i < rules->n; i++) {
		a.ru = &rules->rules[i];
		int rc = match_rule(&a);
		if (rc == -2) {
			result = -1; /* warned; a later rule may still match */
			continue;
		}
		if (rc != 0) {
			result = rc;
			break;
		}
	}
	tp_rules_scratch_free(own);
	return result;
}
