/*
 * timestamp.c - the one date-time normalizer (see timestamp.h).
 */
#include "timestamp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

static int field(const char *p, int lo, int hi)
{
	/* two digits: a shape with a blank or a dot there is no time ("00:5.:51") */
	if (!tp_is_digit(p[0]) || !tp_is_digit(p[1]))
		return 0;
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

/* "MM/DD HH:MM:SS" (detectron2's and mmengine's "%m/%d %H:%M:%S") or
 * "MM-DD HH:MM:SS" ("%m-%d %H:%M:%S"), as ISO 8601's date without a year:
 * "--MM-DDTHH:MM:SS". */
static const char *read_month_day(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	static const char shape[] = "dd/dd dd:dd:dd";
	if (e - p < 14 || (p[2] != '/' && p[2] != '-') || p[8] != ':')
		return NULL;
	for (int i = 0; i < 14; i++)
		if (shape[i] == 'd' ? !tp_is_digit(p[i]) : i == 2 ? 0 : p[i] != shape[i])
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

/*
 * A date with a two-digit year, of this century, then the time: "MM/DD/YY
 * HH:MM:SS", the C locale's "%x %X" that rich's log handler prints by
 * default ("[04/12/24 16:45:17]"), with sep '/'; "YY-MM-DD HH:MM:SS",
 * Python's "%y-%m-%d %H:%M:%S" (Conv-TasNet's logger: "20-02-03 21:36:55
 * [train_Tasnet.py:66 - INFO ]"), with sep '-', the year first.
 */
static const char *read_two_digit_year(const char *p, const char *e, enum tp_ts_frac frac, char sep,
				       char out[TP_TS_MAX])
{
	if (e - p < 17)
		return NULL;
	for (int i = 0; i < 17; i++)
		if (i == 2 || i == 5 ? p[i] != sep : i == 8 ? p[i] != ' ' : i == 11 || i == 14 ? p[i] != ':' : !tp_is_digit(p[i]))
			return NULL;
	int year_first = sep == '-';
	const char *y = year_first ? p : p + 6, *m = year_first ? p + 3 : p, *d = year_first ? p + 6 : p + 3;
	if (!field(m, 1, 12) || !field(d, 1, 31) || !field(p + 9, 0, 23) || !field(p + 12, 0, 59) ||
	    !field(p + 15, 0, 60))
		return NULL;
	char buf[TP_TS_MAX] = "20YY-MM-DDT";
	memcpy(buf + 2, y, 2);
	memcpy(buf + 5, m, 2);
	memcpy(buf + 8, d, 2);
	memcpy(buf + 11, p + 9, 8);
	size_t n = 19;
	const char *q = fraction(p + 17, e, frac, buf, &n);
	memcpy(out, buf, n + 1);
	return q;
}

/* "20200204-20:09:01" and "20221127 22:45:09": time.strftime('%Y%m%d-%H:%M:%S')
 * or '%Y%m%d %H:%M:%S', a date with no separators before the time of day. */
static const char *read_compact(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	static const char shape[] = "dddddddd?dd:dd:dd";
	for (int i = 0; i < 17; i++)
		if (shape[i] == 'd' ? !tp_is_digit(p[i]) : shape[i] == '?' ? (p[i] != '-' && p[i] != ' ') : p[i] != shape[i])
			return NULL;
	if (!field(p + 4, 1, 12) || !field(p + 6, 1, 31) || !field(p + 9, 0, 23) || !field(p + 12, 0, 59) ||
	    !field(p + 15, 0, 60))
		return NULL;
	char buf[TP_TS_MAX];
	memcpy(buf, p, 4);
	buf[4] = '-';
	memcpy(buf + 5, p + 4, 2);
	buf[7] = '-';
	memcpy(buf + 8, p + 6, 2);
	buf[10] = 'T';
	memcpy(buf + 11, p + 9, 8);
	size_t n = 19;
	const char *q = fraction(p + 17, e, frac, buf, &n);
	memcpy(out, buf, n + 1);
	return q;
}

/* "Mon Dec  1 22:54:11 2025", C's asctime() and Python's time.asctime()
 * (VAC's print_log: "[ Mon Dec  1 22:54:11 2025 ] "), and date(1)'s, the
 * zone's letters before the year ("Sat Jun 27 00:50:26 UTC 2026", a job
 * script's echo "Start: $(date)"): the time as printed. */
static const char *read_asctime(const char *p, const char *e, char out[TP_TS_MAX])
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	static const char days[] = "MonTueWedThuFriSatSun";
	if (e - p < 24 || p[3] != ' ' || p[7] != ' ' || p[10] != ' ' || p[13] != ':' || p[16] != ':' ||
	    p[19] != ' ')
		return NULL;
	int day_ok = 0, mon = 0;
	for (int i = 0; i < 7 && !day_ok; i++)
		day_ok = !memcmp(p, days + 3 * i, 3);
	for (int i = 0; i < 12 && !mon; i++)
		if (!memcmp(p + 4, months + 3 * i, 3))
			mon = i + 1;
	char d[2] = { p[8] == ' ' ? '0' : p[8], p[9] };
	if (!day_ok || !mon || !tp_is_digit(d[0]) || !tp_is_digit(d[1]) || !field(d, 1, 31) || !field(p + 11, 0, 23) ||
	    !field(p + 14, 0, 59) || !field(p + 17, 0, 60))
		return NULL;
	const char *y = p + 20;
	int zone = 0;
	while (zone < 6 && y + zone < e && *(y + zone) >= 'A' && *(y + zone) <= 'Z')
		zone++;
	if (zone >= 6 || (zone && (e - y < zone + 5 || y[zone] != ' ')))
		return NULL;
	y += zone ? zone + 1 : 0;
	for (int i = 0; i < 4; i++)
		if (!tp_is_digit(y[i]))
			return NULL;
	if (e - y > 4 && tp_is_digit(y[4]))
		return NULL;
	snprintf(out, TP_TS_MAX, "%.4s-%02d-%.2sT%.8s", y, mon, d, p + 11);
	return y + 4;
}

const char *tp_ts_read(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX])
{
	if (e - p >= 24 && p[3] == ' ' && p[0] >= 'A' && p[0] <= 'Z')
		return read_asctime(p, e, out);
	/* the date's and time's separator: ' ', 'T', or ':' as Sockeye's
	 * datefmt "%Y-%m-%d:%H:%M:%S" prints it */
	static const char shape[] = "dddd-dd-dd?dd:dd:dd";
	if (e - p >= 14 && p[2] == '/')
		return p[5] == '/' ? read_two_digit_year(p, e, frac, '/', out) : read_month_day(p, e, frac, out);
	if (e - p >= 14 && p[2] == '-' && p[5] == ' ')
		return read_month_day(p, e, frac, out);
	if (e - p >= 17 && p[2] == '-' && p[5] == '-' && p[8] == ' ')
		return read_two_digit_year(p, e, frac, '-', out);
	if (e - p >= 17 && (p[8] == '-' || p[8] == ' ') && p[11] == ':')
		return read_compact(p, e, frac, out);
	/* nearly every line of a log fails here, before the loop; the date's
	 * separator is '-', or '/' as mmengine prints it ("2025/10/09") */
	if (e - p < 19 || (p[4] != '-' && p[4] != '/') || p[7] != p[4] || p[13] != ':')
		return NULL;
	for (int i = 0; i < 19; i++) {
		char c = p[i];
		if (shape[i] == 'd' ? !tp_is_digit(c)
		    : shape[i] == '?' ? (c != ' ' && c != 'T' && c != ':') : shape[i] == '-' ? c != p[4] : c != shape[i])
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

/* ---- seconds of a record's stamp ---- */

static int ts_digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int64_t tp_ts_seconds(const char *ts)
{
	int y, mo, d, h, mi, s;
	/* a date without a year ("--12-22T19:35:53") counts from 2000, a leap
	 * year; the analysis carries it over the new years of a run */
	if (ts && ts[0] == '-' && ts[1] == '-' && strlen(ts) >= 16) {
		char full[TP_TS_MAX + 4];
		snprintf(full, sizeof(full), "2000%s", ts + 1);
		return tp_ts_seconds(full);
	}
	/* a time of day alone ("T07:22:01.168", a logger that prints no date)
	 * is on 2000-01-01; the analysis carries it over midnights */
	if (ts && ts[0] == 'T' && strlen(ts) >= 9) {
		char full[TP_TS_MAX + 12];
		snprintf(full, sizeof(full), "2000-01-01%s", ts);
		return tp_ts_seconds(full);
	}
	if (!ts || strlen(ts) < 19 || !ts_digits(ts, 4, &y) || !ts_digits(ts + 5, 2, &mo) ||
	    !ts_digits(ts + 8, 2, &d) || !ts_digits(ts + 11, 2, &h) || !ts_digits(ts + 14, 2, &mi) ||
	    !ts_digits(ts + 17, 2, &s))
		return INT64_MIN;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
		return INT64_MIN;
	return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

/* The civil date of a day count since 1970-01-01 (days_from_civil's
 * inverse, after Howard Hinnant's "chrono-Compatible Low-Level Date
 * Algorithms"). */
static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

int tp_ts_rank(const char *ts)
{
	return tp_is_digit(ts[0]) ? 2 : ts[0] == '-' ? 1 : 0;
}

int tp_ts_from_epoch(double secs, char out[TP_TS_MAX])
{
	/* 1999-09 to 2099-12: a Unix time a log of training prints */
	if (!(secs >= 9.4e8 && secs < 4.1e9))
		return 0;
	int64_t ms = (int64_t)floor(secs * 1000 + 0.5);
	int64_t sec = ms / 1000, day = sec / 86400, rest = sec % 86400;
	int y, m, d;
	civil_from_days(day, &y, &m, &d);
	snprintf(out, TP_TS_MAX, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", y, m, d, (int)(rest / 3600),
		 (int)(rest / 60 % 60), (int)(rest % 60), (int)(ms % 1000));
	return 1;
}
