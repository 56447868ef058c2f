/*
 * pyfmt.h - Python's number formatting, for the golden-log generators:
 * repr() of a float (the shortest text that reads back as the same double,
 * fixed notation between 1e-4 and 1e16, as json.dump and print(dict) write
 * it) and the "{:,}" thousands separator. f"{x:.2f}" is printf's "%.2f":
 * both round the exact binary value correctly.
 */
#ifndef TPROF_GOLDEN_PYFMT_H
#define TPROF_GOLDEN_PYFMT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* repr(float(x)) into buf (at least 32 bytes). */
static inline const char *py_repr(double x, char *buf)
{
	char e[40];
	int p;
	for (p = 1; p <= 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p - 1, x);
		if (strtod(e, NULL) == x)
			break;
	}
	/* e: [-]d.ddde[+-]XX with p significant digits */
	char digits[24];
	size_t nd = 0;
	const char *s = e;
	int neg = *s == '-';
	s += neg;
	for (; *s && *s != 'e'; s++)
		if (*s != '.')
			digits[nd++] = *s;
	digits[nd] = '\0';
	int exp10 = atoi(s + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	char *o = buf;
	if (neg)
		*o++ = '-';
	if (x != 0 && (exp10 < -4 || exp10 >= 16)) {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, nd - 1);
			o += nd - 1;
		}
		sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
		return buf;
	}
	if (exp10 < 0) {
		*o++ = '0', *o++ = '.';
		for (int i = 0; i < -exp10 - 1; i++)
			*o++ = '0';
		memcpy(o, digits, nd);
		o += nd;
	} else {
		for (int i = 0; i <= exp10; i++)
			*o++ = (size_t)i < nd ? digits[i] : '0';
		*o++ = '.';
		if ((size_t)exp10 + 1 < nd) {
			memcpy(o, digits + exp10 + 1, nd - (size_t)exp10 - 1);
			o += nd - (size_t)exp10 - 1;
		} else {
			*o++ = '0';
		}
	}
	*o = '\0';
	return buf;
}

/* f"{n:,}" of an int. */
static inline const char *py_commas(long long n, char *buf)
{
	char t[32];
	int len = snprintf(t, sizeof(t), "%lld", n < 0 ? -n : n), k = 0;
	char *o = buf;
	if (n < 0)
		*o++ = '-';
	for (int i = 0; i < len; i++) {
		*o++ = t[i];
		k = len - i - 1;
		if (k && k % 3 == 0)
			*o++ = ',';
	}
	*o = '\0';
	return buf;
}

#endif
