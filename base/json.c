/*
 * json.c - strict RFC 8259 parser into an arena-backed DOM (see json.h for
 * the decisions it implements).
 *
 * Recursive descent, bounded by JSON_MAX_DEPTH. Members of open containers
 * are pushed on one shared stack in the doc and copied into the arena, at
 * their exact size, when the container closes: that keeps every array
 * contiguous without knowing its length in advance. Line numbers are only
 * counted while skipping whitespace, because a raw newline can appear
 * nowhere else in valid JSON.
 */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- arena ---------------------------------------------------------- */

struct json_block {
	struct json_block *next;
	size_t size, used;
	max_align_t data[]; /* aligned storage for values and strings */
};

#define ARENA_MIN 4096

static size_t align_up(size_t n)
{
	size_t a = alignof(max_align_t);
	return (n + a - 1) & ~(a - 1);
}

static struct json_block *block_new(size_t size, struct json_block *next)
{
	struct json_block *b = xmalloc(sizeof(*b) + size);
	b->next = next;
	b->size = size;
	b->used = 0;
	return b;
}

/* New blocks double, so a document of any size takes O(log n) blocks. */
static void *arena_alloc(struct json_doc *doc, size_t n)
{
	struct json_block *b = doc->blocks;
	void *p;

	n = align_up(n);
	if (!b || b->size - b->used < n) {
		size_t size = b ? b->size * 2 : ARENA_MIN;
		if (size < n)
			size = n;
		b = doc->blocks = block_new(size, b);
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

static void blocks_free(struct json_block *b)
{
	while (b) {
		struct json_block *next = b->next;
		free(b);
		b = next;
	}
}

/* Empties the arena for a new parse. If the last document needed several
 * blocks, they are merged into one of the total size so that parsing
 * documents of similar size allocates nothing. */
static void arena_reset(struct json_doc *doc)
{
	struct json_block *b = doc->blocks;
	size_t total = 0;

	if (!b)
		return;
	if (!b->next) {
		b->used = 0;
		return;
	}
	for (; b; b = b->next)
		total += b->size;
	blocks_free(doc->blocks);
	doc->blocks = block_new(total, NULL);
}

/* ---- parser state and errors ---------------------------------------- */

struct jp {
	const char *p, *end, *start;
	const char *line_start; /* first byte of the current line */
	uint32_t line;
	struct json_doc *doc;
	struct json_error *err;
};

static int fail_at(struct jp *j, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records the error at byte `at` and returns -1 for the caller to pass up. */
static int fail_at(struct jp *j, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (!j->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(j->err->msg, sizeof(j->err->msg), fmt, ap);
	va_end(ap);
	j->err->line = j->line;
	j->err->col = (uint32_t)(at - j->line_start) + 1;
	j->err->offset = (size_t)(at - j->start);
	return -1;
}

/* Names the byte at p in a message: printable ASCII as itself, else hex. */
static int fail_unexpected(struct jp *j, const char *what)
{
	unsigned char c;

	if (j->p >= j->end)
		return fail_at(j, j->p, "unexpected end of input%s%s",
			       what ? ", " : "", what ? what : "");
	c = (unsigned char)*j->p;
	if (c >= 0x20 && c < 0x7f)
		return fail_at(j, j->p, "unexpected '%c'%s%s", c, what ? ", " : "",
			       what ? what : "");
	return fail_at(j, j->p, "unexpected byte 0x%02x%s%s", c, what ? ", " : "",
		       what ? what : "");
}

static void skip_ws(struct jp *j)
{
	const char *p = j->p, *end = j->end;

	while (p < end) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\r') {
			p++;
		} else if (c == '\n') {
			j->line++;
			j->line_start = ++p;
		} else {
			break;
		}
	}
	j->p = p;
}

/* ---- literals and numbers ------------------------------------------- */

static int eat_word(struct jp *j, const char *w, size_t n)
{
	if ((size_t)(j->end - j->p) >= n && memcmp(j->p, w, n) == 0) {
		j->p += n;
		return 1;
	}
	return 0;
}

static int parse_literal(struct jp *j, struct json_value *v)
{
	if (eat_word(j, "true", 4)) {
		v->kind = JSON_BOOL;
		v->boolean = 1;
	} else if (eat_word(j, "false", 5)) {
		v->kind = JSON_BOOL;
		v->boolean = 0;
	} else if (eat_word(j, "null", 4)) {
		v->kind = JSON_NULL;
	} else {
		const char *q = j->p;
		if (q < j->end && *q == '-')
			q++;
		if ((j->end - q >= 3 && memcmp(q, "NaN", 3) == 0) ||
		    (j->end - q >= 8 && memcmp(q, "Infinity", 8) == 0))
			return fail_at(j, j->p, "NaN and Infinity are not valid JSON");
		return fail_unexpected(j, "expected a value");
	}
	return 0;
}

static const double pow10_exact[] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* What a scan of the number text found, for the fast conversion path. */
struct numscan {
	uint64_t mant;  /* significant digits, leading zeros dropped */
	int ndig;       /* digits in mant */
	int lost;       /* more than 19 significant digits */
	long exp10;     /* value = mant * 10^exp10, clamped */
	int neg, is_int;
};

static const char *scan_digits(const char *p, const char *end, struct numscan *ns,
			       int frac)
{
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (ns->mant == 0 && d == 0) {
			/* leading zeros carry no precision */
		} else if (ns->ndig < 19) {
			ns->mant = ns->mant * 10 + d;
			ns->ndig++;
		} else {
			ns->lost = 1;
			if (!frac)
				ns->exp10++; /* dropped integer digit */
			continue;
		}
		if (frac)
			ns->exp10--;
	}
	return p;
}

/* Validates the RFC 8259 number grammar; sets *endp past the number. */
static int scan_number(struct jp *j, struct numscan *ns, const char **endp)
{
	const char *p = j->p, *end = j->end, *q;

	memset(ns, 0, sizeof(*ns));
	ns->is_int = 1;
	if (p < end && *p == '-') {
		ns->neg = 1;
		p++;
	}
	if (p >= end || *p < '0' || *p > '9')
		return fail_at(j, p, "invalid number");
	if (*p == '0' && p + 1 < end && p[1] >= '0' && p[1] <= '9')
		return fail_at(j, p, "invalid number: leading zero");
	p = scan_digits(p, end, ns, 0);
	if (p < end && *p == '.') {
		ns->is_int = 0;
		q = scan_digits(p + 1, end, ns, 1);
		if (q == p + 1)
			return fail_at(j, q, "invalid number: digit expected after '.'");
		p = q;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		long e = 0;
		int eneg = 0;
		ns->is_int = 0;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p >= end || *p < '0' || *p > '9')
			return fail_at(j, p, "invalid number: digit expected in exponent");
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (e < 100000) /* far beyond any double; avoids overflow */
				e = e * 10 + (*p - '0');
		ns->exp10 += eneg ? -e : e;
	}
	*endp = p;
	return 0;
}

/* strtod on a NUL-terminated copy; the slow path for long or extreme
 * numbers, which strtod rounds correctly. */
static int slow_number(struct jp *j, const char *endp, double *out)
{
	size_t n = (size_t)(endp - j->p);
	char local[64], *buf = local;
	double v;

	if (n >= sizeof(local))
		buf = xmalloc(n + 1);
	memcpy(buf, j->p, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, NULL);
	if (buf != local)
		free(buf);
	if (errno == ERANGE && isinf(v))
		return fail_at(j, j->p, "number out of range");
	*out = v; /* underflow: 0 or a subnormal, as strtod rounds it */
	return 0;
}

static int parse_number(struct jp *j, struct json_value *v)
{
	struct numscan ns;
	const char *endp = NULL;
	double d = 0.0;

	if (scan_number(j, &ns, &endp) < 0)
		return -1;
	if (ns.mant == 0 && !ns.lost) {
		d = 0.0;
	} else if (!ns.lost && ns.ndig <= 15 && ns.exp10 >= -22 && ns.exp10 <= 22) {
		/* Both operands exact, so one IEEE operation rounds correctly
		 * (Clinger's fast path). */
		d = (double)ns.mant;
		d = ns.exp10 < 0 ? d / pow10_exact[-ns.exp10] : d * pow10_exact[ns.exp10];
	} else if (slow_number(j, endp, &d) < 0) {
		return -1;
	}
	v->kind = JSON_NUM;
	v->num.v = ns.neg ? -fabs(d) : d;
	v->num.is_int = ns.is_int;
	j->p = endp;
	return 0;
}

/* ---- strings -------------------------------------------------------- */

static void scratch_reserve(struct json_doc *doc, size_t n)
{
	ALLOC_GROW(doc->scratch, n, doc->scratch_alloc);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_hex4(const char *p, const char *end)
{
	int v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int h = hexval((unsigned char)p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

#define REPLACEMENT 0xFFFD

/* Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), or 0 if it is invalid. */
static size_t utf8_valid_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n, i;
	unsigned lo = 0x80, hi = 0xBF;

	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	/* The second byte's range excludes overlongs and surrogates. */
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return n;
}

/* Decodes \uXXXX (p after the 'u'), joining a surrogate pair; an unpaired
 * surrogate becomes U+FFFD. Sets *next past what it used. */
static int decode_u_escape(struct jp *j, const char *p, unsigned *cp, const char **next)
{
	int hi = read_hex4(p, j->end), lo;

	if (hi < 0)
		return fail_at(j, p - 2, "invalid \\u escape");
	p += 4;
	*cp = (unsigned)hi;
	if (hi >= 0xDC00 && hi <= 0xDFFF) {
		*cp = REPLACEMENT;
	} else if (hi >= 0xD800 && hi <= 0xDBFF) {
		*cp = REPLACEMENT;
		if (j->end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
		    (lo = read_hex4(p + 2, j->end)) >= 0xDC00 && lo <= 0xDFFF) {
			*cp = 0x10000 + (((unsigned)hi - 0xD800) << 10) +
			      ((unsigned)lo - 0xDC00);
			p += 6;
		}
	}
	*next = p;
	return 0;
}

static int decode_escape(struct jp *j, const char *p, char *o, size_t *olen,
			 const char **next)
{
	unsigned cp = 0;
	char c;

	if (p + 1 >= j->end)
		return fail_at(j, j->end, "unterminated string");
	c = p[1];
	switch (c) {
	case '"': case '\\': case '/':
		*o = c; break;
	case 'b': *o = '\b'; break;
	case 'f': *o = '\f'; break;
	case 'n': *o = '\n'; break;
	case 'r': *o = '\r'; break;
	case 't': *o = '\t'; break;
	case 'u':
		if (decode_u_escape(j, p + 2, &cp, next) < 0)
			return -1;
		*olen = put_utf8(o, cp);
		return 0;
	default:
		return fail_at(j, p, "invalid escape '\\%c'", c >= 0x20 && c < 0x7f ? c : '?');
	}
	*olen = 1;
	*next = p + 2;
	return 0;
}

/*
 * Slow path for strings with escapes or non-ASCII bytes: decodes
 * [p, close) into doc->scratch. Every input byte yields at most 3 output
 * bytes (an invalid byte becomes U+FFFD), which bounds the buffer.
 */
static int decode_string(struct jp *j, const char *p, const char *close, size_t *outlen)
{
	char *o;

	scratch_reserve(j->doc, (size_t)(close - p) * 3 + 1);
	o = j->doc->scratch;
	while (p < close) {
		unsigned char c = (unsigned char)*p;
		size_t n = 0;
		if (c == '\\') {
			if (decode_escape(j, p, o, &n, &p) < 0)
				return -1;
			o += n;
		} else if (c < 0x80) {
			*o++ = (char)c;
			p++;
		} else if ((n = utf8_valid_len((const unsigned char *)p,
					       (const unsigned char *)close)) > 0) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else {
			o += put_utf8(o, REPLACEMENT);
			p++;
		}
	}
	*outlen = (size_t)(o - j->doc->scratch);
	return 0;
}

/* Finds the closing quote; notes whether escapes or non-ASCII bytes need
 * the slow path; rejects raw control characters. */
static int scan_string(struct jp *j, const char **close, int *slow)
{
	const char *p = j->p + 1, *end = j->end;

	*slow = 0;
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		if (c == '"') {
			*close = p;
			return 0;
		}
		if (c == '\\') {
			*slow = 1;
			p += 2; /* the escaped byte cannot close the string */
			continue;
		}
		if (c < 0x20)
			return fail_at(j, p, "control character 0x%02x in string", c);
		if (c >= 0x80)
			*slow = 1;
		p++;
	}
	return fail_at(j, end, "unterminated string");
}

/* Parses a string at j->p (on the opening quote) into the arena. */
static int parse_str(struct jp *j, const char **s, size_t *len)
{
	const char *close = NULL, *src;
	int slow;
	size_t n;
	char *dst;

	if (scan_string(j, &close, &slow) < 0)
		return -1;
	src = j->p + 1;
	n = (size_t)(close - src);
	if (slow) {
		if (decode_string(j, src, close, &n) < 0)
			return -1;
		src = j->doc->scratch;
	}
	dst = arena_alloc(j->doc, n + 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
	*s = dst;
	*len = n;
	j->p = close + 1;
	return 0;
}

/* ---- containers ----------------------------------------------------- */

static int parse_value(struct jp *j, struct json_value *v, int depth);

static struct json_member *stack_push(struct json_doc *doc)
{
	ALLOC_GROW(doc->stack, doc->stack_len + 1, doc->stack_alloc);
	return &doc->stack[doc->stack_len++];
}

/* Moves an array's items from the stack (above base) into the arena. */
static void close_array(struct jp *j, struct json_value *v, size_t base)
{
	struct json_doc *doc = j->doc;
	size_t n = doc->stack_len - base;

	v->kind = JSON_ARR;
	v->arr.n = n;
	v->arr.items = NULL;
	if (n) {
		v->arr.items = arena_alloc(doc, n * sizeof(*v->arr.items));
		for (size_t i = 0; i < n; i++)
			v->arr.items[i] = doc->stack[base + i].value;
	}
	doc->stack_len = base;
}

static void close_object(struct jp *j, struct json_value *v, size_t base)
{
	struct json_doc *doc = j->doc;
	size_t n = doc->stack_len - base;

	v->kind = JSON_OBJ;
	v->obj.n = n;
	v->obj.members = NULL;
	if (n) {
		v->obj.members = arena_alloc(doc, n * sizeof(*v->obj.members));
		memcpy(v->obj.members, doc->stack + base, n * sizeof(*v->obj.members));
	}
	doc->stack_len = base;
}

/* After an item: ',' (returns 1: another item follows) or the closing
 * bracket (returns 0). */
static int after_item(struct jp *j, char close, const char *expect)
{
	skip_ws(j);
	if (j->p < j->end && *j->p == ',') {
		j->p++;
		return 1;
	}
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	return fail_unexpected(j, expect);
}

static int parse_array(struct jp *j, struct json_value *v, int depth)
{
	size_t base = j->doc->stack_len;
	struct json_value item;
	int more;

	j->p++; /* '[' */
	skip_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		close_array(j, v, base);
		return 0;
	}
	do {
		if (parse_value(j, &item, depth) < 0)
			return -1;
		stack_push(j->doc)->value = item;
		more = after_item(j, ']', "expected ',' or ']'");
		if (more < 0)
			return -1;
	} while (more);
	close_array(j, v, base);
	return 0;
}

static int parse_member(struct jp *j, struct json_member *m, int depth)
{
	skip_ws(j);
	if (j->p >= j->end || *j->p != '"')
		return fail_unexpected(j, "expected a string key");
	if (parse_str(j, &m->key, &m->key_len) < 0)
		return -1;
	skip_ws(j);
	if (j->p >= j->end || *j->p != ':')
		return fail_unexpected(j, "expected ':'");
	j->p++;
	return parse_value(j, &m->value, depth);
}

static int parse_object(struct jp *j, struct json_value *v, int depth)
{
	size_t base = j->doc->stack_len;
	struct json_member m;
	int more;

	j->p++; /* '{' */
	skip_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		close_object(j, v, base);
		return 0;
	}
	do {
		if (parse_member(j, &m, depth) < 0)
			return -1;
		*stack_push(j->doc) = m;
		more = after_item(j, '}', "expected ',' or '}'");
		if (more < 0)
			return -1;
	} while (more);
	close_object(j, v, base);
	return 0;
}

/* depth: number of containers enclosing this value. */
static int parse_value(struct jp *j, struct json_value *v, int depth)
{
	skip_ws(j);
	v->line = j->line;
	v->col = (uint32_t)(j->p - j->line_start) + 1;
	if (j->p >= j->end)
		return fail_unexpected(j, "expected a value");
	switch (*j->p) {
	case '{':
	case '[':
		if (depth >= JSON_MAX_DEPTH)
			return fail_at(j, j->p, "nesting deeper than %d", JSON_MAX_DEPTH);
		return *j->p == '{' ? parse_object(j, v, depth + 1)
				    : parse_array(j, v, depth + 1);
	case '"':
		v->kind = JSON_STR;
		return parse_str(j, &v->str.s, &v->str.len);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		if (*j->p == '-' && j->p + 1 < j->end && j->p[1] == 'I')
			return parse_literal(j, v); /* names -Infinity in the error */
		return parse_number(j, v);
	default:
		return parse_literal(j, v);
	}
}

/* ---- public API ----------------------------------------------------- */

int json_parse(const char *s, size_t n, struct json_doc *doc, struct json_error *err)
{
	struct jp j;
	struct json_value *root;

	arena_reset(doc);
	doc->root = NULL;
	doc->stack_len = 0;
	j.start = j.p = j.line_start = s;
	j.end = s + n;
	j.line = 1;
	j.doc = doc;
	j.err = err;
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		j.p += 3; /* BOM: columns still count it, as editors do */
	root = arena_alloc(doc, sizeof(*root));
	if (parse_value(&j, root, 0) < 0)
		return -1;
	skip_ws(&j);
	if (j.p < j.end)
		return fail_at(&j, j.p, "trailing characters after JSON value");
	doc->root = root;
	return 0;
}

void json_free(struct json_doc *doc)
{
	blocks_free(doc->blocks);
	free(doc->stack);
	free(doc->scratch);
	*doc = (struct json_doc)JSON_DOC_INIT;
}

const struct json_value *json_getn(const struct json_value *obj, const char *key,
				   size_t key_len)
{
	if (!obj || obj->kind != JSON_OBJ)
		return NULL;
	/* From the end: the last duplicate wins. */
	for (size_t i = obj->obj.n; i-- > 0;) {
		const struct json_member *m = &obj->obj.members[i];
		if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0)
			return &m->value;
	}
	return NULL;
}

const struct json_value *json_get(const struct json_value *obj, const char *key)
{
	return json_getn(obj, key, strlen(key));
}

/* One path step: an object key, or an index if v is an array. */
static const struct json_value *path_step(const struct json_value *v, const char *seg,
					  size_t n)
{
	size_t idx = 0;

	if (!v || v->kind != JSON_ARR)
		return json_getn(v, seg, n);
	if (n == 0 || n > 18)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (seg[i] < '0' || seg[i] > '9')
			return NULL;
		idx = idx * 10 + (size_t)(seg[i] - '0');
	}
	return idx < v->arr.n ? &v->arr.items[idx] : NULL;
}

const struct json_value *json_get_path(const struct json_value *v, const char *path)
{
	const char *seg = path;

	while (v) {
		const char *dot = strchr(seg, '.');
		size_t n = dot ? (size_t)(dot - seg) : strlen(seg);
		v = path_step(v, seg, n);
		if (!dot)
			break;
		seg = dot + 1;
	}
	return v;
}

const char *json_kind_name(enum json_kind k)
{
	static const char *const names[] = { "null",   "boolean", "number",
					     "string", "array",   "object" };
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}
