/*
 * num.c - number, duration and memory-size readers (see num.h).
 *
 * Hot path: every candidate line goes through these, so the common case
 * (a short decimal like 12.34) is converted without strtod: a mantissa of
 * at most 19 digits and a small power of ten give an exactly rounded double
 * (Clinger's fast path) when the mantissa is below 2^53 and the power is at
 * most 22. Everything else falls back to strtod on a bounded copy.
 */
#include "num.h"
#include "text.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double exact_pow10[] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

const char *tp_eat(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(end - p) < n || memcmp(p, lit, n) != 0)
		return NULL;
	return p + n;
}

/* Case-insensitive word match (ASCII). */
static const char *eat_ci(const char *p, const char *end, const char *lit)
{
	const char *q = p;
	for (; *lit; lit++, q++)
		if (q >= end || tp_lower(*q) != *lit)
			return NULL;
	return q;
}

static int read_special(const char *p, const char *end, double *v, const char **next)
{
	int neg = 0;
	const char *q = p;
	if (q < end && (*q == '-' || *q == '+'))
		neg = *q++ == '-';
	const char *r;
	if ((r = eat_ci(q, end, "nan")) && (r >= end || !tp_is_alpha(*r))) {
		*v = NAN;
	} else if ((r = eat_ci(q, end, "infinity")) || (r = eat_ci(q, end, "inf"))) {
		if (r < end && tp_is_alpha(*r))
			return 0;
		*v = neg ? -INFINITY : INFINITY;
	} else {
		return 0;
	}
	*next = r;
	return 1;
}

/* Slow path: strtod over a cleaned copy (separators removed). */
static double slow_convert(const char *p, const char *e)
{
	char small[128];
	size_t len = (size_t)(e - p);
	/* a long number (hundreds of digits) is rare: copy it to the heap */
	char *buf = len < sizeof(small) ? small : xmalloc(len + 1);
	size_t n = 0;
	for (; p < e; p++)
		if (*p != ',')
			buf[n++] = *p;
	buf[n] = '\0';
	double v = strtod(buf, NULL);
	if (buf != small)
		free(buf);
	return v;
}

/* A ',' between thousands: after 1 to 3 digits, and exactly three digits follow. */
static int thousands_sep(const char *q, const char *end, int ngroup)
{
	return *q == ',' && ngroup >= 1 && ngroup <= 3 && end - q >= 4 && tp_is_digit(q[1]) &&
	       tp_is_digit(q[2]) && tp_is_digit(q[3]) && (end - q == 4 || !tp_is_digit(q[4]));
}

int tp_read_number(const char *p, const char *end, double *v, const char **next)
{
	const char *q = p;
	int neg = 0;
	if (q < end && (*q == '-' || *q == '+'))
		neg = *q++ == '-';
	if (q >= end || (!tp_is_digit(*q) && !(*q == '.' && q + 1 < end && tp_is_digit(q[1]))))
		return read_special(p, end, v, next);

	uint64_t mant = 0;
	int ndig = 0, exp10 = 0, exact = 1, ngroup = 0;
	const char *s = q;
	while (q < end) {
		if (tp_is_digit(*q)) {
			unsigned dg = (unsigned)(*q - '0');
			if (ndig < 19) {
				mant = mant * 10 + dg;
				ndig += mant != 0; /* leading zeros are not significant */
			} else {
				exp10++;
				exact = exact && dg == 0;
			}
			q++;
			ngroup++;
		} else if (thousands_sep(q, end, ngroup)) {
			q++;
			ngroup = 0;
		} else {
			break;
		}
	}
	if (q < end && *q == '.') {
		const char *d = q + 1;
		while (d < end && tp_is_digit(*d)) {
			unsigned dg = (unsigned)(*d - '0');
			if (ndig < 19) {
				mant = mant * 10 + dg;
				ndig += mant != 0;
				exp10--;
			} else {
				exact = exact && dg == 0;
			}
			d++;
		}
		q = d;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		int eneg = 0, ev = 0, any = 0;
		if (e < end && (*e == '-' || *e == '+'))
			eneg = *e++ == '-';
		while (e < end && tp_is_digit(*e)) {
			if (ev < 100000)
				ev = ev * 10 + (*e - '0');
			e++;
			any = 1;
		}
		if (any) {
			exp10 += eneg ? -ev : ev;
			q = e;
		}
	}
	double r;
	if (exact && mant < (1ULL << 53) && exp10 >= -22 && exp10 <= 22)
		r = exp10 < 0 ? (double)mant / exact_pow10[-exp10]
			      : (double)mant * exact_pow10[exp10];
	else
		r = slow_convert(s, q);
	*v = neg ? -r : r;
	*next = q;
	return 1;
}

int tp_read_si(const char *p, const char *end, double *v, const char **next)
{
	static const double mult[] = { 1e3, 1e3, 1e6, 1e9, 1e12 };
	const char *q, *pre;
	if (!tp_read_number(p, end, v, &q))
		return 0;
	const char *r = tp_skip_blanks(q, end);
	if (r < end && *r != '\0' && (pre = strchr("kKMGT", *r)) != NULL) {
		*v *= mult[pre - "kKMGT"];
		q = r + 1;
	}
	*next = q;
	return 1;
}

int tp_read_uint(const char *p, const char *end, unsigned long long *v, const char **next)
{
	const char *q = p;
	unsigned long long r = 0;
	int ngroup = 0, any = 0;
	while (q < end) {
		if (tp_is_digit(*q)) {
			unsigned d = (unsigned)(*q - '0');
			if (r > (~0ULL - d) / 10)
				return 0; /* overflow */
			r = r * 10 + d;
			q++;
			ngroup++;
			any = 1;
		} else if (thousands_sep(q, end, ngroup)) {
			q++;
			ngroup = 0;
		} else {
			break;
		}
	}
	if (!any || (q < end && *q == '.'))
		return 0;
	*v = r;
	*next = q;
	return 1;
}

struct unit {
	const char *name;
	double seconds;
	double divisor; /* sub-second units divide: 2550 ms -> 2.55 s exactly */
};

/* Longest names first so that "ms" is not read as "m". */
static const struct unit duration_units[] = {
	{ "nanoseconds", 1, 1e9 }, { "nanosecond", 1, 1e9 }, { "nsec", 1, 1e9 }, { "ns", 1, 1e9 },
	{ "microseconds", 1, 1e6 }, { "microsecond", 1, 1e6 }, { "usec", 1, 1e6 }, { "us", 1, 1e6 },
	{ "\xc2\xb5s", 1, 1e6 }, { "\xce\xbcs", 1, 1e6 },
	{ "milliseconds", 1, 1e3 }, { "millisecond", 1, 1e3 }, { "msec", 1, 1e3 }, { "ms", 1, 1e3 },
	{ "seconds", 1, 1 }, { "second", 1, 1 }, { "secs", 1, 1 }, { "sec", 1, 1 }, { "s", 1, 1 },
	{ "minutes", 60, 1 }, { "minute", 60, 1 }, { "mins", 60, 1 }, { "min", 60, 1 }, { "m", 60, 1 },
	{ "hours", 3600, 1 }, { "hour", 3600, 1 }, { "hrs", 3600, 1 }, { "hr", 3600, 1 }, { "h", 3600, 1 },
};

/* Reads a duration unit at p; the unit must not run on into more letters. */
static const struct unit *read_unit_full(const char *p, const char *end, const char **next)
{
	if (p >= end)
		return NULL;
	char c = tp_lower(*p);
	/* every unit starts with one of these bytes */
	if (c != 'n' && c != 'u' && c != 'm' && c != 's' && c != 'h' && *p != '\xc2' && *p != '\xce')
		return NULL;
	for (size_t i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
		if (duration_units[i].name[0] != c && (unsigned char)c < 0x80)
			continue;
		const char *q = eat_ci(p, end, duration_units[i].name);
		if (!q)
			continue;
		if (q < end && tp_is_alpha(*q))
			continue;
		*next = q;
		return &duration_units[i];
	}
	return NULL;
}

static const char *read_unit(const char *p, const char *end, double *scale)
{
	const char *q;
	const struct unit *u = read_unit_full(p, end, &q);
	if (!u)
		return NULL;
	*scale = u->seconds / u->divisor;
	return q;
}

int tp_read_time_unit(const char *p, const char *end, double *seconds, const char **next)
{
	const char *q = read_unit(p, end, seconds);
	if (!q)
		return 0;
	*next = q;
	return 1;
}

/* 10^k; by the table where that is what pow gives (and 40 times faster:
 * this runs once per duration read) */
static double pow10_of(int k)
{
	if (k >= 0 && k <= 22)
		return exact_pow10[k];
	if (k < 0 && k >= -22)
		return 1.0 / exact_pow10[-k];
	return pow(10.0, k);
}

/* Decimal places of the number text [p,q) (digits after '.'), minus exponent. */
static int decimals_of(const char *p, const char *q)
{
	const char *dot = memchr(p, '.', (size_t)(q - p));
	int d = 0;
	if (dot)
		for (const char *c = dot + 1; c < q && tp_is_digit(*c); c++)
			d++;
	const char *e = p;
	while (e < q && *e != 'e' && *e != 'E')
		e++;
	if (e < q) {
		/* the exponent is read within [e+1, q): the text is not NUL-terminated */
		int neg = 0, x = 0;
		const char *c = e + 1;
		if (c < q && (*c == '-' || *c == '+'))
			neg = *c++ == '-';
		for (; c < q && tp_is_digit(*c); c++)
			if (x < 100000)
				x = x * 10 + (*c - '0');
		d += neg ? x : -x;
	}
	return d;
}

/* One "number unit" spelling; resolution = scale * 10^-decimals. */
static int read_one_duration(const char *p, const char *end, double default_unit, double target,
			     double *sec, double *resolution, const char **next)
{
	double v, scale;
	const char *q, *after;
	if (!tp_read_number(p, end, &v, &q))
		return 0;
	const struct unit *u = read_unit_full(tp_skip_blanks(q, end), end, &after);
	if (u) {
		scale = u->seconds / u->divisor;
	} else {
		if (default_unit <= 0)
			return 0;
		scale = default_unit;
		after = q;
	}
	/* convert once, exactly when the units agree: "8.74 ms" is 8.74 ms */
	if (scale == target)
		*sec = v;
	else if (scale < target)
		*sec = v / (target / scale);
	else
		*sec = v * (scale / target);
	*resolution = scale * pow10_of(-decimals_of(p, q));
	*next = after;
	return 1;
}

int tp_read_duration(const char *p, const char *end, double default_unit,
		     double *seconds, const char **next)
{
	return tp_read_duration_to(p, end, default_unit, 1.0, seconds, next);
}

int tp_read_duration_to(const char *p, const char *end, double default_unit, double target,
			double *value, const char **next)
{
	double s1, r1;
	double *seconds = value;
	const char *q;
	if (!read_one_duration(p, end, default_unit, target, &s1, &r1, &q))
		return 0;
	/* "2345.67s (39.09min)": keep the more precise spelling */
	const char *a = tp_skip_blanks(q, end);
	if (a < end && *a == '(') {
		double s2, r2;
		const char *b;
		const char *inner = tp_skip_blanks(a + 1, end);
		if (read_one_duration(inner, end, -1, target, &s2, &r2, &b)) {
			b = tp_skip_blanks(b, end);
			if (b < end && *b == ')') {
				if (r2 < r1 && isfinite(s2))
					s1 = s2;
				q = b + 1;
			}
		}
	}
	*seconds = s1;
	*next = q;
	return 1;
}

int tp_read_mb(const char *p, const char *end, int allow_bare, double *mb, const char **next)
{
	double v;
	const char *q, *r;
	if (!tp_read_number(p, end, &v, &q))
		return 0;
	const char *u = tp_skip_blanks(q, end);
	double scale = 0;
	if ((r = eat_ci(u, end, "mib")) || (r = eat_ci(u, end, "mb")))
		scale = 1;
	else if ((r = eat_ci(u, end, "gib")) || (r = eat_ci(u, end, "gb")))
		scale = 1024;
	else if ((r = eat_ci(u, end, "kib")) || (r = eat_ci(u, end, "kb")))
		scale = 1.0 / 1024;
	else if ((r = eat_ci(u, end, "b")))
		scale = 1.0 / (1024.0 * 1024.0);
	if (scale > 0 && r < end && tp_is_alpha(*r))
		scale = 0;
	if (scale == 0) {
		if (!allow_bare)
			return 0;
		scale = 1;
		r = q;
	}
	*mb = v * scale;
	*next = r;
	return 1;
}

/* Digits at p as an integer (at most 9 of them); the count, 0 if none. */
static int read_digits(const char *p, const char *end, long *v)
{
	int k = 0;
	*v = 0;
	while (p + k < end && tp_is_digit(p[k]) && k < 9)
		*v = *v * 10 + (p[k++] - '0');
	return k;
}

/* "h:mm:ss[.f]" or "mm:ss[.f]" (the first part any width) at p, to the end. */
static int read_colon_clock(const char *p, const char *end, double *sec)
{
	long part[3];
	int np = 0;
	const char *q = p;
	for (;;) {
		int k = read_digits(q, end, &part[np]);
		if (!k || (np > 0 && k != 2) || (np > 0 && part[np] > 59))
			return 0;
		q += k;
		np++;
		if (q < end && *q == ':' && np < 3) {
			q++;
			continue;
		}
		break;
	}
	if (np < 2)
		return 0;
	double frac = 0;
	if (q < end && *q == '.') {
		const char *f;
		if (!tp_read_number(q, end, &frac, &f) || f != end)
			return 0;
		q = end;
	}
	if (q != end)
		return 0;
	double s = 0;
	for (int i = 0; i < np; i++)
		s = s * 60 + (double)part[i];
	*sec = s + frac;
	return 1;
}

/* One unit of a compound duration ("1h2m3.5s"): seconds per unit, or 0. */
static double compound_unit(const char *p, const char *end, const char **next)
{
	static const struct { const char *u; double s; } units[] = {
		{ "ms", 1e-3 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 }, { "ns", 1e-9 },
		{ "d", 86400 }, { "h", 3600 }, { "m", 60 }, { "s", 1 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const char *r = tp_eat(p, end, units[i].u);
		if (r && (r == end || !tp_is_alpha(*r))) {
			*next = r;
			return units[i].s;
		}
	}
	return 0;
}

/* "1h2m3s", "0m4.912s", "2m8.77s" (Go, bash time), "0m 53s": two parts or more. */
static int read_compound(const char *p, const char *end, double *sec)
{
	double total = 0;
	int parts = 0;
	const char *q = p;
	while (q < end) {
		double v, u;
		const char *r;
		if (parts)
			q = tp_skip_blanks(q, end); /* "0m 53s" */
		if (q >= end || !tp_is_digit(*q) || !tp_read_number(q, end, &v, &r) ||
		    !(u = compound_unit(r, end, &q)))
			return 0;
		total += v * u;
		parts++;
	}
	if (parts < 2)
		return 0;
	*sec = total;
	return 1;
}

int tp_read_clock(const char *p, const char *end, double *sec)
{
	long days = 0;
	const char *q = p;
	/* "1 day, 4:12:02" and "3 days, 0:00:01" (Python's timedelta) */
	int k = read_digits(q, end, &days);
	if (k) {
		const char *r = tp_skip_blanks(q + k, end);
		const char *w = tp_eat(r, end, "days,");
		if (!w)
			w = tp_eat(r, end, "day,");
		if (w) {
			if (!read_colon_clock(tp_skip_blanks(w, end), end, sec))
				return 0;
			*sec += (double)days * 86400.0;
			return 1;
		}
	}
	return read_colon_clock(p, end, sec) || read_compound(p, end, sec);
}

int tp_read_clock_at(const char *p, const char *end, double *sec, const char **next)
{
	/* read_colon_clock's rules in one pass: a progress bar shows two per redraw */
	double s = 0;
	const char *q = p;
	int np = 0;
	for (;;) {
		long v = 0;
		int k = 0;
		while (q + k < end && tp_is_digit(q[k]) && k < 9)
			v = v * 10 + (q[k++] - '0');
		if (!k || (np > 0 && (k != 2 || v > 59)))
			return 0;
		s = s * 60 + (double)v;
		q += k;
		np++;
		if (np < 3 && end - q >= 2 && *q == ':' && tp_is_digit(q[1])) {
			q++;
			continue;
		}
		break;
	}
	if (np < 2 || (q < end && (tp_is_digit(*q) || *q == ':')))
		return 0;
	if (q < end && *q == '.' && q + 1 < end && tp_is_digit(q[1])) {
		double frac;
		const char *f;
		if (!tp_read_number(q, end, &frac, &f))
			return 0;
		s += frac;
		q = f;
	}
	*sec = s;
	*next = q;
	return 1;
}
