/*
 * tprof - the git-style dispatcher: `tprof parse ARGS` runs `tprof-parse
 * ARGS`, looked up first beside this program, then on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

static const struct {
	const char *name;
	const char *what;
} commands[] = {
	{ "parse", "read logs into typed timing records (NDJSON, CSV, table)" },
	{ "analyze", "breakdowns, bottlenecks, warmup, variance, speedups, scaling, comparison" },
	{ "plot", "charts of stages, batches, GPM windows, scaling and comparisons" },
	{ "replay", "re-run the GPM and attention kernels and judge logged timings" },
};

static void print_help(FILE *fp)
{
	fprintf(fp, "usage: tprof [--version] [--help] COMMAND [ARGS]\n\n"
		    "tprof turns the timing logs of ML training runs into answers.\n\n"
		    "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].what);
	fprintf(fp, "\n'tprof help COMMAND' or 'tprof COMMAND --help' shows a command's options;\n"
		    "man tprof-COMMAND has the details.\n");
}

static int known(const char *cmd)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, cmd))
			return 1;
	return 0;
}

/* Runs tprof-CMD from the directory of this executable, else from PATH. */
static int run(const char *cmd, int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 80], tool[64];
	snprintf(tool, sizeof(tool), "tprof-%s", cmd);
	argv[0] = tool;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", self, tool);
			if (access(path, X_OK) == 0)
				execv(path, argv);
		}
	}
	execvp(tool, argv);
	(void)argc;
	fprintf(stderr, "tprof: cannot run %s: %s\n", tool, strerror(errno));
	return errno == ENOENT ? TP_EXIT_INPUT : TP_EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return TP_EXIT_INPUT;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("tprof %s\n", TPROF_VERSION);
		return TP_EXIT_OK;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		print_help(stdout);
		return TP_EXIT_OK;
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			print_help(stdout);
			return TP_EXIT_OK;
		}
		if (!known(argv[2])) {
			fprintf(stderr, "tprof: '%s' is not a tprof command; see 'tprof help'\n", argv[2]);
			return TP_EXIT_INPUT;
		}
		char *args[] = { NULL, "--help", NULL };
		return run(argv[2], 2, args);
	}
	if (!known(cmd)) {
		fprintf(stderr, "tprof: '%s' is not a tprof command; see 'tprof help'\n", cmd);
		return TP_EXIT_INPUT;
	}
	return run(cmd, argc - 1, argv + 1);
}
