/*
 * scanbench.c - times the candidate search alone (parse/scan/scan.c) on a log,
 * with the built-in markers and with the built-in markers plus the
 * markers of every format pack shipped (formats/), on each matcher built in. CPU time of this thread, best of 3,
 * the log read into memory first.
 *
 *   build/bench/scanbench LOG     (make bench-scan builds it)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "parse/parse.h"
#include "parse/rules/rules.h"
#include "parse/scan/scan.h"

#define CHUNK (2u << 20) /* as the driver's rounds */
#define CAP 4096

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One pass over buf in driver-sized rounds; returns the candidate lines. */
static long scan_all(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *buf,
		     size_t n, const char **starts)
{
	long total = 0;
	for (size_t off = 0; off < n;) {
		const char *e = buf + (off + CHUNK < n ? off + CHUNK : n);
		const char *nl = e < buf + n ? memchr(e, '\n', (size_t)(buf + n - e)) : NULL;
		e = nl ? nl + 1 : buf + n;
		for (const char *s = buf + off; s < e;) {
			const char *done;
			long k = tp_scan_lines(sc, ss, s, e, starts, CAP, &done);
			if (k < 0)
				return -1;
			total += k;
			s = done;
		}
		off = (size_t)(e - buf);
	}
	return total;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: scanbench LOG\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	size_t n = (size_t)st.st_size, got = 0;
	char *buf = xmalloc(n ? n : 1);
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	struct tp_rules *rules = NULL;
	struct tp_rules_opts ro = { 0 };
	struct strbuf rerr = STRBUF_INIT;
	if (tp_rules_setup(&ro, &rules, &rerr) < 0 || !rules) {
		fprintf(stderr, "scanbench: packs: %s\n", rerr.buf ? rerr.buf : "none");
		return 1;
	}
	strbuf_release(&rerr);
	const struct tp_marker_set *packs = tp_rules_scan_markers(rules);
	size_t np = packs->n;
	struct tp_marker_set sets[2] = { tp_builtin_markers, *packs };
	const char **starts = xmalloc(CAP * sizeof(*starts));
	enum tp_scan_backend kinds[] = { TP_SCAN_PORTABLE, TP_SCAN_TEDDY_AVX2, TP_SCAN_TEDDY,
					 TP_SCAN_VECTORSCAN };
	printf("| matcher | markers | scan CPU s (best of 3) | MB/s | candidate lines |\n|---|---:|---:|---:|---:|\n");
	for (size_t b = 0; b < ARRAY_SIZE(kinds); b++) {
		for (size_t ns = 1; ns <= 2; ns++) {
			struct strbuf err = STRBUF_INIT;
			struct tp_scanner *sc = tp_scanner_new(sets, ns, kinds[b], &err);
			strbuf_release(&err);
			if (!sc)
				continue; /* not built in */
			struct tp_scan_scratch *ss = tp_scan_scratch_new(sc);
			double best = 0;
			long cand = 0;
			for (int run = 0; run < 3; run++) {
				double t0 = cpu_now();
				cand = scan_all(sc, ss, buf, n, starts);
				double t = cpu_now() - t0;
				if (run == 0 || t < best)
					best = t;
			}
			printf("| %s | %zu | %.3f | %.0f | %ld |\n", tp_scanner_backend(sc),
			       tp_builtin_markers.n + (ns == 2 ? np : 0), best,
			       best > 0 ? (double)n / best / 1e6 : 0.0, cand);
			tp_scan_scratch_free(ss);
			tp_scanner_free(sc);
		}
	}
	free(starts);
	tp_rules_free(rules);
	free(buf);
	return 0;
}
