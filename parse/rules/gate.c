/*
 * gate.c - the literal gate of rules groups and format packs (see gate.h).
 *
 * Each literal is anchored on its rarest byte pair, by byte and pair
 * frequencies measured on training-log text. On CPUs with SSSE3 a line is
 * scanned Teddy-style: 16 positions at a time, nibble-table lookups of the
 * anchor and the two bytes after it give candidate positions per bucket;
 * elsewhere 16 bytes are compared against every distinct anchor byte at
 * once. A candidate is checked against a bitmap of the exact anchor pairs,
 * and only then compared with the literals anchored on it.
 */
#include "gate.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_TEDDY 1
#endif

#define MAX_ANCHORS 16


typedef unsigned char v16u __attribute__((vector_size(16)));

struct anchored {
	const struct tp_rmarker *m;
	size_t off; /* offset of the anchor byte in the literal */
};

struct tp_gate {
	unsigned char anchors[MAX_ANCHORS];
	size_t nanchors;
	v16u splat[MAX_ANCHORS];
	/* markers by anchor byte: first[c] .. first[c+1] in by_anchor */
	size_t first[257];
	struct anchored *by_anchor;
	size_t n;
	/* (anchor byte, next byte) pairs that some marker has: an anchor hit
	 * whose next byte makes no such pair is rejected without a compare */
	uint64_t pairs[65536 / 64];
	/* Teddy-style nibble tables: bit k of a_lo[c & 15] & a_hi[c >> 4] is
	 * set if some marker of bucket k anchors on byte c; b_* and c_* the
	 * same for the two bytes after the anchor */
	unsigned char a_lo[16], a_hi[16], b_lo[16], b_hi[16], c_lo[16], c_hi[16];
	int teddy; /* 2: the CPU has AVX2, 1: SSSE3, 0: neither */
};

/*
 * How common each ASCII byte is in log text, per 100,000 bytes: measured
 * on the text of bench/gen's log outside progress bars (training-log
 * noise and timing lines). Bytes >= 0x80 count as 1 (rare).
 */
static const unsigned short ascii_freq[128] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 150, 1, 1, 1, 1,
	11059, 9, 1, 1, 1, 7, 6, 1132, 158, 67, 1134, 19, 1397, 1887, 2736, 1175,
	4666, 3527, 3216, 2351, 2329, 1512, 1142, 1297, 1365, 1232, 2673, 22, 13, 997, 36, 1,
	1, 163, 427, 410, 117, 183, 448, 264, 11, 595, 11, 6, 202, 390, 621, 444,
	498, 1, 58, 97, 244, 393, 26, 159, 21, 2, 1, 874, 1, 857, 1, 836,
	105, 3748, 566, 1902, 1481, 4126, 392, 1540, 1392, 2965, 31, 335, 2464, 869, 3582, 3252,
	1719, 18, 3036, 3836, 3373, 931, 390, 544, 203, 616, 49, 183, 193, 183, 1, 1,
};

unsigned tp_byte_freq(unsigned char c)
{
	return c < 128 ? ascii_freq[c] : 1;
}

static int is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || c == ' ' || c == '_';
}

/* The 400 most common byte pairs of the same text, per 100,000 pairs
 * (those at least 20 times), sorted. */
static const struct common_pair {
	unsigned char a, b;
	unsigned short freq;
} common_pairs[] = {
	{ 0x1b, '[', 153 }, { ' ', ' ', 1085 }, { ' ', '\'', 384 }, { ' ', '-', 279 },
	{ ' ', '0', 936 }, { ' ', '1', 610 }, { ' ', '2', 579 }, { ' ', '3', 238 }, { ' ', '4', 125 },
	{ ' ', '5', 100 }, { ' ', '8', 66 }, { ' ', 'A', 69 }, { ' ', 'B', 141 }, { ' ', 'C', 218 },
	{ ' ', 'E', 107 }, { ' ', 'G', 159 }, { ' ', 'I', 204 }, { ' ', 'N', 144 }, { ' ', 'P', 138 },
	{ ' ', 'T', 149 }, { ' ', 'U', 116 }, { ' ', '[', 314 }, { ' ', 'a', 135 }, { ' ', 'b', 180 },
	{ ' ', 'c', 184 }, { ' ', 'd', 230 }, { ' ', 'e', 146 }, { ' ', 'f', 112 }, { ' ', 'g', 211 },
	{ ' ', 'i', 349 }, { ' ', 'l', 312 }, { ' ', 'm', 114 }, { ' ', 'n', 214 }, { ' ', 'o', 155 },
	{ ' ', 'p', 153 }, { ' ', 's', 294 }, { ' ', 't', 561 }, { ' ', 'u', 83 }, { ' ', 'v', 161 },
	{ ' ', 'w', 272 }, { ' ', '|', 196 }, { '\'', ':', 558 }, { '\'', 'e', 186 },
	{ '\'', 'l', 372 }, { '*', '*', 1123 }, { ',', ' ', 1103 }, { '-', ' ', 266 },
	{ '-', '-', 365 }, { '-', '0', 201 }, { '-', '1', 770 }, { '-', 'n', 119 }, { '-', 'p', 92 },
	{ '.', ' ', 113 }, { '.', '.', 66 }, { '.', '0', 536 }, { '.', '1', 492 }, { '.', '2', 99 },
	{ '.', '3', 99 }, { '.', '4', 117 }, { '.', '5', 112 }, { '.', '6', 99 }, { '.', '7', 82 },
	{ '.', '8', 81 }, { '.', '9', 139 }, { '.', 'p', 279 }, { '.', 'w', 92 }, { '/', '5', 78 },
	{ '/', 'c', 69 }, { '/', 'd', 88 }, { '/', 'l', 127 }, { '/', 'p', 92 }, { '/', 's', 118 },
	{ '/', 't', 92 }, { '/', 'u', 75 }, { '0', ' ', 289 }, { '0', '-', 385 }, { '0', '.', 762 },
	{ '0', '/', 99 }, { '0', '0', 504 }, { '0', '1', 223 }, { '0', '2', 523 }, { '0', '3', 317 },
	{ '0', '4', 142 }, { '0', '5', 264 }, { '0', '6', 155 }, { '0', '7', 214 }, { '0', '8', 90 },
	{ '0', '9', 101 }, { '0', ':', 174 }, { '0', ']', 121 }, { '0', 'e', 76 }, { '0', 'm', 82 },
	{ '1', ' ', 81 }, { '1', ',', 73 }, { '1', '.', 371 }, { '1', '0', 714 }, { '1', '1', 353 },
	{ '1', '2', 193 }, { '1', '3', 187 }, { '1', '4', 389 }, { '1', '5', 108 }, { '1', '6', 116 },
	{ '1', '7', 115 }, { '1', '8', 354 }, { '1', '9', 121 }, { '1', ':', 109 }, { '1', 'M', 128 },
	{ '2', ' ', 213 }, { '2', '.', 177 }, { '2', '0', 537 }, { '2', '1', 267 }, { '2', '2', 326 },
	{ '2', '3', 304 }, { '2', '4', 469 }, { '2', '6', 93 }, { '2', '7', 106 }, { '2', '8', 75 },
	{ '2', '9', 142 }, { '2', ':', 141 }, { '2', 'm', 82 }, { '3', ' ', 241 }, { '3', '.', 278 },
	{ '3', '0', 124 }, { '3', '1', 131 }, { '3', '2', 269 }, { '3', '3', 121 }, { '3', '4', 117 },
	{ '3', '6', 102 }, { '3', '7', 121 }, { '3', '8', 75 }, { '3', '9', 131 }, { '3', ':', 240 },
	{ '4', ' ', 450 }, { '4', ',', 92 }, { '4', '-', 385 }, { '4', '1', 66 }, { '4', '2', 103 },
	{ '4', '3', 315 }, { '4', '4', 128 }, { '4', '5', 98 }, { '4', '6', 78 }, { '4', '7', 83 },
	{ '4', '8', 87 }, { '4', '9', 70 }, { '4', ':', 123 }, { '5', ' ', 72 }, { '5', ',', 144 },
	{ '5', '0', 138 }, { '5', '1', 87 }, { '5', '2', 114 }, { '5', '3', 94 }, { '5', '4', 123 },
	{ '5', '5', 103 }, { '5', '6', 115 }, { '5', '7', 83 }, { '5', '8', 80 }, { '5', ':', 92 },
	{ '6', ' ', 74 }, { '6', ',', 115 }, { '6', '0', 80 }, { '6', '1', 66 }, { '6', '3', 78 },
	{ '6', '4', 92 }, { '6', '5', 103 }, { '6', '8', 71 }, { '6', ':', 101 }, { '7', '0', 70 },
	{ '7', '4', 107 }, { '7', '6', 81 }, { '7', '7', 79 }, { '7', '8', 69 }, { '7', '9', 75 },
	{ '7', ':', 191 }, { '7', ']', 96 }, { '8', ' ', 97 }, { '8', '0', 79 }, { '8', '3', 104 },
	{ '8', '4', 247 }, { '8', '7', 114 }, { '8', ':', 102 }, { '9', '2', 84 }, { '9', '4', 69 },
	{ '9', '5', 86 }, { '9', '7', 127 }, { '9', '8', 161 }, { '9', '9', 115 }, { '9', ':', 76 },
	{ ':', ' ', 1271 }, { ':', '0', 188 }, { ':', '1', 197 }, { ':', '2', 320 },
	{ ':', '3', 147 }, { ':', '4', 149 }, { ':', '5', 149 }, { ':', '9', 103 }, { '=', '0', 157 },
	{ '=', '=', 630 }, { 'B', ',', 239 }, { 'B', 'a', 129 }, { 'C', 'C', 92 }, { 'C', 'L', 92 },
	{ 'C', 'P', 122 }, { 'E', 'p', 81 }, { 'F', 'O', 399 }, { 'G', 'P', 166 }, { 'I', 'N', 457 },
	{ 'L', ' ', 93 }, { 'M', 'B', 274 }, { 'N', 'C', 93 }, { 'N', 'F', 399 }, { 'O', 0x1b, 76 },
	{ 'O', ' ', 170 }, { 'O', ']', 152 }, { 'P', 'U', 260 }, { 'P', 'r', 92 }, { 'T', 'h', 69 },
	{ 'U', ' ', 260 }, { 'U', 's', 105 }, { 'W', 'a', 98 }, { '[', '0', 169 }, { '[', '2', 212 },
	{ '[', '3', 89 }, { '[', 'I', 152 }, { '[', 's', 68 }, { ']', ' ', 713 }, { ']', '[', 157 },
	{ '_', 'a', 71 }, { '_', 'l', 173 }, { '_', 'r', 229 }, { 'a', '/', 121 }, { 'a', 'c', 191 },
	{ 'a', 'd', 126 }, { 'a', 'g', 168 }, { 'a', 'i', 286 }, { 'a', 'l', 434 }, { 'a', 'n', 327 },
	{ 'a', 'p', 136 }, { 'a', 'r', 537 }, { 'a', 's', 146 }, { 'a', 't', 875 }, { 'a', 'u', 70 },
	{ 'b', '/', 105 }, { 'b', 'a', 121 }, { 'b', 'e', 68 }, { 'c', 'a', 118 }, { 'c', 'c', 143 },
	{ 'c', 'e', 127 }, { 'c', 'h', 722 }, { 'c', 'k', 156 }, { 'c', 'o', 209 }, { 'c', 't', 110 },
	{ 'd', ' ', 241 }, { 'd', 'a', 154 }, { 'd', 'b', 79 }, { 'd', 'e', 364 }, { 'd', 'g', 77 },
	{ 'd', 'i', 185 }, { 'd', 'o', 112 }, { 'e', ' ', 442 }, { 'e', '\'', 186 },
	{ 'e', '-', 272 }, { 'e', '0', 92 }, { 'e', 'a', 308 }, { 'e', 'c', 123 }, { 'e', 'd', 312 },
	{ 'e', 'e', 90 }, { 'e', 'l', 97 }, { 'e', 'm', 82 }, { 'e', 'n', 178 }, { 'e', 'p', 351 },
	{ 'e', 'r', 608 }, { 'e', 's', 419 }, { 'e', 't', 172 }, { 'f', 'i', 163 }, { 'f', 'o', 86 },
	{ 'g', ' ', 320 }, { 'g', ':', 106 }, { 'g', '_', 199 }, { 'g', 'e', 322 }, { 'g', 'p', 107 },
	{ 'g', 'r', 161 }, { 'g', 's', 105 }, { 'h', ' ', 276 }, { 'h', '\'', 186 }, { 'h', '.', 67 },
	{ 'h', '/', 84 }, { 'h', ':', 78 }, { 'h', 'a', 92 }, { 'h', 'e', 172 }, { 'h', 'i', 113 },
	{ 'h', 'o', 134 }, { 'h', 's', 107 }, { 'i', 'b', 168 }, { 'i', 'c', 138 }, { 'i', 'l', 293 },
	{ 'i', 'n', 1267 }, { 'i', 'o', 242 }, { 'i', 's', 375 }, { 'i', 't', 215 }, { 'k', 'a', 92 },
	{ 'k', 'e', 71 }, { 'l', ' ', 140 }, { 'l', '/', 77 }, { 'l', '_', 108 }, { 'l', 'a', 186 },
	{ 'l', 'e', 381 }, { 'l', 'i', 280 }, { 'l', 'l', 107 }, { 'l', 'o', 697 }, { 'l', 'r', 76 },
	{ 'l', 's', 111 }, { 'l', 'y', 72 }, { 'm', ' ', 102 }, { 'm', 'I', 89 }, { 'm', 'a', 144 },
	{ 'm', 'e', 95 }, { 'm', 'o', 86 }, { 'm', 'p', 122 }, { 'm', 's', 77 }, { 'n', ' ', 322 },
	{ 'n', '(', 92 }, { 'n', '.', 126 }, { 'n', '3', 92 }, { 'n', '_', 167 }, { 'n', 'c', 101 },
	{ 'n', 'd', 210 }, { 'n', 'e', 215 }, { 'n', 'g', 748 }, { 'n', 'i', 469 }, { 'n', 'k', 72 },
	{ 'n', 'n', 73 }, { 'n', 'o', 283 }, { 'n', 't', 248 }, { 'o', ' ', 148 }, { 'o', 'c', 383 },
	{ 'o', 'd', 265 }, { 'o', 'f', 125 }, { 'o', 'm', 117 }, { 'o', 'n', 579 }, { 'o', 'p', 109 },
	{ 'o', 'r', 385 }, { 'o', 's', 558 }, { 'o', 't', 127 }, { 'o', 'u', 69 }, { 'o', 'w', 76 },
	{ 'p', ' ', 96 }, { 'p', 'a', 120 }, { 'p', 'e', 152 }, { 'p', 'h', 122 }, { 'p', 'l', 86 },
	{ 'p', 'o', 305 }, { 'p', 'r', 102 }, { 'p', 't', 96 }, { 'p', 'u', 111 }, { 'p', 'y', 384 },
	{ 'r', ' ', 239 }, { 'r', 'W', 92 }, { 'r', 'a', 875 }, { 'r', 'c', 187 }, { 'r', 'e', 243 },
	{ 'r', 'i', 131 }, { 'r', 'n', 543 }, { 'r', 'o', 183 }, { 'r', 's', 66 }, { 's', ' ', 659 },
	{ 's', '\'', 186 }, { 's', ',', 384 }, { 's', '.', 180 }, { 's', '/', 138 },
	{ 's', '=', 161 }, { 's', 'a', 71 }, { 's', 'e', 313 }, { 's', 'i', 154 }, { 's', 'r', 93 },
	{ 's', 's', 661 }, { 's', 't', 371 }, { 't', ' ', 278 }, { 't', 'a', 259 }, { 't', 'c', 217 },
	{ 't', 'e', 646 }, { 't', 'h', 320 }, { 't', 'i', 409 }, { 't', 'o', 394 }, { 't', 'r', 372 },
	{ 'u', '-', 92 }, { 'u', 'c', 68 }, { 'u', 'n', 146 }, { 'u', 'r', 87 }, { 'u', 's', 148 },
	{ 'u', 't', 190 }, { 'v', 'a', 107 }, { 'v', 'e', 124 }, { 'w', 'a', 284 }, { 'w', 'i', 83 },
	{ 'y', ' ', 99 }, { 'y', ':', 286 }, { 'y', 't', 92 }, { '{', '\'', 186 }, { '|', ' ', 196 },
	{ 0xe2, 0x96, 69 },
};

static int pair_cmp(const void *k, const void *e)
{
	const struct common_pair *x = k, *y = e;
	return x->a != y->a ? x->a - y->a : x->b - y->b;
}

/* Estimated frequency of the pair (a, b) per 100,000 bytes: measured for
 * common pairs; for the others independence, times 16 for the pairs of
 * ordinary words, but below the least common measured pair. */
double tp_pair_freq(unsigned char a, unsigned char b)
{
	struct common_pair key = { a, b, 0 };
	const struct common_pair *hit = bsearch(&key, common_pairs, ARRAY_SIZE(common_pairs),
						sizeof(common_pairs[0]), pair_cmp);
	if (hit)
		return hit->freq;
	double f = (double)tp_byte_freq(a) * (double)tp_byte_freq(b) / 100000.0;
	f = is_word(a) && is_word(b) ? f * 16 : f;
	return f < 20 ? f : 20;
}

/* The offset of the rarest pair of m whose first byte is c; -1 if none. */
static long best_pair_at(const struct tp_rmarker *m, int c, double *freq)
{
	long best = -1;
	for (size_t i = 0; i < m->len; i++) {
		if ((unsigned char)m->lit[i] != c)
			continue;
		/* a last byte has no pair to check: it costs as a byte, times 8 */
		double f = i + 1 < m->len ? tp_pair_freq((unsigned char)c, (unsigned char)m->lit[i + 1])
					  : 8.0 * tp_byte_freq((unsigned char)c);
		if (best < 0 || f < *freq) {
			best = (long)i;
			*freq = f;
		}
	}
	return best;
}

/*
 * Chooses the anchor of every marker: the position of its rarest byte
 * pair (anchor, next byte) by the measured pair frequencies. The scan's
 * cost does not grow with the number of distinct anchors (Teddy buckets),
 * only with how often the pairs occur. off[i] gets the anchor's offset.
 */
static void choose_anchors(const struct tp_rmarker *m, size_t n, size_t *off)
{
	for (size_t i = 0; i < n; i++) {
		double best = 0;
		off[i] = 0;
		for (int c = 1; c < 256; c++) {
			double f;
			long at = m[i].len ? best_pair_at(&m[i], c, &f) : -1;
			if (at >= 0 && (best == 0 || f < best)) {
				best = f;
				off[i] = (size_t)at;
			}
		}
	}
}

/* Nibble sets of one bucket: bit k of lo[i] is nibble k of position i. */
struct nib {
	uint16_t lo[2], hi[2];
};

/* Estimated frequency of the pairs a bucket's nibble tables admit: every
 * byte whose nibbles both occur, times the same for the next byte. */
static double admit_freq(const struct nib *b)
{
	double f[2] = { 0, 0 };
	for (int i = 0; i < 2; i++)
		for (unsigned h = 0; h < 16; h++)
			if (b->hi[i] >> h & 1)
				for (unsigned l = 0; l < 16; l++)
					if (b->lo[i] >> l & 1)
						f[i] += tp_byte_freq((unsigned char)(h << 4 | l));
	return f[0] * f[1] / 100000.0;
}

/*
 * Teddy buckets: a bucket's tables admit every combination of its
 * anchors' nibbles, so which anchors share a bucket decides how many
 * false candidates a line gives. Starting from anchors in turn, each
 * anchor moves to the bucket where the estimate of what the buckets admit
 * is lowest, until no move helps (a few rounds).
 */
static void assign_buckets(const struct tp_rmarker *m, size_t n, const size_t *off,
			   const unsigned char *used, size_t nused, unsigned char *bucket)
{
	struct nib own[256]; /* per anchor: its nibbles and its next bytes' */
	memset(own, 0, sizeof(own));
	for (size_t i = 0; i < n; i++) {
		if (!m[i].len)
			continue;
		unsigned char c = (unsigned char)m[i].lit[off[i]];
		size_t u = (size_t)((const unsigned char *)memchr(used, c, nused) - used);
		own[u].lo[0] |= (uint16_t)(1u << (c & 15));
		own[u].hi[0] |= (uint16_t)(1u << (c >> 4));
		if (off[i] + 1 < m[i].len) {
			unsigned char d = (unsigned char)m[i].lit[off[i] + 1];
			own[u].lo[1] |= (uint16_t)(1u << (d & 15));
			own[u].hi[1] |= (uint16_t)(1u << (d >> 4));
		} else {
			own[u].lo[1] = own[u].hi[1] = 0xffff;
		}
	}
	for (size_t u = 0; u < nused; u++)
		bucket[u] = (unsigned char)(u % 8);
	for (int round = 0; round < 4; round++) {
		int moved = 0;
		for (size_t u = 0; u < nused; u++) {
			double best = -1;
			int pick = bucket[u];
			for (int b = 0; b < 8; b++) {
				struct nib t = { { 0, 0 }, { 0, 0 } };
				for (size_t v = 0; v < nused; v++)
					if (v != u && bucket[v] == b)
						for (int i = 0; i < 2; i++)
							t.lo[i] |= own[v].lo[i], t.hi[i] |= own[v].hi[i];
				double before = admit_freq(&t);
				for (int i = 0; i < 2; i++)
					t.lo[i] |= own[u].lo[i], t.hi[i] |= own[u].hi[i];
				double cost = admit_freq(&t) - before;
				if (best < 0 || cost < best) {
					best = cost;
					pick = b;
				}
			}
			moved |= pick != bucket[u];
			bucket[u] = (unsigned char)pick;
		}
		if (!moved)
			break;
	}
}

struct tp_gate *tp_gate_new(const struct tp_rmarker *m, size_t n)
{
	struct tp_gate *ms = xcalloc(1, sizeof(*ms));
	size_t *off = xcalloc(n ? n : 1, sizeof(*off));
	size_t count[256] = { 0 };
	unsigned char used[256];
	size_t nused = 0;
	choose_anchors(m, n, off);
	for (size_t i = 0; i < n; i++) {
		if (!m[i].len)
			continue;
		unsigned char c = (unsigned char)m[i].lit[off[i]];
		if (!memchr(used, c, nused))
			used[nused++] = c;
		count[c]++;
		ms->n++;
	}
	ms->first[0] = 0;
	for (int c = 0; c < 256; c++)
		ms->first[c + 1] = ms->first[c] + count[c];
	unsigned char bucket[256];
	assign_buckets(m, n, off, used, nused, bucket);
	ms->by_anchor = xcalloc(ms->n ? ms->n : 1, sizeof(*ms->by_anchor));
	size_t fill[256];
	memcpy(fill, ms->first, sizeof(fill));
	for (size_t i = 0; i < n; i++) {
		if (!m[i].len)
			continue;
		unsigned char c = (unsigned char)m[i].lit[off[i]];
		ms->by_anchor[fill[c]++] = (struct anchored){ &m[i], off[i] };
		size_t u = (size_t)((const unsigned char *)memchr(used, c, nused) - used);
		unsigned char bit = (unsigned char)(1u << bucket[u]);
		ms->a_lo[c & 15] |= bit;
		ms->a_hi[c >> 4] |= bit;
		if (off[i] + 1 < m[i].len) {
			unsigned char b = (unsigned char)m[i].lit[off[i] + 1];
			tp_pairs_set(ms->pairs, c, b);
			ms->b_lo[b & 15] |= bit;
			ms->b_hi[b >> 4] |= bit;
		} else {
			for (unsigned b = 0; b < 256; b++)
				tp_pairs_set(ms->pairs, c, b);
			for (int k = 0; k < 16; k++)
				ms->b_lo[k] |= bit, ms->b_hi[k] |= bit;
		}
		if (off[i] + 2 < m[i].len) {
			unsigned char t = (unsigned char)m[i].lit[off[i] + 2];
			ms->c_lo[t & 15] |= bit;
			ms->c_hi[t >> 4] |= bit;
		} else {
			for (int k = 0; k < 16; k++)
				ms->c_lo[k] |= bit, ms->c_hi[k] |= bit;
		}
	}
#ifdef HAVE_TEDDY
	ms->teddy = __builtin_cpu_supports("avx2") ? 2 : __builtin_cpu_supports("ssse3");
#endif
	/* more distinct anchors than vector compares: the scan falls back to
	 * a byte loop (still correct, slower) */
	ms->nanchors = nused <= MAX_ANCHORS ? nused : 0;
	for (size_t i = 0; i < ms->nanchors; i++) {
		ms->anchors[i] = used[i];
		for (int k = 0; k < 16; k++)
			ms->splat[i][k] = used[i];
	}
	free(off);
	return ms;
}

void tp_gate_free(struct tp_gate *ms)
{
	if (!ms)
		return;
	free(ms->by_anchor);
	free(ms);
}

/* Verifies the markers anchored on s[i]. */
static size_t verify_at(const struct tp_gate *ms, const char *s, size_t n, size_t i,
			uint64_t *hits)
{
	unsigned char c = (unsigned char)s[i];
	size_t found = 0;
	for (size_t k = ms->first[c]; k < ms->first[c + 1]; k++) {
		const struct anchored *a = &ms->by_anchor[k];
		if (a->off > i || i - a->off + a->m->len > n || s[i - a->off] != a->m->lit[0] ||
		    (a->off + 1 < a->m->len && s[i + 1] != a->m->lit[a->off + 1]))
			continue;
		if (memcmp(s + i - a->off, a->m->lit, a->m->len) == 0) {
			hits[a->m->group / 64] |= (uint64_t)1 << (a->m->group % 64);
			found++;
		}
	}
	return found;
}

static size_t scan_bytes(const struct tp_gate *ms, const char *s, size_t from, size_t to,
			 size_t n, uint64_t *hits)
{
	size_t found = 0;
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)s[i];
		if (ms->first[c] != ms->first[c + 1])
			found += verify_at(ms, s, n, i, hits);
	}
	return found;
}

/* Verifies the anchor hits of one 16-byte block: w holds 0xff bytes. */
static size_t block_hits(const struct tp_gate *ms, const char *s, size_t base, uint64_t w,
			 size_t n, uint64_t *hits)
{
	size_t found = 0;
	while (w) {
		int bit = __builtin_ctzll(w);
		size_t at = base + (size_t)(bit / 8);
		/* most anchor hits fail on the byte after the anchor */
		if (tp_pairs_has(ms->pairs, (unsigned char)s[at],
				 at + 1 < n ? (unsigned char)s[at + 1] : 0u))
			found += verify_at(ms, s, n, at, hits);
		w &= ~((uint64_t)0xff << (bit & ~7));
	}
	return found;
}

/* Anchor bytes of the 16 bytes at p, as 0xff bytes in w[0..1]. */
static inline int block_mask(const struct tp_gate *ms, const char *p, uint64_t w[2])
{
	v16u x, acc = { 0 };
	memcpy(&x, p, 16);
	for (size_t a = 0; a < ms->nanchors; a++)
		acc |= (v16u)(x == ms->splat[a]);
	memcpy(w, &acc, 16);
	return (w[0] | w[1]) != 0;
}

#ifdef HAVE_TEDDY
/* The nibble tables of one byte position, as registers. */
struct teddy_tables {
	__m128i alo, ahi, blo, bhi, clo, chi;
};

/* Bucket bits of the 16 bytes at p by one position's tables. */
__attribute__((target("ssse3"))) static inline __m128i nibbles(const char *p, __m128i lo, __m128i hi)
{
	const __m128i low = _mm_set1_epi8(0x0f);
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	return _mm_and_si128(_mm_shuffle_epi8(lo, _mm_and_si128(x, low)),
			     _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(x, 4), low)));
}

/* Candidates of the block at p (bytes p[k], p[k+1], p[k+2] fit a
 * bucket) as a 16-bit mask; reads p[0..18). */
__attribute__((target("ssse3"))) static inline unsigned teddy_block(const char *p,
								   const struct teddy_tables *t)
{
	__m128i m = _mm_and_si128(_mm_and_si128(nibbles(p, t->alo, t->ahi), nibbles(p + 1, t->blo, t->bhi)),
				  nibbles(p + 2, t->clo, t->chi));
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(m, _mm_setzero_si128())) ^ 0xffffu;
}

/* Verifies the candidates in bits (positions base + k). */
static size_t teddy_hits(const struct tp_gate *ms, const char *s, size_t n, size_t base,
			 unsigned bits, uint64_t *hits)
{
	size_t found = 0;
	while (bits) {
		size_t at = base + (size_t)__builtin_ctz(bits);
		if (tp_pairs_has(ms->pairs, (unsigned char)s[at],
				 at + 1 < n ? (unsigned char)s[at + 1] : 0u))
			found += verify_at(ms, s, n, at, hits);
		bits &= bits - 1;
	}
	return found;
}

/* Teddy-style scan: four table lookups per 16 bytes, whatever the number
 * of markers; a candidate is a position whose byte pair fits a bucket. */
__attribute__((target("ssse3"))) static size_t teddy_scan(const struct tp_gate *ms,
							  const char *s, size_t n, size_t i,
							  uint64_t *hits)
{
#define LOAD(f) _mm_loadu_si128((const __m128i *)(const void *)ms->f)
	struct teddy_tables t = { LOAD(a_lo), LOAD(a_hi), LOAD(b_lo), LOAD(b_hi), LOAD(c_lo), LOAD(c_hi) };
#undef LOAD
	size_t found = 0;
	for (; i + 18 <= n; i += 16) {
		unsigned bits = teddy_block(s + i, &t);
		if (bits)
			found += teddy_hits(ms, s, n, i, bits, hits);
	}
	/* the tail: the last 18 bytes again, minus the positions already seen
	 * (the last two positions have no triple: scan_bytes takes them) */
	if (i + 2 < n && n >= 18) {
		size_t base = n - 18;
		unsigned bits = teddy_block(s + base, &t) & (0xffffu << (i - base));
		found += teddy_hits(ms, s, n, base, bits, hits);
		i = n - 2;
	}
	return found + scan_bytes(ms, s, i, n, n, hits);
}

/* Bucket bits of the 32 bytes at p by one position's tables (both lanes). */
__attribute__((target("avx2"))) static inline __m256i nibbles32(const char *p, __m256i lo, __m256i hi)
{
	const __m256i low = _mm256_set1_epi8(0x0f);
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
	return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, low)),
				_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
}

/* teddy_scan 32 positions at a time; the SSSE3 loop takes the tail. */
__attribute__((target("avx2"))) static size_t teddy_scan32(const struct tp_gate *ms,
							   const char *s, size_t n, uint64_t *hits)
{
#define LOAD(f) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)ms->f))
	__m256i alo = LOAD(a_lo), ahi = LOAD(a_hi), blo = LOAD(b_lo), bhi = LOAD(b_hi);
	__m256i clo = LOAD(c_lo), chi = LOAD(c_hi);
#undef LOAD
	size_t found = 0, i = 0;
	for (; i + 34 <= n; i += 32) {
		__m256i m = _mm256_and_si256(_mm256_and_si256(nibbles32(s + i, alo, ahi),
							      nibbles32(s + i + 1, blo, bhi)),
					     nibbles32(s + i + 2, clo, chi));
		unsigned bits = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()));
		if (bits) {
			found += teddy_hits(ms, s, n, i, bits & 0xffffu, hits);
			found += teddy_hits(ms, s, n, i + 16, bits >> 16, hits);
		}
	}
	if (i + 2 < n) {
		/* the tail: the last 34 bytes again, minus the positions seen */
		size_t base = n - 34;
		__m256i m = _mm256_and_si256(_mm256_and_si256(nibbles32(s + base, alo, ahi),
							      nibbles32(s + base + 1, blo, bhi)),
					     nibbles32(s + base + 2, clo, chi));
		unsigned bits = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()));
		bits &= (unsigned)(~0ull << (i - base));
		found += teddy_hits(ms, s, n, base, bits & 0xffffu, hits);
		found += teddy_hits(ms, s, n, base + 16, bits >> 16, hits);
		i = n - 2;
	}
	return found + scan_bytes(ms, s, i, n, n, hits);
}
#endif

size_t tp_gate_scan(const struct tp_gate *ms, const char *s, size_t n,
			  uint64_t *hits)
{
	if (!ms || !ms->n || !n)
		return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* block_hits reads byte k of a block at bits 8k: little-endian only */
	return scan_bytes(ms, s, 0, n, n, hits);
#endif
#ifdef HAVE_TEDDY
	if (ms->teddy == 2 && n >= 34)
		return teddy_scan32(ms, s, n, hits);
	if (ms->teddy && n >= 18)
		return teddy_scan(ms, s, n, 0, hits);
#endif
	if (!ms->nanchors || n < 16)
		return scan_bytes(ms, s, 0, n, n, hits);
	size_t found = 0, i = 0;
	uint64_t w[2];
	for (; i + 16 <= n; i += 16)
		if (block_mask(ms, s + i, w)) {
			found += block_hits(ms, s, i, w[0], n, hits);
			found += block_hits(ms, s, i + 8, w[1], n, hits);
		}
	if (i < n && block_mask(ms, s + n - 16, w)) {
		/* the tail: the last 16 bytes again, without the ones already seen */
		size_t seen = 16 - (n - i);
		uint64_t keep0 = seen >= 8 ? 0 : ~(uint64_t)0 << (8 * seen);
		uint64_t keep1 = seen <= 8 ? ~(uint64_t)0 : ~(uint64_t)0 << (8 * (seen - 8));
		found += block_hits(ms, s, n - 16, w[0] & keep0, n, hits);
		found += block_hits(ms, s, n - 8, w[1] & keep1, n, hits);
	}
	return found;
}
