/*
 * main.c - the sample generator: writes every file of samples/ into the
 * folder given as its only argument. Run through make-samples.sh.
 *
 * The output depends on nothing but this source: fixed seeds, no clock,
 * no locale, no libm.
 */
#include <stdio.h>

#include "samples.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: make-samples DIR\n");
		return 2;
	}
	gen_llava(argv[1]);
	gen_kan(argv[1]);
	gen_gt(argv[1]);
	gen_ssm(argv[1]);
	gen_pde(argv[1]);
	gen_ddp(argv[1]);
	return 0;
}
