/*
 * input.h - opens a log (a path, "-" for standard input, gzip detected by
 * its magic bytes, not by the name; UTF-16 by its byte order mark, handed
 * out as UTF-8) and hands it out in pieces of whole lines, with constant
 * memory.
 *
 * Contract: tp_input_open fails with a message for a missing or unreadable
 * file, a directory, or a device that is not a pipe (a log of /dev/zero
 * would never end). tp_input_next returns each physical line once, in
 * order; a line longer than the buffer comes in several parts, split after
 * a '\r' where possible (TP_LINE_START/TP_LINE_END flags of parser.h).
 * Read errors and corrupt or truncated gzip data are reported once by
 * tp_input_next returning -1 with the message in err; what was read before
 * stays delivered.
 */
#ifndef TPROF_INPUT_H
#define TPROF_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "base/base.h"

#define TP_INPUT_BUF (1024 * 1024)

struct tp_input {
	const char *name; /* display name */
	int fd;
	int close_fd;
	z_stream *zs;      /* non-NULL for gzip input */
	unsigned char *zin; /* compressed bytes not yet inflated */
	int z_done;        /* the last gzip member ended cleanly */
	int utf16;         /* 0, or 1 (little-endian) or 2 (big-endian): a byte order mark began it */
	size_t u16_len;    /* UTF-16 bytes read into zin, not yet turned into UTF-8 */
	int u16_end;       /* the file under the UTF-16 has ended (what is left in zin has not) */
	uint64_t consumed; /* raw bytes handed out so far */
	int is_regular;   /* a regular, uncompressed file (can be split for threads) */
	int64_t size;     /* for regular files */
	char *buf;
	size_t start, end; /* unconsumed bytes are buf[start, end) */
	int eof;
	int in_line;       /* the previous piece ended inside a long line */
};

/* Returns 0, or -1 with a message in err ("name: why"). */
int tp_input_open(struct tp_input *in, const char *path, struct strbuf *err);

/*
 * Next line or part of a line: returns 1 with *s, *n, *flags set; 0 at end
 * of input; -1 on a read or decompression error (err set).
 */
int tp_input_next(struct tp_input *in, const char **s, size_t *n, int *flags, struct strbuf *err);

/*
 * Reads up to want bytes of raw (uncompressed) input into dst, after any
 * bytes still buffered. Returns bytes read, 0 at end, -1 on error (err set).
 */
long tp_input_read(struct tp_input *in, char *dst, size_t want, struct strbuf *err);

/*
 * For reading one regular, uncompressed file with several threads at once:
 * tp_input_tell gives the file offset of the next byte tp_input_read would
 * return, or -1 when that is not a plain file offset (gzip, a pipe, bytes
 * still buffered). Any thread may then tp_input_pread pieces after it
 * (bytes read: fewer than n only at the end of the file; -1 with errno);
 * tp_input_advance(in, n) then moves past the n bytes taken, n == 0
 * meaning the end of the input.
 */
int64_t tp_input_tell(const struct tp_input *in);
long tp_input_pread(const struct tp_input *in, char *dst, size_t n, int64_t off);
int tp_input_advance(struct tp_input *in, size_t n, struct strbuf *err);

void tp_input_close(struct tp_input *in);

#endif
