/*
 * philox.h - the Philox4x32-10 counter-based random number generator
 * (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2,
 * 3", SC 2011), written once for the C host code and the CUDA kernels.
 *
 * Why counter-based: a walk's random numbers are a pure function of (seed,
 * walk, step, attempt), so the CPU and the GPU produce bit-identical walks
 * whatever the thread count, launch shape or order of execution, and no
 * generator state has to be stored or advanced. Only 32-bit integer
 * multiplies, adds and xors are used: no floating point, nothing for a
 * compiler to contract or round differently.
 *
 * Known answers (Random123's kat_vectors) are checked by tests/test_replay.c.
 */
#ifndef TPROF_PHILOX_H
#define TPROF_PHILOX_H

#include <stdint.h>

/* Functions usable from host C, host C++ and CUDA device code. */
#ifdef __CUDACC__
#define TPR_HD static inline __host__ __device__
#else
#define TPR_HD static inline
#endif

#define TPR_PHILOX_M0 0xD2511F53u
#define TPR_PHILOX_M1 0xCD9E8D57u
#define TPR_PHILOX_W0 0x9E3779B9u /* golden ratio */
#define TPR_PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

struct tpr_u32x4 {
	uint32_t v[4];
};

/* The high and low halves of the 64-bit product a * b. */
TPR_HD uint32_t tpr_mulhilo32(uint32_t a, uint32_t b, uint32_t *hi)
{
	uint64_t p = (uint64_t)a * b;
	*hi = (uint32_t)(p >> 32);
	return (uint32_t)p;
}

TPR_HD struct tpr_u32x4 tpr_philox_round(struct tpr_u32x4 x, uint32_t k0, uint32_t k1)
{
	uint32_t hi0, hi1;
	uint32_t lo0 = tpr_mulhilo32(TPR_PHILOX_M0, x.v[0], &hi0);
	uint32_t lo1 = tpr_mulhilo32(TPR_PHILOX_M1, x.v[2], &hi1);
	struct tpr_u32x4 y;
	y.v[0] = hi1 ^ x.v[1] ^ k0;
	y.v[1] = lo1;
	y.v[2] = hi0 ^ x.v[3] ^ k1;
	y.v[3] = lo0;
	return y;
}

/* Philox4x32 with 10 rounds: four 32-bit words from a 128-bit counter and a 64-bit key. */
TPR_HD struct tpr_u32x4 tpr_philox4x32_10(struct tpr_u32x4 ctr, uint32_t k0, uint32_t k1)
{
	for (int r = 0; r < 10; r++) {
		if (r) {
			k0 += TPR_PHILOX_W0;
			k1 += TPR_PHILOX_W1;
		}
		ctr = tpr_philox_round(ctr, k0, k1);
	}
	return ctr;
}

/* Convenience: the four words for counter (a, b, c, d) under key (k0, k1). */
TPR_HD struct tpr_u32x4 tpr_philox(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t k0,
				   uint32_t k1)
{
	struct tpr_u32x4 x;
	x.v[0] = a;
	x.v[1] = b;
	x.v[2] = c;
	x.v[3] = d;
	return tpr_philox4x32_10(x, k0, k1);
}

/*
 * A uniform integer in [0, n) from a uniform 32-bit r by multiply-shift
 * (Lemire): floor(r * n / 2^32). Exact integer arithmetic, so host and
 * device agree; the bias is at most n / 2^32 (below 1e-6 for degrees
 * under 4000), far below what any test of the walks can see.
 */
TPR_HD uint32_t tpr_below(uint32_t r, uint32_t n)
{
	return (uint32_t)(((uint64_t)r * n) >> 32);
}

/* A float in [-1, 1) from the top 24 bits of r (exact in binary32). */
TPR_HD float tpr_unit_float(uint32_t r)
{
	return (float)(int32_t)((r >> 8) - (1u << 23)) * (1.0f / 8388608.0f);
}

#endif
