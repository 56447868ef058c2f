/*
 * rng.h - a sequential random stream on the host, built on Philox so that
 * graphs and attention inputs are a pure function of --seed and a domain
 * (one per use), reproducible on any machine.
 */
#ifndef TPROF_REPLAY_RNG_H
#define TPROF_REPLAY_RNG_H

#include <stdint.h>

#include "philox.h"

/* Domains keep the streams of different uses apart under one seed. */
enum {
	TPR_DOM_GRAPH = 0x67726170,  /* "grap" */
	TPR_DOM_SIZES = 0x73697a65,  /* "size" */
	TPR_DOM_TENSOR = 0x74656e73  /* "tens" */
};

struct tpr_rng {
	uint32_t k0, k1, domain, sub;
	uint32_t ctr;
	uint32_t buf[4];
	int left;
};

static inline void tpr_rng_init(struct tpr_rng *r, uint64_t seed, uint32_t domain, uint32_t sub)
{
	r->k0 = (uint32_t)seed;
	r->k1 = (uint32_t)(seed >> 32);
	r->domain = domain;
	r->sub = sub;
	r->ctr = 0;
	r->left = 0;
}

static inline uint32_t tpr_rng_u32(struct tpr_rng *r)
{
	if (!r->left) {
		struct tpr_u32x4 x = tpr_philox(r->ctr++, r->sub, r->domain, 0x7270u, r->k0, r->k1);
		for (int i = 0; i < 4; i++)
			r->buf[i] = x.v[i];
		r->left = 4;
	}
	return r->buf[--r->left];
}

/* Uniform in [0, n). */
static inline uint32_t tpr_rng_below(struct tpr_rng *r, uint32_t n)
{
	return tpr_below(tpr_rng_u32(r), n);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double tpr_rng_unit(struct tpr_rng *r)
{
	uint64_t hi = tpr_rng_u32(r) >> 5, lo = tpr_rng_u32(r) >> 6;
	return (double)(hi * 67108864u + lo) * (1.0 / 9007199254740992.0);
}

#endif
