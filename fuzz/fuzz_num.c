/*
 * fuzz_num.c - libFuzzer target for the number, duration and memory-size
 * readers of base/num.c, which every line of every log goes through.
 *
 * The whole input is [p, end) (no NUL: libFuzzer's buffer is exactly the
 * input, so a read past end is an ASan error). Checked (num.h's contract):
 *  - success: return 1 and p < *next <= end;
 *  - failure: return 0 and *next untouched;
 *  - tp_read_number's value is what strtod makes of the same text with its
 *    thousands separators removed (the fast path must be exact);
 *  - tp_read_uint's value is the digits' value;
 *  - tp_read_duration equals tp_read_duration_to(target 1.0), and the value
 *    in ms (target 1e-3) is the same duration;
 *  - tp_read_mb with a unit required succeeds only where it succeeds with a
 *    bare number allowed, with the same result;
 *  - tp_read_time_unit gives a positive number of seconds.
 *
 * tests/test_regress.c includes this file with FUZZ_NO_MAIN defined and
 * calls fuzz_num_one().
 */
#include "fuzz_common.h"
#include "base/num.h"

static const char fz_num_sentinel[1];
#define FZ_UNSET (&fz_num_sentinel[0])

static void fz_num_next(const char *fn, int rc, const char *p, const char *end, const char *next)
{
	if (rc == 0 && next != FZ_UNSET)
		fz_fail("%s returned 0 but moved *next", fn);
	if (rc == 1 && (next == FZ_UNSET || next <= p || next > end))
		fz_fail("%s returned 1 with *next at %td of %td", fn,
			next == FZ_UNSET ? (ptrdiff_t)-1 : next - p, end - p);
	if (rc != 0 && rc != 1)
		fz_fail("%s returned %d", fn, rc);
}

/* Same value: equal, both NaN, or (inexact conversions) within rel. */
static int fz_num_same(double a, double b, double rel)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (a == b)
		return 1;
	if (isinf(a) || isinf(b))
		return 0;
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

static void fz_num_number(const char *p, const char *end)
{
	const char *next = FZ_UNSET;
	double v = 0;
	int rc = tp_read_number(p, end, &v, &next);
	fz_num_next("tp_read_number", rc, p, end, next);
	if (rc != 1)
		return;
	/* oracle: strtod over the consumed text without separators */
	size_t n = (size_t)(next - p), k = 0;
	char *c = malloc(n + 1);
	if (!c)
		abort();
	for (size_t i = 0; i < n; i++)
		if (p[i] != ',')
			c[k++] = p[i];
	c[k] = '\0';
	char *ce;
	double want = strtod(c, &ce);
	if (*ce == '\0' && !fz_num_same(v, want, 0))
		fz_fail("tp_read_number(\"%s\") = %.17g, strtod says %.17g", c, v, want);
	free(c);
}

static void fz_num_uint(const char *p, const char *end)
{
	const char *next = FZ_UNSET;
	unsigned long long v = 0, want = 0;
	int rc = tp_read_uint(p, end, &v, &next);
	fz_num_next("tp_read_uint", rc, p, end, next);
	if (rc != 1)
		return;
	for (const char *q = p; q < next; q++) {
		if (*q == ',')
			continue;
		if (*q < '0' || *q > '9')
			fz_fail("tp_read_uint consumed a '%c'", *q);
		want = want * 10 + (unsigned)(*q - '0');
	}
	if (v != want)
		fz_fail("tp_read_uint = %llu, the digits say %llu", v, want);
}

static void fz_num_duration(const char *p, const char *end, double default_unit)
{
	const char *n1 = FZ_UNSET, *n2 = FZ_UNSET, *n3 = FZ_UNSET;
	double s = 0, s_to = 0, ms = 0;
	int r1 = tp_read_duration(p, end, default_unit, &s, &n1);
	int r2 = tp_read_duration_to(p, end, default_unit, 1.0, &s_to, &n2);
	int r3 = tp_read_duration_to(p, end, default_unit, 1e-3, &ms, &n3);
	fz_num_next("tp_read_duration", r1, p, end, n1);
	fz_num_next("tp_read_duration_to(1)", r2, p, end, n2);
	fz_num_next("tp_read_duration_to(1e-3)", r3, p, end, n3);
	if (r1 != r2 || r1 != r3 || n1 != n2 || n1 != n3)
		fz_fail("tp_read_duration and tp_read_duration_to disagree (%d %d %d)", r1, r2, r3);
	if (r1 && !fz_num_same(s, s_to, 0))
		fz_fail("tp_read_duration %.17g vs tp_read_duration_to(1.0) %.17g", s, s_to);
	/* ms / 1000: the same duration, within rounding (overflow aside) */
	if (r1 && isfinite(ms) && isfinite(s) && fabs(s) > 1e-300 && !fz_num_same(ms / 1000, s, 1e-9))
		fz_fail("tp_read_duration_to: %.17g ms is not %.17g s", ms, s);
}

static void fz_num_mb(const char *p, const char *end)
{
	const char *n0 = FZ_UNSET, *n1 = FZ_UNSET;
	double m0 = 0, m1 = 0;
	int r0 = tp_read_mb(p, end, 0, &m0, &n0);
	int r1 = tp_read_mb(p, end, 1, &m1, &n1);
	fz_num_next("tp_read_mb(unit required)", r0, p, end, n0);
	fz_num_next("tp_read_mb(bare allowed)", r1, p, end, n1);
	if (r0 && (!r1 || n0 != n1 || !fz_num_same(m0, m1, 0)))
		fz_fail("tp_read_mb with a unit required and with a bare number allowed disagree");
}

static void fz_num_unit(const char *p, const char *end)
{
	const char *next = FZ_UNSET;
	double sec = 0;
	int rc = tp_read_time_unit(p, end, &sec, &next);
	fz_num_next("tp_read_time_unit", rc, p, end, next);
	if (rc && !(sec > 0 && isfinite(sec)))
		fz_fail("tp_read_time_unit gave %g s", sec);
}

static int fuzz_num_one(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	fz_num_number(p, end);
	fz_num_uint(p, end);
	fz_num_duration(p, end, 0);
	fz_num_duration(p, end, 1.0);
	fz_num_duration(p, end, 1e-3);
	fz_num_mb(p, end);
	fz_num_unit(p, end);
	/* after blanks, as the line readers call them */
	const char *b = tp_skip_blanks(p, end);
	if (b < p || b > end)
		fz_fail("tp_skip_blanks left [p, end)");
	if (b != p && b < end) {
		fz_num_number(b, end);
		fz_num_duration(b, end, 1.0);
	}
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_num_one(data, size);
}
#endif
