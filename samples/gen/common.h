/*
 * common.h - helpers shared by the sample generator's translation units:
 * a checked output file, a seeded PRNG, Python-style number printing and
 * a tqdm progress-bar renderer.
 *
 * Everything here is deterministic: no libm, no locale, no clock. Values
 * that must be consistent across a sample (totals, percentages) are kept in
 * integer units (centiseconds, milliseconds, tenths of MB) by the callers,
 * and only formatted here.
 */
#ifndef SAMPLES_GEN_COMMON_H
#define SAMPLES_GEN_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* --- output ----------------------------------------------------------- */

/* Opens dir/name for writing as the current output; dies on failure. */
void out_open(const char *dir, const char *name);
/* Closes the current output, dying if any write failed. */
void out_close(void);
/* printf to the current output. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Raw bytes to the current output. */
void put(const char *s);

/* --- PRNG (splitmix64) ---------------------------------------------- */

void rng_seed(uint64_t s);
uint64_t rng_u64(void);
double rng_unif(void);                /* [0, 1) */
double rng_gauss(void);               /* ~N(0,1), Irwin-Hall of 12 */
long rng_range(long lo, long hi);     /* inclusive */

/* --- arithmetic without libm ---------------------------------------- */

double my_cos(double x);
double my_ln(double x);
/* round(x) half away from zero, as a long */
long lround_(double x);
/* round(num/den) for non-negative num, positive den, half up */
long div_round(long num, long den);

/* --- formatting ------------------------------------------------------ */

/* Python's repr() of a float: shortest round-trip digits. */
void pyrepr(char *b, size_t n, double v);
/* "12.34s", or "2345.67s (39.09min)" at or over a minute (S0). */
void fmt_dur_cs(char *b, size_t n, long cs);
/* "%H:%M:%S"-style times relative to a UTC base. */
void fmt_time(char *b, size_t n, long long epoch, const char *fmt);
/* Unix time of a UTC calendar date. */
long long utc(int y, int mo, int d, int h, int mi, int s);

/*
 * A tqdm bar as tqdm 4.66 prints it:
 *   "desc: 12%|█▏        | 75/625 [04:41<34:22,  3.75s/it]"
 * elapsed and per-iteration time in seconds; k == 0 prints "?"s.
 */
void tqdm_fmt(char *b, size_t n, const char *desc, long k, long total,
	      double elapsed, double s_per_it);

/*
 * A terminal line shared by a tqdm bar and prints, as a file captured
 * with `2>&1 | tee` shows it: bars redraw with '\r', a plain print lands
 * right after the last bar, and tqdm.write() clears the bar first.
 */
struct term {
	int pending;   /* a bar is drawn and the line is not ended */
	size_t last;   /* display width of the last bar */
	char bar[256]; /* the last bar, for refreshes */
};
void term_bar(struct term *t, const char *bar);   /* "\r" + bar */
void term_print(struct term *t, const char *s);   /* print(s) */
void term_write(struct term *t, const char *s);   /* tqdm.write(s) + refresh */
void term_close(struct term *t);                  /* bar.close() */

#endif
