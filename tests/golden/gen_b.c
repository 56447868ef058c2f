/*
 * gen_b.c - writes the golden logs of tests/data/golden/ for the GPM
 * tower (seed 000), seed 002's profiling package, seed 003's
 * TrainingProfiler and seed 004's AGGREGATE STATISTICS, from the real
 * code's print statements with known inputs (see each gen_*.h).
 * test_golden_b.c regenerates every file and compares it byte for byte
 * with the checked-in copy, then asserts what tprof reads and computes.
 *
 *   cc -std=c11 -Itests/golden tests/golden/gen_b.c -lm -o gen_b
 *   ./gen_b gpm > tests/data/golden/gpm-tower.log   (see usage())
 */
#include <stdio.h>
#include <string.h>

#include "gen_all.h"

int main(int argc, char **argv)
{
	if (argc == 2)
		for (size_t i = 0; i < sizeof(golden_files) / sizeof(golden_files[0]); i++)
			if (!strcmp(argv[1], golden_files[i].name)) {
				golden_files[i].gen(stdout);
				return fflush(stdout) ? 1 : 0;
			}
	fprintf(stderr, "usage: gen_b NAME > tests/data/golden/NAME; names:");
	for (size_t i = 0; i < sizeof(golden_files) / sizeof(golden_files[0]); i++)
		fprintf(stderr, " %s", golden_files[i].name);
	fprintf(stderr, "\n");
	return 2;
}
