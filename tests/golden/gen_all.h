/* gen_all.h - the golden files of gen_b.c: checked-in name -> generator. */
#ifndef TPROF_GOLDEN_GEN_ALL_H
#define TPROF_GOLDEN_GEN_ALL_H

#include <stdio.h>

#include "gen_gpm.h"
#include "gen_ssm.h"
#include "gen_gt.h"
#include "gen_pde.h"

static const struct golden_file {
	const char *name;
	void (*gen)(FILE *);
} golden_files[] = {
	{ "gpm-tower.log", gen_gpm_log },
	{ "gpm-tower.expected", gen_gpm_expected },
	{ "ssm-profiler.log", gen_ssm_log },
	{ "ssm-profiler.expected", gen_ssm_expected },
	{ "gt-profile.log", gen_gt_log },
	{ "gt-report.json", gen_gt_json },
	{ "gt-profile.expected", gen_gt_expected },
	{ "pde-monitor.log", gen_pde_log },
	{ "pde-aggregate-only.log", gen_pde_agg_only },
	{ "pde-monitor.expected", gen_pde_expected },
};

#endif
