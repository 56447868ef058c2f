/*
 * timestamp.h - the one reader of the date-times that logs and documents
 * print, into the record's form "YYYY-MM-DDTHH:MM:SS[.fraction]" (ISO 8601
 * without a time zone). The line prefixes (parse/lines/parser.c), the rules'
 * ts captures (parse/rules/rules.c) and the documents' timestamp members
 * (parse/input/docinput.c) all go through it, so a timestamp reads the same
 * wherever it stands.
 */
#ifndef TPROF_BASE_TIMESTAMP_H
#define TPROF_BASE_TIMESTAMP_H

#include <stdint.h>

/* Room for the longest form: 19 + '.' + 9 digits + NUL, rounded up. */
#define TP_TS_MAX 40

/* Fraction of a second: as printed (up to nanoseconds), or exactly three
 * digits (cut or padded), the precision of exports that mix sources. */
enum tp_ts_frac { TP_TS_AS_PRINTED, TP_TS_MS };

/*
 * Reads "YYYY-MM-DD[T ]HH:MM:SS" (or "YYYY/MM/DD HH:MM:SS") with an optional fraction after '.' or
 * ',' at p (before e), checking each field's range (month 1-12, second
 * 0-60, ...). Writes the record form into out and returns the end of what
 * was read, or NULL (out untouched) when p does not start with one. A
 * date without a year, "MM/DD HH:MM:SS" (detectron2, mmengine), is written
 * as ISO 8601 writes one: "--MM-DDTHH:MM:SS[.fraction]". "MM/DD/YY
 * HH:MM:SS" (rich's log handler) is a date of 2000-2099.
 */
const char *tp_ts_read(const char *p, const char *e, enum tp_ts_frac frac, char out[TP_TS_MAX]);

/*
 * Seconds since 1970-01-01 of a stamp in the record's form (the fraction
 * dropped), or INT64_MIN when ts is NULL or not one. A date without a year
 * ("--12-22T19:35:53") counts from 2000, a leap year, and a time of day
 * alone ("T07:22:01.168") is on 2000-01-01; the analysis carries them over
 * a run's new years and midnights.
 */
int64_t tp_ts_seconds(const char *ts);

/*
 * A Unix time (seconds since 1970-01-01 UTC, from 1999-09 to 2099) in the
 * record's form with milliseconds, "2019-05-23T01:57:58.967": MLPerf's and
 * NVIDIA's loggers print their stamps so. Returns 0 (out untouched) for a
 * number out of that range.
 */
int tp_ts_from_epoch(double secs, char out[TP_TS_MAX]);

/* How much a stamp in the record's form says: a date with its year 2, a
 * date without one 1, a time of day alone 0. A log's span is of its most
 * complete stamps (the parser's log start and end, the analysis's wall): a
 * torchrun warning's "W1212 11:03:17" before the run's dated lines does not
 * open it. */
int tp_ts_rank(const char *ts);

#endif
