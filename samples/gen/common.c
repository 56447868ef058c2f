/*
 * common.c - output, PRNG and formatting helpers for the sample generator
 * (see common.h). No libm: cos and ln are computed here with plain IEEE
 * arithmetic so that every machine writes the same bytes.
 */
#include "common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- output ----------------------------------------------------------- */

static FILE *cur_fp;
static char cur_path[4096];

static void die(const char *what)
{
	fprintf(stderr, "make-samples: %s: %s: %s\n", cur_path, what, strerror(errno));
	exit(1);
}

void out_open(const char *dir, const char *name)
{
	snprintf(cur_path, sizeof(cur_path), "%s/%s", dir, name);
	cur_fp = fopen(cur_path, "wb");
	if (!cur_fp)
		die("cannot open");
}

void out_close(void)
{
	int bad = ferror(cur_fp);
	if (fclose(cur_fp) != 0 || bad)
		die("write failed");
	cur_fp = NULL;
}

void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vfprintf(cur_fp, fmt, ap) < 0)
		die("write failed");
	va_end(ap);
}

void put(const char *s)
{
	if (fputs(s, cur_fp) == EOF)
		die("write failed");
}

/* --- PRNG ------------------------------------------------------------ */

static uint64_t rng_state;

void rng_seed(uint64_t s)
{
	rng_state = s;
}

uint64_t rng_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double rng_unif(void)
{
	return (double)(rng_u64() >> 11) * (1.0 / 9007199254740992.0);
}

double rng_gauss(void)
{
	double s = 0;
	for (int i = 0; i < 12; i++)
		s += rng_unif();
	return s - 6.0;
}

long rng_range(long lo, long hi)
{
	return lo + (long)(rng_u64() % (uint64_t)(hi - lo + 1));
}

/* --- arithmetic ------------------------------------------------------ */

#define PI_ 3.14159265358979323846
#define LN2_ 0.69314718055994530942

double my_cos(double x)
{
	while (x > PI_)
		x -= 2 * PI_;
	while (x < -PI_)
		x += 2 * PI_;
	double x2 = x * x, term = 1, sum = 1;
	for (int i = 1; i <= 14; i++) {
		term *= -x2 / ((2 * i - 1) * (2 * i));
		sum += term;
	}
	return sum;
}

double my_ln(double x)
{
	int k = 0;
	while (x > 1.5) {
		x /= 2;
		k++;
	}
	while (x < 0.75) {
		x *= 2;
		k--;
	}
	double y = (x - 1) / (x + 1), y2 = y * y, p = y, sum = 0;
	for (int i = 0; i < 40; i++) {
		sum += p / (2 * i + 1);
		p *= y2;
	}
	return 2 * sum + k * LN2_;
}

long lround_(double x)
{
	return x < 0 ? -(long)(-x + 0.5) : (long)(x + 0.5);
}

long div_round(long num, long den)
{
	return (2 * num + den) / (2 * den);
}

/* --- formatting ------------------------------------------------------ */

void pyrepr(char *b, size_t n, double v)
{
	char e[64];
	int p;
	for (p = 1; p < 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", p - 1, v);
	int exp10 = atoi(strchr(e, 'e') + 1);
	if (exp10 < -4 || exp10 >= 16) {
		snprintf(b, n, "%s", e);
		return;
	}
	int dec = p - 1 - exp10;
	snprintf(b, n, "%.*f", dec > 0 ? dec : 0, v);
	if (!strchr(b, '.'))
		strncat(b, ".0", n - strlen(b) - 1);
}

void fmt_dur_cs(char *b, size_t n, long cs)
{
	if (cs >= 360000) {
		long h = (cs + 1800) / 3600; /* hours x 100 */
		snprintf(b, n, "%ld.%02lds (%ld.%02ldh)", cs / 100, cs % 100, h / 100, h % 100);
	} else if (cs >= 6000) {
		long m = (cs + 30) / 60; /* minutes x 100 */
		snprintf(b, n, "%ld.%02lds (%ld.%02ldmin)", cs / 100, cs % 100, m / 100, m % 100);
	} else {
		snprintf(b, n, "%ld.%02lds", cs / 100, cs % 100);
	}
}

void fmt_time(char *b, size_t n, long long epoch, const char *fmt)
{
	time_t t = (time_t)epoch;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(b, n, fmt, &tm);
}

long long utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = { 0 };
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return (long long)timegm(&tm);
}

static void fmt_interval(char *b, size_t n, double t)
{
	long s = (long)t, m = s / 60, h = m / 60;
	if (h)
		snprintf(b, n, "%ld:%02ld:%02ld", h, m % 60, s % 60);
	else
		snprintf(b, n, "%02ld:%02ld", m, s % 60);
}

void tqdm_fmt(char *b, size_t n, const char *desc, long k, long total,
	      double elapsed, double s_per_it)
{
	static const char *syms[] = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	char bar[64] = "", el[32], rem[32], rate[32];
	long v = k * 80 / total, full = v / 8;

	for (long i = 0; i < full; i++)
		strcat(bar, "█");
	if (full < 10) {
		strcat(bar, syms[v % 8]);
		for (long i = full + 1; i < 10; i++)
			strcat(bar, " ");
	}
	fmt_interval(el, sizeof(el), elapsed);
	if (k == 0) {
		snprintf(rem, sizeof(rem), "?");
		snprintf(rate, sizeof(rate), "?it/s");
	} else {
		fmt_interval(rem, sizeof(rem), (double)(total - k) * s_per_it);
		if (s_per_it > 1.0)
			snprintf(rate, sizeof(rate), "%5.2fs/it", s_per_it);
		else
			snprintf(rate, sizeof(rate), "%5.2fit/s", 1.0 / s_per_it);
	}
	snprintf(b, n, "%s%s%3ld%%|%s| %ld/%ld [%s<%s, %s]", desc, *desc ? ": " : "",
		 div_round(k * 100, total), bar, k, total, el, rem, rate);
}

static size_t disp_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void spaces(size_t k)
{
	while (k--)
		put(" ");
}

void term_bar(struct term *t, const char *bar)
{
	size_t w = disp_width(bar);
	put("\r");
	put(bar);
	if (t->pending && w < t->last)
		spaces(t->last - w);
	if (bar != t->bar)
		snprintf(t->bar, sizeof(t->bar), "%s", bar);
	t->last = w;
	t->pending = 1;
}

void term_print(struct term *t, const char *s)
{
	put(s);
	put("\n");
	t->pending = 0;
}

void term_write(struct term *t, const char *s)
{
	if (!t->pending) {
		term_print(t, s);
		return;
	}
	put("\r");
	spaces(t->last);
	put("\r");
	put(s);
	put("\n");
	t->pending = 0;
	term_bar(t, t->bar);
}

void term_close(struct term *t)
{
	if (t->pending)
		put("\n");
	t->pending = 0;
}
