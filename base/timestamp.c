/*
 * timestamp.c - the one date-time normalizer (see timestamp.h).
 */
#include "timestamp.h"

#include <string.h>

#include "text.h"

static int field(const char *p, int lo, int hi)
{
	int v = (p[0] - '0') * 10 + (p[1] - '0');
	return v >= lo && v <= hi;
}

/* The fraction after a time at q, appended to buf[n...]; returns its end. */
static const char *fraction(const char *q, const char *e, enum tp_ts_frac frac, char *buf, size_t *np)
{
	size_t n = *np, digits = 0;
	if (q + 1 < e && (*q == '.' || *q == ',') && tp_is_digit(q[1])) {
		buf[n++] = '.';
		for (q++; q < e && tp_is_digit(*q); q++, digits++)
			if (digits < (frac == TP_TS_MS ? 3u : 9u))
				buf[n++] = *q;
	}
	if (frac == TP_TS_MS && digits) /* pad "12:00:00.5" to ".500" */
		for (; digits < 3; digits++)
			buf[n++] = '0';
	buf[n] = '\0';
	*np = n;
	return q;
}

/* "MM/DD HH:MM:SS" (detectron2's and mmengine's "%m/%d %H:%M:%S"), as
 * ISO 8601's date without a year: "--MM-DDTHH:MM:SS". */
static const char *read_month_day(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	static const char shape[] = "dd/dd dd:dd:dd";
	if (e - p < 14 || p[2] != '/' || p[8] != ':')
		return NULL;
	for (int i = 0; i < 14; i++)
		if (shape[i] == 'd' ? !tp_is_digit(p[i]) : p[i] != shape[i])
			return NULL;
	if (!field(p, 1, 12) || !field(p + 3, 1, 31) || !field(p + 6, 0, 23) || !field(p + 9, 0, 59) ||
	    !field(p + 12, 0, 60))
		return NULL;
	char buf[TP_TS_MAX] = "--";
	memcpy(buf + 2, p, 14);
	buf[4] = '-';
	buf[7] = 'T';
	size_t n = 16;
	const char *q = fraction(p + 14, e, frac, buf, &n);
	memcpy(out, buf, n + 1);
	return q;
}

/* "MM/DD/YY HH:MM:SS", the C locale's "%x %X" that rich's log handler
 * prints by default ("[04/12/24 16:45:17]"): a year of this century. */
static const char *read_short_date(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	static const char shape[] = "dd/dd/dd dd:dd:dd";
	if (e - p < 17)
		return NULL;
	for (int i = 0; i < 17; i++)
		if (shape[i] == 'd' ? !tp_is_digit(p[i]) : p[i] != shape[i])
			return NULL;
	if (!field(p, 1, 12) || !field(p + 3, 1, 31) || !field(p + 9, 0, 23) || !field(p + 12, 0, 59) ||
	    !field(p + 15, 0, 60))
		return NULL;
	char buf[TP_TS_MAX] = "20YY-MM-DDT";
	memcpy(buf + 2, p + 6, 2);
	memcpy(buf + 5, p, 2);
	memcpy(buf + 8, p + 3, 2);
	memcpy(buf + 11, p + 9, 8);
	size_t n = 19;
	const char *q = fraction(p + 17, e, frac, buf, &n);
	memcpy(out, buf, n + 1);
	return q;
}

const char *tp_ts_read(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	static const char shape[] = "dddd-dd-dd?dd:dd:dd";
	if (e - p >= 14 && p[2] == '/')
		return p[5] == '/' ? read_short_date(p, e, frac, out) : read_month_day(p, e, frac, out);
	/* nearly every line of a log fails here, before the loop; the date's
	 * separator is '-', or '/' as mmengine prints it ("2025/10/09") */
	if (e - p < 19 || (p[4] != '-' && p[4] != '/') || p[7] != p[4] || p[13] != ':')
		return NULL;
	for (int i = 0; i < 19; i++) {
		char c = p[i];
		if (shape[i] == 'd' ? !tp_is_digit(c)
		    : shape[i] == '?' ? (c != ' ' && c != 'T') : shape[i] == '-' ? c != p[4] : c != shape[i])
			return NULL;
	}
	if (!field(p + 5, 1, 12) || !field(p + 8, 1, 31) || !field(p + 11, 0, 23) ||
	    !field(p + 14, 0, 59) || !field(p + 17, 0, 60))
		return NULL;
	char buf[TP_TS_MAX];
	memcpy(buf, p, 19);
	buf[4] = buf[7] = '-';
	buf[10] = 'T';
	size_t n = 19;
	const char *q = fraction(p + 19, e, frac, buf, &n);
	memcpy(out, buf, n + 1);
	return q;
}
