/*
 * changepoint.h - change points in a series of runs: E-Divisive means
 * (Matteson & James 2014) with a permutation significance test, as used by
 * MongoDB's performance CI and Apache Otava (Daly et al., "Change Point
 * Detection in Software Performance Testing", ICPE 2020).
 *
 * Bisection: every current segment gets its best split (the one that
 * maximises the energy statistic Q between its two halves, alpha = 1);
 * the largest Q over all segments is a candidate, kept if a permutation
 * test says so: the values of every segment are shuffled within it
 * `permutations` times, and p = (k + 1) / (permutations + 1) where k counts
 * the shuffles whose largest Q is at least the candidate's. Candidates are
 * tested until one is not significant (p > alpha).
 *
 * Deterministic given the seed: the shuffles come from a splitmix64 stream
 * owned by the call. Each split costs O(m log m) (ranks and Fenwick
 * trees), so a series of n values costs O(permutations * n log n) per
 * change point found.
 */
#ifndef TPROF_CHANGEPOINT_H
#define TPROF_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_opts {
	double alpha;          /* significance level of the permutation test (0.01) */
	unsigned permutations; /* shuffles per candidate (199) */
	uint64_t seed;         /* of the shuffles (1) */
	size_t min_size;       /* fewest values a segment may have, >= 2 (3) */
};

struct cp_point {
	size_t index;            /* first value of the new segment */
	double q;                /* energy statistic of the split */
	double p;                /* permutation p-value */
	double mean_before;      /* means of the segments either side (final segmentation) */
	double mean_after;
	double change;           /* mean_after / mean_before - 1 (NAN if mean_before is 0) */
};

void cp_opts_default(struct cp_opts *o);

/*
 * Change points of x[0..n) (NaN values must have been removed), at most
 * max written to out in index order; returns how many. A series shorter
 * than 2 * min_size has none.
 */
size_t cp_edivisive(const double *x, size_t n, const struct cp_opts *o, struct cp_point *out, size_t max);

/* The energy statistic Q of splitting x[0..n) before index tau (tests). */
double cp_q(const double *x, size_t n, size_t tau);

#endif
