/*
 * teddy.c - the Teddy matcher of the candidate search (see scan.h and
 * scan_int.h), the default on x86 with AVX2.
 *
 * Each literal marker is looked for by its window: the TD_W consecutive
 * bytes of it that are rarest together in log text (by measured byte-pair
 * frequencies). The literals are grouped into TD_BUCKETS buckets so that
 * the fewest positions of log text fit a bucket's tables; one pass, 64
 * bytes at a time, looks up four consecutive bytes in them (nibble tables
 * with AVX2, exact 128-byte tables with AVX-512 VBMI) and finds the line
 * ends and the bytes a segment may end with in the same registers. A
 * position that fits is checked against the exact byte pairs of the
 * windows, then compared whole; a hit makes its line a candidate, a line
 * end whose segment ends in a unit too (tp_scan_end_match), as in the
 * other matchers. A line listed for a built-in marker is followed to its
 * end for the rules' markers, so that the rules' gate learns which lines
 * hold none of them.
 */
#include "scan_int.h"
#include "parse/rules/gate.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#ifdef HAVE_X86_TARGETS
#include <immintrin.h>

#define TD_MAX_LITS 512 /* past this the grouping costs more than it saves */

/* A bucket's nibble sets: byte k of a window may be x when bit x & 15 of
 * lo[k] and bit x >> 4 of hi[k] are set. */
struct td_group {
	uint16_t lo[TD_W], hi[TD_W];
	/* the exact sets (AVX-512 VBMI): bytes < 128, and bit k of exhi for
	 * the bytes >= 128 at window byte k */
	uint64_t ex[TD_W][2];
	unsigned exhi;
	double cost; /* the chance that a position of log text fits */
	int alive;
};

static int is_letter(unsigned c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

static void td_add_byte(struct td_group *g, int k, unsigned c, unsigned flags)
{
	g->lo[k] |= (uint16_t)(1u << (c & 15));
	g->hi[k] |= (uint16_t)(1u << (c >> 4));
	if (c < 128)
		g->ex[k][c / 64] |= (uint64_t)1 << (c % 64);
	else
		g->exhi |= 1u << k;
	if ((flags & TP_MK_NOCASE) && is_letter(c))
		td_add_byte(g, k, c ^ 32, 0);
}

/* The chances of the bytes, as sums over sets of nibbles: byte (h, l)
 * for l in a set L is lo8[h][L & 255] + hi8[h][L >> 8]; over exact sets:
 * the bytes 8j + i for the bits i of m are ex8[j][m]. */
struct td_prob {
	double lo8[16][256], hi8[16][256];
	double ex8[16][256], high;
	int exact; /* the tables are exact (td_block_vbmi) */
};

static void td_prob_init(struct td_prob *tp, const double *p)
{
	for (int h = 0; h < 16; h++)
		for (int m = 0; m < 256; m++) {
			double a = 0, b = 0;
			for (int l = 0; l < 8; l++) {
				if (m >> l & 1) {
					a += p[h * 16 + l];
					b += p[h * 16 + 8 + l];
				}
			}
			tp->lo8[h][m] = a;
			tp->hi8[h][m] = b;
			double x = 0;
			for (int i = 0; i < 8; i++)
				x += m >> i & 1 ? p[h * 8 + i] : 0;
			tp->ex8[h][m] = x;
		}
	tp->high = 0;
	for (int c = 128; c < 256; c++)
		tp->high += p[c];
}

/* The chance that a position of log text fits the group (its bytes taken
 * as independent). */
static double td_cost(const struct td_group *g, const struct td_prob *tp)
{
	double c = 1;
	for (int k = 0; tp->exact && k < TD_W; k++) {
		double sum = g->exhi >> k & 1 ? tp->high : 0;
		for (int j = 0; j < 16; j++)
			sum += tp->ex8[j][g->ex[k][j / 8] >> (8 * (j % 8)) & 255];
		c *= sum;
	}
	for (int k = 0; !tp->exact && k < TD_W; k++) {
		double sum = 0;
		unsigned lo = g->lo[k];
		for (unsigned hs = g->hi[k]; hs; hs &= hs - 1) {
			int h = __builtin_ctz(hs);
			sum += tp->lo8[h][lo & 255] + tp->hi8[h][lo >> 8];
		}
		c *= sum;
	}
	return c;
}

static void td_merge(struct td_group *a, const struct td_group *b)
{
	for (int k = 0; k < TD_W; k++) {
		a->lo[k] |= b->lo[k];
		a->hi[k] |= b->hi[k];
		a->ex[k][0] |= b->ex[k][0];
		a->ex[k][1] |= b->ex[k][1];
	}
	a->exhi |= b->exhi;
}

static double td_merged_cost(const struct td_group *a, const struct td_group *b,
			     const struct td_prob *tp)
{
	struct td_group m = *a;
	td_merge(&m, b);
	return td_cost(&m, tp);
}

/* The window of a literal: its TD_W bytes that are rarest together in
 * log text (the whole literal when shorter). */
static size_t td_window(const unsigned char *s, size_t n, unsigned flags)
{
	size_t best = 0;
	double best_f = 0;
	for (size_t w = 0; w + TD_W <= n; w++) {
		/* a chain of pairs, each meeting the next in a byte */
		double f = 0;
		for (unsigned v = 0; v < 1u << TD_W; v++) {
			unsigned char b[TD_W];
			for (int k = 0; k < TD_W; k++) {
				b[k] = s[w + (size_t)k];
				if ((v >> k & 1) && (!(flags & TP_MK_NOCASE) || !is_letter(b[k])))
					goto next_case;
				b[k] = (unsigned char)(v >> k & 1 ? b[k] ^ 32 : b[k]);
			}
			double c = tp_pair_freq(b[0], b[1]);
			for (int k = 1; k + 1 < TD_W; k++)
				c *= tp_pair_freq(b[k], b[k + 1]) /
				     (double)(tp_byte_freq(b[k]) ? tp_byte_freq(b[k]) : 1);
			f += c;
		next_case:;
		}
		if (w == 0 || f < best_f) {
			best_f = f;
			best = w;
		}
	}
	return best;
}

/*
 * After td_group_lits()'s greedy merges, moves single literals between
 * the buckets g holds (grp: each literal's) while that lowers the summed
 * chance (one[x]: literal x's own group): the greedy merges leave
 * a grouping that one more literal can make much worse (a pack's marker
 * cost the candidate search 29 M instructions on the benchmark log, where
 * it is never found), and moving a few back mends most of that.
 */
static void td_refine(struct td_group *g, const struct td_group *one, size_t n, int *grp, const struct td_prob *p)
{
	for (int pass = 0; pass < 8; pass++) {
		int moved = 0;
		for (size_t x = 0; x < n; x++) {
			int from = grp[x];
			struct td_group rest = { 0 };
			size_t others = 0;
			for (size_t y = 0; y < n; y++)
				if (y != x && grp[y] == from) {
					td_merge(&rest, &one[y]);
					others++;
				}
			if (!others)
				continue; /* a bucket is never emptied */
			double rest_cost = td_cost(&rest, p), best = 0;
			int to = -1;
			for (size_t b = 0; b < n; b++) {
				if (!g[b].alive || (int)b == from)
					continue;
				struct td_group m = g[b];
				td_merge(&m, &one[x]);
				double d = rest_cost + td_cost(&m, p) - g[from].cost - g[b].cost;
				if (d < best - 1e-9 * (g[from].cost + g[b].cost)) {
					best = d;
					to = (int)b;
				}
			}
			if (to < 0)
				continue;
			rest.cost = rest_cost;
			rest.alive = 1;
			g[from] = rest;
			td_merge(&g[to], &one[x]);
			g[to].cost = td_cost(&g[to], p);
			grp[x] = to;
			moved++;
		}
		if (!moved)
			break;
	}
}

/*
 * Groups the literals into TD_BUCKETS buckets: each starts alone, and the
 * two groups whose union adds the least chance of a false candidate are
 * merged until TD_BUCKETS are left (the chances from tp_byte_freq); then
 * td_refine() moves single literals where that lowers the sum.
 */
static void td_group_lits(struct td_group *g, size_t n, int *grp, const struct td_prob *p)
{
	struct td_group *one = xmalloc(n * sizeof(*one));
	memcpy(one, g, n * sizeof(*one));
	double *pair = xmalloc(n * n * sizeof(*pair));
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			pair[i * n + j] = td_merged_cost(&g[i], &g[j], p);
	for (size_t alive = n; alive > TD_BUCKETS; alive--) {
		size_t bi = 0, bj = 0;
		double best = 0;
		int found = 0;
		for (size_t i = 0; i < n; i++) {
			if (!g[i].alive)
				continue;
			for (size_t j = i + 1; j < n; j++) {
				if (!g[j].alive)
					continue;
				double d = pair[i * n + j] - g[i].cost - g[j].cost;
				if (!found || d < best) {
					best = d;
					bi = i, bj = j;
					found = 1;
				}
			}
		}
		td_merge(&g[bi], &g[bj]);
		g[bi].cost = pair[bi * n + bj];
		g[bj].alive = 0;
		for (size_t x = 0; x < n; x++)
			if (grp[x] == (int)bj)
				grp[x] = (int)bi;
		for (size_t x = 0; x < n; x++) {
			if (!g[x].alive || x == bi)
				continue;
			double c = td_merged_cost(&g[bi], &g[x], p);
			if (x < bi)
				pair[x * n + bi] = c;
			else
				pair[bi * n + x] = c;
		}
	}
	free(pair);
	td_refine(g, one, n, grp, p);
	free(one);
}

/* Pair (a, b), and its other cases for a caseless literal. */
static void td_set_pairs(uint64_t *t, unsigned a, unsigned b, unsigned flags)
{
	tp_pairs_set(t, a, b);
	if (!(flags & TP_MK_NOCASE))
		return;
	if (is_letter(a))
		tp_pairs_set(t, a ^ 32, b);
	if (is_letter(b))
		tp_pairs_set(t, a, b ^ 32);
	if (is_letter(a) && is_letter(b))
		tp_pairs_set(t, a ^ 32, b ^ 32);
}

static unsigned td_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c | 32u : c;
}

static int td_by_first(const void *a, const void *b)
{
	const struct td_lit *x = a, *y = b;
	return (int)td_fold(x->s[x->w]) - (int)td_fold(y->s[y->w]);
}

/* Sorts bucket b's literals by their window's first byte and fills at[b]. */
static void td_index_bucket(struct teddy *td, int b)
{
	size_t f = td->first[b], n = td->first[b + 1] - f;
	qsort(td->lits + f, n, sizeof(*td->lits), td_by_first);
	size_t i = f;
	for (unsigned c = 0; c <= 256; c++) {
		while (i < f + n && td_fold(td->lits[i].s[td->lits[i].w]) < c)
			i++;
		td->at[b][c] = (uint16_t)i;
	}
}

/* A literal's window in the exact tables, as bucket bit. */
static void td_exact_add(struct teddy *td, const struct td_lit *l, unsigned char bit)
{
	for (int k = 0; k < TD_W; k++) {
		if (l->w + (size_t)k >= l->n) {
			for (int c = 0; c < 128; c++)
				td->exact[k][c] |= bit;
			td->hi_any[k] |= bit;
			continue;
		}
		unsigned c = l->s[l->w + (size_t)k];
		if (c >= 128) {
			td->hi_any[k] |= bit;
			continue;
		}
		td->exact[k][c] |= bit;
		if ((l->flags & TP_MK_NOCASE) && is_letter(c))
			td->exact[k][c ^ 32] |= bit;
	}
}

int tp_teddy_build(struct teddy *td, const struct tp_marker_set *sets, size_t nsets,
		   int allow_vbmi, struct strbuf *err)
{
	size_t n = 0;
	for (size_t i = 0; i < nsets; i++)
		for (size_t j = 0; j < sets[i].n; j++)
			n += sets[i].m[j].anchor != TP_AT_END;
	if (n == 0 || n > TD_MAX_LITS) {
		strbuf_addf(err, "teddy: %zu literal markers (1 to %d)", n, TD_MAX_LITS);
		return -1;
	}
	struct td_lit *lits = xcalloc(n, sizeof(*lits));
	struct td_group *g = xcalloc(n, sizeof(*g));
	int *grp = xcalloc(n, sizeof(*grp));
	double p[256], sum = 0;
	for (int c = 0; c < 256; c++)
		sum += p[c] = tp_byte_freq((unsigned char)c);
	for (int c = 0; c < 256; c++)
		p[c] /= sum;
	struct td_prob *prob = xmalloc(sizeof(*prob));
	td_prob_init(prob, p);
	td->vbmi = allow_vbmi && __builtin_cpu_supports("avx512bw") &&
		   __builtin_cpu_supports("avx512vbmi");
	prob->exact = td->vbmi;
	size_t k = 0;
	for (size_t i = 0; i < nsets; i++) {
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			if (m->anchor == TP_AT_END)
				continue; /* found by the line-end test */
			struct td_lit *l = &lits[k];
			l->rules = i > 0;
			l->s = (const unsigned char *)m->lit;
			l->n = strlen(m->lit);
			l->flags = m->flags;
			l->w = td_window(l->s, l->n, l->flags);
			l->quick = !(l->flags & TP_MK_NOCASE) && l->n - l->w >= 4;
			if (l->quick)
				memcpy(&l->win, l->s + l->w, 4);
			for (int b = 0; b < TD_W; b++) {
				if (l->w + (size_t)b < l->n) {
					td_add_byte(&g[k], b, l->s[l->w + (size_t)b], l->flags);
				} else {
					g[k].lo[b] = g[k].hi[b] = 0xffff;
					g[k].ex[b][0] = g[k].ex[b][1] = ~(uint64_t)0;
					g[k].exhi |= 1u << b;
				}
			}
			g[k].cost = td_cost(&g[k], prob);
			g[k].alive = 1;
			grp[k] = (int)k;
			k++;
		}
	}
	td_group_lits(g, n, grp, prob);
	free(prob);
	/* the buckets in order, and the literals by bucket */
	int bucket_of_group[TD_MAX_LITS];
	int nb = 0;
	for (size_t i = 0; i < n; i++) {
		if (!g[i].alive)
			continue;
		bucket_of_group[i] = nb;
		unsigned char bit = (unsigned char)(1u << nb);
		for (int b = 0; b < TD_W; b++)
			for (int x = 0; x < 16; x++) {
				if (g[i].lo[b] >> x & 1)
					td->lo[b][x] |= bit;
				if (g[i].hi[b] >> x & 1)
					td->hi[b][x] |= bit;
			}
		nb++;
	}
	td->lits = xcalloc(n, sizeof(*td->lits));
	td->nlits = n;
	size_t fill = 0;
	for (int b = 0; b < TD_BUCKETS; b++) {
		td->first[b] = fill;
		for (size_t i = 0; i < n; i++)
			if (bucket_of_group[grp[i]] == b)
				td->lits[fill++] = lits[i];
	}
	td->first[TD_BUCKETS] = fill;
	for (int b = 0; b < TD_BUCKETS; b++)
		td_index_bucket(td, b);
	for (int b = 0; b < TD_BUCKETS; b++) {
		unsigned char bit = (unsigned char)(1u << b);
		for (size_t i = td->first[b]; i < td->first[b + 1]; i++) {
			const struct td_lit *l = &td->lits[i];
			td_exact_add(td, l, bit);
			if (l->n - l->w < 3) {
				td->short_b |= bit;
				continue;
			}
			td_set_pairs(td->p01, l->s[l->w], l->s[l->w + 1], l->flags);
			td_set_pairs(td->p12, l->s[l->w + 1], l->s[l->w + 2], l->flags);
		}
	}
	free(lits);
	free(g);
	free(grp);
	return 0;
}

/* A cheap first test of a literal at q (its window fits in the input). */
static inline int td_window_eq(const struct td_lit *l, const unsigned char *q)
{
	if (l->quick) {
		uint32_t x;
		memcpy(&x, q, 4);
		return x == l->win;
	}
	return (l->flags & TP_MK_NOCASE) || *q == l->s[l->w];
}

/* What td_verify looks for. */
enum td_want {
	TD_ANY,        /* any literal */
	TD_RULES_TOO,  /* any, but a rules one if there is one */
	TD_RULES_ONLY, /* the rules' literals alone */
};

/*
 * Which literals of the buckets in mask have their window at q, in [s,e):
 * 0 none, 1 a built-in one, 2 a rules one. With TD_RULES_TOO a built-in
 * literal does not end the search: a rules one at q must not be missed.
 */
static inline int td_verify(const struct teddy *td, const unsigned char *s, const unsigned char *e,
			    const unsigned char *q, unsigned mask, enum td_want want)
{
	int found = 0;
	while (mask) {
		unsigned b = (unsigned)__builtin_ctz(mask);
		mask &= mask - 1;
		unsigned c = td_fold(*q);
		for (size_t i = td->at[b][c]; i < td->at[b][c + 1]; i++) {
			const struct td_lit *l = &td->lits[i];
			if ((!l->rules && (found || want == TD_RULES_ONLY)) ||
			    (size_t)(q - s) < l->w || (size_t)(e - q) < l->n - l->w)
				continue;
			if (!td_window_eq(l, q) || !eq_bytes(q - l->w, l->s, l->n, l->flags))
				continue;
			if (l->rules || want == TD_ANY)
				return l->rules ? 2 : 1;
			found = 1;
		}
	}
	return found;
}

/* Bucket bits that survive the exact-pair test at q. */
static inline unsigned td_buckets(const struct teddy *td, const unsigned char *e,
				  const unsigned char *q, unsigned bk)
{
	if ((bk & ~td->short_b) && (q + 2 >= e || !tp_pairs_has(td->p01, q[0], q[1]) ||
				    !tp_pairs_has(td->p12, q[1], q[2])))
		bk &= td->short_b;
	return bk;
}

/* What one 64-byte block holds: window candidates (their buckets in mb),
 * line ends, and the bytes a segment may end with before a marker. */
struct td_masks {
	uint64_t cand, nl, cr, tb;
};

__attribute__((target("avx2"))) static inline __m256i td_nib32(__m256i x, __m256i lo, __m256i hi)
{
	const __m256i low = _mm256_set1_epi8(0x0f);
	return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, low)),
				_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
}

__attribute__((target("avx2"))) static inline __m256i td_tab32(const unsigned char *t)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

/* Reads p[0..67). */
__attribute__((target("avx2"))) static inline void td_block_avx2(const struct teddy *td,
								  const struct portable *pt,
								  const unsigned char *p,
								  unsigned char *mb, struct td_masks *o)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i vn = _mm256_set1_epi8('\n'), vr = _mm256_set1_epi8('\r');
	uint64_t cand = 0, nl = 0, cr = 0, tb = 0;
	for (int h = 0; h < 2; h++) {
		const unsigned char *q = p + 32 * h;
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)q);
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 1));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 2));
		__m256i x3 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 3));
		__m256i m = _mm256_and_si256(
			_mm256_and_si256(td_nib32(x0, td_tab32(td->lo[0]), td_tab32(td->hi[0])),
					 td_nib32(x1, td_tab32(td->lo[1]), td_tab32(td->hi[1]))),
			_mm256_and_si256(td_nib32(x2, td_tab32(td->lo[2]), td_tab32(td->hi[2])),
					 td_nib32(x3, td_tab32(td->lo[3]), td_tab32(td->hi[3]))));
		_mm256_storeu_si256((__m256i *)(void *)(mb + 32 * h), m);
		unsigned sh = 32u * (unsigned)h;
		cand |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero)) << sh;
		nl |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, vn)) << sh;
		cr |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, vr)) << sh;
		__m256i t = td_nib32(x0, td_tab32(pt->tlo), td_tab32(pt->thi));
		tb |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(t, zero)) << sh;
	}
	o->cand = cand, o->nl = nl, o->cr = cr, o->tb = tb;
}

/* The same by the exact tables: 64 bytes per lookup, no nibble products.
 * Reads p[0..67). */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline void
td_block_vbmi(const struct teddy *td, const struct portable *pt, const unsigned char *p,
	      unsigned char *mb, struct td_masks *o)
{
	__m512i m = _mm512_set1_epi8(-1), x0 = _mm512_setzero_si512();
	for (int k = 0; k < TD_W; k++) {
		__m512i x = _mm512_loadu_si512((const void *)(p + k));
		if (k == 0)
			x0 = x;
		__m512i r = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)td->exact[k]), x,
						     _mm512_loadu_si512((const void *)(td->exact[k] + 64)));
		r = _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), r,
					   _mm512_set1_epi8((char)td->hi_any[k]));
		m = _mm512_and_si512(m, r);
	}
	_mm512_storeu_si512((void *)mb, m);
	o->cand = _mm512_test_epi8_mask(m, m);
	o->nl = _mm512_cmpeq_epi8_mask(x0, _mm512_set1_epi8('\n'));
	o->cr = _mm512_cmpeq_epi8_mask(x0, _mm512_set1_epi8('\r'));
	const __m512i low = _mm512_set1_epi8(0x0f);
	__m512i tlo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)pt->tlo));
	__m512i thi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)pt->thi));
	__m512i t = _mm512_and_si512(_mm512_shuffle_epi8(tlo, _mm512_and_si512(x0, low)),
				     _mm512_shuffle_epi8(thi, _mm512_and_si512(_mm512_srli_epi16(x0, 4), low)));
	o->tb = _mm512_test_epi8_mask(t, t);
}

/* The bits of the block at blk up to and with p (p >= blk). */
static inline uint64_t td_upto(const unsigned char *blk, const unsigned char *p)
{
	return p - blk >= 63 ? ~(uint64_t)0 : ((uint64_t)2 << (p - blk)) - 1;
}

/*
 * One pass, 64 bytes at a time: the literals' windows (checked whole
 * where the nibble tables let one through) and the line ends whose
 * previous byte may end a marker; each hit becomes the start of its line
 * by bit arithmetic on the block's '\n' mask, as in tail_scan_body.
 */
static inline __attribute__((always_inline)) long
td_scan_body(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const unsigned char *s,
	     const unsigned char *e, const char **starts, size_t cap, const char **done, int vbmi)
{
	const struct portable *pt = &sc->pt;
	const struct teddy *td = &sc->teddy;
	const unsigned char *ls = s, *seg = s;
	/* the line end of a listed line whose rules markers are still looked
	 * for (it was listed for a built-in one), while ss->rvalid */
	const unsigned char *pend = NULL;
	const int track = ss->rvalid;
	unsigned char mb[64], pad[96];
	size_t k = 0;
	uint64_t carry = 0;
	*done = (const char *)e;
	for (const unsigned char *blk = s; blk < e;) {
		size_t len = (size_t)(e - blk) < 64 ? (size_t)(e - blk) : 64;
		const unsigned char *p = blk;
		if ((size_t)(e - blk) < 67) {
			memset(pad, 0, sizeof(pad));
			memcpy(pad, blk, (size_t)(e - blk));
			p = pad;
		}
		struct td_masks m;
		if (vbmi)
			td_block_vbmi(td, pt, p, mb, &m);
		else
			td_block_avx2(td, pt, p, mb, &m);
		if (len < 64) {
			uint64_t in = ((uint64_t)1 << len) - 1;
			m.cand &= in, m.nl &= in, m.cr &= in, m.tb &= in;
		}
		if (!pt->nends)
			m.tb = 0;
		uint64_t eol = m.nl | m.cr;
		uint64_t ends = eol & ((m.tb << 1) | carry); /* line ends a marker may come before */
		uint64_t want = ends | m.cand;
		const unsigned char *next = blk + len;
		carry = m.tb >> 63;
		if (pend) {
			/* up to its line end, only the literals count */
			uint64_t in = td_upto(blk, pend);
			want = (want & m.cand & in) | (want & ~in);
		}
		while (want) {
			unsigned i = (unsigned)__builtin_ctzll(want);
			want &= want - 1;
			const unsigned char *q = blk + i;
			if (pend && q < pend) {
				unsigned bk = td_buckets(td, e, q, mb[i]);
				if (!bk || !td_verify(td, s, e, q, bk, TD_RULES_ONLY))
					continue;
				ss->rhits[ss->rn++] = (const char *)q;
				pend = NULL;
				if (seg >= next) {
					next = seg; /* the rest of the line is known */
					carry = 0;
					break;
				}
				want &= ~(uint64_t)0 << (unsigned)(seg - blk);
				continue;
			}
			uint64_t below = ((uint64_t)1 << i) - 1;
			pass_line_ends(blk, eol & below, m.nl & below, &seg, &ls);
			int kind = 0;
			unsigned bk = m.cand >> i & 1 ? td_buckets(td, e, q, mb[i]) : 0;
			/* a line end can be a window's false candidate too: then its
			 * segment may still end in a marker */
			if ((!bk || !(kind = td_verify(td, s, e, q, bk, track ? TD_RULES_TOO : TD_ANY))) &&
			    (!(ends >> i & 1) || !seg_ends_in_marker(pt, seg, q)))
				continue;
			/* a literal, or a segment ending in a marker */
			const unsigned char *line = ls;
			starts[k++] = (const char *)ls;
			if (track && kind == 2)
				ss->rhits[ss->rn++] = (const char *)q;
			/* listed for a built-in marker: are the rules' on it too? */
			int look = track && kind != 2;
			uint64_t at_or_after = m.nl & ~below;
			const unsigned char *le = at_or_after ? blk + __builtin_ctzll(at_or_after)
							      : memchr(next, '\n', (size_t)(e - next));
			if (!le || le + 1 >= e || k == cap) {
				if (look)
					ss->rhits[ss->rn++] = (const char *)line; /* not looked: the gate looks */
				if (!le || le + 1 >= e)
					return (long)k;
				*done = (const char *)(le + 1);
				return (long)k;
			}
			ls = seg = le + 1;
			if (look) {
				pend = le;
				uint64_t in = td_upto(blk, le);
				want = (want & m.cand & in) | (want & ~in);
				continue;
			}
			if (seg >= next) {
				next = seg; /* the line ran past this block */
				carry = 0;
				break;
			}
			want &= ~(uint64_t)0 << (unsigned)(seg - blk);
		}
		if (pend && pend < blk + len)
			pend = NULL; /* its line ended here: no rules marker on it */
		if (next == blk + len)
			pass_line_ends(blk, eol, m.nl, &seg, &ls);
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && seg_ends_in_marker(pt, seg, e)) {
		if (track)
			ss->rhits[ss->rn++] = (const char *)ls;
		starts[k++] = (const char *)ls;
	}
	return (long)k;
}

__attribute__((target("avx2"))) static long td_scan_avx2(const struct tp_scanner *sc,
							 struct tp_scan_scratch *ss,
							 const unsigned char *s,
							 const unsigned char *e, const char **starts,
							 size_t cap, const char **done)
{
	return td_scan_body(sc, ss, s, e, starts, cap, done, 0);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vbmi"))) static long
td_scan_vbmi(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const unsigned char *s,
	     const unsigned char *e, const char **starts, size_t cap, const char **done)
{
	return td_scan_body(sc, ss, s, e, starts, cap, done, 1);
}

long tp_teddy_scan(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		   const char *e, const char **starts, size_t cap, const char **done)
{
	const unsigned char *us = (const unsigned char *)s, *ue = (const unsigned char *)e;
	if (sc->teddy.vbmi)
		return td_scan_vbmi(sc, ss, us, ue, starts, cap, done);
	return td_scan_avx2(sc, ss, us, ue, starts, cap, done);
}

#endif /* HAVE_X86_TARGETS */
