/*
 * mkman - the build's man page maker: `mkman IN OUT` writes the page IN
 * with its generated parts (cli_man: the analyses' entries of
 * tprof-analyze(1), from the rows of analyze/analyses.c) to OUT, atomically.
 * A page without a marker is copied as it is. Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/common/common.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkman IN OUT\n");
		return 1;
	}
	FILE *in = fopen(argv[1], "rb");
	if (!in) {
		fprintf(stderr, "mkman: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	struct strbuf page = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		strbuf_add(&page, buf, n);
	int rc = ferror(in) ? 1 : 0;
	fclose(in);
	if (rc)
		fprintf(stderr, "mkman: %s: read error\n", argv[1]);
	struct outfile of;
	if (!rc) {
		cli_man(page.buf ? page.buf : "", page.len, &out);
		if (outfile_open(&of, argv[2], &err) < 0) {
			fprintf(stderr, "mkman: %s\n", err.buf);
			rc = 1;
		} else if (outfile_write(&of, out.buf, out.len) < 0 || outfile_close(&of) != 0) {
			outfile_abort(&of);
			fprintf(stderr, "mkman: %s: write error\n", argv[2]);
			rc = 1;
		}
	}
	strbuf_release(&page);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
