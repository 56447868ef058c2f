/*
 * util.c - checked allocation, strbuf, checked output and small helpers
 * shared by every tool.
 */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die_nomem(size_t n)
{
	fprintf(stderr, "tprof: out of memory (allocating %zu bytes)\n", n);
	exit(TP_EXIT_NOMEM);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_nomem(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_nomem(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_nomem(n);
	return q;
}

char *xmemdup(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);
	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

char *xstrdup(const char *s)
{
	return xmemdup(s, strlen(s));
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < sb->len)
		die_nomem(SIZE_MAX);
	if (need > sb->alloc) {
		size_t n = sb->alloc ? sb->alloc : 64;
		while (n < need)
			n *= 2;
		sb->buf = xrealloc(sb->buf, n);
		sb->alloc = n;
	}
}

void strbuf_add(struct strbuf *sb, const void *p, size_t n)
{
	strbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	strbuf_grow(sb, 64);
	int n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

static const double pow10_tab[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };

/* Writes the unsigned integer u; returns the number of bytes. */
static size_t put_u64(char *dst, uint64_t u)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

/* The shortest exact decimal form (see strbuf_add_num); dst holds 32 bytes. */
size_t tp_fmt_num(char *dst, double v)
{
	if (!isfinite(v)) {
		memcpy(dst, "null", 4);
		return 4;
	}
	double a = fabs(v);
	if (a < 1e15 && (a >= 1e-6 || a == 0)) {
		for (int d = 0; d <= 9; d++) {
			double scaled = a * pow10_tab[d];
			if (scaled >= 9e15)
				break;
			double r = nearbyint(scaled);
			if (r / pow10_tab[d] != a)
				continue;
			uint64_t u = (uint64_t)r;
			uint64_t ip = u, fp = 0;
			if (d) {
				uint64_t p = (uint64_t)pow10_tab[d];
				ip = u / p;
				fp = u % p;
			}
			char *o = dst;
			if (v < 0)
				*o++ = '-';
			o += put_u64(o, ip);
			if (d) {
				*o++ = '.';
				for (int k = d - 1; k >= 0; k--) {
					o[k] = (char)('0' + fp % 10);
					fp /= 10;
				}
				o += d;
				while (o[-1] == '0')
					o--;
			}
			return (size_t)(o - dst);
		}
	}
	/* computed values (89.32 - 1.4e-14) and tiny or huge ones: the fewest
	 * significant digits that read back as v, as the man page promises */
	int n = 0;
	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(dst, 32, "%.*g", prec, v);
		if (strtod(dst, NULL) == v)
			break;
	}
	return n > 0 ? (size_t)n : 0;
}

/*
 * Values in logs come from short decimal text, so the shortest form that
 * reads back exactly is almost always found with at most 9 decimals. Trying
 * each precision is much faster than printf("%.17g") and prints 0.12, not
 * 0.11999999999999999.
 */
void strbuf_add_num(struct strbuf *sb, double v)
{
	strbuf_grow(sb, 32);
	sb->len += tp_fmt_num(sb->buf + sb->len, v);
	sb->buf[sb->len] = '\0';
}

/* Length of a valid UTF-8 sequence at p, or 0 if invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (n >= 2 && (p[1] & 0xc0) == 0x80) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0)
			return 0;
		if (c == 0xed && p[1] >= 0xa0)
			return 0; /* surrogates */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90)
			return 0;
		if (c == 0xf4 && p[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

/* The character at p, or U+FFFD for a byte that starts none; past it. */
static const unsigned char *add_utf8_char(struct strbuf *sb, const unsigned char *p, const unsigned char *end)
{
	size_t k = utf8_len(p, (size_t)(end - p));
	if (!k) {
		strbuf_add(sb, "\xef\xbf\xbd", 3);
		return p + 1;
	}
	strbuf_add(sb, p, k);
	return p + k;
}

void strbuf_add_utf8(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	strbuf_grow(sb, n);
	while (p < end)
		p = *p ? add_utf8_char(sb, p, end) : (strbuf_add(sb, "\xef\xbf\xbd", 3), p + 1);
}

void strbuf_add_json_str(struct strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	strbuf_grow(sb, n + 8);
	while (p < end) {
		const unsigned char *run = p;
		while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			strbuf_add(sb, run, (size_t)(p - run));
		if (p >= end)
			break;
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			strbuf_add(sb, e, 2);
			p++;
		} else if (c < 0x20) {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			if (c == '\n')
				strbuf_add(sb, "\\n", 2);
			else if (c == '\t')
				strbuf_add(sb, "\\t", 2);
			else if (c == '\r')
				strbuf_add(sb, "\\r", 2);
			else
				strbuf_add(sb, e, 6);
			p++;
		} else {
			p = add_utf8_char(sb, p, end);
		}
	}
}

void tp_error(const char *tool, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int tp_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)(n > 256 ? 256 : n) : 1;
}

int tp_no_color(void)
{
	/* no-color.org: set and not empty */
	const char *v = getenv("NO_COLOR");
	return v && *v;
}
