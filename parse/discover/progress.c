/*
 * progress.c - progress bars as time series: every redraw of a bar is a
 * `progress` record (description, n, total, elapsed, remaining, rate).
 *
 *   tqdm       "desc:  45%|████▌     | 45/100 [00:10<00:12,  4.50it/s, loss=0.3]"
 *              (tqdm/std.py format_meter; "3.20s/it" when an item takes
 *              more than a second, "612kit/s" and "1.00M/1.00M" with
 *              unit_scale, "?" before the first rate); redraws separated
 *              by '\r', glued without it (nohup, a captured terminal) or
 *              followed by a nested bar's cursor escape (ESC [A)
 *   mmcv       "[>>>>      ] 120/500, 12.3 task/s, elapsed: 10s, ETA:    31s"
 *              and "completed: 120, elapsed: 10s, 12.3 tasks/s" without a
 *              total (mmcv/utils/progressbar.py ProgressBar.update)
 *   rich       "Epoch 3/9 ━━━━━━━╸━━━━━━ 412/938 0:00:05 • 0:00:07 75.83it/s v_num: 0"
 *              (Lightning's RichProgressBar: elapsed • remaining)
 *   Keras      "  32/1875 [>.....] - ETA: 1:23 - loss: 0.5" (Keras 2),
 *              "1875/1875 [=====] - 5s 3ms/step - loss: 0.29", and Keras 3
 *              "  59/1875 ━━━━━━━━━━ 4s 3ms/step - loss: 0.5" (remaining
 *              time until the last step, elapsed time at it)
 *
 * The bar's own records come before anything else its line makes; the
 * records that format packs read from a finished bar (the tqdm pack's
 * rate, the Keras pack's epoch) are made as before. Per-step times, stalls
 * and the ETA's error come from consecutive redraws of one bar, in the
 * analysis (analyze/progress.c): a redraw is read here on its own.
 */
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "parse/lines/parser_int.h"

/* Past a run of CSI escapes (ESC [ params final) and blanks at s. */
static const char *skip_escapes(const char *s, const char *e)
{
	for (;;) {
		s = tp_skip_blanks(s, e);
		if (e - s < 2 || s[0] != '\x1b' || s[1] != '[')
			return s;
		s += 2;
		while (s < e && ((*s >= '0' && *s <= '?') || (*s >= ' ' && *s <= '/')))
			s++;
		if (s < e)
			s++;
	}
}

/* "5s", "1:23", "1:02:03" (Keras' and mmcv's times), to seconds. */
static int read_secs(const char *q, const char *e, double *sec, const char **next)
{
	const char *x;
	if (tp_read_clock_at(q, e, sec, next))
		return 1;
	if (!tp_read_number(q, e, sec, &x) || x >= e || *x != 's' || !isfinite(*sec))
		return 0;
	*next = x + 1;
	return 1;
}

/* Stores a number if it is finite and not negative (a bar never shows one). */
static void set_num(struct tp_record *r, int slot, double v)
{
	if (isfinite(v) && v >= 0)
		tp_set(r, slot, v);
}

/*
 * A rate "4.50it/s", "3.20s/it" (items per second: 1/3.20), "12.3 task/s",
 * " 9583.41 examples/s", "612kit/s" or "3ms/step" (Keras: 1/0.003) at q,
 * up to a ',' ']' or blank after the unit. The unit is written as "X/s"
 * into unit (room for n bytes). Returns 1 with the rate.
 */
static int read_rate(const char *q, const char *e, double *rate, char *unit, size_t n,
		     const char **next)
{
	double v, scale = 1;
	const char *x;
	if (!tp_read_si(q, e, &v, &x) || !isfinite(v) || v < 0)
		return 0;
	x = tp_skip_blanks(x, e);
	const char *u = x;
	while (x < e && *x != ',' && *x != ']' && *x != ' ' && *x != '\t')
		x++;
	size_t k = (size_t)(x - u);
	const char *slash = k ? memchr(u, '/', k) : NULL;
	if (!slash || slash == u || slash + 1 == x)
		return 0;
	double per = 1;
	const char *y = slash;
	/* tqdm's "3.20s/it" first: this runs for every redraw */
	if ((slash == u + 1 && *u == 's') || (tp_read_time_unit(u, slash, &per, &y) && y == slash)) {
		if (v == 0)
			return 0;
		/* time per item: "3.20s/it", "3ms/step" */
		size_t w = (size_t)(x - slash - 1);
		if (w + 3 > n)
			return 0;
		memcpy(unit, slash + 1, w);
		memcpy(unit + w, "/s", 3);
		scale = 1.0 / (v * per);
		v = 1;
	} else {
		if (slash + 2 != x || slash[1] != 's' || k + 1 > n)
			return 0;
		memcpy(unit, u, k);
		unit[k] = '\0';
	}
	*rate = v * scale;
	*next = x;
	return 1;
}

static void set_rate(struct tp_parser *p, struct tp_record *r, double rate)
{
	set_num(r, S_PRG_RATE, rate);
	r->text = p->bar_unit;
	r->text_len = strlen(p->bar_unit);
}

/* A count: plain digits at once (most are), else a number with an SI
 * prefix ("1.00M"). */
static int read_n(const char *q, const char *e, double *v, const char **next)
{
	unsigned long long n = 0;
	const char *x = q;
	while (x < e && tp_is_digit(*x) && x - q < 15)
		n = n * 10 + (unsigned)(*x++ - '0');
	if (x > q && (x >= e || (*x != '.' && *x != ',' && !tp_is_alpha(*x) && !tp_is_digit(*x)))) {
		*v = (double)n;
		*next = x;
		return 1;
	}
	return tp_read_si(q, e, v, next);
}

/* "45/100", "1.00M/1.00M": n and total (an SI prefix applied). */
static int read_count(struct tp_record *r, const char *q, const char *e, const char **next)
{
	double n, t;
	const char *x;
	if (!read_n(q, e, &n, &x) || x >= e || *x != '/' || !read_n(x + 1, e, &t, &x))
		return 0;
	set_num(r, S_PRG_N, n);
	set_num(r, S_PRG_TOTAL, t);
	*next = x;
	return 1;
}

/* A bar's record goes out at once: a [Performance] line's record waiting
 * for its "GPU peak:" line keeps waiting. */
static void emit_bar(struct tp_parser *p, struct tp_record *r)
{
	if (tp_has(r, S_PRG_N) || tp_has(r, S_PRG_ELAPSED_S))
		tp_emit_now(p, r);
}

/* The description before a bar: blanks, escapes and a trailing ':' off. */
static void set_desc(struct tp_record *r, const char *s, const char *e)
{
	s = skip_escapes(s, e);
	e = trim_end(s, e);
	if (e > s && e[-1] == ':')
		e = trim_end(s, e - 1);
	r->name = e > s ? s : NULL;
	r->name_len = (size_t)(e - s);
}

/*
 * One tqdm redraw [s, end): pct is its '%', bar its closing '|'.
 * "[elapsed<remaining, rate{postfix}]" may be cut by the line's end.
 */
static void tqdm_redraw(struct tp_parser *p, const char *s,
			const char *pct, const char *bar, const char *end)
{
	struct tp_record r;
	const char *q = pct, *x;
	double v;
	tp_rec_init(p, &r, TP_PROGRESS);
	while (q > s && tp_is_digit(q[-1]))
		q--;
	set_desc(&r, s, q);
	q = tp_skip_blanks(bar + 1, end);
	if (!read_count(&r, q, end, &q))
		return;
	q = tp_skip_blanks(q, end);
	if (q < end && *q == '[' && tp_read_clock_at(q + 1, end, &v, &x)) {
		set_num(&r, S_PRG_ELAPSED_S, v);
		if (x < end && *x == '<') {
			if (tp_read_clock_at(x + 1, end, &v, &x))
				set_num(&r, S_PRG_REMAINING_S, v);
			else if (x + 1 < end && x[1] == '?')
				x += 2;
		}
		double rate;
		if (x < end && *x == ',' &&
		    read_rate(tp_skip_blanks(x + 1, end), end, &rate, p->bar_unit, sizeof(p->bar_unit), &x))
			set_rate(p, &r, rate);
	}
	emit_bar(p, &r);
}

/*
 * A tqdm bar "[desc: ] 12%|####      | 75/625 [01:02<07:40,  1.19it/s]" at s
 * is most of the bytes of many logs; a print() that follows it on the same
 * screen starts after its closing ']'. Returns the end of the bar, or s if
 * the segment does not start with one; *pct and *bar: its '%' and the '|'
 * that closes the bar.
 */
static const char *tqdm_bar(const char *s, const char *e, const char **pct, const char **bar)
{
	size_t look = (size_t)(e - s) < 96 ? (size_t)(e - s) : 96;
	const char *pc = memchr(s, '%', look);
	if (!pc || pc == s || pc + 1 >= e || pc[1] != '|' || !tp_is_digit(pc[-1]))
		return s;
	const char *bar_end = memchr(pc + 2, '|', (size_t)(e - pc - 2));
	if (!bar_end)
		return s;
	*pct = pc;
	*bar = bar_end;
	const char *open = memchr(bar_end, '[', (size_t)(e - bar_end));
	const char *close = open ? memchr(open, ']', (size_t)(e - open)) : NULL;
	return close ? close + 1 : e;
}

const char *tp_progress_tqdm(struct tp_parser *p, const char *s,
			     const char *e, int all, const char **last)
{
	const char *pct, *bar, *end = tqdm_bar(s, e, &pct, &bar);
	*last = s;
	/* redraws glued without their CR (a captured terminal, nohup): only
	 * the last one was ever on the screen, every one was a step */
	while (end > s) {
		if (p->progress)
			tqdm_redraw(p, s, pct, bar, end);
		*last = s;
		s = end;
		if (s >= e || !all)
			break;
		end = tqdm_bar(s, e, &pct, &bar);
	}
	return s;
}

/* mmcv: "[>>>>  ] 120/500, 12.3 task/s, elapsed: 10s, ETA:    31s". */
static int mmcv_bar(struct tp_parser *p, struct tp_record *r, const char *q, const char *e)
{
	const char *x;
	double v;
	if (q < e && *q == '[') {
		q++;
		while (q < e && (*q == '>' || *q == ' '))
			q++;
		if (!(x = TP_EAT(q, e, "] ")) || !read_count(r, x, e, &q) || !(q = TP_EAT(q, e, ", ")))
			return 0;
	} else if ((q = TP_EAT(q, e, "completed: ")) && tp_read_number(q, e, &v, &x)) {
		set_num(r, S_PRG_N, v);
		q = TP_EAT(x, e, ", ");
	} else {
		return 0;
	}
	double rate;
	for (int field = 0; q && q < e && field < 3; field++) {
		if ((x = TP_EAT(q, e, "elapsed: ")) && read_secs(x, e, &v, &x))
			set_num(r, S_PRG_ELAPSED_S, v);
		else if ((x = TP_EAT(q, e, "ETA:")) && read_secs(tp_skip_blanks(x, e), e, &v, &x))
			set_num(r, S_PRG_REMAINING_S, v);
		else if (read_rate(q, e, &rate, p->bar_unit, sizeof(p->bar_unit), &x))
			set_rate(p, r, rate);
		else
			break;
		q = x < e && *x == ',' ? tp_skip_blanks(x + 1, e) : NULL;
	}
	return tp_has(r, S_PRG_ELAPSED_S);
}

/* A run of the bar glyphs ━ ╸ ╺ (U+2501, U+2578, U+257A) at q, to its end. */
static const char *rich_glyphs(const char *q, const char *e)
{
	while (e - q >= 3 && (unsigned char)q[0] == 0xe2 &&
	       (((unsigned char)q[1] == 0x94 && (unsigned char)q[2] == 0x81) ||
		((unsigned char)q[1] == 0x95 && ((unsigned char)q[2] == 0xb8 || (unsigned char)q[2] == 0xba))))
		q += 3;
	return q;
}

/* rich: "desc ━━━━ 412/938 0:00:05 • 0:00:07 75.83it/s ..." */
static int rich_bar(struct tp_parser *p, struct tp_record *r, const char *s, const char *e)
{
	const char *g = find_str(s, e, "\xe2\x94\x81");
	if (!g)
		g = find_str(s, e, "\xe2\x95\xba");
	const char *q = g ? rich_glyphs(g, e) : NULL, *x;
	double v, rate;
	if (!q || q == g || !read_count(r, tp_skip_blanks(q, e), e, &q))
		return 0;
	set_desc(r, s, g);
	q = tp_skip_blanks(q, e);
	if (!tp_read_clock_at(q, e, &v, &x))
		return 1;
	set_num(r, S_PRG_ELAPSED_S, v);
	if (!(q = TP_EAT(tp_skip_blanks(x, e), e, "\xe2\x80\xa2")))
		return 1;
	q = tp_skip_blanks(q, e);
	if (tp_read_clock_at(q, e, &v, &x)) {
		set_num(r, S_PRG_REMAINING_S, v);
		q = tp_skip_blanks(x, e);
	} else if (q < e && *q == '-') {
		q = tp_skip_blanks(q + 1, e); /* rich's unknown time: "-:--:--" */
		while (q < e && (*q == '-' || *q == ':'))
			q++;
		q = tp_skip_blanks(q, e);
	}
	if (read_rate(q, e, &rate, p->bar_unit, sizeof(p->bar_unit), &x))
		set_rate(p, r, rate);
	return 1;
}

/* Keras: "  32/1875 [>....] - ETA: 1:23 - loss", "1875/1875 [====] - 5s 3ms/step",
 * "  59/1875 ━━━━━━━━ 4s 3ms/step - loss" (Keras 3). */
static int keras_bar(struct tp_parser *p, struct tp_record *r, const char *q, const char *e)
{
	const char *x;
	double v, rate;
	if (!read_count(r, q, e, &q) || q + 1 >= e || *q != ' ')
		return 0;
	q++;
	int k3 = 0;
	if (*q == '[') {
		x = memchr(q, ']', (size_t)(e - q));
		for (const char *b = q + 1; x && b < x; b++)
			if (*b != '=' && *b != '>' && *b != '.')
				return 0;
		if (!x || !(q = TP_EAT(x + 1, e, " - ")))
			return 0;
	} else if ((x = rich_glyphs(q, e)) > q && x < e && *x == ' ') {
		q = x + 1;
		k3 = 1;
	} else if (!(q = TP_EAT(q, e, "- "))) {
		/* verbose=2: "1875/1875 - 5s - loss: 0.29", once per epoch */
		return 0;
	}
	int last = tp_has(r, S_PRG_N) && tp_has(r, S_PRG_TOTAL) && r->num[S_PRG_N] >= r->num[S_PRG_TOTAL];
	if ((x = TP_EAT(q, e, "ETA: ")) && read_secs(x, e, &v, &x)) {
		set_num(r, S_PRG_REMAINING_S, v);
		return 1;
	}
	if (!read_secs(q, e, &v, &x))
		return 0;
	set_num(r, k3 && !last ? S_PRG_REMAINING_S : S_PRG_ELAPSED_S, v);
	const char *y = TP_EAT(x, e, " - ");
	if (!y && x < e && *x == ' ')
		y = x + 1;
	if (y && read_rate(y, e, &rate, p->bar_unit, sizeof(p->bar_unit), &x))
		set_rate(p, r, rate);
	return 1;
}

int tp_progress_other(struct tp_parser *p, const char *s, const char *e)
{
	const char *q = tp_skip_blanks(s, e);
	if (q >= e)
		return 0;
	/* what each bar starts with, or (rich) holds: most lines stop here */
	int kind = *q == '[' || *q == 'c' ? 1 : tp_is_digit(*q) ? 2 : memchr(q, 0xe2, (size_t)(e - q)) ? 3 : 0;
	if (!kind)
		return 0;
	struct tp_record r;
	tp_rec_init(p, &r, TP_PROGRESS);
	int ok = kind == 1 ? mmcv_bar(p, &r, q, e) : kind == 2 ? keras_bar(p, &r, q, e) : rich_bar(p, &r, q, e);
	if (ok && p->progress)
		emit_bar(p, &r);
	return ok;
}
