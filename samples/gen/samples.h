/*
 * samples.h - one writer per sample file; each takes the output folder.
 * Every writer seeds the PRNG itself, so samples are independent.
 */
#ifndef SAMPLES_GEN_SAMPLES_H
#define SAMPLES_GEN_SAMPLES_H

void gen_llava(const char *dir); /* graph-llava-pretrain.log */
void gen_kan(const char *dir);   /* kan-experiments.log, kan-timing.csv/.json */
void gen_gt(const char *dir);    /* graph-transformer-profile.log, -report.json */
void gen_ssm(const char *dir);   /* ssm-training.log */
void gen_pde(const char *dir);   /* pde-physical.log */
void gen_ddp(const char *dir);   /* ddp-4rank.log */

#endif
