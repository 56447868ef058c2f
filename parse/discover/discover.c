/*
 * discover.c - the template miner (see discover.h).
 *
 * After Drain (Pinjia He, Jieming Zhu, Zibin Zheng, Michael R. Lyu,
 * "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS
 * 2017) and its maintained implementation Drain3: a line is split into
 * tokens, numbers masked; the tree's first layer is the token count and
 * the next two the first two tokens (here one hash of the three, with the
 * tokens compared exactly, so the path is Drain's of depth 4); in that
 * leaf the line joins the template with the highest share of positions
 * that agree (a masked number agrees with a number), if it is at least
 * SIM_THRESHOLD, and the positions that differ become wildcards; else it
 * starts a template. What is ours: the tokens (a number, a word with '/',
 * '.', '-' inside, or one punctuation byte; blanks only separate them), a
 * bound on templates with least-recently-used eviction, and reading a
 * template's numbers as timing values:
 *
 *   - a number followed by a duration unit ("7.99s", "18.1 ms", "0.0011
 *     s/iter": a time per item) is a duration; by a unit per second
 *     ("12.3 task/s") or after one ("samples/s 3536") a rate; "0m 53s" is
 *     one duration; a clock "0:01:23" is one when the line has another
 *     value with a unit, and not after a date; a unit followed by ':' or
 *     '=' and a number is that number's ("15.161 samples/sec: 1.055"),
 *     and one in brackets before a number too ("iter time (s): 15.161");
 *   - its name is the text before it back to a separator ("|E2E
 *     latency=" is "E2E latency"), else the unit's item ("9240 ms/iter":
 *     "iter"), else the line's first word, else "time" or the rate's item;
 *   - "(65.81%)" after a value is its share of the line's first value
 *     without one: it is a component of it, and a bare number with a
 *     share ("Others=0.22 (2.73%)") takes the unit of the other shares;
 *   - "X (Y)" with Y in X's unit (or none) is a value and its running
 *     mean (role average, parent X);
 *   - ETA and remaining-time values are not read;
 *   - roles only where the words or values say them (step_roles()): a
 *     duration named like one step (step, iter, batch, E2E) is the step
 *     and the line's other durations its components; another value per
 *     iteration a mean; a value that rose on every line and doubled
 *     before the template qualified a clock ("train_time:487ms",
 *     16482ms, 34703ms); the rest none, for the analysis to infer
 *     from the name.
 *
 * A template is a series once seen min_count times with values that were
 * not all the same; until then its lines wait (at most TP_DISC_PENDING
 * of them), and go out in input order when it qualifies.
 */
#include "discover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/base.h"
#include "parse/scan/scan.h"

#define SIM_THRESHOLD 0.5
#define HASH_SIZE 1024
#define MAX_LINE 2048   /* bytes of a line that are tokenized */
#define PEND_TEXT 1024  /* bytes of a waiting line kept (a longer one is dropped) */

/* TK_GAP: the middle of a line of more tokens than a template holds
 * (TAIL_TOKENS of its end are kept after it, where "3s/step" is) */
enum { TK_WORD, TK_NUM, TK_PUNCT, TK_WILD, TK_GAP };
#define TAIL_TOKENS 16
#define GAP_TEXT "<...>"
enum { CK_NO, CK_CLOCK, CK_COMPOUND }; /* a number's form */

struct tok {
	const char *s;
	unsigned short n;
	unsigned char kind;
	unsigned char sp;    /* blanks before it: 1, 2 where a tab is among them */
	unsigned char form;  /* CK_* */
	unsigned char unit;  /* a word after a number: 1 + its unit_kind(), set by tokenize(); 0 otherwise */
	double v;            /* TK_NUM: the value (seconds for a clock or compound) */
};

enum { VS_DUR, VS_RATE, VS_MEAN };

/* A value a series reads at one token position. */
struct vslot {
	int pos;
	int kind;          /* VS_* */
	double unit;       /* seconds per unit of a duration (0: a clock or compound) */
	int role;          /* enum tp_role */
	/* the name: tokens from..to of each line (a wildcard among them is the
	 * line's own word), or, with from > to, the text in names; the text
	 * with <*> for a wildcard is in names as well */
	int from, to;
	size_t name, name_len;
	int pfrom, pto;    /* the parent, likewise (pfrom > pto and parent_len 0: none) */
	size_t parent, parent_len;
	int mean;          /* the name is the value's and " (mean)" */
	int unit_pos;      /* the rate's unit token, or -1: its unit is in names at unit_text */
	size_t unit_text;
	int per;           /* a duration per iteration ("s/iter") */
	int qual;          /* 1 + the token before the name that says its phase
			    * ("Epoch 50 Val, ... Cost 239.5 sec"), or 0 */
	int pqual;         /* the parent slot's qual, or 0 */
	int count_pos;     /* the steps a window's time spans ("Time(1000 iters)"), or -1 */
	double count_n;    /* the same written in the unit ("6.77566s/20 iters"), or 0 */
};

struct pend {
	uint64_t line;
	int rank;
	char ts[TP_TS_MAX];
	int has_ts;
	uint64_t seen;     /* positions the line's other readers read */
	int others;        /* another reader read a value of the line */
	char *text;        /* the line (owned), at most PEND_TEXT bytes */
	size_t n;
};

struct tmpl {
	unsigned id;
	int live;
	uint32_t key;
	int ntok;
	unsigned char kind[TP_DISC_MAX_TOKENS];
	unsigned char sp[TP_DISC_MAX_TOKENS];
	unsigned char form[TP_DISC_MAX_TOKENS];
	char *tok[TP_DISC_MAX_TOKENS]; /* word and punctuation texts (owned) */
	unsigned short len[TP_DISC_MAX_TOKENS];
	double first[TP_DISC_MAX_TOKENS];
	double last[TP_DISC_MAX_TOKENS];
	double before[TP_DISC_MAX_TOKENS]; /* the value before the last */
	uint64_t rose;     /* positions whose number rose on every line */
	uint64_t clock;    /* positions read as clocks, set when it qualified */
	uint64_t varied;   /* positions whose number changed */
	uint64_t fresh;    /* positions whose number other readers missed on some line */
	uint64_t keys;     /* positions of words that name a time or a rate (names_time) */
	uint64_t count;
	int series;
	int cut;           /* its first line had more tokens than it holds */
	int counter;       /* the position of the iteration count (counter_pos), or -1 */
	int changed;       /* slots to be derived again */
	struct vslot *slots;
	int nslots;
	struct strbuf names;
	struct strbuf text; /* "|E2E latency=<*>s ..." */
	char *sample;
	uint64_t sample_line;
	/* lines waiting for it to qualify, each kept whole (its words name it) */
	struct pend pend[TP_DISC_PENDING];
	int npend;
	int hnext;         /* hash chain */
	int prev, next;    /* recency list */
};

struct tp_miner {
	unsigned min_count;
	struct tmpl *t;
	int n;             /* templates in use or evicted-and-free: t[0..n) */
	int head[HASH_SIZE];
	int mru, lru;      /* recency list ends */
	int nlive;
	unsigned next_id;
	struct tp_miner_stats st;
	struct strbuf name; /* a record's name, parent and origin */
	struct strbuf parent;
	struct strbuf origin;
	char ts[TP_TS_MAX];
};

/* ---- tokens --------------------------------------------------------- */

static int wordc(unsigned char c)
{
	return tp_is_word((char)c) || c >= 0x80;
}

/* The factor of an SI letter written onto a number ("113.4k"), or 0. */
static double si_factor(char c)
{
	return c == 'k' || c == 'K' ? 1e3 : c == 'M' ? 1e6 : c == 'G' ? 1e9 : 0;
}

/* Whether q (in [s,e)) starts a compound's next part, after a number and
 * its unit's letter: the 8 of "2m8.77s", bash's "0m0.218s". */
static inline int compound_next(const char *q, const char *s, const char *e)
{
	/* the letter first: every word's first byte comes here */
	return q > s && (q[-1] == 'm' || q[-1] == 'h' || q[-1] == 'd') && q - s >= 2 && q < e && tp_is_digit(*q) &&
	       tp_is_digit(q[-2]);
}

static int num_start(const char *q, const char *s, const char *e)
{
	/* not inside a word, but after a compound's unit ("2m8.77s": the 8.77) */
	if (q > s && (wordc((unsigned char)q[-1]) || q[-1] == '.') && !compound_next(q, s, e))
		return 0;
	const char *d = q;
	/* "(+0.00508)": a change since the last print, not a value in brackets */
	if (*d == '+' && q > s && q[-1] == '(')
		return 0;
	if (*d == '-' || *d == '+')
		d++;
	if (d < e && *d == '.')
		d++;
	return d < e && tp_is_digit(*d);
}

/* At q: "nan" or "inf" as a word of its own, what Python prints for a
 * value it could not take (a rate over no time yet). */
static int not_a_number(const char *q, const char *s, const char *e)
{
	if (e - q < 3 || (q > s && wordc((unsigned char)q[-1])) || (e - q > 3 && wordc((unsigned char)q[3])))
		return 0;
	return !strncasecmp(q, "nan", 3) || !strncasecmp(q, "inf", 3);
}

/* Seconds per unit of a duration unit word ("ms", "sec"), or 0. The bare
 * "m" (minutes or metres) counts only inside "0m 53s". */
static double time_unit(const char *w, size_t n)
{
	double u;
	const char *x;
	/* lower case ("M" is mega, "S" siemens); the bare "m" is minutes or
	 * metres; nanoseconds are left out ("4821 nodes" would make every count
	 * a candidate for the vector test) */
	if ((n == 1 && *w == 'm') || (*w >= 'A' && *w <= 'Z') || *w == 'n')
		return 0;
	return tp_read_time_unit(w, w + n, &u, &x) && x == w + n ? u : 0;
}

enum { U_NONE, U_DUR, U_PER, U_RATE };

/* What a word after a number is: a duration unit, a time per item
 * ("s/iter": *unit seconds), or a unit per second ("task/s"). */
static int unit_kind(const char *w, size_t n, double *unit)
{
	const char *slash = memchr(w, '/', n);
	if (!slash) {
		*unit = time_unit(w, n);
		return *unit > 0 ? U_DUR : U_NONE;
	}
	const char *b = slash + 1, *e = w + n;
	/* a rate per device: "samples/s/p" (MindFormers), "tokens/s/gpu" */
	const char *dev = b < e ? memchr(b, '/', (size_t)(e - b)) : NULL;
	if (dev) {
		static const char *const per[] = { "p", "gpu", "GPU", "dev", "device", "npu", "NPU", "card", "rank" };
		size_t dn = (size_t)(e - dev - 1), i = 0;
		while (i < ARRAY_SIZE(per) && !(strlen(per[i]) == dn && !memcmp(dev + 1, per[i], dn)))
			i++;
		if (i == ARRAY_SIZE(per))
			return U_NONE;
		e = dev;
	}
	if (slash == w || b == e)
		return U_NONE;
	for (const char *q = b; q < e; q++)
		if (!tp_is_alpha(*q))
			return U_NONE;
	if ((*unit = time_unit(w, (size_t)(slash - w))) > 0)
		return U_PER;
	size_t k = (size_t)(e - b);
	/* "images/persec" as well, in a template's slots only: the quick
	 * tests look for a unit after a digit or for "/s", and this line's
	 * other words must bring it to discovery ("time: 0.1995, speed 160
	 * images/persec") */
	if ((k == 1 && *b == 's') || (k == 3 && !memcmp(b, "sec", 3)) || (k == 6 && !memcmp(b, "second", 6)) ||
	    (k == 6 && !memcmp(b, "persec", 6)))
		return U_RATE;
	return U_NONE;
}

static double compound_part(const struct tok *t)
{
	static const struct {
		const char *w;
		double sec;
	} words[] = { { "min", 60 },	   { "mins", 60 }, { "minute", 60 },  { "minutes", 60 }, { "hour", 3600 },
		      { "hours", 3600 },   { "hr", 3600 }, { "hrs", 3600 },   { "day", 86400 },  { "days", 86400 },
		      { "sec", 1 },	   { "secs", 1 },  { "second", 1 },   { "seconds", 1 } };
	if (t->kind != TK_WORD || t->n > 7)
		return 0;
	if (t->n == 1 && (*t->s == 'h' || *t->s == 'm' || *t->s == 's' || *t->s == 'd'))
		return *t->s == 'd' ? 86400 : *t->s == 'h' ? 3600 : *t->s == 'm' ? 60 : 1;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i].w) == t->n && !memcmp(t->s, words[i].w, t->n))
			return words[i].sec;
	return 0;
}

/* A compound's unit stands written onto its number ("2m8s"), or is a word
 * apart ("9 mins 54 seconds"). */
static int compound_unit_at(const struct tok *t)
{
	return !t->sp || t->n >= 3;
}

/* Where a compound's next part starts after the part ending before j:
 * j, or past a comma ("1 hours, 53 minutes, 14 seconds", PyMARL's). */
static int part_after(const struct tok *t, int n, int j)
{
	return j + 1 < n && t[j].kind == TK_PUNCT && *t[j].s == ',' && t[j + 1].kind == TK_NUM ? j + 1 : j;
}

/*
 * At i, a count of days before a clock: "0-00:21:40" (XNMT's, Slurm's
 * days-hours:minutes:seconds) or "1 day, 0:10:38" (Python's timedelta,
 * which prints "23:50:43" the line before): the clock's index, else 0.
 * The clock then stands for both, so that the line keeps its template.
 */
static int days_before_clock(const struct tok *t, int n, int i)
{
	if (t[i].kind != TK_NUM || t[i].form != CK_NO || !(t[i].v >= 0 && t[i].v < 100000) || t[i].v != floor(t[i].v))
		return 0;
	int c = 0;
	if (i + 2 < n && t[i + 1].kind == TK_PUNCT && *t[i + 1].s == '-' && !t[i + 1].sp && !t[i + 2].sp &&
	    t[i].v < 1000)
		c = i + 2;
	else if (i + 3 < n && t[i + 1].kind == TK_WORD && t[i + 1].sp &&
		 ((t[i + 1].n == 3 && !memcmp(t[i + 1].s, "day", 3)) || (t[i + 1].n == 4 && !memcmp(t[i + 1].s, "days", 4))) &&
		 t[i + 2].kind == TK_PUNCT && *t[i + 2].s == ',' && !t[i + 2].sp && t[i + 3].sp)
		c = i + 3;
	if (!c || t[c].kind != TK_NUM || t[c].form != CK_CLOCK || t[c].n < 7 || t[c].s[t[c].n - 3] != ':' ||
	    t[c].s[t[c].n - 6] != ':')
		return 0;
	return c;
}

/* "0m 53s", "1h 2m 3s": numbers with falling units become one. */
static int merge_compounds(struct tok *t, int n)
{
	int out = 0;
	for (int i = 0; i < n; i++) {
		double u1;
		int c = days_before_clock(t, n, i);
		if (c) {
			struct tok d = t[c];
			d.v += t[i].v * 86400;
			d.s = t[i].s;
			d.sp = t[i].sp;
			d.n = (unsigned short)(t[c].s + t[c].n - t[i].s);
			t[out] = d;
			out++;
			i = c;
			continue;
		}
		if (t[i].kind == TK_NUM && t[i].form == CK_NO && i + 3 < n && (u1 = compound_part(&t[i + 1])) >= 60 &&
		    compound_unit_at(&t[i + 1]) && t[part_after(t, n, i + 2)].kind == TK_NUM &&
		    t[part_after(t, n, i + 2)].form == CK_NO) {
			double total = t[i].v * u1, last = u1, u;
			int j = part_after(t, n, i + 2), end = i + 1; /* the last part's unit */
			while (j + 1 < n && t[j].kind == TK_NUM && t[j].form == CK_NO && compound_unit_at(&t[j + 1]) &&
			       (u = compound_part(&t[j + 1])) > 0 && u < last) {
				total += t[j].v * u;
				last = u;
				end = j + 1;
				j = part_after(t, n, j + 2);
			}
			if (end > i + 1 && last == 1) {
				t[out] = t[i];
				t[out].v = total;
				t[out].form = CK_COMPOUND;
				t[out].n = (unsigned short)(t[end].s + t[end].n - t[i].s);
				out++;
				i = end;
				continue;
			}
		}
		t[out++] = t[i];
	}
	return out;
}

/* Tokens [s,e) into t; past max, the first max - 1 - TAIL_TOKENS, a gap
 * and the last TAIL_TOKENS (kept in a ring while the line is read). */
static int tokenize_cut(const char *s, const char *e, struct tok *t, int max, int *cut)
{
	int n = 0, sp = 0, head = max - 1 - TAIL_TOKENS;
	struct tok ring[TAIL_TOKENS];
	uint64_t past = 0; /* tokens after the head */
	const char *q = s;
	*cut = e - s > MAX_LINE;
	if (*cut)
		e = s + MAX_LINE;
	while (q < e) {
		if (*q == ' ' || *q == '\t') {
			/* 2 where a tab is among them: a field's end ("Time 32.7\t EPE") */
			sp = *q == '\t' || sp == 2 ? 2 : 1;
			q++;
			continue;
		}
		struct tok *k = n < head || (n < max && !past) ? &t[n] : &ring[past % TAIL_TOKENS];
		const char *x;
		k->s = q;
		k->sp = (unsigned char)sp;
		k->form = CK_NO;
		k->unit = 0;
		k->v = 0;
		sp = 0;
		if (num_start(q, s, e)) {
			k->kind = TK_NUM;
			if (tp_is_digit(*q) && tp_read_clock_at(q, e, &k->v, &x)) {
				k->form = CK_CLOCK;
			} else if (!tp_read_number(q, e, &k->v, &x) || x == q) {
				k->kind = TK_PUNCT;
				x = q + 1;
			}
			q = x;
		} else if (not_a_number(q, s, e)) {
			/* "Speed (samples/sec) nan" on a step's first line: the slot
			 * of the numbers of the lines after it, with no value */
			k->kind = TK_NUM;
			k->v = NAN;
			q += 3;
		} else if (wordc((unsigned char)*q)) {
			k->kind = TK_WORD;
			q++;
			/* "2m8.77s", bash's "real 0m0.218s": the unit of a
			 * compound's part ends at the next part's number */
			if (!compound_next(q, s, e))
				while (q < e && (wordc((unsigned char)*q) ||
						 ((*q == '/' || *q == '.' || *q == '-') && q + 1 < e &&
						  wordc((unsigned char)q[1]) && wordc((unsigned char)q[-1]))))
					q++;
		} else {
			k->kind = TK_PUNCT;
			q++;
		}
		k->n = (unsigned short)(q - k->s);
		if (k != &t[n])
			past++;
		else if (++n == max) {
			/* full: what follows the head goes to the ring */
			for (int i = head; i < max; i++)
				ring[past++ % TAIL_TOKENS] = t[i];
			n = head;
		}
	}
	if (past) {
		int keep = past < TAIL_TOKENS ? (int)past : TAIL_TOKENS;
		t[n] = (struct tok){ GAP_TEXT, sizeof(GAP_TEXT) - 1, TK_GAP, 1, CK_NO, 0, 0 };
		for (int i = 0; i < keep; i++)
			t[n + 1 + i] = ring[(past - (uint64_t)keep + (uint64_t)i) % TAIL_TOKENS];
		n += 1 + keep;
	}
	return merge_compounds(t, n);
}

/* ---- the quick tests ------------------------------------------------ */

/* The word at q (letters, digits, '/', '_', 'µ' and 'μ'), to its end. */
static const char *word_end(const char *q, const char *e)
{
	while (q < e && (wordc((unsigned char)*q) || (*q == '/' && q + 1 < e && wordc((unsigned char)q[1]))))
		q++;
	return q;
}

static int unit_byte(char c)
{
	return c == 's' || c == 'm' || c == 'u' || c == 'h' || c == '\xc2' || c == '\xce';
}

/* The bytes tp_disc_has_unit stops at: a digit, '/' and '%'. */
static const unsigned char stop_at[256] = {
	['%'] = 1, ['/'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
	['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
};

/* At q: "s", "sec" or "second" ending a word, its length; else 0. */
static size_t rate_sec(const char *q, const char *e)
{
	static const char *const w[] = { "second", "sec", "s" };
	for (size_t i = 0; i < ARRAY_SIZE(w); i++) {
		size_t k = strlen(w[i]);
		if ((size_t)(e - q) >= k && !memcmp(q, w[i], k) && (q + k == e || !tp_is_alpha(q[k])))
			return k;
	}
	return 0;
}

/* tp_disc_has_unit() of the line [s,e), looking from 'from' on. */
static int has_unit_from(const char *s, const char *from, const char *e)
{
	if (e - s > MAX_LINE)
		e = s + MAX_LINE;
	double u;
	for (const char *q = from; q < e; q++) {
		if (!stop_at[(unsigned char)*q])
			continue;
		if (*q == '%' && q + 1 < e && q[1] == '|') {
			/* a tqdm bar's numbers are a progress record's, never a template's */
			const char *c = memchr(q, ']', (size_t)(e - q));
			if (!c)
				return 0;
			q = c;
		} else if (tp_is_digit(*q) && (q == s || !wordc((unsigned char)q[-1]))) {
			while (q < e && (tp_is_digit(*q) || *q == '.'))
				q++;
			if (q[-1] == '.')
				q--; /* "22.s": a number ends a sentence, no unit follows */
			const char *after = q;
			/* "113.4k tok/s": a thousand of a rate's things */
			if (e - q > 3 && si_factor(*q) > 0 && q[1] == ' ') {
				const char *r = word_end(q + 2, e);
				if (memchr(q + 2, '/', (size_t)(r - q - 2)) && unit_kind(q + 2, (size_t)(r - q - 2), &u) == U_RATE)
					return 1;
			}
			if (q < e && *q == ' ')
				q++;
			const char *w = q < e && !tp_is_digit(*q) ? word_end(q, e) : q;
			/* a unit starts like one, or is a rate ("it/s") */
			if (w > q && (unit_byte(*q) || memchr(q, '/', (size_t)(w - q))) &&
			    unit_kind(q, (size_t)(w - q), &u) != U_NONE &&
			    !(w - q > 7 && !memcmp(w - 7, "/persec", 7)))
				return 1;
			q = after - 1; /* the loop looks at what follows the number */
		} else if (*q == '/' && q + 1 < e && q[1] == 's' && (q + 2 == e || !tp_is_alpha(q[2]) || rate_sec(q + 1, e))) {
			/* "samples/s 3536", "train_iter_items/sec: 5297.18" */
			const char *r = q + 1 + rate_sec(q + 1, e);
			if (r < e && *r == ')')
				r++; /* "Speed (samples/sec) 519.3363" */
			while (r < e && (*r == ' ' || *r == ':' || *r == '='))
				r++;
			if (r < e && tp_is_digit(*r))
				return 1;
		}
	}
	return 0;
}

int tp_disc_has_unit(const char *s, const char *e)
{
	return has_unit_from(s, s, e);
}

/* Whether [s, e) is a word that counts steps ("iter", "Batch"). */
static int counts_steps(const char *s, const char *e)
{
	static const char *const words[] = { "iter", "iters", "iteration", "step", "batch" };
	for (size_t w = 0; w < ARRAY_SIZE(words); w++)
		if ((size_t)(e - s) == strlen(words[w]) && !strncasecmp(s, words[w], (size_t)(e - s)))
			return 1;
	return 0;
}

/* A count of steps at the '/' q of the line [s, e) ("iter 13/135")? */
static int count_at(const char *s, const char *q, const char *e)
{
	if (q == s || q + 1 >= e || !tp_is_digit(q[-1]) || !tp_is_digit(q[1]))
		return 0;
	const char *k = q, *n = q + 1;
	while (k > s && tp_is_digit(k[-1]))
		k--;
	while (n < e && tp_is_digit(*n))
		n++;
	/* "12/01/2025", "1.5/2": no count of steps */
	if ((n < e && (*n == '/' || *n == '.')) || (k > s && (k[-1] == '/' || k[-1] == '.')))
		return 0;
	const char *w = k;
	while (w > s && (w[-1] == ' ' || w[-1] == '(' || w[-1] == ':' || w[-1] == '=' || w[-1] == '[') && k - w < 3)
		w--;
	const char *a = w;
	while (a > s && w - a < 16 && tp_is_alpha(a[-1]))
		a--;
	return a < w && counts_steps(a, w);
}

int tp_disc_has_counter(const char *s, const char *e)
{
	if (e - s > MAX_LINE)
		e = s + MAX_LINE;
	for (const char *q = s; q < e; q++) {
		if (*q == '%' && q + 1 < e && q[1] == '|') {
			/* a tqdm bar's count is a progress record's */
			const char *c = memchr(q, ']', (size_t)(e - q));
			if (!c)
				return 0;
			q = c;
		} else if (*q == '/' && count_at(s, q, e)) {
			return 1;
		}
	}
	return 0;
}

/* At r: blanks, then a clock ("00:03:04")? */
static int clock_at(const char *r, const char *e)
{
	r = tp_skip_blanks(r, e);
	const char *d = r;
	while (r < e && tp_is_digit(*r))
		r++;
	return r > d && r + 1 < e && *r == ':' && tp_is_digit(r[1]);
}

/* At r: a number, a blank and the same in brackets ("0.0325 (0.0623)"):
 * the value and running mean of an AverageMeter, which the ImageNet
 * example prints and a great many scripts copied. */
static int meter_at(const char *r, const char *e)
{
	while (r < e && (tp_is_digit(*r) || *r == '.'))
		r++;
	if (e - r < 3 || *r != ' ' || r[1] != '(')
		return 0;
	r = tp_skip_blanks(r + 2, e);
	return r < e && tp_is_digit(*r);
}

/* At r: a number with a decimal point that ends a field: the line's end,
 * ',', ';', '|' or a tab ("| Time 0.9820 | Speed", "total time 18.90,
 * accuracy", "Time 32.7353889942\t EPE"). */
static int plain_at(const char *r, const char *e)
{
	const char *d = r;
	while (r < e && tp_is_digit(*r))
		r++;
	if (r == d || r + 1 >= e || *r != '.' || !tp_is_digit(r[1]))
		return 0;
	for (r++; r < e && tp_is_digit(*r); r++)
		;
	const char *f = tp_skip_blanks(r, e);
	return f == e || *f == ',' || *f == ';' || (*f == '|' && f > r) || memchr(r, '\t', (size_t)(f - r));
}

/* At r: a number, a blank and a time's unit in brackets ("7.178 (s)"). */
static int paren_unit_at(const char *r, const char *e)
{
	while (r < e && (tp_is_digit(*r) || *r == '.'))
		r++;
	if (e - r < 4 || *r != ' ' || r[1] != '(')
		return 0;
	const char *c = word_end(r + 2, e);
	double u;
	return c > r + 2 && c < e && *c == ')' && unit_kind(r + 2, (size_t)(c - r - 2), &u) == U_DUR;
}

/* A word a time per thing is written with, n bytes at w ("s/iter", "time
 * per batch"). */
static int per_step_word_n(const char *w, size_t n)
{
	static const char *const words[] = { "iter", "it", "iteration", "step", "batch", "img", "image", "sample" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncasecmp(w, words[i], n))
			return 1;
	return 0;
}

/* A word after a time word that makes the time no span: "time step: 5"
 * counts steps, "time stamp" and "time zone" are no durations. */
static int not_a_span_word(const char *w, size_t n)
{
	static const char *const words[] = { "step", "steps", "stamp", "stamps", "zone", "index", "idx", "limit",
					     "of", "per", "to", "is", "was", "left", "remaining", "budget" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncasecmp(w, words[i], n))
			return 1;
	return 0;
}

/* A name that ends in "time" or "timer", any case ("Time", "step_time",
 * "runtime", DSFD's "Timer: 0.6654"). */
static int ends_in_time(const char *w, size_t n)
{
	if (n >= 5 && tp_lower(w[n - 1]) == 'r')
		n--;
	return n >= 4 && tp_lower(w[n - 4]) == 't' && tp_lower(w[n - 3]) == 'i' && tp_lower(w[n - 2]) == 'm' &&
	       tp_lower(w[n - 1]) == 'e';
}

/* A name that says a time: one ending in "time" or "timer", or "elapsed". */
static int time_name(const char *w, size_t n)
{
	return ends_in_time(w, n) || (n == 7 && !strncasecmp(w, "elapsed", 7));
}

/* A table row's key that names a time: "TimeElapsed" (OpenAI baselines'
 * TRPO), "time_elapsed", "timelapsed", "epoch_time"; not a count of steps
 * ("timesteps", "total_timesteps") or a stamp. */
static int time_key(const char *w, size_t n)
{
	if (time_name(w, n) || (n >= 7 && !strncasecmp(w + n - 7, "elapsed", 7)))
		return 1;
	if (n < 5 || strncasecmp(w, "time", 4))
		return 0;
	for (size_t i = 4; i + 4 <= n; i++)
		if (!strncasecmp(w + i, "step", 4) || !strncasecmp(w + i, "stam", 4))
			return 0;
	return 1;
}

/* A logger's table row "| TimeElapsed | 584 |" whose key holds the time
 * word at w: the key, a '|' and a number. */
static int table_row_at(const char *s, const char *w, const char *e)
{
	const char *k = tp_skip_blanks(s + 1, e), *r = k;
	while (r < e && (tp_is_alpha(*r) || *r == '_'))
		r++;
	if (w < k || w >= r || !time_key(k, (size_t)(r - k)))
		return 0;
	r = tp_skip_blanks(r, e);
	if (r >= e || *r != '|')
		return 0;
	r = tp_skip_blanks(r + 1, e);
	return r < e && tp_is_digit(*r);
}

/* At q (q >= s + 1, "ime" or "IME" at q, in the line from s): a time word ("time", "timer"),
 * its colon and a digit? */
static int time_word_at(const char *s, const char *q, const char *e)
{
	if (!(q[-1] == 't' || q[-1] == 'T'))
		return 0;
	if (*s == '|' && table_row_at(s, q - 1, e))
		return 1;
	const char *r = q + 3;
	/* "Time Elapsed for This Epoch: 00:03:04": up to four words between
	 * the time word and a clock */
	const char *w = r;
	for (int words = 0; words < 4 && e - w > 2 && *w == ' ' && tp_is_alpha(w[1]); words++) {
		w++;
		while (w < e && tp_is_alpha(*w))
			w++;
		if (w < e && *w == ':' && clock_at(w + 1, e))
			return 1;
	}
	if (r < e && tp_lower(*r) == 'r')
		r++;
	/* a JSON key's closing quote, in an object on one line ("{... \"time\":
	 * 99}", Barlow Twins' stats; a document's lines are no log's) */
	if (r < e && (*r == '"' || *r == '\'') && q - 2 >= s && (q[-2] == *r || q[-2] == '/' || q[-2] == '_') &&
	    memchr(s, '{', (size_t)(q - s)))
		r++; /* and "stats/epoch_time" */
	/* "Epoch Time(s): 390.0861", "time (ms): 41": the unit in brackets;
	 * "time (data): 0.110", a word that qualifies the time */
	const char *b = r < e && *r == ' ' ? r + 1 : r;
	if (e - b >= 3 && *b == '(') {
		const char *c = word_end(b + 1, e);
		double u;
		if (c > b + 1 && c < e && *c == ')' &&
		    (unit_kind(b + 1, (size_t)(c - b - 1), &u) == U_DUR || (c[1] == ':' && tp_is_alpha(b[1])))) {
			r = tp_skip_blanks(c + 1, e);
			if (r < e && (*r == ':' || *r == '='))
				r = tp_skip_blanks(r + 1, e);
			return r < e && tp_is_digit(*r);
		}
	}
	if (e - r >= 6 && *r == ' ' && tp_lower(r[1]) == 'c' && tp_lower(r[2]) == 'o' && tp_lower(r[3]) == 's' &&
	    tp_lower(r[4]) == 't')
		r += 5;
	else
		r = tp_skip_blanks(r, e); /* "time : 43.05", "cost time  1.44" */
	if (r < e && tp_is_alpha(*r) && r[-1] == ' ') {
		/* "Time elasped: 15.8177", "time taken = 3.2": one word after the
		 * time word, whatever its spelling, unless it makes the time a
		 * count ("time step: 5") */
		const char *word = r;
		while (r < e && tp_is_alpha(*r))
			r++;
		/* "Time per batch: 2.648[s]": a step's time */
		if (r - word == 3 && !strncasecmp(word, "per", 3) && r < e && *r == ' ') {
			const char *w2 = r + 1, *x = w2;
			while (x < e && tp_is_alpha(*x))
				x++;
			if (per_step_word_n(w2, (size_t)(x - w2)))
				word = r = x;
		}
		/* "The MLP time is 29.0156" (a DLRM fork's) */
		if (((r - word == 2 && !strncmp(word, "is", 2)) || (r - word == 3 && !strncmp(word, "was", 3))) &&
		    e - r > 1 && r[0] == ' ')
			return plain_at(r + 1, e);
		if (r - word > 12 || (r > word && not_a_span_word(word, (size_t)(r - word))))
			return 0;
		/* "time consumption is 1.32521653," */
		if (e - r > 4 && r[0] == ' ' && ((r[1] == 'i' && r[2] == 's') || (r[1] == 'w' && r[2] == 'a' && r[3] == 's')))
			return plain_at(r + (r[1] == 'i' ? 4 : 5), e);
	}
	if (r < e && tp_is_digit(*r) && r[-1] == ' ')
		/* "time 0.0325 (0.0623)", "Time 0.9820 |", "at time 0:00:23.95" */
		return meter_at(r, e) || plain_at(r, e) || clock_at(r, e) || paren_unit_at(r, e);
	if (e - r > 3 && r[0] == '-' && r[1] == '-' && r[2] == ' ' && tp_is_alpha(r[-1]))
		r++; /* "cost time pnet-- 1.47   rnet-- 0.02" */
	else if (r >= e || (*r != ':' && *r != '='))
		return 0;
	/* a Python tuple's quoted label: "('time:', 11.89)" */
	if (e - r > 3 && (r[1] == '\'' || r[1] == '"') && r[2] == ',')
		r += 2;
	r = tp_skip_blanks(r + 1, e);
	return r < e && tp_is_digit(*r);
}

/* The seconds a name's unit suffix says ("updt_s", "wall_ms",
 * "epoch_sec"), or 0. */
static double suffix_unit(const char *w, size_t n)
{
	static const struct {
		const char *sfx;
		double unit;
	} sfx[] = { { "_s", 1 }, { "_sec", 1 }, { "_ms", 1e-3 } };
	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t k = strlen(sfx[i].sfx);
		if (n > k && !memcmp(w + n - k, sfx[i].sfx, k))
			return sfx[i].unit;
	}
	return 0;
}

/* The verbs of a span before a clock ("Epoch took 00:01:10"). */
static const char *const took_verbs[] = { "took", "taken", "takes", "spent", "lasted" };

/* Is the word [w, w+n) one of took_verbs? */
static int is_took(const char *w, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(took_verbs); i++)
		if (strlen(took_verbs[i]) == n && !strncasecmp(w, took_verbs[i], n))
			return 1;
	return 0;
}

/* At c (a ':' of the line [s,e)): a clock's first colon after one of
 * took_verbs and a blank ("took 00:01:10", "took 0-00:00:28")? */
static int took_clock_at(const char *s, const char *c, const char *e)
{
	if (c + 1 >= e || !tp_is_digit(c[1]))
		return 0;
	const char *d = c;
	while (d > s && tp_is_digit(d[-1]))
		d--;
	if (d - s >= 3 && d[-1] == '-' && tp_is_digit(d[-2])) {
		/* "took 0-00:00:28": days first */
		for (d--; d > s && tp_is_digit(d[-1]);)
			d--;
	}
	if (d == c || d - s < 2 || d[-1] != ' ')
		return 0;
	const char *w = d - 1;
	while (w > s && tp_is_alpha(w[-1]))
		w--;
	return is_took(w, (size_t)(d - 1 - w));
}

/* At c (a ':' of the line [s,e)): "elapsed: 0.37", or a JSON key's
 * "\"elapsed\": 0.37"? */
static int elapsed_at(const char *s, const char *c, const char *e)
{
	const char *w = c;
	if (w > s && (w[-1] == '"' || w[-1] == '\''))
		w--;
	/* the last letter first: most colons follow no "elapsed"; an
	 * evaluation's "average FPS: 9.34" is a rate with no unit, as is
	 * CleanRL's "SPS: 1147" */
	int fps = w - s >= 3 && tp_lower(w[-1]) == 's' &&
		  (!strncasecmp(w - 3, "fps", 3) || !memcmp(w - 3, "SPS", 3)) &&
		  (w - 3 == s || !wordc((unsigned char)w[-4]));
	if (!fps && (w - s < 7 || tp_lower(w[-1]) != 'd' || strncasecmp(w - 7, "elapsed", 7) ||
		     (w - 7 > s && wordc((unsigned char)w[-8]))))
		return 0;
	const char *r = tp_skip_blanks(c + 1, e);
	return r < e && tp_is_digit(*r);
}

/* At q (a '_' of the line [s,e)): "_s:", "_ms=", "_sec: " then a digit. */
static int unit_suffix_at(const char *s, const char *q, const char *e)
{
	const char *r = q + 1;
	size_t k = r < e && *r == 's' ? (e - r >= 3 && !memcmp(r, "sec", 3) ? 3 : 1)
		   : e - r >= 2 && !memcmp(r, "ms", 2) ? 2
							 : 0;
	if (!k || q == s || !tp_is_alpha(q[-1]))
		return 0;
	r += k;
	if (r >= e || (*r != ':' && *r != '='))
		return 0;
	r = tp_skip_blanks(r + 1, e);
	return r < e && tp_is_digit(*r);
}

/* At h, one of the bytes a time word's test looks at ('_', ':', 'm', 'M'),
 * in the line [s,e): "_s:", "took 00:01:10", "time: 3.1" or "TIME=3"? */
static int time_word_hit(const char *s, const char *h, const char *e)
{
	switch (*h) {
	case '_':
		return unit_suffix_at(s, h, e);
	case ':':
		/* a clock's colon has its digit after it, a label's a blank */
		return h + 1 < e && tp_is_digit(h[1]) ? took_clock_at(s, h, e) : elapsed_at(s, h, e);
	case 'm':
		/* "Time/Batch(ms) 691.84": a time's unit in brackets, a number after */
		if (h > s && h[-1] == '(' && e - h >= 5 && h[1] == 's' && h[2] == ')') {
			const char *r = h + 3;
			while (r < e && (*r == ' ' || *r == ':' || *r == '='))
				r++;
			return r > h + 3 && r < e && tp_is_digit(*r);
		}
		return h - s >= 2 && h + 1 < e && h[-1] == 'i' && h[1] == 'e' && time_word_at(s, h - 1, e);
	case 'M':
		return h - s >= 2 && h + 1 < e && h[-1] == 'I' && h[1] == 'E' && time_word_at(s, h - 1, e);
	default:
		return 0;
	}
}

int tp_disc_has_time_word(const char *s, const char *e)
{
	if (e - s > MAX_LINE)
		e = s + MAX_LINE;
	/* each byte by memchr: few lines have many */
	static const char bytes[] = "_:mM";
	for (const char *b = bytes; *b; b++)
		for (const char *q = s; q < e;) {
			const char *h = memchr(q, *b, (size_t)(e - q));
			if (!h)
				break;
			if (time_word_hit(s, h, e))
				return 1;
			q = h + 1;
		}
	return 0;
}

typedef unsigned char v16 __attribute__((vector_size(16)));

static v16 load16(const char *p)
{
	v16 v;
	memcpy(&v, p, 16);
	return v;
}

static v16 splat(unsigned char c)
{
	v16 v;
	memset(&v, c, sizeof(v));
	return v;
}

/* Bytes that may start a unit right after a number: s m u h (ms, min, us,
 * h), and the first byte of µ (c2 b5) and μ (ce bc). */
static v16 unit_start(v16 b)
{
	return (v16)((b == splat('s')) | (b == splat('m')) | (b == splat('u')) | (b == splat('h')) |
		     (b == splat(0xc2)) | (b == splat(0xce)));
}

/* Whether 16 positions from p may start "digit[ ]unit" or "/s": p[0..18)
 * must be readable. */
static int maybe16(const char *p)
{
	v16 b0 = load16(p), b1 = load16(p + 1), b2 = load16(p + 2);
	v16 digit = (v16)((b0 >= splat('0')) & (b0 <= splat('9')));
	v16 c = digit & (unit_start(b1) | ((v16)(b1 == splat(' ')) & unit_start(b2)));
	/* "/s" not inside a word, and "/sec" */
	v16 lower = (v16)((b2 >= splat('a')) & (b2 <= splat('z')) & (b2 != splat('e')));
	c |= (v16)(b0 == splat('/')) & (v16)(b1 == splat('s')) & ~lower;
	/* "iter 13/135": a count of steps, read where its line is stamped */
	c |= digit & (v16)(b1 == splat('/')) & (v16)((b2 >= splat('0')) & (b2 <= splat('9')));
	uint64_t w[2];
	memcpy(w, &c, sizeof(w));
	return (w[0] | w[1]) != 0;
}

static const char *line_start(const char *s, const char *q)
{
	while (q > s && q[-1] != '\n')
		q--;
	return q;
}

/* maybe16's test at one position, for the last bytes. */
static int maybe_at(const char *p, const char *e)
{
	if (tp_is_digit(*p) && p + 1 < e) {
		if (unit_byte(p[1]) || (p[1] == '/' && p + 2 < e && tp_is_digit(p[2])))
			return 1;
		return p[1] == ' ' && p + 2 < e && unit_byte(p[2]);
	}
	return *p == '/' && p + 1 < e && p[1] == 's' && (p + 2 == e || p[2] < 'a' || p[2] > 'z' || p[2] == 'e');
}

/* The line of a hit [s,e) holds a unit: *q its start; else *q the next line. */
static int line_has_unit(const char *s, const char *hit, const char *e, const char **q)
{
	const char *ls = line_start(s, hit);
	const char *le = memchr(hit, '\n', (size_t)(e - hit));
	if (!le)
		le = e;
	/* no number before the one the hit is in, or the one before the
	 * hit's word ("1.39 iters/sec" hit at its '/'), has a unit: the test
	 * is looser than this one, and found none before it */
	const char *from = hit;
	while (from > ls && from[-1] != ' ' && from[-1] != '\t')
		from--;
	while (from > ls && from[-1] == ' ')
		from--;
	if (from - ls >= 2 && tp_is_digit(from[-2]) && si_factor(from[-1]) > 0)
		from--; /* "113.4k tok/s" */
	while (from > ls && (tp_is_digit(from[-1]) || from[-1] == '.'))
		from--;
	/* a bar before it is skipped to its ']', which may lie past it */
	for (const char *pc = ls; pc < from && (pc = memchr(pc, '%', (size_t)(from - pc))); pc++)
		if (pc + 1 < from && pc[1] == '|') {
			from = ls;
			break;
		}
	/* the scan passes the rest of the line: a count after the hit is
	 * read here ("... 23:08:57,029 semantic_segmentation INFO: Iters:
	 * 10/20000", a hit at "9 s" that is no unit) */
	if (has_unit_from(ls, from, le) || (memchr(hit, '/', (size_t)(le - hit)) && tp_disc_has_counter(ls, le))) {
		*q = ls;
		return 1;
	}
	*q = le < e ? le + 1 : e;
	return 0;
}

/* r, the line ends before it in *nl (where asked): n of them counted up to
 * cf, which may lie past r only within r's line, the rest counted here. */
static const char *counted(const char *cf, const char *r, uint64_t n, uint64_t *nl)
{
	if (nl)
		*nl = n + (r > cf ? tp_count_newlines(cf, r) : 0);
	return r;
}

/* The generic test: 16 positions at a time, the line verified at a hit. */
static const char *next_line_generic(const char *s, const char *e)
{
	const char *q = s;
	while (q < e) {
		const char *hit = NULL;
		for (; e - q >= 18 && !hit; q += 16)
			if (maybe16(q))
				hit = q;
		for (; !hit && q < e; q++)
			if (maybe_at(q, e))
				hit = q;
		if (!hit)
			return e;
		if (line_has_unit(s, hit, e, &q))
			return q;
	}
	return e;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/*
 * maybe16's test 32 positions at a time, and the bars of tqdm skipped as
 * tp_disc_has_unit skips them ("%|" to the next ']' on its line): a hit
 * inside one is no reason to read the line, so a log of progress bars is
 * not read line by line. A unit's first byte is found by a nibble lookup:
 * s u (7x), m h (6x), c2 ce (Cx), one bit each row.
 */
/* Past a tqdm bar opened at o: after its ']', or at its line's end, or e;
 * 32 bytes at a time while they are readable (limit). */
__attribute__((target("avx2"))) static const char *past_bar(const char *o, const char *e, const char *limit)
{
	const __m256i c_rb = _mm256_set1_epi8(']'), c_nl = _mm256_set1_epi8('\n');
	const char *p = o;
	for (; limit - p >= 32 && p < e; p += 32) {
		__m256i b = _mm256_loadu_si256((const __m256i *)p);
		uint32_t m = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(b, c_rb), _mm256_cmpeq_epi8(b, c_nl)));
		if (m) {
			p += __builtin_ctz(m);
			return p >= e ? e : *p == ']' ? p + 1 : p;
		}
	}
	for (; p < e; p++)
		if (*p == ']' || *p == '\n')
			return *p == ']' ? p + 1 : p;
	return e;
}

/* The nibble lookup of a unit's first byte (s u: 7x, m h: 6x, the first
 * bytes of µ and μ: Cx, one bit each row), and the bits it gives the 32
 * bytes of b (lo_tab, hi_tab and nib in scope): any set, a unit may start. */
#define UNIT_LO_TAB                                                                                      \
	_mm256_setr_epi8(0, 0, 4, 1, 0, 1, 0, 0, 2, 0, 0, 0, 0, 2, 4, 0, 0, 0, 4, 1, 0, 1, 0, 0, 2, 0, 0, 0, 0, \
			 2, 4, 0)
#define UNIT_HI_TAB                                                                                      \
	_mm256_setr_epi8(0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 4, \
			 0, 0, 0)
#define UNIT_BITS(b)                                                           \
	_mm256_and_si256(_mm256_shuffle_epi8(lo_tab, _mm256_and_si256(b, nib)), \
			 _mm256_shuffle_epi8(hi_tab, _mm256_and_si256(_mm256_srli_epi16(b, 4), nib)))

/*
 * Past the 32-byte blocks from q in which no position may start a unit:
 * a digit then a unit's first byte (a bit of the nibble lookup), or a
 * blank and one; "/s"; "%|". Nearly all the blocks between two candidate
 * lines are such, and this loop of its own keeps its constants in
 * registers. It stops at e, at a block with a hit, or where fewer than 34
 * bytes are readable; the line ends of the blocks passed are added to *n.
 */
__attribute__((target("avx2"))) static const char *quiet_blocks(const char *q, const char *e, const char *limit,
								 uint64_t *n)
{
	const __m256i lo_tab = UNIT_LO_TAB, hi_tab = UNIT_HI_TAB;
	const __m256i nib = _mm256_set1_epi8(0x0f), c_0 = _mm256_set1_epi8('0'), c_9 = _mm256_set1_epi8(9);
	const __m256i c_sp = _mm256_set1_epi8(' '), c_sl = _mm256_set1_epi8('/'), c_s = _mm256_set1_epi8('s');
	const __m256i c_pc = _mm256_set1_epi8('%'), c_bar = _mm256_set1_epi8('|'), c_nl = _mm256_set1_epi8('\n');
	uint64_t c = 0;
	const __m256i zero = _mm256_setzero_si256();
	while (limit - q >= 34 && q < e) {
		__m256i b0 = _mm256_loadu_si256((const __m256i *)q);
		__m256i b1 = _mm256_loadu_si256((const __m256i *)(q + 1));
		__m256i b2 = _mm256_loadu_si256((const __m256i *)(q + 2));
		__m256i d = _mm256_sub_epi8(b0, c_0), d2 = _mm256_sub_epi8(b2, c_0);
		__m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, c_9), d);
		/* a digit, '/' and a digit: a count of steps ("iter 13/135") */
		__m256i count = _mm256_and_si256(_mm256_and_si256(digit, _mm256_cmpeq_epi8(b1, c_sl)),
						 _mm256_cmpeq_epi8(_mm256_min_epu8(d2, c_9), d2));
		__m256i u = _mm256_or_si256(UNIT_BITS(b1), _mm256_and_si256(_mm256_cmpeq_epi8(b1, c_sp), UNIT_BITS(b2)));
		__m256i t = _mm256_or_si256(
			_mm256_or_si256(_mm256_and_si256(digit, u), count),
			_mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(b0, c_sl), _mm256_cmpeq_epi8(b1, c_s)),
					_mm256_and_si256(_mm256_cmpeq_epi8(b0, c_pc), _mm256_cmpeq_epi8(b1, c_bar))));
		uint32_t ends = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b0, c_nl));
		if (e - q < 32) {
			/* the last block, cut at e: its bytes past e are only read */
			uint32_t in = (1u << (e - q)) - 1;
			if (~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(t, zero)) & in)
				break;
			c += (uint64_t)__builtin_popcount(ends & in);
			q = e;
			break;
		}
		if (!_mm256_testz_si256(t, t))
			break;
		c += (uint64_t)__builtin_popcount(ends);
		q += 32;
	}
	*n += c;
	return q;
}

__attribute__((target("avx2"))) static const char *next_line_avx2(const char *s, const char *e,
								   const char *limit, uint64_t *nl)
{
	const __m256i lo_tab = UNIT_LO_TAB, hi_tab = UNIT_HI_TAB;
	const __m256i nib = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
	const __m256i c_0 = _mm256_set1_epi8('0' - 1), c_9 = _mm256_set1_epi8('9' + 1);
	const __m256i c_a = _mm256_set1_epi8('a' - 1), c_z = _mm256_set1_epi8('z' + 1);
	const __m256i c_e = _mm256_set1_epi8('e'), c_sp = _mm256_set1_epi8(' '), c_sl = _mm256_set1_epi8('/');
	const __m256i c_s = _mm256_set1_epi8('s'), c_pc = _mm256_set1_epi8('%'), c_bar = _mm256_set1_epi8('|');
	const __m256i c_a1 = _mm256_set1_epi8('a');
#define NOT_UNIT(b) _mm256_cmpeq_epi8(UNIT_BITS(b), zero)
	const char *q = s;
	/* the line ends in [s,cf) are counted in n: those of the blocks the
	 * quick test passes on the way, the rest by tp_count_newlines */
	const char *cf = s;
	uint64_t n = 0;
	char pad[64];
	while (q < e) {
		const char *hit = NULL;
		while (!hit && q < e) {
			/* the line ends before q counted, the blocks without a
			 * unit are passed and theirs counted on the way */
			if (cf < q)
				n += tp_count_newlines(cf, q);
			q = cf = quiet_blocks(q, e, limit, &n);
			if (q >= e)
				break;
			/* 34 bytes are read at b: the last ones from a copy padded
			 * with NULs, which no test takes for a digit, a unit or a bar */
			const char *b = q;
			if (limit - q < 34) {
				memset(pad, 0, sizeof(pad));
				memcpy(pad, q, (size_t)(e - q));
				b = pad;
			}
			__m256i b0 = _mm256_loadu_si256((const __m256i *)b);
			__m256i b1 = _mm256_loadu_si256((const __m256i *)(b + 1));
			__m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(b0, c_0), _mm256_cmpgt_epi8(c_9, b0));
			uint32_t open = (uint32_t)_mm256_movemask_epi8(
				_mm256_and_si256(_mm256_cmpeq_epi8(b0, c_pc), _mm256_cmpeq_epi8(b1, c_bar)));
			/* first the blocks where no unit can start: no digit before a
			 * byte from 'a' up (a unit's first letter, or µ's), before a
			 * blank and one, or "/s" (most of a log's blocks, at half the
			 * cost) */
			__m256i b2 = _mm256_loadu_si256((const __m256i *)(b + 2));
			__m256i sp_a = _mm256_and_si256(_mm256_cmpeq_epi8(b1, c_sp),
							_mm256_cmpeq_epi8(_mm256_max_epu8(b2, c_a1), b2));
			__m256i count = _mm256_and_si256(
				_mm256_and_si256(digit, _mm256_cmpeq_epi8(b1, c_sl)),
				_mm256_and_si256(_mm256_cmpgt_epi8(b2, c_0), _mm256_cmpgt_epi8(c_9, b2)));
			__m256i may = _mm256_or_si256(
				_mm256_and_si256(digit, _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(b1, c_a1), b1), sp_a)),
				_mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(b0, c_sl), _mm256_cmpeq_epi8(b1, c_s)),
						count));
			uint32_t m = (uint32_t)_mm256_movemask_epi8(may);
			if (e - q < 32) /* the bytes past e are only read: the next line's */
				m &= (1u << (e - q)) - 1, open &= (1u << (e - q)) - 1;
			if (!m && !open) {
				q += 32;
				continue;
			}
			/* a digit then a unit, or a digit, a blank and a unit */
			__m256i nu = _mm256_and_si256(NOT_UNIT(b1),
						      _mm256_or_si256(_mm256_xor_si256(_mm256_cmpeq_epi8(b1, c_sp),
										       _mm256_set1_epi8(-1)),
								      NOT_UNIT(b2)));
			__m256i lower = _mm256_andnot_si256(_mm256_cmpeq_epi8(b2, c_e),
							    _mm256_and_si256(_mm256_cmpgt_epi8(b2, c_a), _mm256_cmpgt_epi8(c_z, b2)));
			__m256i rate = _mm256_and_si256(_mm256_cmpeq_epi8(b0, c_sl), _mm256_cmpeq_epi8(b1, c_s));
			__m256i hv = _mm256_or_si256(_mm256_or_si256(_mm256_andnot_si256(nu, digit), count),
						     _mm256_andnot_si256(lower, rate));
			uint32_t h = (uint32_t)_mm256_movemask_epi8(hv);
			if (e - q < 32)
				h &= (1u << (e - q)) - 1;
			uint32_t before = open ? h & ((1u << __builtin_ctz(open)) - 1) : h;
			if (before) {
				hit = q + __builtin_ctz(before);
			} else if (open) {
				/* a bar: on after its ']', or its line's end */
				q = past_bar(q + __builtin_ctz(open), e, limit);
			} else {
				q += 32;
			}
		}
#undef NOT_UNIT
		if (!hit)
			break;
		/* "/se" is a hit for "/sec"; "xla/service" in a path is none,
		 * and is not worth reading its line for */
		if (*hit == '/' && e - hit > 3 && hit[2] == 'e' && hit[3] != 'c') {
			q = hit + 1;
			continue;
		}
		/* a digit and '/' ("iter 13/135"): a count of steps, its line
		 * the miner's where a word counts them; else the scan goes on
		 * past it (a date, "Channel 03/24") */
		if (tp_is_digit(*hit) && e - hit > 1 && hit[1] == '/') {
			/* as tp_disc_has_counter reads the line: its first MAX_LINE bytes */
			const char *ls = line_start(s, hit), *cut = e - ls > MAX_LINE ? ls + MAX_LINE : e;
			if (hit + 1 < cut && count_at(ls, hit + 1, cut))
				return counted(cf, ls, n, nl);
			q = hit + 1;
			continue;
		}
		if (line_has_unit(s, hit, e, &q))
			return counted(cf, q, n, nl);
	}
	return counted(cf, e, n, nl);
}
#undef UNIT_BITS
#undef UNIT_HI_TAB
#undef UNIT_LO_TAB
#endif

const char *tp_disc_next_line(const char *s, const char *e, const char *limit, uint64_t *nl)
{
#if defined(__GNUC__) && defined(__x86_64__)
	if (__builtin_cpu_supports("avx2"))
		return next_line_avx2(s, e, limit > e ? limit : e, nl);
#else
	(void)limit;
#endif
	return counted(s, next_line_generic(s, e), 0, nl);
}

/* ---- templates ------------------------------------------------------ */

static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

/* Drain's path: the token count and the first two tokens (numbers masked). */
static uint32_t path_key(const struct tok *t, int n)
{
	uint32_t h = fnv(2166136261u, &n, sizeof(n));
	for (int i = 0; i < n && i < 2; i++)
		h = t[i].kind == TK_NUM ? fnv(h, "\0#", 2) : fnv(h, t[i].s, t[i].n);
	return h;
}

/* A word that names a time after it ("step_time: 1.3", "updt_s=0.5"). */
static int names_time(const struct tok *t, int n, int i)
{
	if (i >= n || t[i].kind != TK_WORD)
		return 0;
	int k = i + 1;
	/* a JSON or Python key's closing quote ("\"elapsed\": 0.37") */
	if (k < n && t[k].kind == TK_PUNCT && (*t[k].s == '"' || *t[k].s == '\'') && !t[k].sp)
		k++;
	int labelled = k + 1 < n && t[k].kind == TK_PUNCT && (*t[k].s == ':' || *t[k].s == '=') && t[k + 1].kind == TK_NUM;
	/* an AverageMeter's "time 0.0325 (0.0623)" */
	int meter = k == i + 1 && k + 2 < n && t[k].kind == TK_NUM && t[k].sp && t[k + 1].kind == TK_PUNCT &&
		    *t[k + 1].s == '(' && t[k + 1].sp && t[k + 2].kind == TK_NUM;
	/* a rate's unit before its number ("avg train utts/s  3779") */
	int before = k == i + 1 && k < n && t[k].kind == TK_NUM && t[k].sp;
	if (!labelled && !meter && !before)
		return 0;
	double u;
	if ((labelled || before) && memchr(t[i].s, '/', t[i].n) && unit_kind(t[i].s, t[i].n, &u) != U_NONE)
		return 1;
	if (!labelled && !meter)
		return 0;
	return time_name(t[i].s, t[i].n) || suffix_unit(t[i].s, t[i].n) > 0;
}

/* At i: a metric with no unit, "acc=0.198," or "f1: 0.179;" (a word not
 * naming a time, ':' or '=', a plain number no unit follows, a separator
 * or nothing): its token count, else 0. */
static int plain_metric_at(const struct tok *t, int n, int i)
{
	static const struct {
		const char *w;
		size_t n;
	} counts[] = { { "iter", 4 }, { "iters", 5 }, { "iteration", 9 }, { "step", 4 },
		       { "steps", 5 }, { "epoch", 5 },	{ "batch", 5 } };
	double u;
	/* a JSON or Python key: "\"B\": 5.74751," */
	int q = i + 1 < n && t[i].kind == TK_PUNCT && (*t[i].s == '"' || *t[i].s == '\'') && t[i + 1].kind == TK_WORD &&
		!t[i + 1].sp;
	int w = i + q;
	if (q && !(w + 1 < n && t[w + 1].kind == TK_PUNCT && *t[w + 1].s == *t[i].s && !t[w + 1].sp))
		return 0;
	int c = w + 1 + q; /* the ':' or '=' */
	if (c + 1 >= n || t[w].kind != TK_WORD || t[c].kind != TK_PUNCT || (*t[c].s != ':' && *t[c].s != '=') ||
	    t[c + 1].kind != TK_NUM || t[c + 1].form != CK_NO || names_time(t, n, w))
		return 0;
	/* the line's count of steps stays: it says what the line is */
	for (size_t k = 0; k < ARRAY_SIZE(counts); k++)
		if (counts[k].n == t[w].n && !strncasecmp(t[w].s, counts[k].w, t[w].n))
			return 0;
	int k = c + 2 - i;
	if (i + k < n && t[i + k].kind == TK_WORD && unit_kind(t[i + k].s, t[i + k].n, &u) != U_NONE)
		return 0;
	if (i + k < n && t[i + k].kind == TK_PUNCT && !t[i + k].sp && strchr(",;", *t[i + k].s))
		k++;
	return k;
}

/* Each word after a number: its unit's kind, once a line (tok.unit). */
static void set_units(struct tok *t, int n)
{
	double u;
	for (int i = 1; i < n; i++)
		if (t[i].kind == TK_WORD && t[i - 1].kind == TK_NUM)
			t[i].unit = (unsigned char)(1 + unit_kind(t[i].s, t[i].n, &u));
}

/*
 * Tokens [s,e) into t, at most max. A line of more tokens loses its
 * metrics without a unit first ("n=215300, loss=1.609 (0.000), acc=0.198,
 * ... | valid (3.22 sec)": DeepSleepNet's epoch line holds 110), each run
 * of them one gap, from its third token on (the first two are the
 * template's path); then, if still too long, its middle (tokenize_cut).
 */
#define WIDE_TOKENS (4 * TP_DISC_MAX_TOKENS)
static int tokenize(const char *s, const char *e, struct tok *t, int max, int *cut)
{
	/* most lines fit: no second pass */
	int n = tokenize_cut(s, e, t, max, cut);
	if (n < max || t[max - 1 - TAIL_TOKENS].kind != TK_GAP) {
		set_units(t, n);
		return n;
	}
	struct tok w[WIDE_TOKENS];
	n = tokenize_cut(s, e, w, WIDE_TOKENS, cut);
	int out = 0, over = n - max;
	for (int i = 0; i < n;) {
		int k = over > 0 && i >= 2 ? plain_metric_at(w, n, i) : 0;
		if (!k) {
			w[out++] = w[i++];
			continue;
		}
		/* a run of them becomes one gap */
		while (i < n && (k = plain_metric_at(w, n, i)) > 0 && over > 0) {
			i += k;
			over -= k;
		}
		w[out++] = (struct tok){ GAP_TEXT, sizeof(GAP_TEXT) - 1, TK_GAP, 1, CK_NO, 0, 0 };
		over++;
	}
	n = out;
	set_units(w, n);
	if (n <= max) {
		memcpy(t, w, (size_t)n * sizeof(*t));
		return n;
	}
	/* still too long: the first max - 1 - TAIL_TOKENS, a gap, the last */
	int head = max - 1 - TAIL_TOKENS;
	memcpy(t, w, (size_t)head * sizeof(*t));
	t[head] = (struct tok){ GAP_TEXT, sizeof(GAP_TEXT) - 1, TK_GAP, 1, CK_NO, 0, 0 };
	memcpy(t + head + 1, w + n - TAIL_TOKENS, (size_t)TAIL_TOKENS * sizeof(*t));
	return max;
}

/* At i: the unit of the number before it ("4887.89 tokens/sec")? */
static int unit_after_number(const struct tok *t, int i)
{
	return t[i].unit > 1 + U_NONE;
}

/*
 * The template's first two tokens, every word that names a time and every
 * unit after a number: two lines that differ there are two series ("| >
 * step_time: 1.3 (1.4)" and "| > loader_time: 0.01 (0.02)"; "Speed: 271.06
 * samples/sec 4887.89 tokens/sec" and "Time-cost=4626.838 Updates/sec=0.865"
 * of one length), never one whose name or unit is a wildcard. Other names
 * may differ ("train_loss" and "val_loss" beside one clock).
 */
static int same_path(const struct tmpl *tp, const struct tok *t, int n)
{
	if (tp->ntok != n)
		return 0;
	for (int i = 0; i < n; i++) {
		if (i >= 2 && unit_after_number(t, i)) {
			/* a unit of the same kind: a duration's may change ("576 ms"
			 * and "369 µs" of IPython's %timeit), a rate stays a rate */
			double u;
			if (tp->kind[i] == TK_WILD ||
			    (tp->kind[i] == TK_WORD && tp->len[i] == t[i].n && !memcmp(tp->tok[i], t[i].s, t[i].n)) ||
			    (tp->kind[i] == TK_WORD && unit_kind(tp->tok[i], tp->len[i], &u) + 1 == t[i].unit))
				continue;
			return 0;
		}
		/* a word that names a time or a rate, in the line or in the
		 * template's first, is the same in both ("utts/s 3779" is
		 * not "wer 50.17") */
		if (i >= 2 && !(tp->kind[i] == TK_WORD && (tp->keys >> i & 1 || names_time(t, n, i))))
			continue;
		if ((tp->kind[i] == TK_NUM) != (t[i].kind == TK_NUM))
			return 0;
		if (t[i].kind != TK_NUM && (tp->len[i] != t[i].n || memcmp(tp->tok[i], t[i].s, t[i].n)))
			return 0;
	}
	return 1;
}

static int agrees(const struct tmpl *tp, int i, const struct tok *t)
{
	switch (tp->kind[i]) {
	case TK_WILD:
		return 1;
	case TK_NUM:
		return t->kind == TK_NUM;
	default:
		return t->kind == tp->kind[i] && tp->len[i] == t->n && !memcmp(tp->tok[i], t->s, t->n);
	}
}

static double similarity(const struct tmpl *tp, const struct tok *t, int n)
{
	int same = 0;
	for (int i = 0; i < n; i++)
		same += agrees(tp, i, t + i);
	return n ? (double)same / n : 1;
}

static void unlink_recent(struct tp_miner *m, int i)
{
	struct tmpl *tp = &m->t[i];
	if (tp->prev >= 0)
		m->t[tp->prev].next = tp->next;
	else
		m->mru = tp->next;
	if (tp->next >= 0)
		m->t[tp->next].prev = tp->prev;
	else
		m->lru = tp->prev;
	tp->prev = tp->next = -1;
}

static void touch(struct tp_miner *m, int i)
{
	if (m->mru == i)
		return;
	if (m->t[i].prev >= 0 || m->t[i].next >= 0 || m->lru == i)
		unlink_recent(m, i);
	struct tmpl *tp = &m->t[i];
	tp->next = m->mru;
	tp->prev = -1;
	if (m->mru >= 0)
		m->t[m->mru].prev = i;
	m->mru = i;
	if (m->lru < 0)
		m->lru = i;
}

static void clear_tmpl(struct tmpl *tp)
{
	for (int i = 0; i < tp->ntok; i++)
		free(tp->tok[i]);
	free(tp->slots);
	for (int k = 0; k < tp->npend; k++)
		free(tp->pend[k].text);
	free(tp->sample);
	strbuf_release(&tp->names);
	strbuf_release(&tp->text);
	memset(tp, 0, sizeof(*tp));
	tp->prev = tp->next = tp->hnext = -1;
}

/* Frees the least recently used template for reuse; returns its index. */
static int evict(struct tp_miner *m)
{
	int i = m->lru;
	struct tmpl *tp = &m->t[i];
	int *link = &m->head[tp->key % HASH_SIZE];
	while (*link != i)
		link = &m->t[*link].hnext;
	*link = tp->hnext;
	unlink_recent(m, i);
	clear_tmpl(tp);
	m->nlive--;
	m->st.evicted++;
	return i;
}

static void add_text(struct tmpl *tp)
{
	strbuf_reset(&tp->text);
	for (int i = 0; i < tp->ntok; i++) {
		if (tp->sp[i] && i)
			strbuf_addch(&tp->text, ' ');
		strbuf_addstr(&tp->text, tp->kind[i] == TK_NUM || tp->kind[i] == TK_WILD ? "<*>" : tp->tok[i]);
	}
}

static int new_tmpl(struct tp_miner *m, uint32_t key, const struct tok *t, int n, const struct tp_disc_line *ln)
{
	int i;
	if (m->nlive >= TP_DISC_MAX_TEMPLATES)
		i = evict(m);
	else if (m->n < TP_DISC_MAX_TEMPLATES)
		i = m->n++;
	else
		for (i = 0; m->t[i].live; i++)
			;
	struct tmpl *tp = &m->t[i];
	clear_tmpl(tp);
	tp->live = 1;
	tp->id = ++m->next_id;
	tp->key = key;
	tp->ntok = n;
	for (int k = 0; k < n; k++) {
		tp->kind[k] = t[k].kind;
		tp->sp[k] = t[k].sp;
		tp->form[k] = t[k].form;
		tp->first[k] = t[k].v;
		tp->last[k] = t[k].v;
		tp->before[k] = t[k].v;
		tp->tok[k] = t[k].kind == TK_NUM ? NULL : xmemdup(t[k].s, t[k].n);
		tp->len[k] = t[k].n;
		if (k >= 2 && names_time(t, n, k))
			tp->keys |= (uint64_t)1 << k;
	}
	tp->rose = ~(uint64_t)0;
	tp->changed = 1;
	tp->sample = xmemdup(ln->s, ln->n > 512 ? 512 : ln->n);
	tp->sample_line = ln->line;
	add_text(tp);
	tp->hnext = m->head[key % HASH_SIZE];
	m->head[key % HASH_SIZE] = i;
	m->nlive++;
	m->st.templates++;
	return i;
}

/* The line joins tp: positions that differ become wildcards. */
static void merge(struct tmpl *tp, const struct tok *t)
{
	int changed = 0;
	for (int i = 0; i < tp->ntok; i++) {
		if (agrees(tp, i, t + i)) {
			if (tp->kind[i] == TK_NUM) {
				if (t[i].v != tp->first[i])
					tp->varied |= (uint64_t)1 << i;
				if (!(t[i].v > tp->last[i]))
					tp->rose &= ~((uint64_t)1 << i);
				tp->before[i] = tp->last[i];
				tp->last[i] = t[i].v;
			}
			continue;
		}
		free(tp->tok[i]);
		tp->tok[i] = NULL;
		tp->kind[i] = TK_WILD;
		changed = 1;
	}
	if (changed) {
		tp->changed = 1;
		add_text(tp);
	}
}

/* ---- the values a template reads ------------------------------------ */

static int word_is(const struct tmpl *tp, int i, const char *w)
{
	return i >= 0 && i < tp->ntok && tp->kind[i] != TK_NUM && tp->kind[i] != TK_WILD && !strcmp(tp->tok[i], w);
}

static int is_word(const struct tmpl *tp, int i)
{
	return i >= 0 && i < tp->ntok && tp->kind[i] == TK_WORD;
}

static int punct_is(const struct tmpl *tp, int k, char c)
{
	return k >= 0 && k < tp->ntok && tp->kind[k] == TK_PUNCT && *tp->tok[k] == c;
}

/* Whether pos ends "--" right after a word and before a blank ("pnet-- 1.47"). */
static int dashes_at(const struct tmpl *tp, int pos)
{
	return pos >= 2 && pos + 1 < tp->ntok && tp->kind[pos] == TK_PUNCT && *tp->tok[pos] == '-' &&
	       tp->kind[pos - 1] == TK_PUNCT && *tp->tok[pos - 1] == '-' && !tp->sp[pos] && !tp->sp[pos - 1] &&
	       tp->sp[pos + 1] && is_word(tp, pos - 2);
}

/* A separator ends a name going back: a number, and | , ; ( ) [ ] { } and
 * a lone '-'; a wildcard is a word of the name that each line has its own. */
static int ends_name(const struct tmpl *tp, int i)
{
	if (tp->kind[i] == TK_NUM)
		return 1;
	if (tp->kind[i] == TK_WORD || tp->kind[i] == TK_WILD)
		return 0;
	char c = *tp->tok[i];
	if (c == '-')
		return tp->sp[i] || (i + 1 < tp->ntok && tp->sp[i + 1]);
	return strchr("|,;()[]{}.!?<>", c) != NULL;
}

/* Eta and remaining-time values are an estimate, not a time spent. */
static int is_eta(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if ((i == 0 || !tp_is_alpha(s[i - 1])) && tp_lower(s[i]) == 'e' && tp_lower(s[i + 1]) == 't' &&
		    tp_lower(s[i + 2]) == 'a' && (i + 3 == n || !tp_is_alpha(s[i + 3])))
			return 1;
	/* "Estimated time to finish" (Chainer's ProgressBar), "time to go" */
	static const char *const words[] = { "remaining", "left", "estimat", "to finish", "to go", "to completion" };
	/* any case: "Estimated Time: 11:13:35" */
	for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
		size_t k = strlen(words[w]);
		for (size_t i = 0; i + k <= n; i++)
			if (!strncasecmp(s + i, words[w], k))
				return 1;
	}
	return 0;
}

/* Tokens from..to of tp as text, a wildcard as <*>, into sb. */
static void span_text(struct strbuf *sb, const struct tmpl *tp, int from, int to)
{
	for (int k = from; k <= to; k++) {
		if (k > from && tp->sp[k])
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, tp->kind[k] == TK_WILD || tp->kind[k] == TK_NUM ? "<*>" : tp->tok[k]);
	}
}

static int is_filler(const struct tmpl *tp, int k)
{
	/* "Model compiled in 3.91s": a last word that only joins the value */
	static const char *const filler[] = { "took", "in", "after", "of", "at", "is", "was" };
	for (size_t f = 0; tp->kind[k] == TK_WORD && f < ARRAY_SIZE(filler); f++)
		if (!strcmp(tp->tok[k], filler[f]))
			return 1;
	return 0;
}

/* Whether a word names a loop of a run: training, validation, test. */
static int phase_word(const char *w, size_t n)
{
	static const char *const words[] = { "train", "val", "test", "eval", "dev" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t k = strlen(words[i]);
		if (n >= k && !strncasecmp(w, words[i], k) && (n == k || tp_is_alpha(w[k])))
			return 1;
	}
	return 0;
}

/*
 * A name that says no phase ("Cost") on a line whose words before it do
 * ("Epoch 0 Train, ... Cost: 715.7 sec", "Epoch 50 Val, ... Cost 239.5
 * sec"): the first such word on its own, a wildcard among them read on
 * each line (qualified()), qualifies it, so that the loops' times are not
 * one stage.
 */
static void qualify(const struct tmpl *tp, struct vslot *v)
{
	const char *nm = tp->names.buf + v->name;
	for (size_t i = 0; i < v->name_len; i++)
		if ((i == 0 || !tp_is_alpha(nm[i - 1])) && phase_word(nm + i, v->name_len - i))
			return;
	/* a word on its own, before a ',' ']' ')' or '|': no value's name
	 * ("train 2.2s", "Train Loss: 0.4" are not) */
	for (int k = 0; k < v->from && k + 1 < tp->ntok; k++)
		if ((tp->kind[k] == TK_WILD || (is_word(tp, k) && phase_word(tp->tok[k], strlen(tp->tok[k])))) &&
		    tp->kind[k + 1] == TK_PUNCT && strchr(",])|", *tp->tok[k + 1])) {
			v->qual = k + 1;
			return;
		}
}

/* The word naming the number at pos through a ':', '=' or "--", or -1. */
static int label_of(const struct tmpl *tp, int pos)
{
	int b = pos - 1;
	if (b >= 2 && dashes_at(tp, b))
		return b - 2;
	/* "('time:', 11.89)": a Python tuple's quoted label, a comma after it */
	if (b >= 3 && punct_is(tp, b, ',') && tp->kind[b - 1] == TK_PUNCT &&
	    (*tp->tok[b - 1] == '\'' || *tp->tok[b - 1] == '"') && punct_is(tp, b - 2, ':') && is_word(tp, b - 3) &&
	    !tp->sp[b - 1] && !tp->sp[b - 2])
		return b - 3;
	if (b < 1 || tp->kind[b] != TK_PUNCT || (*tp->tok[b] != ':' && *tp->tok[b] != '='))
		return -1;
	/* a JSON or Python key: "\"elapsed\": 0.37", "'epoch_time': 12" */
	if (b >= 3 && tp->kind[b - 1] == TK_PUNCT && (*tp->tok[b - 1] == '"' || *tp->tok[b - 1] == '\'') &&
	    !tp->sp[b - 1] && !tp->sp[b - 2] && is_word(tp, b - 2) && tp->kind[b - 3] == TK_PUNCT &&
	    (*tp->tok[b - 3] == *tp->tok[b - 1] || (*tp->tok[b - 3] == '/' && !tp->sp[b - 2])))
		return b - 2; /* "\"stats/epoch_time\": 71.26": its last part */
	/* "time (data): 0.110": the word before a bracketed qualifier */
	if (b >= 4 && punct_is(tp, b - 1, ')') && is_word(tp, b - 2) && punct_is(tp, b - 3, '(') && is_word(tp, b - 4) &&
	    !tp->sp[b - 1] && !tp->sp[b] && time_name(tp->tok[b - 4], strlen(tp->tok[b - 4])))
		return b - 4;
	return is_word(tp, b - 1) ? b - 1 : -1;
}

/* The first token of the name that ends at end: up to five words back, to
 * a number or a mark that ends a name, its leading marks left out. */
static int name_start(const struct tmpl *tp, int end)
{
	int i = end, words = 0;
	while (i >= 0 && !ends_name(tp, i) && words < 5) {
		words += tp->kind[i] != TK_PUNCT;
		i--;
	}
	int start = i + 1;
	while (start <= end && tp->kind[start] == TK_PUNCT)
		start++;
	return start;
}

/* v named by the tokens start..end of tp. */
static void name_span(struct tmpl *tp, int start, int end, struct vslot *v)
{
	v->from = start;
	v->to = end;
	v->name = tp->names.len;
	span_text(&tp->names, tp, start, end);
	v->name_len = tp->names.len - v->name;
	qualify(tp, v);
}

/* The name of the value at pos: the words before it, back to a separator. */
static void name_before(struct tmpl *tp, int pos, struct vslot *v)
{
	/* "('time:', 11.89)": the tuple's label */
	if (pos >= 4 && punct_is(tp, pos - 1, ',') && label_of(tp, pos) == pos - 4)
		return name_span(tp, pos - 4, pos - 4, v);
	int i = pos - 1;
	if (dashes_at(tp, i))
		i -= 2; /* "pnet-- 1.47" */
	while (i >= 0 && tp->kind[i] == TK_PUNCT && (*tp->tok[i] == ':' || *tp->tok[i] == '='))
		i--;
	/* "train (517.15 sec) ... | valid (3.22 sec)": the word before the
	 * bracket a value opens names it */
	if (i == pos - 1 && i >= 1 && tp->kind[i] == TK_PUNCT && *tp->tok[i] == '(' && is_word(tp, i - 1))
		i--;
	int end = i, start = name_start(tp, end);
	/* "time (data): 0.110": the time word and its bracketed qualifier */
	if (i == pos - 2 && i >= 3 && label_of(tp, pos) == i - 3)
		return name_span(tp, i - 3, end, v);
	/* "Eval Time for 681 iters: 3.22s": named by the words before "for N" */
	if (start == end && start >= 3 && tp->kind[start - 1] == TK_NUM && word_is(tp, start - 2, "for") &&
	    is_word(tp, start - 3)) {
		end = start - 3;
		start = name_start(tp, end);
	}
	/* "121.76ms this_step:121.8ms": "ms" is the number's before it */
	double u;
	if (start <= end && start > 0 && tp->kind[start - 1] == TK_NUM && !tp->sp[start] && is_word(tp, start) &&
	    unit_kind(tp->tok[start], strlen(tp->tok[start]), &u) != U_NONE)
		start++;
	if (start <= end && is_filler(tp, end))
		end--;
	while (end >= start && tp->kind[end] == TK_PUNCT)
		end--;
	name_span(tp, start, end, v);
}

static void name_fallback(struct tmpl *tp, int pos, struct vslot *v, const char *unit_word)
{
	const char *slash = unit_word ? strchr(unit_word, '/') : NULL;
	const char *add = NULL;
	size_t n = 0;
	if (slash && v->kind != VS_RATE) {
		add = slash + 1; /* "9240 ms/iter": iter */
		n = strlen(add);
	} else if (slash) {
		add = unit_word; /* "samples/s 3536": samples */
		n = (size_t)(slash - unit_word);
	} else {
		for (int i = 0; i < pos && !add; i++)
			if (tp->kind[i] == TK_WORD && tp_is_alpha(*tp->tok[i])) {
				add = tp->tok[i];
				n = strlen(add);
			}
		if (!add) {
			add = "time";
			n = 4;
		}
	}
	v->from = 1;
	v->to = 0;
	v->name = tp->names.len;
	strbuf_add(&tp->names, add, n);
	v->name_len = n;
}

/* "(65.81%)" at i: a share. */
static int share_at(const struct tmpl *tp, int i)
{
	return i >= 0 && i + 3 < tp->ntok && tp->kind[i] == TK_PUNCT && *tp->tok[i] == '(' &&
	       tp->kind[i + 1] == TK_NUM && tp->kind[i + 2] == TK_PUNCT && *tp->tok[i + 2] == '%' &&
	       tp->kind[i + 3] == TK_PUNCT && *tp->tok[i + 3] == ')';
}

/* "( 1.408)" or "(1.408s)" at i after a value with unit word uw: its mean.
 * Returns the number's position or -1. */
static int mean_at(const struct tmpl *tp, int i, const char *uw)
{
	if (i + 2 >= tp->ntok || tp->kind[i] != TK_PUNCT || *tp->tok[i] != '(' || tp->kind[i + 1] != TK_NUM)
		return -1;
	if (tp->kind[i + 2] == TK_PUNCT && *tp->tok[i + 2] == ')')
		return i + 1;
	if (uw && i + 3 < tp->ntok && word_is(tp, i + 2, uw) && tp->kind[i + 3] == TK_PUNCT && *tp->tok[i + 3] == ')')
		return i + 1;
	return -1;
}

/* A unit word at i that labels the number after it ("samples/sec: 1.055",
 * "time(ms)= 12"): not the unit of the number before it. */
static int labels_next(const struct tmpl *tp, int i)
{
	return i + 2 < tp->ntok && tp->kind[i + 1] == TK_PUNCT && (*tp->tok[i + 1] == ':' || *tp->tok[i + 1] == '=') &&
	       tp->kind[i + 2] == TK_NUM;
}

/* "iter time (s): 15.161": a unit in brackets before the bare number at
 * pos, after the name; returns the '(' position or -1 and the unit. */
static int unit_label_before(const struct tmpl *tp, int pos, double *u)
{
	int b = pos - 1;
	if (b >= 0 && tp->kind[b] == TK_PUNCT && (*tp->tok[b] == ':' || *tp->tok[b] == '='))
		b--;
	if (b < 2 || tp->kind[b] != TK_PUNCT || (*tp->tok[b] != ')' && *tp->tok[b] != ']') || !is_word(tp, b - 1) ||
	    tp->kind[b - 2] != TK_PUNCT || *tp->tok[b - 2] != (*tp->tok[b] == ')' ? '(' : '['))
		return -1;
	int k = unit_kind(tp->tok[b - 1], strlen(tp->tok[b - 1]), u);
	return k == U_DUR || k == U_PER ? b - 2 : -1;
}

/* A date before the clock at pos ("2024-10-13 22:30:01", "06/11 13:51:41"). */
static int after_date(const struct tmpl *tp, int pos)
{
	return pos >= 3 && tp->kind[pos - 1] == TK_NUM && tp->kind[pos - 2] == TK_PUNCT &&
	       (*tp->tok[pos - 2] == '-' || *tp->tok[pos - 2] == '/') && tp->kind[pos - 3] == TK_NUM;
}

/* The word naming the number at pos as an AverageMeter prints it, the
 * running mean in brackets after it ("time 0.0325 (0.0623)"), or -1. */
static int meter_label_of(const struct tmpl *tp, int pos)
{
	if (pos < 1 || !tp->sp[pos] || !is_word(tp, pos - 1) || mean_at(tp, pos + 1, NULL) < 0 || !tp->sp[pos + 1])
		return -1;
	return pos - 1;
}

/* The word naming the number at pos across a blank, the number ending a
 * field ("| Time 0.9820 |", "total time 18.90, accuracy", a tab after it),
 * or -1. */
static int plain_label_of(const struct tmpl *tp, int pos)
{
	if (pos < 1 || !tp->sp[pos] || !is_word(tp, pos - 1))
		return -1;
	if (pos + 1 < tp->ntok && !(tp->kind[pos + 1] == TK_PUNCT && strchr(",;|", *tp->tok[pos + 1])) &&
	    tp->sp[pos + 1] != 2)
		return -1;
	return pos - 1;
}

/* The words that end at w, up to five, blank-separated ("Time Elapsed for
 * This Epoch"): does one name a time? */
static int phrase_names_time(const struct tmpl *tp, int w)
{
	for (int k = 0; k < 5 && is_word(tp, w); k++, w--) {
		if (time_name(tp->tok[w], strlen(tp->tok[w])))
			return 1;
		if (!tp->sp[w])
			break;
	}
	return 0;
}

/* "updt_s:0.504", "wall_ms:630990": a name whose suffix is its unit. */
static double suffix_named(const struct tmpl *tp, int pos)
{
	int w = label_of(tp, pos);
	if (w < 0 || tp->form[pos] != CK_NO)
		return 0;
	return suffix_unit(tp->tok[w], strlen(tp->tok[w]));
}

/* "interval_samples_per_second: 9.313", "train_steps_per_sec=1.4": a rate
 * its name says the unit of ("samples/s"), into names at *at; 0 if none. */
static int rate_named(struct tmpl *tp, int pos, size_t *at)
{
	static const char *const tails[] = { "_per_second", "_per_sec", "_per_s" };
	int w = label_of(tp, pos);
	if (w < 0 || tp->form[pos] != CK_NO)
		return 0;
	const char *t = tp->tok[w];
	size_t n = strlen(t);
	/* PaddlePaddle's "ips: 13.20337", instances a second, and
	 * "average FPS: 9.34", with no unit */
	/* and CleanRL's "SPS: 1147", environment steps a second: samples */
	if (n == 3 && (!strcasecmp(t, "ips") || !strcasecmp(t, "fps") || !strcmp(t, "SPS"))) {
		*at = tp->names.len;
		strbuf_addstr(&tp->names, tp_lower(*t) == 'f' ? "frames/s" : "samples/s");
		strbuf_addch(&tp->names, '\0');
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tails); i++) {
		size_t k = strlen(tails[i]);
		if (n <= k || strcmp(t + n - k, tails[i]))
			continue;
		const char *b = t + n - k; /* the thing counted: the word before the tail */
		while (b > t && b[-1] != '_')
			b--;
		if (b == t + n - k || !tp_is_alpha(*b))
			return 0;
		*at = tp->names.len;
		strbuf_add(&tp->names, b, (size_t)(t + n - k - b));
		strbuf_addstr(&tp->names, "/s");
		strbuf_addch(&tp->names, '\0'); /* read as a C string; names are read by length */
		return 1;
	}
	return 0;
}

/* The row "| key | 584 |" (a logger's table of key and value) whose
 * number is at pos: its key's position, or -1. */
static int row_key_of(const struct tmpl *tp, int pos)
{
	return pos == 3 && punct_is(tp, 0, '|') && is_word(tp, 1) && punct_is(tp, 2, '|') ? 1 : -1;
}

/* "Time: 1.21", "data_time=0.3", "Time cost=1029.7": a number a time word
 * names, with no unit, is in seconds (what time.time() differences print);
 * "data: 0.907" too after such a time on its line (the CycleGAN trainer's
 * "time: 1.294, data: 0.907"). Not a date ("time: 2024-10-17"). */
static int time_named(const struct tmpl *tp, int pos)
{
	int w = label_of(tp, pos);
	if (w < 0)
		w = meter_label_of(tp, pos);
	if (w < 0)
		w = plain_label_of(tp, pos);
	if (w < 0 && (w = row_key_of(tp, pos)) >= 0)
		return tp->form[pos] == CK_NO && time_key(tp->tok[w], strlen(tp->tok[w]));
	if (w < 0 || tp->form[pos] != CK_NO)
		return 0;
	/* "\"time\": 1607422676.03": a Unix time (after 1998), not a span */
	if (fabs(tp->first[pos]) >= 9e8)
		return 0;
	if (pos + 2 < tp->ntok && !tp->sp[pos + 1] && tp->kind[pos + 1] == TK_PUNCT &&
	    strchr("-/", *tp->tok[pos + 1]) && tp->kind[pos + 2] == TK_NUM)
		return 0;
	/* "time consumption is 1.325,": the word before the verb names it */
	if ((word_is(tp, w, "is") || word_is(tp, w, "was")) && is_word(tp, w - 1) && tp->sp[w])
		w--;
	const char *t = tp->tok[w];
	size_t tn = strlen(t);
	if (!strcasecmp(t, "cost") && is_word(tp, w - 1))
		t = tp->tok[w - 1], tn = strlen(t);
	else if (tn > 5 && (t[tn - 5] == '-' || t[tn - 5] == '_') && !strcasecmp(t + tn - 4, "cost")) {
		tn -= 5; /* Sockeye's "Time-cost=4626.838" */
		/* PaddlePaddle's "reader_cost: 2.21849" beside "batch_cost",
		 * PaddleDetection's "data_cost: 0.0003" */
		if ((tn == 6 && !strncasecmp(t, "reader", 6)) || (tn == 5 && !strncasecmp(t, "batch", 5)) ||
		    (tn == 4 && !strncasecmp(t, "data", 4)))
			return 1;
	}
	if (time_name(t, tn))
		return 1;
	/* "Time elasped: 15.8177": the time word before the label */
	if (is_word(tp, w - 1) && tp->sp[w] && time_name(tp->tok[w - 1], strlen(tp->tok[w - 1])) &&
	    !not_a_span_word(t, tn))
		return 1;
	/* "cost time pnet-- 1.47   rnet-- 0.02": a time word heads a list of
	 * labelled numbers, each named as the first is */
	if (dashes_at(tp, pos - 1))
		for (int k = 0; k < w; k++)
			if (tp->kind[k] == TK_NUM && dashes_at(tp, k - 1) && time_named(tp, k))
				return 1;
	if (strcasecmp(t, "data"))
		return 0;
	for (int k = 0; k < w; k++)
		if (tp->kind[k] == TK_NUM && time_named(tp, k))
			return 1;
	return 0;
}

/* The positions of a qualifying template whose number rose on every line
 * and at least doubled: a cumulative time ("train_time:487ms", then 16482ms,
 * 34703ms), not a span of each line; fixed from then on. */
/*
 * Whether the number at k rose by steady steps on the lines before its
 * template qualified, each a quarter of its first value or more, the
 * larger at most twice the smaller: a clock that started late (CatBoost's
 * "passed_time": 0.2405, 0.3521, 0.4523), not a step time that rose by
 * chance (1.00, 1.10, 1.25).
 */
static int steady_rise(const struct tmpl *tp, int k)
{
	if (tp->count < 3 || !(tp->first[k] > 0))
		return 0;
	double a = tp->first[k], b = tp->before[k], c = tp->last[k];
	double d1 = (b - a) / (double)(tp->count - 2), d2 = c - b, lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
	return lo >= 0.25 * a && hi <= 2 * lo;
}

static uint64_t clocks(const struct tmpl *tp)
{
	uint64_t c = 0;
	for (int k = 0; k < tp->ntok; k++) {
		if (tp->kind[k] != TK_NUM || !(tp->rose >> k & 1) || !(tp->last[k] > 0) ||
		    !(tp->last[k] >= 2 * tp->first[k] || steady_rise(tp, k)))
			continue;
		/* a loop's clock moves by a tenth of a second or more in its
		 * first prints, not by the noise of a wait ("reader_cost:
		 * 0.00027", 0.00028, 0.00085) */
		double u = 1, x;
		int kind = is_word(tp, k + 1) ? unit_kind(tp->tok[k + 1], strlen(tp->tok[k + 1]), &x) : U_NONE;
		if (kind == U_RATE)
			continue; /* a rate is no clock */
		if (kind != U_NONE)
			u = x;
		int w = label_of(tp, k);
		if (w < 0 && is_word(tp, k - 1))
			w = k - 1; /* "iter_dt 113.30ms" */
		double sfx = w >= 0 ? suffix_unit(tp->tok[w], strlen(tp->tok[w])) : 0;
		if (sfx > 0)
			u = sfx;
		if ((tp->last[k] - tp->first[k]) * u < 0.1)
			continue;
		/* "iter_dt", "dt": a delta, each step's time (minGPT's 0.00,
		 * 78.12, 113.30 ms rose by chance) */
		size_t wn = w >= 0 ? strlen(tp->tok[w]) : 0;
		if (wn >= 2 && !strcasecmp(tp->tok[w] + wn - 2, "dt") && (wn == 2 || !tp_is_alpha(tp->tok[w][wn - 3])))
			continue;
		/* "sample processed in 74.50s", "took 3.2s": a span, whatever
		 * its first prints did */
		if (is_word(tp, k - 1) && (!strcasecmp(tp->tok[k - 1], "in") ||
					   is_took(tp->tok[k - 1], strlen(tp->tok[k - 1]))))
			continue;
		c |= (uint64_t)1 << k;
	}
	return c;
}

/* A name that says it times one step ("step_time", "iter", "batch time",
 * "E2E latency"); "total", "epoch" or "elapsed" do not: a run's or an
 * epoch's span, or a clock, is no step. */
static int step_like(const char *s, size_t n)
{
	static const char *const words[] = { "step", "iter", "batch", "e2e" };
	/* "step_avg": a mean over the steps, no step */
	if (find_str(s, s + n, "avg") || find_str(s, s + n, "mean") || find_str(s, s + n, "average"))
		return 0;
	for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
		size_t k = strlen(words[w]);
		for (size_t i = 0; i + k <= n; i++)
			if (!strncasecmp(s + i, words[w], k))
				return 1;
	}
	return 0;
}

static int counter_word(const struct tmpl *tp, int k)
{
	/* Marian's "Up. 500" counts updates */
	static const char *const words[] = { "iter", "iters", "iteration", "step", "steps", "batch", "up", "update", "updates" };
	for (size_t w = 0; is_word(tp, k) && w < ARRAY_SIZE(words); w++)
		if (!strcasecmp(tp->tok[k], words[w]))
			return 1;
	return 0;
}

/* Whether the clock at pos follows another clock and a slash, written
 * together ("00:36/03:20"): elapsed, then what remains or the whole. */
static int clock_pair_at(const struct tmpl *tp, int pos)
{
	return pos >= 2 && punct_is(tp, pos - 1, '/') && !tp->sp[pos - 1] && !tp->sp[pos] &&
	       tp->kind[pos - 2] == TK_NUM && tp->form[pos - 2] == CK_CLOCK;
}

/* Does the line count iterations: "iter 10:", "Iter:[10/247]", "iters:
 * 100", or a bare "[19/21279]" that no epoch word names ("Epoch [3/100]"
 * counts epochs)? The position of the count, or -1. */
static int counter_pos(const struct tmpl *tp)
{
	for (int k = 0; k < tp->ntok; k++) {
		if (tp->kind[k] != TK_NUM && tp->kind[k] != TK_WILD)
			continue;
		/* a number with a unit is no count ("Eval Time for 681 iters:
		 * 3.223326s": 3.22 s after "iters:") */
		double u;
		if (is_word(tp, k + 1) && unit_kind(tp->tok[k + 1], strlen(tp->tok[k + 1]), &u) != U_NONE)
			continue;
		int b = k - 1;
		/* "iter: 10", "iter=10", "Iter:[10", "\"iter\": 10" */
		while (punct_is(tp, b, ':') || punct_is(tp, b, '=') || punct_is(tp, b, '[') || punct_is(tp, b, '.') ||
		       punct_is(tp, b, '"') || punct_is(tp, b, '\'') || punct_is(tp, b, '('))
			b--;
		if (counter_word(tp, b))
			return k;
		int w = k - 2; /* "Epoch [3/100]", "Epoch: [0/100]" */
		while (punct_is(tp, w, ':'))
			w--;
		if (punct_is(tp, k - 1, '[') && punct_is(tp, k + 1, '/') && k + 3 < tp->ntok &&
		    tp->kind[k + 2] == TK_NUM && punct_is(tp, k + 3, ']') &&
		    !(is_word(tp, w) && !strncasecmp(tp->tok[w], "epoch", 5))) {
			/* "Train: [2/150][920/924]": the epoch's, then the step's */
			if (punct_is(tp, k + 4, '[') && k + 8 < tp->ntok && tp->kind[k + 5] != TK_PUNCT &&
			    punct_is(tp, k + 6, '/') && punct_is(tp, k + 8, ']'))
				return k + 5;
			return k;
		}
	}
	return -1;
}

/*
 * The roles the line's shape does not give, where the words say them: a
 * duration named like one step (step, iter, batch, E2E: "step_time 18.1
 * ms", "9240 ms/iter", whose name is the unit's item), if just one of the
 * line's durations is, is the step, and the line's other durations are its
 * components ("step_time 18.1 ms | data 0.16 ms"). A value per iteration
 * with another name ("Dataloading: 0.0011 s/iter") is a mean over steps.
 * The one duration of a line that counts iterations (counter_pos) is the
 * step, whatever its name ("time", "timer", "Time"); its several durations,
 * none named as a step, are the step's parts ("step:200 ... updt_s:0.504
 * data_s:0.083"), parent "step", which the analysis adds up into the step.
 * The rest keep no role, for the analysis to infer from the name and the
 * values (a span, a clock that grows, an ETA): "epoch_time", "Total time",
 * "elapsed_time" and a clock "0:01:23" say no more than that. A value
 * that rose on every line of a qualifying template and at least doubled
 * is a clock: a time since the start (clocks()).
 */
/* Whether the name [s, s+n) holds the word w, in any case. */
static int has_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i + k <= n; i++)
		if ((i == 0 || !tp_is_alpha(s[i - 1])) && !strncasecmp(s + i, w, k) &&
		    (i + k == n || !tp_is_alpha(s[i + k])))
			return 1;
	return 0;
}

/* The seconds of slot s's first value (its unit's), NAN for a clock's form. */
static double first_seconds(const struct tmpl *tp, const struct vslot *v)
{
	return tp->form[v->pos] == CK_NO ? tp->first[v->pos] * (v->unit > 0 ? v->unit : 1) : NAN;
}

/* Whether slot s's first value is below another duration's of its line. */
static int below_another(const struct tmpl *tp, int s)
{
	double x = first_seconds(tp, &tp->slots[s]);
	for (int k = 0; k < tp->nslots; k++)
		if (k != s && tp->slots[k].kind == VS_DUR && !tp->slots[k].mean && x < first_seconds(tp, &tp->slots[k]))
			return 1;
	return 0;
}

static void step_roles(struct tmpl *tp)
{
	int plain[TP_DISC_MAX_TOKENS + 1], np = 0, named = -1, nnamed = 0;
	for (int s = 0; s < tp->nslots; s++) {
		struct vslot *v = &tp->slots[s];
		if (v->kind != VS_DUR || v->role != TP_ROLE_NONE)
			continue;
		if (tp->clock >> v->pos & 1) {
			v->role = TP_ROLE_CLOCK;
			continue;
		}
		if (tp->form[v->pos] == CK_CLOCK)
			continue;
		/* "step 00019 | ... | dt: 27.52ms | ... | total time: 0.00m": a
		 * total on a line that counts steps, below another time of the
		 * line, is no sum of its times but the time since the start */
		if (tp->counter >= 0 && has_word(tp->names.buf + v->name, v->name_len, "total") &&
		    below_another(tp, s)) {
			v->role = TP_ROLE_CLOCK;
			continue;
		}
		plain[np++] = s;
		if (step_like(tp->names.buf + v->name, v->name_len)) {
			named = s;
			nnamed++;
		}
	}
	/* an AverageMeter's pair ("Time 0.112 (0.099)  Data 0.00119
	 * (0.00123)", the ImageNet example's and its copies'): the batch's
	 * time, and the data loading within it */
	if (!nnamed && np == 2 && tp->counter >= 0 && plain[0] + 1 < tp->nslots && plain[1] + 1 < tp->nslots) {
		const struct vslot *a = &tp->slots[plain[0]], *b = &tp->slots[plain[1]];
		/* each with its mean: CycleGAN's "time: 1.294, data: 0.907"
		 * (compute, then the wait before it) are no such pair */
		if (ends_in_time(tp->names.buf + a->name, a->name_len) && b->name_len >= 4 &&
		    !strncasecmp(tp->names.buf + b->name, "data", 4) && tp->slots[plain[0] + 1].mean &&
		    tp->slots[plain[1] + 1].mean) {
			named = plain[0];
			nnamed = 1;
		}
	}
	/* "DataTime: 0.426  ,  ForwardTime: 0.757  ,  TotalTime: 1.239"
	 * (pytracking's trainer): a total that the line's other times add
	 * up to is their step, they its parts; or hold with time besides
	 * (DeePMD's "training time 0.97 s, testing time 0.00 s, total wall
	 * time 1.33 s", the first window's set-up in its total alone) */
	if (!nnamed && np >= 3) {
		int t = -1;
		double sum = 0;
		for (int k = 0; k < np; k++) {
			const struct vslot *v = &tp->slots[plain[k]];
			if (v->per) {
				/* "Total: 0.0402 s/iter" after detectron2's evaluator's
				 * parts: means over the iterations, no step */
				t = -1;
				break;
			}
			if (t < 0 && v->name_len >= 5 && !strncasecmp(tp->names.buf + v->name, "total", 5))
				t = k;
			else
				sum += first_seconds(tp, v);
		}
		double tot = t >= 0 ? first_seconds(tp, &tp->slots[plain[t]]) : NAN;
		if (t >= 0 && tot > 0 && sum >= 0.5 * tot && sum <= 1.02 * tot) {
			named = plain[t];
			nnamed = 1;
		}
	}
	/* the one duration of a line that counts iterations ("iter 10: loss
	 * 9.89, time 561.12ms") is the step's; several are its parts */
	int counts = tp->counter >= 0, parts = !nnamed && np >= 2 && counts;
	if (!nnamed && np == 1 && !tp->slots[plain[0]].per && counts) {
		named = plain[0];
		nnamed = 1;
	}
	for (int k = 0; parts && k < np; k++)
		parts = !tp->slots[plain[k]].per && tp->form[tp->slots[plain[k]].pos] != CK_COMPOUND;
	size_t step_name = tp->names.len;
	if (parts)
		strbuf_addstr(&tp->names, "step");
	for (int k = 0; k < np; k++) {
		struct vslot *v = &tp->slots[plain[k]];
		if (nnamed == 1 && plain[k] == named) {
			v->role = TP_ROLE_STEP;
		} else if (nnamed == 1 && tp->form[v->pos] != CK_COMPOUND) {
			const struct vslot *f = &tp->slots[named];
			v->role = TP_ROLE_COMPONENT;
			v->pfrom = f->from;
			v->pto = f->to;
			v->parent = f->name;
			v->parent_len = f->name_len;
			v->pqual = f->qual;
		} else if (parts) {
			v->role = TP_ROLE_COMPONENT;
			v->pfrom = 1, v->pto = 0; /* the name below, not tokens */
			v->parent = step_name;
			v->parent_len = 4;
		} else if (v->per) {
			v->role = TP_ROLE_AVERAGE;
		}
	}
}

/* A word a window's count of steps is written with ("1000 iters",
 * "20 iters"). */
static int steps_word(const char *w)
{
	static const char *const steps[] = { "iters", "iterations", "steps", "its", "batches" };
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (!strcasecmp(w, steps[i]))
			return 1;
	return 0;
}

/* "Time(1000 iters): 3.878739s" on a line whose count of steps goes up by
 * 1000 a line (HugeCTR's): the time of a window of that many steps. The
 * name word's position (the steps two tokens after it), else -1. */
static int window_before(const struct tmpl *tp, int pos)
{
	int b = pos - 1;
	if (punct_is(tp, b, ':') || punct_is(tp, b, '='))
		b--;
	if (b < 4 || !punct_is(tp, b, ')') || !is_word(tp, b - 1) || tp->kind[b - 2] != TK_NUM ||
	    tp->varied >> (b - 2) & 1 || !punct_is(tp, b - 3, '(') || !is_word(tp, b - 4))
		return -1;
	int c = counter_pos(tp);
	double w = tp->first[b - 2];
	if (!steps_word(tp->tok[b - 1]) || c < 0 || tp->count < 2 || !(w > 1))
		return -1;
	double per_line = (tp->last[c] - tp->first[c]) / (double)(tp->count - 1);
	if (!isfinite(per_line) || fabs(per_line - w) > 0.01 * w)
		return -1;
	return b - 4;
}

/* A word a time per step is written per ("iter", "img", "batch"). */
static int per_step_word(const char *w)
{
	return per_step_word_n(w, strlen(w));
}

/* "6.77566s/20 iters" (Caffe's solver): a time whose unit holds the count
 * of steps it spans, in the word after the number and the steps word after
 * that. The count, with the unit's seconds in *u; 0 if none. */
static double window_in_unit(const struct tmpl *tp, int pos, double *u)
{
	if (!is_word(tp, pos + 1) || tp->sp[pos + 1] || !is_word(tp, pos + 2))
		return 0;
	const char *w = tp->tok[pos + 1], *slash = strchr(w, '/');
	if (!slash || !(*u = time_unit(w, (size_t)(slash - w))) || !tp_is_digit(slash[1]))
		return 0;
	double n = 0;
	for (const char *d = slash + 1; *d; d++) {
		if (!tp_is_digit(*d) || n > 1e9)
			return 0;
		n = n * 10 + (*d - '0');
	}
	return steps_word(tp->tok[pos + 2]) && n > 1 ? n : 0;
}

/* An operator of arithmetic between blanks, a number after it ("3 hours
 * + 3 hours", "120 miles / 40 mph"; a count "12/50" has no blanks around
 * its slash, and "0.5 s / iter" no number after it). */
static int operator_at(const struct tmpl *tp, int k)
{
	return k > 0 && k + 1 < tp->ntok && tp->kind[k] == TK_PUNCT && strchr("+*/=", *tp->tok[k]) && tp->sp[k] &&
	       tp->sp[k + 1] && tp->kind[k + 1] == TK_NUM;
}

/* The number at i (its unit, if any, ends before next) is a term or the
 * result of a sum written out ("Total time = 3 hours + 3 hours = 6 hours",
 * "Time = 120 miles / 40 mph = 3 hours": a model's generated answer), no
 * time of the run's. */
static int in_arithmetic(const struct tmpl *tp, int i, int next)
{
	/* a word after the number may be a unit discovery does not know
	 * ("12 miles / 12 mph") */
	if (operator_at(tp, next) ||
	    (next == i + 1 && (is_word(tp, next) || (next < tp->ntok && tp->kind[next] == TK_WILD)) &&
	     operator_at(tp, next + 1)) ||
	    (operator_at(tp, i - 1) && *tp->tok[i - 1] != '='))
		return 1;
	if (!operator_at(tp, i - 1))
		return 0;
	/* after '=': a sum on its left, back to the '=' before it */
	for (int k = i - 2; k > 0 && !(operator_at(tp, k) && *tp->tok[k] == '='); k--)
		if (operator_at(tp, k) && tp->kind[k - 1] != TK_PUNCT)
			return 1;
	return 0;
}

/* The running mean at mp (>= 0) of the value of slot v: a slot of its
 * own, named after v and its child; returns the position to go on from. */
static int add_mean(struct tmpl *tp, const struct vslot *v, int mp, int i)
{
	if (mp < 0)
		return i;
	struct vslot w = *v;
	w.pos = mp;
	w.kind = v->kind == VS_RATE ? VS_RATE : VS_MEAN;
	w.role = TP_ROLE_AVERAGE;
	w.mean = 1;
	w.pfrom = v->from;
	w.pto = v->to;
	w.parent = v->name;
	w.parent_len = v->name_len;
	tp->slots[tp->nslots++] = w;
	return mp;
}

/* The shell's time report, "real\t0m7.784s", "user\t0m5.019s", "sys
 * 0m2.777s": real is the command's span, user and sys CPU time, which is
 * no time of the run's (more than real on many cores). */
static int shell_time_role(const struct tmpl *tp, int pos)
{
	if (pos != 1 || tp->ntok != 2 || !is_word(tp, 0))
		return TP_ROLE_NONE;
	const char *w = tp->tok[0];
	if (!strcmp(w, "real"))
		return TP_ROLE_PHASE;
	return !strcmp(w, "user") || !strcmp(w, "sys") ? TP_ROLE_QUANTITY : TP_ROLE_NONE;
}

/* A time's unit in brackets at pos, after a blank: "7.178 (s)". */
static int paren_unit(const struct tmpl *tp, int pos, double *u)
{
	return pos + 2 < tp->ntok && punct_is(tp, pos, '(') && tp->sp[pos] && is_word(tp, pos + 1) &&
	       !tp->sp[pos + 1] && punct_is(tp, pos + 2, ')') &&
	       unit_kind(tp->tok[pos + 1], strlen(tp->tok[pos + 1]), u) == U_DUR;
}

/* A unit in square brackets written onto the number at pos - 1,
 * "2.648[s]", "3.0[samples/s]" (reid-strong-baseline's, ignite's): its
 * kind (U_DUR, U_RATE), else U_NONE. */
static int bracket_unit(const struct tmpl *tp, int pos, double *u)
{
	if (!(pos + 2 < tp->ntok && punct_is(tp, pos, '[') && !tp->sp[pos] && is_word(tp, pos + 1) &&
	      !tp->sp[pos + 1] && punct_is(tp, pos + 2, ']')))
		return U_NONE;
	int k = unit_kind(tp->tok[pos + 1], strlen(tp->tok[pos + 1]), u);
	return k == U_DUR || k == U_RATE ? k : U_NONE;
}

static void derive(struct tmpl *tp)
{
	free(tp->slots);
	tp->slots = xcalloc((size_t)tp->ntok + 1, sizeof(*tp->slots));
	tp->nslots = 0;
	strbuf_reset(&tp->names);
	strbuf_grow(&tp->names, 64); /* names point into it, even an empty one */
	int units = 0, share_first = -1;
	double share_unit = 0;
	const char *share_word = NULL;
	/* the unit of values with a share, for "Others=0.22 (2.73%)" */
	for (int i = 0; i + 1 < tp->ntok; i++) {
		double u;
		if (tp->kind[i] == TK_NUM && is_word(tp, i + 1) && unit_kind(tp->tok[i + 1], strlen(tp->tok[i + 1]), &u) == U_DUR &&
		    share_at(tp, i + 2)) {
			share_unit = u;
			share_word = tp->tok[i + 1];
			break;
		}
	}
	for (int i = 0; i < tp->ntok; i++) {
		if (tp->kind[i] != TK_NUM)
			continue;
		struct vslot v = { .pos = i, .unit_pos = -1, .role = TP_ROLE_NONE, .pfrom = 1, .count_pos = -1 };
		/* a word after the number is its unit, unless it names the next
		 * value ("9 tok : 3.1"); one written onto the number ("635.14s :
		 * 8999.23 words/s") is always its unit */
		const char *uw = is_word(tp, i + 1) && (!tp->sp[i + 1] || !labels_next(tp, i + 1)) ? tp->tok[i + 1] : NULL;
		/* "time 1.2 ± 0.1 s": a mean and its deviation, the unit after
		 * both; the deviation is no value */
		int pm = is_word(tp, i + 1) && !strcmp(tp->tok[i + 1], "\xc2\xb1") && i + 2 < tp->ntok &&
			 tp->kind[i + 2] == TK_NUM && is_word(tp, i + 3);
		if (pm)
			uw = tp->tok[i + 3];
		double u = 0;
		int k = uw ? unit_kind(uw, strlen(uw), &u) : U_NONE, rate2 = 0;
		int next = i + (k != U_NONE ? 2 : 1) + (pm ? 2 : 0);
		if (k == U_NONE && paren_unit(tp, i + 1, &u)) {
			k = U_DUR; /* "total used time 7.178 (s)" */
			next = i + 4;
		} else if (k == U_NONE && (k = bracket_unit(tp, i + 1, &u)) != U_NONE) {
			rate2 = 1; /* the unit's word is i + 2 */
			next = i + 4;
		}
		/* "113.4k tok/s": a thousand, a million, a billion of them */
		double si = 0;
		if (k == U_NONE && uw && !tp->sp[i + 1] && !uw[1] && (si = si_factor(*uw)) > 0 && is_word(tp, i + 2) &&
		    tp->sp[i + 2] && unit_kind(tp->tok[i + 2], strlen(tp->tok[i + 2]), &u) == U_RATE &&
		    !labels_next(tp, i + 2)) {
			k = U_RATE;
			rate2 = 1;
			next = i + 3;
			v.unit = si;
		}
		/* "418028 effective words/s" (gensim): a word between the
		 * number and its rate's unit, which names no next value */
		if (k == U_NONE && uw && tp->sp[i + 1] && is_word(tp, i + 2) && tp->sp[i + 2] && tp_is_alpha(*uw) &&
		    unit_kind(tp->tok[i + 2], strlen(tp->tok[i + 2]), &u) == U_RATE && !labels_next(tp, i + 2) &&
		    !(i + 3 < tp->ntok && tp->kind[i + 3] == TK_NUM)) {
			k = U_RATE;
			rate2 = 1;
			next = i + 3;
		}
		/* "speed: 0.350s / iter" (py-faster-rcnn's): a time per step,
		 * its unit written apart */
		if (k == U_DUR && punct_is(tp, i + 2, '/') && is_word(tp, i + 3) && per_step_word(tp->tok[i + 3])) {
			k = U_PER;
			next = i + 4;
		}
		if (tp->form[i] == CK_COMPOUND) {
			v.kind = VS_DUR;
			units++;
			next = i + 1;
			v.role = shell_time_role(tp, i);
		} else if (tp->form[i] == CK_CLOCK) {
			/* a date's time, or the time of day a line starts with
			 * ("08:35:31  step=100 ... elapsed=71s"): a stamp; the
			 * hours after days ("eta: 2 days, 20:58:19"), no time of
			 * their own */
			if (after_date(tp, i) || i == 0 ||
			    (punct_is(tp, i - 1, ',') && i >= 3 && tp->kind[i - 3] == TK_NUM &&
			     ((is_word(tp, i - 2) && !strncasecmp(tp->tok[i - 2], "day", 3)) || tp->kind[i - 2] == TK_WILD)))
				continue; /* "1 day, 4:57:49" and "2 days, ..." one template */
			/* "Time cost: 00:36/03:20" (OpenPCDet's): the clock after
			 * an elapsed one and a slash is what remains, or the whole
			 * estimated, as tqdm's "[00:36<03:20": no span that passed */
			if (clock_pair_at(tp, i))
				continue;
			v.kind = VS_DUR;
			next = i + 1;
			/* "| Time: 0:01:09 |": a clock a time word names is a
			 * time on its own */
			int w = label_of(tp, i);
			/* "finished at time 0:00:23.953285 from start": the time
			 * word just before it */
			if ((w >= 0 && phrase_names_time(tp, w)) ||
			    (is_word(tp, i - 1) && tp->sp[i] &&
			     (is_took(tp->tok[i - 1], strlen(tp->tok[i - 1])) ||
			      time_name(tp->tok[i - 1], strlen(tp->tok[i - 1])))))
				units++;
		} else if (k == U_DUR || k == U_PER) {
			v.kind = VS_DUR;
			v.unit = u;
			v.per = k == U_PER;
			units++;
			int w = k == U_DUR ? window_before(tp, i) : -1;
			if (w >= 0) {
				/* the time of a window of steps: a sample of the
				 * step's, count of them ("Time(1000 iters)") */
				v.role = TP_ROLE_RUNNING;
				v.count_pos = w + 2;
				v.from = 1, v.to = 0;
				v.name = tp->names.len;
				strbuf_addf(&tp->names, "%s(%.0f %s)", tp->tok[w], tp->first[w + 2], tp->tok[w + 3]);
				v.name_len = tp->names.len - v.name;
				tp->slots[tp->nslots++] = v;
				i = next - 1;
				continue;
			}
		} else if (k == U_RATE) {
			v.kind = VS_RATE;
			v.unit_pos = i + 1 + rate2;
			units++;
			/* "99782it [00:51, 1927.24it/s]": a bar's mean since its
			 * start, as the tqdm pack's final rate, no trainer's step */
			if (i >= 3 && punct_is(tp, i - 1, ',') && tp->kind[i - 2] == TK_NUM && tp->form[i - 2] == CK_CLOCK &&
			    punct_is(tp, i - 3, '['))
				v.role = TP_ROLE_RATE;
		} else if (uw && (v.count_n = window_in_unit(tp, i, &u)) > 0) {
			/* a sample of the step's time, count_n of them */
			v.kind = VS_DUR;
			v.unit = u;
			v.role = TP_ROLE_RUNNING;
			v.from = 1, v.to = 0;
			v.name = tp->names.len;
			strbuf_addf(&tp->names, "time(%.0f %s)", v.count_n, tp->tok[i + 2]);
			v.name_len = tp->names.len - v.name;
			tp->slots[tp->nslots++] = v;
			units++;
			i += 2;
			continue;
		} else if (share_word && share_at(tp, i + 1)) {
			v.kind = VS_DUR; /* "Others=0.22 (2.73%)" */
			v.unit = share_unit;
			uw = share_word;
		} else if (unit_label_before(tp, i, &u) >= 0) {
			v.kind = VS_DUR; /* "iter time (s): 15.161" */
			v.unit = u;
			units++;
			name_before(tp, unit_label_before(tp, i, &u), &v);
			if (is_eta(tp->names.buf + v.name, v.name_len))
				continue;
			if (!v.name_len)
				name_fallback(tp, i, &v, NULL);
			tp->slots[tp->nslots++] = v;
			continue;
		} else if ((u = suffix_named(tp, i)) > 0 || time_named(tp, i)) {
			v.kind = VS_DUR;
			v.unit = u > 0 ? u : 1;
			units++;
			/* "total time: 0.01m": metres or minutes, and a time's name
			 * says which */
			if (uw && !tp->sp[i + 1] && !strcmp(uw, "m")) {
				v.unit = 60;
				next = i + 2;
			}
		} else if (rate_named(tp, i, &v.unit_text)) {
			v.kind = VS_RATE;
			units++;
		} else {
			int b = i - 1;
			if (b >= 0 && tp->kind[b] == TK_PUNCT && (*tp->tok[b] == ':' || *tp->tok[b] == '='))
				b--;
			/* "Speed (samples/sec) 519.3363": the unit in brackets, named
			 * by the word before them */
			if (b >= 2 && punct_is(tp, b, ')') && is_word(tp, b - 1) && punct_is(tp, b - 2, '(') &&
			    unit_kind(tp->tok[b - 1], strlen(tp->tok[b - 1]), &u) == U_RATE) {
				v.kind = VS_RATE;
				v.unit_pos = b - 1;
				units++;
				name_before(tp, b - 2, &v);
				if (!v.name_len)
					name_fallback(tp, i, &v, tp->tok[b - 1]);
				tp->slots[tp->nslots++] = v;
				continue;
			}
			int bk = is_word(tp, b) ? unit_kind(tp->tok[b], strlen(tp->tok[b]), &u) : U_NONE;
			if (bk == U_PER && b + 1 == i && tp->sp[i]) {
				/* "sec/kimg 30.33" (StyleGAN2-ADA's): a time per thing,
				 * its unit before it */
				v.kind = VS_DUR;
				v.unit = u;
				v.per = 1;
				v.role = TP_ROLE_AVERAGE;
				units++;
				v.name = tp->names.len;
				strbuf_addstr(&tp->names, tp->tok[b]);
				v.name_len = tp->names.len - v.name;
				v.from = 1, v.to = 0;
				tp->slots[tp->nslots++] = v;
				continue;
			}
			if (bk != U_RATE)
				continue;
			v.kind = VS_RATE; /* "samples/s 3536" */
			v.unit_pos = b;
			uw = tp->tok[b];
			units++;
			name_fallback(tp, i, &v, uw);
			tp->slots[tp->nslots++] = v;
			i = add_mean(tp, &v, mean_at(tp, i + 1, NULL), i); /* "Tok/s 57232 (60881)" */
			continue;
		}
		if (in_arithmetic(tp, i, next))
			continue;
		name_before(tp, i, &v);
		/* "predicted 00:05:50 left": a time the word after it says is
		 * still to come */
		if (is_eta(tp->names.buf + v.name, v.name_len) ||
		    (is_word(tp, next) && is_eta(tp->tok[next], strlen(tp->tok[next]))))
			continue;
		/* a clock named by nothing but another value's unit ("5.66
		 * samples/s/p  3:50:14 }"): what remains, an ETA, as likely as a span */
		if (tp->form[i] == CK_CLOCK && v.name_len && v.from == v.to && is_word(tp, v.from) &&
		    unit_kind(tp->tok[v.from], strlen(tp->tok[v.from]), &u) != U_NONE)
			continue;
		/* a rate named by nothing but the value's before it and its unit
		 * ("76.66 samples/sec 1820.19 tokens/sec"): its own unit names it */
		if (v.kind == VS_RATE && v.name_len && v.from == v.to && is_word(tp, v.from) && v.from > 0 &&
		    tp->kind[v.from - 1] == TK_NUM && unit_kind(tp->tok[v.from], strlen(tp->tok[v.from]), &u) != U_NONE)
			v.name_len = 0;
		if (!v.name_len)
			name_fallback(tp, i, &v, v.kind == VS_RATE ? (rate2 ? tp->tok[i + 2] : uw) : (k == U_PER ? uw : NULL));
		if (share_at(tp, next))
			v.role = TP_ROLE_COMPONENT;
		else if (v.kind == VS_DUR && share_first < 0)
			share_first = tp->nslots;
		tp->slots[tp->nslots++] = v;
		i = add_mean(tp, &v, mean_at(tp, next, uw), i);
		if (pm && i < next - 1)
			i = next - 1;
	}
	if (!units) {
		tp->nslots = 0; /* clocks alone are not a timing line */
		tp->counter = counter_pos(tp); /* a stamped count of steps is */
		tp->changed = 0;
		return;
	}
	/* components belong to the first value without a share */
	for (int s = 0; s < tp->nslots && share_first >= 0; s++)
		if (tp->slots[s].role == TP_ROLE_COMPONENT && s > share_first) {
			const struct vslot *f = &tp->slots[share_first];
			tp->slots[s].pfrom = f->from;
			tp->slots[s].pto = f->to;
			tp->slots[s].parent = f->name;
			tp->slots[s].parent_len = f->name_len;
			tp->slots[s].pqual = f->qual;
		}
	tp->counter = counter_pos(tp);
	step_roles(tp);
	tp->changed = 0;
}

/* ---- records -------------------------------------------------------- */

/* Seconds of a duration slot, converted as tprof's duration reader does
 * (base/num.c), so that the rules --discover writes give the same doubles. */
static int seconds_of(const struct vslot *v, const struct tok *t, double *sec)
{
	double x = t->v, u = v->unit;
	if (t->form == CK_NO)
		x = u == 1 ? x : u < 1 ? x / (1.0 / u) : x * u;
	*sec = x;
	return isfinite(x) && x >= 0;
}

/* A name of a line (t): tokens from..to, a wildcard as the line's word;
 * or, with from > to, the text s. */
static void compose(struct strbuf *sb, const struct tmpl *tp, int from, int to, const char *s, size_t n,
		    const struct tok *t)
{
	strbuf_reset(sb);
	if (from > to) {
		strbuf_add(sb, s, n);
		return;
	}
	for (int k = from; k <= to; k++) {
		if (k > from && tp->sp[k])
			strbuf_addch(sb, ' ');
		if (tp->kind[k] == TK_WILD || tp->kind[k] == TK_NUM)
			strbuf_add(sb, t[k].s, t[k].n);
		else
			strbuf_addstr(sb, tp->tok[k]);
	}
}

/* The name in sb after the line's word that says its phase (qualify()),
 * where the line has one there. */
static void qualified(struct strbuf *sb, const struct tmpl *tp, int qual, const struct tok *t)
{
	int k = qual - 1;
	if (k < 0)
		return;
	const char *w = tp->kind[k] == TK_WILD ? t[k].s : tp->tok[k];
	size_t n = tp->kind[k] == TK_WILD ? t[k].n : strlen(w);
	if (!phase_word(w, n))
		return;
	strbuf_grow(sb, n + 1);
	memmove(sb->buf + n + 1, sb->buf, sb->len + 1);
	memcpy(sb->buf, w, n);
	sb->buf[n] = ' ';
	sb->len += n + 1;
}

/* A record of a line: where it is, nothing else. */
static void record_at(struct tp_record *r, const char *file, uint64_t line, int rank, const char *ts)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->line = line;
	r->rank = rank;
	r->ts = ts;
}

/* Hands r over, made by template tp (its origin for --explain), counted. */
static void hand_over(struct tp_miner *m, const struct tmpl *tp, struct tp_record *r, const struct tp_sink *sink)
{
	strbuf_reset(&m->origin);
	strbuf_addf(&m->origin, "template %u (seen %llu): %s", tp->id, (unsigned long long)tp->count, tp->text.buf);
	r->origin = m->origin.buf;
	m->st.records[r->type]++;
	if (sink && sink->emit)
		sink->emit(sink->ctx, r);
}

/*
 * The iteration a line counts ("step=100"), as a batch without a duration:
 * its number and time stamp are where the steps are (the analysis takes a
 * step from the stamps of consecutive ones, and counts the steps that
 * ran). Only on a line no other reader read a number of: a format that
 * reads the line says what its numbers are.
 */
static void emit_counter(struct tp_miner *m, const struct tmpl *tp, const struct tok *t, uint64_t line, int rank,
			 const char *ts, int others, const char *file, const struct tp_sink *sink)
{
	int k = tp->counter;
	/* "step:1K" is a rounded count, no index; a count on a line of no
	 * timing value says something only with its stamp */
	if (k < 0 || others || (!tp->nslots && !ts) || t[k].kind != TK_NUM || t[k].form != CK_NO || !(t[k].v >= 0) ||
	    t[k].v > 1e15 || t[k].v != floor(t[k].v) || (is_word(tp, k + 1) && !tp->sp[k + 1]))
		return;
	struct tp_record r;
	record_at(&r, file, line, rank, ts);
	r.type = TP_BATCH;
	tp_set(&r, S_BAT_INDEX, t[k].v);
	hand_over(m, tp, &r, sink);
}

static void emit_values(struct tp_miner *m, struct tmpl *tp, const struct tok *t, uint64_t line,
			int rank, const char *ts, uint64_t seen, int others, const char *file,
			const struct tp_sink *sink)
{
	if (tp->changed)
		derive(tp);
	for (int s = 0; s < tp->nslots; s++) {
		const struct vslot *v = &tp->slots[s];
		if (seen >> v->pos & 1)
			continue;
		struct tp_record r;
		record_at(&r, file, line, rank, ts);
		compose(&m->name, tp, v->from, v->to, tp->names.buf + v->name, v->name_len, t);
		qualified(&m->name, tp, v->qual, t);
		if (v->mean)
			strbuf_addstr(&m->name, " (mean)");
		r.name = m->name.buf;
		r.name_len = m->name.len;
		r.role = (enum tp_role)v->role;
		if (v->parent_len) {
			compose(&m->parent, tp, v->pfrom, v->pto, tp->names.buf + v->parent, v->parent_len, t);
			/* the parent slot's name as that slot's record has it
			 * ("Train batch_cost" of "Train reader_cost") */
			qualified(&m->parent, tp, v->pqual, t);
			r.parent = m->parent.buf;
			r.parent_len = m->parent.len;
		}
		double x;
		if (v->kind == VS_RATE) {
			x = t[v->pos].v * (v->unit > 0 ? v->unit : 1);
			if (!isfinite(x) || x < 0)
				continue;
			r.type = TP_RATE;
			tp_set(&r, S_RATE_VALUE, x);
			r.text = v->unit_pos >= 0 ? tp->tok[v->unit_pos] : tp->names.buf + v->unit_text;
			r.text_len = strlen(r.text);
		} else {
			if (!seconds_of(v, &t[v->pos], &x))
				continue;
			r.type = TP_TIMING;
			tp_set(&r, S_SECONDS, x);
			if (v->count_pos >= 0)
				tp_set(&r, S_TIM_COUNT, t[v->count_pos].v);
			else if (v->count_n > 0)
				tp_set(&r, S_TIM_COUNT, v->count_n);
		}
		hand_over(m, tp, &r, sink);
	}
	emit_counter(m, tp, t, line, rank, ts, others, file, sink);
}

/* The token before the number at i that may name it, past a ':' or '='. */
static int label_before(const struct tok *t, int i)
{
	int b = i - 1;
	if (b >= 0 && t[b].kind == TK_PUNCT && (*t[b].s == ':' || *t[b].s == '='))
		b--;
	return b;
}

/* What a reader may have read a line's number as: as written, in seconds
 * by the unit after it (sec) or by one its name gives (named, 0 if none),
 * and whether it reads as a time at all (timed). */
struct reading {
	double v, sec, named;
	int timed;
};

static void reading_at(const struct tok *t, int n, int i, struct reading *r)
{
	double u = 0, bu;
	int unit = i + 1 < n && t[i + 1].kind == TK_WORD && unit_kind(t[i + 1].s, t[i + 1].n, &u) != U_NONE;
	int b = label_before(t, i);
	r->v = t[i].v;
	r->sec = unit && u > 0 ? r->v * u : r->v;
	/* a unit in the name ("mean_env_wait_ms: 0.66", read by a pack in
	 * seconds) scales the number as one after it does */
	r->named = b == i - 2 && t[b].kind == TK_WORD ? suffix_unit(t[b].s, t[b].n) : 0;
	/* and a unit in brackets before it ("per iteration (ms): 12465.5") */
	if (b >= 2 && t[b].kind == TK_PUNCT && *t[b].s == ')' && t[b - 1].kind == TK_WORD &&
	    t[b - 2].kind == TK_PUNCT && *t[b - 2].s == '(' && unit_kind(t[b - 1].s, t[b - 1].n, &bu) == U_DUR)
		r->named = bu;
	/* a unit after it, or a word naming a time before it ("Batch time:
	 * 0.31", "data_time: 0.000s") */
	r->timed = unit ||
		   (b >= 0 && t[b].kind == TK_WORD && (time_name(t[b].s, t[b].n) || suffix_unit(t[b].s, t[b].n) > 0));
}

/* Whether reading r stands for seen value w: as written, in seconds, or
 * inverted. */
static int reads_as(const struct reading *r, double w)
{
	double tol = 1e-9 * fmax(fabs(w), 1e-9);
	return fabs(w - r->v) <= tol || fabs(w - r->sec) <= tol || (r->sec > 0 && fabs(w - 1 / r->sec) <= tol) ||
	       (r->named > 0 && fabs(w - r->v * r->named) <= tol);
}

/*
 * Positions whose number a reader of the line read already. Where a value
 * a record holds is printed as a time outside brackets more than once
 * ("Forward time: 0.31(0.86)  Batch time: 0.31(0.96)", a pack reading the
 * batch time; "Batch time: 14.59(14.59)"), it stands for the last of
 * those (a line's total comes last), and the others are still the miner's
 * to read; else for every position that prints it (which of "Data 0.000
 * ... camera dro 0.000" a pack read, nothing here tells).
 */
static uint64_t seen_mask(const struct tok *t, int n, const struct tp_disc_line *ln)
{
	if (!ln->nseen)
		return 0;
	struct reading r[64];
	int m = n < 64 ? n : 64;
	for (int i = 0; i < m; i++)
		if (t[i].kind == TK_NUM)
			reading_at(t, n, i, &r[i]);
	uint64_t mask = 0;
	for (size_t k = 0; k < ln->nseen; k++) {
		uint64_t all = 0;
		int timed = -1;
		for (int i = 0; i < m; i++) {
			if (t[i].kind != TK_NUM || !reads_as(&r[i], ln->seen[k]))
				continue;
			all |= (uint64_t)1 << i;
			int paren = i > 0 && t[i - 1].kind == TK_PUNCT && *t[i - 1].s == '(';
			if (!paren && r[i].timed && !(mask >> i & 1))
				timed = i;
		}
		mask |= timed >= 0 ? (uint64_t)1 << timed : all;
	}
	return mask;
}

static int find(struct tp_miner *m, uint32_t key, const struct tok *t, int n)
{
	int best = -1;
	double best_sim = -1;
	for (int i = m->head[key % HASH_SIZE]; i >= 0; i = m->t[i].hnext) {
		if (m->t[i].key != key || !same_path(&m->t[i], t, n))
			continue;
		double s = similarity(&m->t[i], t, n);
		if (s > best_sim) {
			best_sim = s;
			best = i;
		}
	}
	return best_sim >= SIM_THRESHOLD ? best : -1;
}

unsigned tp_miner_line(struct tp_miner *m, const struct tp_disc_line *ln, const struct tp_sink *sink)
{
	struct tok t[TP_DISC_MAX_TOKENS];
	int cut;
	/* a NUL byte is binary, not text: no token, name or rule can hold it */
	if (memchr(ln->s, '\0', ln->n))
		return 0;
	int n = tokenize(ln->s, ln->s + ln->n, t, TP_DISC_MAX_TOKENS, &cut);
	if (!n)
		return 0;
	m->st.lines++;
	uint32_t key = path_key(t, n);
	int i = find(m, key, t, n);
	if (i < 0) {
		i = new_tmpl(m, key, t, n, ln);
		m->t[i].cut = cut;
	}
	else
		merge(&m->t[i], t);
	touch(m, i);
	struct tmpl *tp = &m->t[i];
	tp->count++;
	uint64_t seen = seen_mask(t, n, ln);
	tp->fresh |= ~seen;
	if (!tp->series && tp->count >= m->min_count && tp->varied) {
		tp->series = 1;
		tp->clock = clocks(tp);
		tp->changed = 1;
		derive(tp);
		if (tp->nslots)
			m->st.series++;
		/* the lines it held, in order, then this one */
		struct tok h[TP_DISC_MAX_TOKENS];
		for (int k = 0; k < tp->npend; k++) {
			struct pend *pd = &tp->pend[k];
			int hc;
			if (tokenize(pd->text, pd->text + pd->n, h, TP_DISC_MAX_TOKENS, &hc) == tp->ntok)
				emit_values(m, tp, h, pd->line, pd->rank, pd->has_ts ? pd->ts : NULL, pd->seen,
					    pd->others, ln->file, sink);
			free(pd->text);
			pd->text = NULL;
		}
		tp->npend = 0;
	}
	if (tp->series) {
		emit_values(m, tp, t, ln->line, ln->rank, ln->ts, seen, ln->nseen > 0, ln->file, sink);
		return tp->id;
	}
	if (tp->npend >= TP_DISC_PENDING || ln->n > PEND_TEXT)
		return tp->id;
	struct pend *pd = &tp->pend[tp->npend];
	pd->text = xmemdup(ln->s, ln->n);
	pd->n = ln->n;
	pd->line = ln->line;
	pd->rank = ln->rank;
	pd->has_ts = ln->ts != NULL;
	if (ln->ts) {
		size_t k = strlen(ln->ts);
		if (k >= sizeof(pd->ts))
			k = sizeof(pd->ts) - 1;
		memcpy(pd->ts, ln->ts, k);
		pd->ts[k] = '\0';
	}
	pd->seen = seen;
	pd->others = ln->nseen > 0;
	tp->npend++;
	return tp->id;
}

/* ---- the miner ------------------------------------------------------ */

struct tp_miner *tp_miner_new(unsigned min_count)
{
	struct tp_miner *m = xcalloc(1, sizeof(*m));
	m->min_count = min_count ? min_count : TP_DISC_MIN_COUNT;
	m->t = xcalloc(TP_DISC_MAX_TEMPLATES, sizeof(*m->t));
	for (int i = 0; i < HASH_SIZE; i++)
		m->head[i] = -1;
	for (int i = 0; i < TP_DISC_MAX_TEMPLATES; i++)
		m->t[i].prev = m->t[i].next = m->t[i].hnext = -1;
	m->mru = m->lru = -1;
	return m;
}

void tp_miner_free(struct tp_miner *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++)
		clear_tmpl(&m->t[i]);
	free(m->t);
	strbuf_release(&m->name);
	strbuf_release(&m->parent);
	strbuf_release(&m->origin);
	free(m);
}

void tp_miner_add_stats(const struct tp_miner *m, struct tp_miner_stats *st)
{
	st->lines += m->st.lines;
	st->templates += m->st.templates;
	st->evicted += m->st.evicted;
	st->series += m->st.series;
	for (int t = 0; t < TP_NTYPES; t++)
		st->records[t] += m->st.records[t];
}

uint64_t tp_miner_seen(const struct tp_miner *m, unsigned id)
{
	for (int i = 0; i < m->n; i++)
		if (m->t[i].live && m->t[i].id == id)
			return m->t[i].count;
	return 0;
}

size_t tp_miner_ntemplates(const struct tp_miner *m)
{
	return (size_t)m->nlive;
}

int tp_miner_template(struct tp_miner *m, size_t k, struct tp_template_info *out)
{
	int i = m->mru;
	while (i >= 0 && k--)
		i = m->t[i].next;
	if (i < 0)
		return 0;
	struct tmpl *tp = &m->t[i];
	if (tp->changed)
		derive(tp);
	out->id = tp->id;
	out->count = tp->count;
	out->series = tp->series && tp->nslots > 0;
	out->text = tp->text.buf ? tp->text.buf : "";
	out->sample = tp->sample;
	out->sample_line = tp->sample_line;
	out->nvalues = 0;
	for (int s = 0; s < tp->nslots; s++)
		out->nvalues += tp->fresh >> tp->slots[s].pos & 1;
	return 1;
}

/* ---- a template as rules (tprof-parse --discover) -------------------- */

#define RE_NUM "[-+]?(?:\\d[\\d,]*\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?"
#define RE_CLOCK "(?:\\d+ days?, )?\\d+(?::\\d+)+(?:\\.\\d+)?"
#define RE_COMPOUND "\\d+(?:\\.\\d+)?[a-z]+(?:\\s*\\d+(?:\\.\\d+)?[a-z]+)+"

static void add_re_literal(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\^$.|?*+()[]{}#", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

/* A quoted constant: '"' and '\\' would end or escape it. */
static void add_quoted(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < n; i++)
		strbuf_addch(sb, s[i] == '"' || s[i] == '\\' ? '\'' : s[i]);
	strbuf_addch(sb, '"');
}

static const char *dur_group(double u)
{
	static const struct {
		double u;
		const char *g;
	} g[] = { { 1, "seconds" }, { 1e-3, "seconds__ms" }, { 1e-6, "seconds__us" }, { 1e-9, "seconds__ns" },
		  { 60, "seconds__min" }, { 3600, "seconds__h" }, { 86400, "seconds__d" } };
	for (size_t i = 0; i < ARRAY_SIZE(g); i++)
		if (g[i].u == u)
			return g[i].g;
	return NULL;
}

static int alnum_kind(int k)
{
	return k == TK_WORD || k == TK_NUM || k == TK_WILD;
}

static int in_span(int k, int from, int to)
{
	return from <= to && k >= from && k <= to;
}

/* The capture groups of slot v's rule, by token: the value's (a named
 * group) and the wildcards of its name and parent's (numbered in order,
 * so that a name template "{N}" takes them). */
static void rule_groups(const struct tmpl *tp, const struct vslot *v, int *grp)
{
	int n = 0;
	for (int k = 0; k < tp->ntok; k++)
		grp[k] = k == v->pos || (tp->kind[k] == TK_WILD && (in_span(k, v->from, v->to) ||
								    in_span(k, v->pfrom, v->pto)))
				 ? ++n
				 : 0;
}

/* The pattern of tp with its groups for slot v. */
static void add_pattern(struct strbuf *sb, const struct tmpl *tp, const struct vslot *v, const int *grp)
{
	strbuf_addch(sb, '^');
	for (int i = 0; i < tp->ntok; i++) {
		if (i)
			strbuf_addstr(sb, tp->sp[i] && alnum_kind(tp->kind[i - 1]) && alnum_kind(tp->kind[i]) ? "\\s+"
													    : "\\s*");
		const char *re = tp->form[i] == CK_CLOCK ? RE_CLOCK : tp->form[i] == CK_COMPOUND ? RE_COMPOUND : RE_NUM;
		switch (tp->kind[i]) {
		case TK_NUM:
			if (i == v->pos)
				strbuf_addf(sb, "(?<%s>%s)",
					    v->kind == VS_RATE ? "value" : tp->form[i] != CK_NO ? "seconds" : dur_group(v->unit), re);
			else if (i == v->count_pos)
				strbuf_addf(sb, "(?<count>%s)", re);
			else
				strbuf_addf(sb, "(?:%s)", re);
			break;
		case TK_WILD:
			strbuf_addstr(sb, grp[i] ? "(\\S+?)" : "\\S+?");
			break;
		case TK_GAP:
			strbuf_addstr(sb, ".*?");
			break;
		default:
			if (v->count_n > 0 && i == v->pos + 1) {
				/* "s/(?<count>20)" */
				const char *slash = strchr(tp->tok[i], '/');
				struct strbuf unit = STRBUF_INIT;
				strbuf_add(&unit, tp->tok[i], (size_t)(slash - tp->tok[i]) + 1);
				add_re_literal(sb, unit.buf);
				strbuf_release(&unit);
				strbuf_addf(sb, "(?<count>%s)", slash + 1);
				break;
			}
			add_re_literal(sb, tp->tok[i]);
			break;
		}
	}
	if (!tp->cut)
		strbuf_addstr(sb, "\\s*$");
}

/* A name or parent as a rules constant: its words, "{N}" for a wildcard. */
static void add_name_template(struct strbuf *sb, const struct tmpl *tp, int from, int to, const char *s,
			      size_t n, const int *grp, int mean)
{
	struct strbuf t = STRBUF_INIT;
	if (from > to)
		strbuf_add(&t, s, n);
	for (int k = from; k <= to; k++) {
		if (k > from && tp->sp[k])
			strbuf_addch(&t, ' ');
		if (tp->kind[k] == TK_WILD)
			strbuf_addf(&t, "{%d}", grp[k]);
		else
			strbuf_addstr(&t, tp->tok[k]);
	}
	if (mean)
		strbuf_addstr(&t, " (mean)");
	add_quoted(sb, t.buf ? t.buf : "", t.len);
	strbuf_release(&t);
}

/* The longest literal token of tp (a marker for its lines), or NULL. */
static const char *marker_of(const struct tmpl *tp)
{
	const char *best = NULL;
	for (int i = 0; i < tp->ntok; i++)
		if ((tp->kind[i] == TK_WORD || tp->kind[i] == TK_PUNCT) && !strpbrk(tp->tok[i], "\"\\") &&
		    (!best || strlen(tp->tok[i]) > strlen(best)))
			best = tp->tok[i];
	return best;
}

void tp_miner_rules(struct tp_miner *m, unsigned id, struct strbuf *sb)
{
	struct tmpl *tp = NULL;
	for (int i = 0; i < m->n && !tp; i++)
		if (m->t[i].live && m->t[i].id == id)
			tp = &m->t[i];
	if (!tp)
		return;
	if (tp->changed)
		derive(tp);
	const char *mk = marker_of(tp);
	int fresh = 0;
	for (int s = 0; s < tp->nslots; s++)
		fresh += tp->fresh >> tp->slots[s].pos & 1;
	if (!mk || !fresh)
		return;
	strbuf_addstr(sb, "@marker ");
	add_quoted(sb, mk, strlen(mk));
	strbuf_addch(sb, '\n');
	for (int s = 0; s < tp->nslots; s++) {
		const struct vslot *v = &tp->slots[s];
		if ((v->kind != VS_RATE && tp->form[v->pos] == CK_NO && !dur_group(v->unit)) || !(tp->fresh >> v->pos & 1))
			continue; /* a unit rules cannot name, or a value other rules read */
		/* @more on every rule: the line's other values, and packs' rules, still read */
		strbuf_addstr(sb, v->kind == VS_RATE ? "rate @more" : "timing @more");
		int grp[TP_DISC_MAX_TOKENS];
		rule_groups(tp, v, grp);
		strbuf_addstr(sb, " name=");
		add_name_template(sb, tp, v->from, v->to, tp->names.buf + v->name, v->name_len, grp, v->mean);
		if (v->kind == VS_RATE) {
			strbuf_addstr(sb, " unit=");
			const char *unit = v->unit_pos >= 0 ? tp->tok[v->unit_pos] : tp->names.buf + v->unit_text;
			add_quoted(sb, unit, strlen(unit));
		}
		if (v->role != TP_ROLE_NONE)
			strbuf_addf(sb, " role=\"%s\"", tp_role_name((enum tp_role)v->role));
		if (v->parent_len) {
			strbuf_addstr(sb, " parent=");
			add_name_template(sb, tp, v->pfrom, v->pto, tp->names.buf + v->parent, v->parent_len, grp, 0);
		}
		strbuf_addch(sb, ' ');
		add_pattern(sb, tp, v, grp);
		strbuf_addch(sb, '\n');
	}
}
