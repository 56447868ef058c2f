/*
 * prefix.c - the prefixes that logging libraries put before a message,
 * stripped before any format is recognized (the line driver, parser.c,
 * strips the launcher rank, a leading timestamp and a bare level itself
 * and calls this for the rest):
 *
 *   name LEVEL:                    detectron2's log.txt "[%(asctime)s] %(name)s
 *                                  %(levelname)s:" (after the timestamp)
 *   name - LEVEL - [func:123 - ]   Python logging "%(asctime)s - %(name)s -
 *                                  %(levelname)s - [%(funcName)s:%(lineno)d - ]"
 *                                  (after the timestamp; S4's file handler)
 *   [name] LEVEL:                  Python logging "[%(name)s] %(levelname)s:"
 *                                  (S4's console handler)
 *   LEVEL    | mod:func:12 -       loguru's default (after "2024-… | ")
 *   [12:00:00] LEVEL    msg   f.py:12   rich's console handler: time, level,
 *                                  and the caller at the right edge
 *   I1124 12:00:00.123456 12345 f.py:12]   absl / glog
 *   [W509 11:40:50.076807152 f.cpp:12]  PyTorch's C++ warnings (c10)
 *   [INFO 04:46:18]                PyMARL's: the level and the time of day
 *   INFO:name:04:46:18             Python logging's basic format, then the time
 *   [INFO|trainer.py:2134] 2024-… >>       Hugging Face transformers
 *   [name][LEVEL] -                hydra's job logging (after "[2024-…]")
 *   [07:10:36.394431]              MAE's and DETR's print: the time of day
 *   INFO 04-03 07:00:55 [f.py:216] vLLM's formatter (month, day, time)
 *   INFO worker.py:2004 --         Ray's driver (after its stamp and a tab)
 *   [file.py:209] INFO             Python logging's filename and line first
 *   [titan] 2025-… - root - INFO -  torchtitan's: a tag, then Python logging's
 *
 * ANSI colours are gone by now (S4 colours the level). Each form is a
 * small matcher in one table; the first that matches wins, and a line that
 * matches none is left as it was.
 */
#include <string.h>

#include "base/base.h"
#include "parser_int.h"

/* A logger name, module or file: no blanks and none of "[]|:". */
static const char *name_token(const char *q, const char *e)
{
	const char *s = q;
	while (q < e && *q != ' ' && *q != '\t' && *q != ']' && *q != '[' && *q != '|' && *q != ':')
		q++;
	return q > s ? q : NULL;
}

static const char *digits(const char *q, const char *e)
{
	const char *s = q;
	while (q < e && tp_is_digit(*q))
		q++;
	return q > s ? q : NULL;
}

/* "file.py:123" at q (a caller, as loggers print it): the end of its line
 * number, or NULL. */
static inline const char *file_line(const char *q, const char *e)
{
	const char *c = name_token(q, e);
	return c && c < e && *c == ':' ? digits(c + 1, e) : NULL;
}

/* Whether the text at t, which holds at least strlen(shape) bytes, has the
 * shape: 'd' a digit, 'X' any byte, every other byte itself. */
static int has_shape(const char *t, const char *shape)
{
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !tp_is_digit(t[i]) : shape[i] != 'X' && t[i] != shape[i])
			return 0;
	return 1;
}

/* Whether "HH:MM:SS" at t is a time of day. */
static int time_of_day_ok(const char *t)
{
	return (t[0] - '0') * 10 + (t[1] - '0') <= 23 && t[3] <= '5' && t[6] <= '5';
}

static int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

/* The end of a level name at q (upper case, as the libraries print it). */
static const char *level_word(const char *q, const char *e)
{
	static const char *const levels[] = { "INFO", "WARNING", "WARN", "DEBUG", "ERROR", "CRITICAL",
					      "FATAL", "NOTICE", "TRACE", "SUCCESS" };
	/* every line comes here: most fail on their first two bytes */
	if (e - q < 4 || !is_upper(q[0]) || !is_upper(q[1]) || !strchr("IWDECFNTS", q[0]))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		const char *r = tp_eat(q, e, levels[i]);
		if (r && (r >= e || *r == ' ' || *r == ':' || *r == '|' || *r == ']'))
			return r;
	}
	return NULL;
}

/* "func:123 - " or "mod:func:123 - " (loguru), ending at " - ". */
static const char *caller_dash(const char *q, const char *e)
{
	const char *r = name_token(q, e);
	while (r && r < e && *r == ':') {
		const char *d = digits(r + 1, e);
		if (d && (d = TP_EAT(d, e, " - ")))
			return d;
		r = name_token(r + 1, e);
	}
	return NULL;
}

/* name - LEVEL - [func:123 - ] */
static const char *py_dash(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q = name_token(t, *e);
	if (!q || !(q = TP_EAT(q, *e, " - ")) || !(q = level_word(q, *e)) || !(q = TP_EAT(q, *e, " - ")))
		return NULL;
	const char *c = caller_dash(q, *e);
	return c ? c : q;
}

/* [name] LEVEL: */
static const char *py_bracket(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q;
	if (*t != '[' || !(q = name_token(t + 1, *e)) || q >= *e || *q != ']')
		return NULL;
	q = TP_EAT(q, *e, "] ");
	if (!q || !(q = level_word(q, *e)) || q >= *e || *q != ':')
		return NULL;
	return tp_skip_blanks(q + 1, *e);
}

/* name LEVEL: (detectron2 and fvcore's file handler, "[%(asctime)s]
 * %(name)s %(levelname)s: ", its "[time]" already stripped) */
static const char *py_space(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q = name_token(t, *e);
	if (!q || q >= *e || *q != ' ' || !(q = level_word(q + 1, *e)) || q >= *e || *q != ':')
		return NULL;
	return tp_skip_blanks(q + 1, *e);
}

/* LEVEL    | mod:func:12 - (loguru, its "time | " already stripped) */
static const char *loguru(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q = level_word(t, *e);
	if (!q)
		return NULL;
	q = tp_skip_blanks(q, *e);
	if (q >= *e || *q != '|')
		return NULL;
	return caller_dash(tp_skip_blanks(q + 1, *e), *e);
}

/* "   file.py:123" at the right edge (rich): the new end of the message. */
static const char *rich_caller(const char *t, const char *e)
{
	const char *q = e;
	while (q > t && tp_is_digit(q[-1]))
		q--;
	if (q == e || q <= t || q[-1] != ':')
		return NULL;
	const char *c = q - 1, *s = c;
	while (s > t && s[-1] != ' ')
		s--;
	if (s == c || s - t < 2 || s[-2] != ' ' || !memchr(s, '.', (size_t)(c - s)))
		return NULL;
	return trim_end(t, s);
}

/* [12:00:00] LEVEL    msg    file.py:12 (or [11/24/26 12:00:00]; the time
 * is left out when it repeats, and then the caller is required). */
static const char *rich(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q = t;
	int timed = 0;
	if (*q == '[') {
		const char *r = q + 1;
		while (r < *e && (tp_is_digit(*r) || *r == ':' || *r == '/' || *r == ' ' || *r == '.' || *r == '-'))
			r++;
		if (r - q < 6 || r >= *e || *r != ']' || r[-1] == ' ')
			return NULL;
		q = tp_skip_blanks(r + 1, *e);
		timed = 1;
	}
	const char *l = level_word(q, *e);
	if (!l || l + 1 >= *e || l[0] != ' ')
		return NULL;
	const char *m = tp_skip_blanks(l, *e);
	if (!timed && m - l < 2)
		return NULL; /* rich pads the level to 8 columns */
	const char *end = rich_caller(m, *e);
	if (end)
		*e = end;
	else if (!timed)
		return NULL;
	return m;
}

/* I1124 12:00:00.123456 12345 file.py:123] (absl, glog: Caffe, TensorFlow
 * and PaddlePaddle's C++ logs); its month, day and time are the line's
 * stamp, without a year. */
static const char *absl(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = "Xdddd dd:dd:dd";
	const char *q = t, *frac = NULL;
	if (*e - t < 20 || !strchr("IWEF", *t) || !has_shape(t, shape))
		return NULL;
	q += sizeof(shape) - 1;
	if (*q == '.')
		q = digits(frac = q + 1, *e);
	if (!q)
		return NULL;
	const char *stamp_end = q;
	q = tp_skip_blanks(q, *e);
	if (!(q = digits(q, *e)) || q >= *e || *q != ' ')
		return NULL;
	if (!(q = file_line(q + 1, *e)) || q >= *e || *q != ']')
		return NULL;
	int nfrac = frac ? (int)(stamp_end - frac) : 0;
	snprintf(p->tsbuf, sizeof(p->tsbuf), "--%.2s-%.2sT%.8s%s%.*s", t + 1, t + 3, t + 6, nfrac ? "." : "",
		 nfrac > 6 ? 6 : nfrac, frac ? frac : "");
	p->cur_ts = p->tsbuf;
	return tp_skip_blanks(q + 1, *e);
}

/* [W509 11:40:50.076807152 ProcessGroupNCCL.cpp:1524] (PyTorch's C++
 * warnings, c10's logging: the level's letter, the month unpadded and the
 * day, the time, the caller; no year), "[I1124 ...]" as well. */
static const char *c10(struct tp_parser *p, const char *t, const char **e)
{
	const char *q = t + 2, *d = *e - t >= 20 && strchr("IWEF", t[1]) ? digits(q, *e) : NULL;
	size_t nd = d ? (size_t)(d - q) : 0;
	if ((nd != 3 && nd != 4) || *e - d < 10 || !has_shape(d, " dd:dd:dd") || !time_of_day_ok(d + 1))
		return NULL;
	const char *r = d + 9, *frac = NULL;
	if (*r == '.' && !(r = digits(frac = r + 1, *e)))
		return NULL;
	const char *stamp_end = r;
	if (r >= *e || *r != ' ' || !(r = file_line(r + 1, *e)) || r >= *e || *r != ']')
		return NULL;
	int nfrac = frac ? (int)(stamp_end - frac) : 0;
	snprintf(p->tsbuf, sizeof(p->tsbuf), "--%s%.*s-%.2sT%.8s%s%.*s", nd == 3 ? "0" : "", (int)nd - 2, q,
		 d - 2, d + 1, nfrac ? "." : "", nfrac > 6 ? 6 : nfrac, frac ? frac : "");
	p->cur_ts = p->tsbuf;
	return tp_skip_blanks(r + 1, *e);
}

/* [file.py:123] LEVEL (Python logging's "%(asctime)s [%(filename)s:%(lineno)d]
 * %(levelname)s %(message)s", after its stamp: FADNet's dltrainer) */
static const char *file_line_level(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q;
	if (*t != '[' || !(q = file_line(t + 1, *e)) || !memchr(t, '.', (size_t)(q - t)) || q + 1 >= *e ||
	    q[0] != ']' || q[1] != ' ')
		return NULL;
	q = level_word(q + 2, *e);
	if (!q || q >= *e || (*q != ' ' && *q != ':'))
		return NULL;
	return *q == ':' ? q + 1 : q;
}

/* [INFO|trainer.py:2134] 2024-11-24 12:00:00,123 >> (transformers) */
static const char *hf(struct tp_parser *p, const char *t, const char **e)
{
	const char *q;
	if (*t != '[' || !(q = level_word(t + 1, *e)) || q >= *e || *q != '|')
		return NULL;
	if (!(q = file_line(q + 1, *e)) || q >= *e || *q != ']')
		return NULL;
	q = tp_skip_blanks(q + 1, *e);
	const char *r = tp_ts_read(q, *e, TP_TS_AS_PRINTED, p->tsbuf);
	if (r) {
		p->cur_ts = p->tsbuf;
		q = tp_skip_blanks(r, *e);
	}
	if ((r = TP_EAT(q, *e, ">>")))
		q = tp_skip_blanks(r, *e);
	return q;
}

/* [tag] YYYY-MM-DD HH:MM:SS,mmm - name - LEVEL - (torchtitan's logger,
 * "[titan] %(asctime)s - %(name)s - %(levelname)s - "): a tag in
 * brackets before Python logging's stamp, then its name and level. */
static const char *tag_stamp(struct tp_parser *p, const char *t, const char **e)
{
	const char *q;
	if (*t != '[' || !(q = name_token(t + 1, *e)) || q >= *e || *q != ']' || !(q = TP_EAT(q, *e, "] ")) ||
	    q >= *e || !tp_is_digit(*q))
		return NULL;
	const char *r = tp_ts_read(q, *e, TP_TS_AS_PRINTED, p->tsbuf);
	if (!r || !(r = TP_EAT(r, *e, " - ")) || !(q = py_dash(p, r, e)))
		return NULL;
	p->cur_ts = p->tsbuf;
	return q;
}

/* [__main__][INFO] - (hydra's job logging, after its "[timestamp]"), and
 * HugeCTR's "[HUGECTR][INFO]: " after its "[20d02h08m28s]" */
static const char *hydra(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q;
	if (*t != '[' || !(q = name_token(t + 1, *e)) || *e - q < 4 || q[0] != ']' || q[1] != '[')
		return NULL;
	if (!(q = level_word(q + 2, *e)) || q >= *e || *q != ']')
		return NULL;
	q = tp_skip_blanks(q + 1, *e);
	if (q < *e && (*q == '-' || *q == ':'))
		q = tp_skip_blanks(q + 1, *e);
	return q;
}

/* LEVEL - MM/DD/YY HH:MM:SS - H:MM:SS - (the LogFormatter of FAIR's
 * training code, SwAV and its kin: "%s - %s - %s" of the level,
 * time.strftime("%x %X") and the time since the start) */
static const char *fair(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = "dd/dd/dd dd:dd:dd - ";
	const char *q = level_word(t, *e);
	if (!q || !(q = TP_EAT(q, *e, " - ")) || *e - q < (ptrdiff_t)sizeof(shape) || !has_shape(q, shape))
		return NULL;
	const char *r = q + sizeof(shape) - 1, *c = r;
	while (c < *e && (tp_is_digit(*c) || *c == ':' || *c == ',' || *c == ' ' || tp_is_alpha(*c)) && *c != '-')
		c++; /* "0:00:21", "1 day, 2:03:04" */
	if (c == r || !(c = TP_EAT(c - 1, *e, " - ")))
		return NULL;
	/* MM/DD/YY HH:MM:SS as ISO 8601, in this century */
	snprintf(p->tsbuf, sizeof(p->tsbuf), "20%.2s-%.2s-%.2sT%.8s", q + 6, q, q + 3, q + 9);
	p->cur_ts = p->tsbuf;
	return c;
}

/* LEVEL YYYY-MM-DD HH:MM:SS file.py:123 (LeRobot's formatter: the level,
 * the time and the caller's last 15 characters, right-aligned) */
static const char *level_ts_caller(struct tp_parser *p, const char *t, const char **e)
{
	const char *q = level_word(t, *e);
	if (!q || q >= *e || *q != ' ' || !tp_is_digit(q[1]))
		return NULL;
	const char *r = tp_ts_read(q + 1, *e, TP_TS_AS_PRINTED, p->tsbuf);
	if (!r || r >= *e || *r != ' ')
		return NULL;
	const char *c = file_line(tp_skip_blanks(r, *e), *e);
	if (!c || c >= *e || *c != ' ')
		return NULL;
	p->cur_ts = p->tsbuf;
	return c;
}

/* LEVEL MM-DD HH:MM:SS [file.py:123] (vLLM's formatter; before 0.6
 * "file.py:123]" without the opening bracket): the month, day and time
 * are the line's stamp, without a year. */
static const char *vllm(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = " dd-dd dd:dd:dd ";
	const char *q = level_word(t, *e);
	if (!q || *e - q < (ptrdiff_t)sizeof(shape) + 4 || !has_shape(q, shape) || !time_of_day_ok(q + 7))
		return NULL;
	const char *r = q + sizeof(shape) - 1;
	if (*r == '[')
		r++;
	const char *c = file_line(r, *e);
	if (!c || c + 1 >= *e || c[0] != ']' || c[1] != ' ')
		return NULL;
	snprintf(p->tsbuf, sizeof(p->tsbuf), "--%.2s-%.2sT%.8s", q + 1, q + 4, q + 7);
	p->cur_ts = p->tsbuf;
	return c + 2;
}

/* LEVEL file.py:123 -- (Ray's driver, after its "%(asctime)s\t" stamp) */
static const char *ray(struct tp_parser *p, const char *t, const char **e)
{
	(void)p;
	const char *q = level_word(t, *e);
	if (!q || q >= *e || *q != ' ')
		return NULL;
	const char *c = file_line(q + 1, *e);
	return c ? TP_EAT(c, *e, " -- ") : NULL;
}

/* The line's stamp, a time of day "HH:MM:SS[.fff]" of n bytes at t, written
 * as a time alone ("T07:22:01.168"; a comma before the fraction a point). */
static void time_of_day_stamp(struct tp_parser *p, const char *t, size_t n)
{
	snprintf(p->tsbuf, sizeof(p->tsbuf), "T%.*s", (int)n, t);
	if (n > 8 && p->tsbuf[9] == ',')
		p->tsbuf[9] = '.';
	p->cur_ts = p->tsbuf;
}

/* HH:mm:ss.SSS [thread] LEVEL logger - (Logback's and Log4j's default
 * pattern, the JVM's: Deeplearning4j, Spark); the time of day is the
 * line's stamp ("T07:22:01.168"), the date is not printed. */
static const char *logback(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = "dd:dd:dd.ddd [";
	if (*e - t < (ptrdiff_t)sizeof(shape) + 8 || !has_shape(t, shape) || !time_of_day_ok(t))
		return NULL;
	const char *q = memchr(t + sizeof(shape) - 1, ']', (size_t)(*e - t - (ptrdiff_t)sizeof(shape) + 1));
	if (!q || q + 1 >= *e || q[1] != ' ' || !(q = level_word(tp_skip_blanks(q + 1, *e), *e)))
		return NULL;
	q = name_token(tp_skip_blanks(q, *e), *e);
	if (!q || !(q = TP_EAT(q, *e, " - ")))
		return NULL;
	time_of_day_stamp(p, t, 12);
	return q;
}

/* INFO:name:04:46:18 (Python logging's basic "%(levelname)s:%(name)s:"
 * before a message that starts with the time of day, GluonNLP's
 * scripts'): the time of day is the line's stamp. */
static const char *level_name_time(struct tp_parser *p, const char *t, const char **e)
{
	const char *q = level_word(t, *e);
	if (!q || q >= *e || *q != ':' || !(q = name_token(q + 1, *e)) || *e - q < 10 || *q != ':' ||
	    !has_shape(q + 1, "dd:dd:dd ") || !time_of_day_ok(q + 1))
		return NULL;
	time_of_day_stamp(p, q + 1, 8);
	return q + 10;
}

/* [INFO 04:46:18] (PyMARL's "[%(levelname)s %(asctime)s] %(name)s",
 * datefmt "%H:%M:%S"): the level and the time of day in brackets. */
static const char *level_time(struct tp_parser *p, const char *t, const char **e)
{
	const char *q = level_word(t + 1, *e);
	if (!q || *e - q < 12 || *q != ' ' || !has_shape(q + 1, "dd:dd:dd] ") || !time_of_day_ok(q + 1))
		return NULL;
	time_of_day_stamp(p, q + 1, 8);
	return q + 11;
}

/* [07:10:36.394431] (MAE's, DETR's and DeiT's print, which prefixes
 * every line with datetime.now().time(): no microseconds when they are
 * 0); the time of day is the line's stamp. */
static const char *time_of_day(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = "[dd:dd:dd";
	if (*e - t < (ptrdiff_t)sizeof(shape) + 2 || !has_shape(t, shape) || !time_of_day_ok(t + 1))
		return NULL;
	const char *q = t + sizeof(shape) - 1;
	if (*q == '.') {
		const char *f = digits(q + 1, *e);
		if (f != q + 7)
			return NULL;
		q = f;
	}
	if (q + 2 > *e || q[0] != ']' || q[1] != ' ')
		return NULL;
	time_of_day_stamp(p, t + 1, (size_t)(q - t - 1));
	return q + 2;
}

/* "08:34:19  step=100 ..." (a home-grown trainer's time.strftime('%H:%M:%S')
 * before its message): the time of day at the line's start, a blank, then
 * a letter or '[', is its stamp; a clock before a digit, '<' or ',' ("00:05<00:10",
 * "0:01:23, 1:02:03") is a value. */
static const char *bare_time_of_day(struct tp_parser *p, const char *t, const char **e)
{
	static const char shape[] = "dd:dd:dd";
	if (*e - t < (ptrdiff_t)sizeof(shape) + 1 || !has_shape(t, shape) || !time_of_day_ok(t))
		return NULL;
	const char *q = t + sizeof(shape) - 1;
	if (*q == '.' || *q == ',') {
		const char *f = digits(q + 1, *e);
		if (!f || f - q > 7)
			return NULL;
		q = f;
	}
	const char *r = tp_skip_blanks(q, *e);
	if (r == q || r >= *e || !(tp_is_alpha(*r) || *r == '['))
		return NULL;
	time_of_day_stamp(p, t, (size_t)(q - t));
	return r;
}

/* *TAG*  YYYY-MM-DD HH:MM:SS (a trainer's run tag in asterisks before its
 * stamp: IMON's "*Dec01-2035*  2019-12-01 12:59:29 Steps 10, ..."); the
 * stamp is the line's. */
static const char *star_tag_stamp(struct tp_parser *p, const char *t, const char **e)
{
	const char *q = t + 1;
	if (*t != '*')
		return NULL;
	while (q < *e && q - t < 40 && *q != '*' && !tp_is_blank(*q))
		q++;
	if (q == t + 1 || q >= *e || *q != '*')
		return NULL;
	q = tp_skip_blanks(q + 1, *e);
	if (q >= *e || !tp_is_digit(*q))
		return NULL;
	char buf[TP_TS_MAX];
	const char *r = tp_ts_read(q, *e, TP_TS_AS_PRINTED, buf);
	if (!r || tp_ts_rank(buf) < 2 || r >= *e || !tp_is_blank(*r))
		return NULL;
	memcpy(p->tsbuf, buf, sizeof(buf));
	p->cur_ts = p->tsbuf;
	return r;
}

typedef const char *(*prefix_fn)(struct tp_parser *p, const char *t, const char **e);

/* By the first byte, the forms that can start there, in the order they are tried. */
static const prefix_fn bracketed[] = { py_bracket, hf, hydra, file_line_level, rich, time_of_day, tag_stamp, c10,
					 level_time, NULL };
static const prefix_fn upper[] = { py_dash, fair, level_ts_caller, vllm, ray, loguru, rich, absl, py_space,
				     level_name_time, NULL };
static const prefix_fn other[] = { py_dash, py_space, logback, bare_time_of_day, star_tag_stamp, NULL };

const char *tp_strip_logger(struct tp_parser *p, const char *t, const char **e)
{
	if (t >= *e)
		return t;
	const prefix_fn *forms = *t == '[' ? bracketed : is_upper(*t) ? upper : other;
	for (; *forms; forms++) {
		const char *end = *e;
		const char *q = (*forms)(p, t, &end);
		if (q) {
			*e = end;
			return tp_skip_blanks(q, end);
		}
	}
	return t;
}
