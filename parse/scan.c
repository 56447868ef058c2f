/*
 * scan.c - the candidate search over a whole chunk (see scan.h).
 *
 * Both matchers report marker hits; a hit makes the line that holds it a
 * candidate, and the search resumes at the next line (one hit per line is
 * enough). The Vectorscan matcher compiles every marker into one block-mode
 * database: literals as hex-escaped strings, segment-end markers as
 * "number, blanks, unit, blanks, optional '(' remark, then '\r' or the end
 * of the line". The portable matcher looks, 16 bytes at a time, for a small
 * set of bytes: '\n' and '\r' (where segment-end markers are tried), '('
 * (where a remark may start) and for each literal its rarest byte, where
 * the literals anchored on that byte are compared.
 */
#include "scan.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef TPROF_VECTORSCAN
#include <hs.h>
#endif

#define MAX_SET 64 /* bytes the portable matcher looks for */

struct lit {
	const unsigned char *s;
	size_t n;
	size_t at;     /* offset of the anchor byte */
	unsigned flags;
	int owned;     /* s is a copy (the other case of a caseless anchor) */
	int word;      /* all letters (or UTF-8 bytes): a unit */
};

struct portable {
	/* literals anchored anywhere, grouped by anchor byte */
	struct lit *lits;
	size_t nlits;
	uint16_t first[256], count[256];
	/* segment-end markers */
	struct lit *ends;
	size_t nends;
	unsigned char end_last[256]; /* last byte of some end marker (both cases) */
	unsigned char end_last_any[256]; /* ... of one that needs no number before */
	unsigned char end_ok[256];   /* either, or ')': a segment may end in a marker */
	unsigned char in_set[256];
	unsigned char set[MAX_SET];
	int nset;
	/* the set as nibble tables (shufti): byte x is in it when
	 * lo[x & 15] & hi[x >> 4] (up to 8 high nibbles exactly) */
	unsigned char lo[16], hi[16];
};

struct tp_scanner {
	int vs; /* 1: Vectorscan */
	struct portable pt;
#ifdef TPROF_VECTORSCAN
	hs_database_t *db;
#endif
};

struct tp_scan_scratch {
#ifdef TPROF_VECTORSCAN
	hs_scratch_t *hs;
#endif
	const char **lit, **tail; /* the two matchers' lines before the merge */
	size_t cap;
};

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int eq_bytes(const unsigned char *a, const unsigned char *b, size_t n, unsigned flags)
{
	if (!(flags & TP_MK_NOCASE))
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold(b[i]))
			return 0;
	return 1;
}

/*
 * How common each byte is in training logs, about 1.5 x log2 of its
 * occurrences per million bytes (0: not seen), counted on 50 MB of
 * bench/gen's log (tqdm bars, warnings, launcher and logger lines, loss
 * dicts, timing lines). A literal is anchored on its rarest byte, so that
 * the portable matcher stops seldom.
 */
static const unsigned char byte_freq[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 0, 0, 20, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0,
	25, 8, 0, 0, 0, 20, 7, 18, 14, 12, 18, 9, 21, 19, 21, 22,
	23, 23, 23, 23, 23, 22, 21, 21, 21, 21, 23, 10, 20, 18, 11, 0,
	0, 14, 16, 16, 13, 14, 16, 15, 8, 17, 8, 7, 14, 16, 17, 16,
	16, 0, 12, 13, 15, 16, 10, 14, 9, 5, 0, 20, 0, 20, 0, 17,
	13, 21, 17, 19, 19, 21, 16, 19, 19, 21, 10, 15, 20, 18, 21, 20,
	19, 9, 20, 22, 22, 18, 16, 16, 14, 17, 11, 14, 21, 14, 0, 0,
	0, 9, 9, 7, 7, 7, 7, 0, 23, 15, 15, 15, 15, 15, 15, 15,
	7, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0,
	0, 7, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int byte_cost(unsigned char c)
{
	return byte_freq[c];
}

static int is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int set_add(struct portable *pt, unsigned char c)
{
	if (pt->in_set[c])
		return 1;
	if (pt->nset == MAX_SET)
		return 0;
	pt->in_set[c] = 1;
	pt->set[pt->nset++] = c;
	return 1;
}

static int lit_cmp(const void *a, const void *b)
{
	const struct lit *x = a, *y = b;
	return (int)x->s[x->at] - (int)y->s[y->at];
}

static int portable_build(struct portable *pt, const struct tp_marker_set *sets, size_t nsets,
			  struct strbuf *err)
{
	size_t total = 0;
	for (size_t i = 0; i < nsets; i++)
		total += sets[i].n;
	pt->lits = xcalloc(total ? total * 2 : 1, sizeof(*pt->lits));
	pt->ends = xcalloc(total ? total : 1, sizeof(*pt->ends));
	set_add(pt, '\n');
	set_add(pt, '\r');
	for (size_t i = 0; i < nsets; i++) {
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			struct lit l = { (const unsigned char *)m->lit, strlen(m->lit), 0, m->flags, 0, 0 };
			if (l.n == 0 || memchr(l.s, '\n', l.n) || memchr(l.s, '\r', l.n)) {
				strbuf_addf(err, "marker '%s' (%s): empty or holds a line end", m->lit,
					    m->owner);
				return -1;
			}
			if (m->anchor == TP_AT_END) {
				unsigned char c = l.s[l.n - 1];
				l.word = 1;
				for (size_t k = 0; k < l.n; k++)
					l.word &= is_word_byte(l.s[k]);
				unsigned char *tab = l.word && (l.flags & TP_MK_NUMBER) ? pt->end_last
										       : pt->end_last_any;
				tab[c] = 1;
				if (l.flags & TP_MK_NOCASE)
					tab[fold(c)] = tab[c >= 'a' && c <= 'z' ? c - 32 : c] = 1;
				pt->ends[pt->nends++] = l;
				continue;
			}
			/* the rarest byte, preferring one already looked for */
			int best = -1;
			for (size_t k = 0; k < l.n; k++) {
				int cost = byte_cost(l.s[k]) - (pt->in_set[l.s[k]] ? 1 : 0);
				if (best < 0 || cost < best) {
					best = cost;
					l.at = k;
				}
			}
			unsigned char a = l.s[l.at];
			int ok = set_add(pt, a);
			pt->lits[pt->nlits++] = l;
			if ((l.flags & TP_MK_NOCASE) && a >= 'A' && a <= 'z' && fold(a) >= 'a' && fold(a) <= 'z') {
				/* a caseless letter anchors in both cases: a second entry */
				unsigned char other = a == fold(a) ? (unsigned char)(a - 32) : fold(a);
				ok &= set_add(pt, other);
				struct lit l2 = l;
				unsigned char *copy = (unsigned char *)xmemdup(l.s, l.n);
				copy[l.at] = other;
				l2.s = copy;
				l2.owned = 1;
				pt->lits[pt->nlits++] = l2;
			}
			if (!ok) {
				strbuf_addf(err, "too many distinct anchor bytes for the portable matcher");
				return -1;
			}
		}
	}
	for (int c = 0; c < 256; c++)
		pt->end_ok[c] = pt->end_last[c] | pt->end_last_any[c];
	pt->end_ok[')'] = 1;
	int bucket_of[16], nb = 0;
	memset(bucket_of, -1, sizeof(bucket_of));
	for (int i = 0; i < pt->nset; i++) {
		unsigned char c = pt->set[i];
		int h = c >> 4;
		if (bucket_of[h] < 0)
			bucket_of[h] = nb++ % 8; /* past 8: shared, a superset */
		pt->lo[c & 15] |= (unsigned char)(1u << bucket_of[h]);
		pt->hi[h] |= (unsigned char)(1u << bucket_of[h]);
	}
	qsort(pt->lits, pt->nlits, sizeof(*pt->lits), lit_cmp);
	for (size_t i = pt->nlits; i-- > 0;) {
		unsigned char a = pt->lits[i].s[pt->lits[i].at];
		pt->first[a] = (uint16_t)i;
		pt->count[a]++;
	}
	return 0;
}

static void portable_free(struct portable *pt)
{
	for (size_t i = 0; i < pt->nlits; i++)
		if (pt->lits[i].owned)
			free((void *)pt->lits[i].s);
	free(pt->lits);
	free(pt->ends);
}

static int is_number_end(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '.' || strchr("fFnNyY", c) != NULL;
}

static const unsigned char *trim_blanks(const unsigned char *s, const unsigned char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

/*
 * Does an end marker end right at u (segment [s, u))? A unit after a
 * number is the whole run of letters before u: a number that ends in a
 * letter (nan, inf) is not one when more letters follow it, so "5 ms" is
 * the only reading of "...5 ms" and the run "ms" is compared whole.
 */
static int unit_at(const struct portable *pt, const unsigned char *s, const unsigned char *u)
{
	if (u <= s)
		return 0;
	int after_number = 0;
	const unsigned char *r = u;
	if (pt->end_last[u[-1]]) {
		while (r > s && is_word_byte(r[-1]))
			r--;
		const unsigned char *before = trim_blanks(s, r);
		after_number = before > s && is_number_end(before[-1]);
	}
	if (!after_number && !pt->end_last_any[u[-1]])
		return 0;
	for (size_t i = 0; i < pt->nends; i++) {
		const struct lit *l = &pt->ends[i];
		if ((l->flags & TP_MK_NUMBER) && l->word && (!after_number || l->n != (size_t)(u - r)))
			continue;
		if ((size_t)(u - s) < l->n || !eq_bytes(u - l->n, l->s, l->n, l->flags))
			continue;
		if (!(l->flags & TP_MK_NUMBER))
			return 1;
		const unsigned char *b = trim_blanks(s, u - l->n);
		if (b > s && is_number_end(b[-1]))
			return 1;
	}
	return 0;
}

/* Segment [s,e) ends with an end marker, then blanks, then maybe a remark
 * from a '(' to a last ')' and blanks. */
static int end_match(const struct portable *pt, const unsigned char *s, const unsigned char *e)
{
	const unsigned char *t = trim_blanks(s, e);
	if (unit_at(pt, s, t))
		return 1;
	if (t == s || t[-1] != ')')
		return 0;
	for (const unsigned char *o = memchr(s, '(', (size_t)(t - s)); o;
	     o = memchr(o + 1, '(', (size_t)(t - o - 1)))
		if (unit_at(pt, s, trim_blanks(s, o)))
			return 1;
	return 0;
}

/* A literal anchored on byte *q matches around q, within [ls, e). */
static int lit_match(const struct portable *pt, const unsigned char *ls, const unsigned char *e,
		     const unsigned char *q)
{
	size_t f = pt->first[*q], n = pt->count[*q];
	for (size_t i = f; i < f + n; i++) {
		const struct lit *l = &pt->lits[i];
		if ((size_t)(q - ls) < l->at || (size_t)(e - q) < l->n - l->at)
			continue;
		if (eq_bytes(q - l->at, l->s, l->n, l->flags))
			return 1;
	}
	return 0;
}

/* Can the segment [seg,q) end in an end marker? Most line ends fail on
 * their last byte. */
static inline int may_end(const struct portable *pt, const unsigned char *seg,
			  const unsigned char *q)
{
	while (q > seg && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	return q > seg && pt->end_ok[q[-1]];
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_X86_TARGETS 1
/* 64 bytes against the nibble tables: one bit per byte that may be in the set. */
__attribute__((target("ssse3"))) static uint64_t set_mask64_ssse3(const struct portable *pt,
								    const unsigned char *p)
{
	const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)pt->lo);
	const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)pt->hi);
	const __m128i low4 = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
	uint64_t m = 0;
	for (int i = 0; i < 4; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
		__m128i a = _mm_shuffle_epi8(lo, _mm_and_si128(v, low4));
		__m128i b = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), low4));
		uint64_t none = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(a, b), zero));
		m |= (~none & 0xffffu) << (16 * i);
	}
	return m;
}
#endif

/* Bit i set: p[i] may be in the set (n <= 64). */
static uint64_t set_mask(const struct portable *pt, const unsigned char *p, size_t n, int ssse3)
{
#ifdef HAVE_X86_TARGETS
	if (n == 64 && ssse3)
		return set_mask64_ssse3(pt, p);
#else
	(void)ssse3;
#endif
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (pt->in_set[p[i]])
			m |= (uint64_t)1 << i;
	return m;
}

/* Bit i set: p[i] is '\n' or '\r' (n <= 64 bytes). */
static uint64_t eol_mask(const unsigned char *p, size_t n)
{
	uint64_t m = 0;
#ifdef __SSE2__
	if (n == 64) {
		const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
		for (int i = 0; i < 4; i++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
			uint64_t b = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
			m |= b << (16 * i);
		}
		return m;
	}
#endif
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\n' || p[i] == '\r')
			m |= (uint64_t)1 << i;
	return m;
}

/*
 * One pass over [s,e), 64 bytes at a time: at each '\n' and '\r' the
 * segment-end markers are tried, and with lits also the literals anchored
 * on each byte of the set. Lists the candidate lines (see tp_scan_lines).
 */
static long block_scan(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		       const char **starts, size_t cap, const char **done, int lits)
{
	const unsigned char *ls = s, *seg = s;
	size_t k = 0;
#ifdef HAVE_X86_TARGETS
	int ssse3 = __builtin_cpu_supports("ssse3");
#else
	int ssse3 = 0;
#endif
	*done = (const char *)e;
	if (!lits && !pt->nends)
		return 0;
	for (const unsigned char *blk = s; blk < e;) {
		size_t len = (size_t)(e - blk) < 64 ? (size_t)(e - blk) : 64;
		uint64_t bits = lits ? set_mask(pt, blk, len, ssse3) : eol_mask(blk, len);
		const unsigned char *next = blk + len;
		while (bits) {
			const unsigned char *q = blk + __builtin_ctzll(bits);
			bits &= bits - 1;
			if (*q == '\n' || *q == '\r') {
				if (!pt->nends || !may_end(pt, seg, q) || !end_match(pt, seg, q)) {
					if (*q == '\n')
						ls = q + 1;
					seg = q + 1;
					continue;
				}
			} else if (!lits || !pt->count[*q] || !lit_match(pt, ls, e, q)) {
				continue;
			}
			/* a hit: the line is a candidate, go on at the next one */
			starts[k++] = (const char *)ls;
			const unsigned char *nl = *q == '\n' ? q : memchr(q, '\n', (size_t)(e - q));
			if (!nl || nl + 1 >= e)
				return (long)k;
			ls = seg = nl + 1;
			if (k == cap) {
				*done = (const char *)ls;
				return (long)k;
			}
			if (seg >= next) {
				next = seg; /* the line ran past this block */
				break;
			}
			/* drop the bits of this block before the new line */
			bits &= ~(uint64_t)0 << (unsigned)(seg - blk);
		}
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && pt->nends && may_end(pt, seg, e) && end_match(pt, seg, e))
		starts[k++] = (const char *)ls;
	return (long)k;
}

#ifdef TPROF_VECTORSCAN
/* ---- Vectorscan ---- */

/* Merges two ascending lists of line starts into out (duplicates once). */
static size_t merge_starts(const char **a, size_t na, const char **b, size_t nb, const char **out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na || j < nb) {
		const char *x = j >= nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
		if (!k || out[k - 1] != x)
			out[k++] = x;
	}
	return k;
}


static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addf(sb, "\\x%02x", (unsigned char)*s);
}

static int vs_build(struct tp_scanner *sc, const struct tp_marker_set *sets, size_t nsets,
		    struct strbuf *err)
{
	size_t total = 1;
	for (size_t i = 0; i < nsets; i++)
		total += sets[i].n;
	char **exprs = xcalloc(total, sizeof(*exprs));
	unsigned *flags = xcalloc(total, sizeof(*flags));
	unsigned *ids = xcalloc(total, sizeof(*ids));
	size_t n = 0;
	for (size_t i = 0; i < nsets; i++) {
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			if (m->anchor == TP_AT_END)
				continue;
			struct strbuf sb = STRBUF_INIT;
			add_escaped(&sb, m->lit);
			flags[n] = m->flags & TP_MK_NOCASE ? HS_FLAG_CASELESS : 0;
			exprs[n] = sb.buf;
			ids[n] = (unsigned)n;
			n++;
		}
	}
	hs_compile_error_t *ce = NULL;
	int rc = 0;
	if (hs_compile_multi((const char *const *)exprs, flags, ids, (unsigned)n, HS_MODE_BLOCK,
			     NULL, &sc->db, &ce) != HS_SUCCESS) {
		strbuf_addf(err, "vectorscan: marker %d: %s", ce ? ce->expression : -1,
			    ce ? ce->message : "compile failed");
		hs_free_compile_error(ce);
		rc = -1;
	}
	for (size_t i = 0; i < n; i++)
		free(exprs[i]);
	free(exprs);
	free(flags);
	free(ids);
	return rc;
}

struct vs_ctx {
	const char *s, *e;
	const char **starts;
	size_t cap, k;
	const char *line_end; /* past the '\n' of the last line written (s: none) */
	const char *done;
	int unordered;
};

static int vs_hit(unsigned int id, unsigned long long from, unsigned long long to,
		  unsigned int flags, void *arg)
{
	struct vs_ctx *c = arg;
	(void)id, (void)from, (void)flags;
	/* the last byte of a match is in its line: no marker holds a '\n' */
	const char *h = c->s + to - 1;
	if (h < c->line_end) {
		if (c->k && h < c->starts[c->k - 1])
			c->unordered = 1; /* matches come in order of their end; if not, fall back */
		return c->unordered;
	}
	const char *from_here = c->line_end;
	const char *nl = h > from_here ? memrchr(from_here, '\n', (size_t)(h - from_here)) : NULL;
	c->starts[c->k++] = nl ? nl + 1 : from_here;
	const char *le = memchr(h, '\n', (size_t)(c->e - h));
	c->line_end = le ? le + 1 : c->e;
	if (c->k == c->cap) {
		c->done = c->line_end;
		return 1;
	}
	return 0;
}

static long vs_scan(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		    const char *e, const char **starts, size_t cap, const char **done)
{
	if ((size_t)(e - s) > (1u << 30))
		return -1;
	if (ss->cap < cap) {
		free(ss->lit);
		free(ss->tail);
		ss->lit = xmalloc(cap * sizeof(*ss->lit));
		ss->tail = xmalloc(cap * sizeof(*ss->tail));
		ss->cap = cap;
	}
	/* half of cap each, so that the merge fits */
	size_t half = cap / 2 ? cap / 2 : 1;
	struct vs_ctx c = { s, e, ss->lit, half, 0, s, e, 0 };
	hs_error_t rc = hs_scan(sc->db, s, (unsigned)(e - s), 0, ss->hs, vs_hit, &c);
	if ((rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) || c.unordered)
		return -1;
	const char *tdone;
	long nt = block_scan(&sc->pt, (const unsigned char *)s, (const unsigned char *)c.done,
			     ss->tail, half, &tdone, 0);
	size_t nl = c.k;
	while (nl > 0 && ss->lit[nl - 1] >= tdone)
		nl--; /* past where the tail pass stopped */
	*done = tdone;
	return (long)merge_starts(ss->lit, nl, ss->tail, (size_t)nt, starts);
}
#endif

/* ---- public ---- */

struct tp_scanner *tp_scanner_new(const struct tp_marker_set *sets, size_t nsets,
				  enum tp_scan_backend backend, struct strbuf *err)
{
	struct tp_scanner *sc = xcalloc(1, sizeof(*sc));
	if (portable_build(&sc->pt, sets, nsets, err) < 0) {
		tp_scanner_free(sc);
		return NULL;
	}
#ifdef TPROF_VECTORSCAN
	if (backend != TP_SCAN_PORTABLE) {
		if (vs_build(sc, sets, nsets, err) < 0) {
			tp_scanner_free(sc);
			return NULL;
		}
		sc->vs = 1;
	}
#else
	if (backend == TP_SCAN_VECTORSCAN) {
		strbuf_addstr(err, "vectorscan: not built in (make VECTORSCAN=1 with libvectorscan-dev)");
		tp_scanner_free(sc);
		return NULL;
	}
#endif
	return sc;
}

void tp_scanner_free(struct tp_scanner *sc)
{
	if (!sc)
		return;
#ifdef TPROF_VECTORSCAN
	if (sc->db)
		hs_free_database(sc->db);
#endif
	portable_free(&sc->pt);
	free(sc);
}

const char *tp_scanner_backend(const struct tp_scanner *sc)
{
	return sc->vs ? "vectorscan" : "portable";
}

struct tp_scanner *tp_scanner_for_run(int have_rules)
{
	const char *plain = getenv("TPROF_PLAIN");
	if (have_rules || (plain && *plain && strcmp(plain, "0") != 0))
		return NULL;
	const char *want = getenv("TPROF_SCAN");
	enum tp_scan_backend b = TP_SCAN_AUTO;
	if (want && !strcmp(want, "portable"))
		b = TP_SCAN_PORTABLE;
	else if (want && !strcmp(want, "vectorscan"))
		b = TP_SCAN_VECTORSCAN;
	struct strbuf err = STRBUF_INIT;
	struct tp_scanner *sc = tp_scanner_new(&tp_builtin_markers, 1, b, &err);
	strbuf_release(&err);
	return sc;
}

struct tp_scan_scratch *tp_scan_scratch_new(const struct tp_scanner *sc)
{
	struct tp_scan_scratch *ss = xcalloc(1, sizeof(*ss));
#ifdef TPROF_VECTORSCAN
	if (sc->vs && hs_alloc_scratch(sc->db, &ss->hs) != HS_SUCCESS) {
		free(ss);
		return NULL;
	}
#else
	(void)sc;
#endif
	return ss;
}

void tp_scan_scratch_free(struct tp_scan_scratch *ss)
{
	if (!ss)
		return;
#ifdef TPROF_VECTORSCAN
	if (ss->hs)
		hs_free_scratch(ss->hs);
#endif
	free(ss->lit);
	free(ss->tail);
	free(ss);
}

long tp_scan_lines(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		   const char *e, const char **starts, size_t cap, const char **done)
{
	*done = e;
	if (s >= e || cap == 0)
		return 0;
#ifdef TPROF_VECTORSCAN
	if (sc->vs)
		return vs_scan(sc, ss, s, e, starts, cap, done);
#else
	(void)ss;
#endif
	return block_scan(&sc->pt, (const unsigned char *)s, (const unsigned char *)e, starts, cap,
			  done, 1);
}

#ifdef HAVE_X86_TARGETS
#define HAVE_AVX2_COUNT 1
/* 32 bytes at a time where the CPU has AVX2 (checked at run time). */
__attribute__((target("avx2"))) static uint64_t count_avx2(const char *s, const char *e,
							    const char **stop)
{
	uint64_t n = 0;
	const __m256i nl = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
	while (e - s >= 32) {
		__m256i acc = zero;
		int blocks = 0;
		while (e - s >= 32 && blocks < 255) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
			acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, nl));
			s += 32;
			blocks++;
		}
		__m256i sums = _mm256_sad_epu8(acc, zero);
		n += (uint64_t)_mm256_extract_epi64(sums, 0) + (uint64_t)_mm256_extract_epi64(sums, 1) +
		     (uint64_t)_mm256_extract_epi64(sums, 2) + (uint64_t)_mm256_extract_epi64(sums, 3);
	}
	*stop = s;
	return n;
}
#endif

uint64_t tp_count_newlines(const char *s, const char *e)
{
	uint64_t n = 0;
#ifdef HAVE_AVX2_COUNT
	if (e - s >= 64 && __builtin_cpu_supports("avx2"))
		n = count_avx2(s, e, &s);
#endif
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i zero = _mm_setzero_si128();
	while (e - s >= 16) {
		/* up to 255 blocks summed per byte lane, then widened */
		__m128i acc = zero;
		int blocks = 0;
		while (e - s >= 16 && blocks < 255) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
			s += 16;
			blocks++;
		}
		__m128i sums = _mm_sad_epu8(acc, zero);
		n += (uint64_t)_mm_cvtsi128_si64(sums) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
	}
#endif
	for (; s < e; s++)
		n += *s == '\n';
	return n;
}
