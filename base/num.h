/*
 * num.h - readers for numbers and durations as people print them.
 *
 * All readers take [p, end) (no NUL needed), skip no leading blanks unless
 * said, and on success store the value, set *next past what they consumed
 * and return 1; on failure they return 0 and leave *next untouched.
 * They never allocate and never read past end.
 */
#ifndef TPROF_NUM_H
#define TPROF_NUM_H

#include <stddef.h>

/*
 * A decimal number: optional sign, digits with optional thousands
 * separators ("10,000": a comma followed by exactly three digits), optional
 * fraction, optional exponent; or nan / inf / infinity (any case).
 * Returns 1 on success. *v may be non-finite: callers check.
 */
int tp_read_number(const char *p, const char *end, double *v, const char **next);

/* A number with an optional SI prefix right after it or after blanks
 * ("612k", "1.00M", "3.2 G": k K M G T), as tqdm's unit_scale and rates
 * print them; the prefix is applied. */
int tp_read_si(const char *p, const char *end, double *v, const char **next);

/* Unsigned decimal integer with optional thousands separators. */
int tp_read_uint(const char *p, const char *end, unsigned long long *v, const char **next);

/*
 * A duration: a number, optional blanks, a unit (ns, us, µs, ms, s, sec,
 * secs, second(s), m, min, mins, minute(s), h, hr, hrs, hour(s)), then an
 * optional alternative in parentheses, e.g. "2345.67s (39.09min)"; of two
 * spellings the more precise one (smaller unit x 10^-decimals) wins.
 * A bare number with no unit is accepted only if default_unit > 0
 * (seconds per unit, e.g. 1.0 or 0.001). Result in seconds.
 */
int tp_read_duration(const char *p, const char *end, double default_unit,
		     double *seconds, const char **next);

/* tp_read_duration with the result in target seconds-per-unit (1e-3: ms),
 * converted without a round trip through seconds when the units agree. */
int tp_read_duration_to(const char *p, const char *end, double default_unit, double target,
			double *value, const char **next);

/*
 * A clock or compound duration filling all of [p, end): "h:mm:ss[.f]",
 * "mm:ss[.f]", "N day[s], h:mm:ss[.f]", or two or more number-unit parts
 * run together or apart ("1h2m3s", "0m4.912s", "2m8.77s", "0m 53s"; units
 * d h m s ms us µs ns). Result in seconds.
 */
int tp_read_clock(const char *p, const char *end, double *sec);

/* A colon clock ("12:34", "1:02:03", "0:00:01.35") at p, up to the end of
 * its run of digits, ':' and '.'. */
int tp_read_clock_at(const char *p, const char *end, double *sec, const char **next);

/* A duration unit alone ("ms", "sec", "µs"...): seconds per unit. */
int tp_read_time_unit(const char *p, const char *end, double *seconds, const char **next);

/* A memory size: number then optional blanks then MB/MiB (as is), GB/GiB
 * (x1024), KB/KiB (/1024), B (/1048576). Result in MB. Unit required
 * unless allow_bare. */
int tp_read_mb(const char *p, const char *end, int allow_bare, double *mb,
	       const char **next);

/* Skip blanks (space, tab). */
static inline const char *tp_skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* If [p,end) starts with the literal lit, return p past it, else NULL. */
const char *tp_eat(const char *p, const char *end, const char *lit);

/* tp_eat for a string literal: the length is known at compile time, so the
 * compare is inlined (this runs several times for every line of a log). */
static inline const char *tp_eat_n(const char *p, const char *end, const char *lit, size_t n)
{
	if ((size_t)(end - p) < n || __builtin_memcmp(p, lit, n) != 0)
		return NULL;
	return p + n;
}
#define TP_EAT(p, end, lit) tp_eat_n((p), (end), "" lit, sizeof(lit) - 1)

#endif
