/*
 * input.c - line-oriented reading of plain and gzip logs (see input.h).
 *
 * gzip is inflated with zlib's stream API rather than gzopen so that the
 * magic bytes can be sniffed on a pipe without seeking, and so that a
 * truncated or corrupt stream is told apart from a clean end.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "parse/lines/parser.h"

#define ZIN_SIZE (256 * 1024)
/* The buffer is full with less room than one UTF-8 character takes. */
#define ROOM_MIN 4

static long read_fd(int fd, void *dst, size_t n)
{
	for (;;) {
		ssize_t r = read(fd, dst, n);
		if (r >= 0)
			return (long)r;
		if (errno != EINTR)
			return -1;
	}
}

int tp_input_open(struct tp_input *in, const char *path, struct strbuf *err)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	int is_stdin = !strcmp(path, "-");
	in->name = is_stdin ? "(stdin)" : path;
	if (is_stdin) {
		in->fd = 0;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			strbuf_addf(err, "%s: cannot open: %s", path, strerror(errno));
			return -1;
		}
		in->close_fd = 1;
	}
	struct stat st;
	if (fstat(in->fd, &st) != 0) {
		strbuf_addf(err, "%s: cannot stat: %s", in->name, strerror(errno));
		tp_input_close(in);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s: is a directory", in->name);
		tp_input_close(in);
		return -1;
	}
	/* a device never ends (/dev/zero); standard input may be a terminal or
	 * /dev/null, but not another device */
	int dev_ok = is_stdin && (isatty(in->fd) || (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
						    minor(st.st_rdev) == 3));
	if (!dev_ok && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		strbuf_addf(err, "%s: not a regular file or a pipe", in->name);
		tp_input_close(in);
		return -1;
	}
	in->is_regular = S_ISREG(st.st_mode);
	in->size = (int64_t)st.st_size;
	in->buf = xmalloc(TP_INPUT_BUF);

	/* sniff gzip magic */
	long n = read_fd(in->fd, in->buf, 2);
	if (n < 0) {
		strbuf_addf(err, "%s: read error: %s", in->name, strerror(errno));
		tp_input_close(in);
		return -1;
	}
	if (n == 1) {
		long m = read_fd(in->fd, in->buf + 1, 1);
		if (m > 0)
			n += m;
	}
	if (n == 2 && (unsigned char)in->buf[0] == 0x1f && (unsigned char)in->buf[1] == 0x8b) {
		in->zs = xcalloc(1, sizeof(z_stream));
		if (inflateInit2(in->zs, 15 + 32) != Z_OK) {
			strbuf_addf(err, "%s: zlib initialisation failed", in->name);
			tp_input_close(in);
			return -1;
		}
		in->zin = xmalloc(ZIN_SIZE);
		memcpy(in->zin, in->buf, 2);
		in->zs->next_in = in->zin;
		in->zs->avail_in = 2;
		in->is_regular = 0;
	} else if (n == 2 && ((unsigned char)in->buf[0] ^ (unsigned char)in->buf[1]) == 0x01 &&
		   ((unsigned char)in->buf[0] & 0xfe) == 0xfe) {
		/* FF FE or FE FF: PowerShell's redirection writes UTF-16 */
		in->utf16 = (unsigned char)in->buf[0] == 0xff ? 1 : 2;
		in->zin = xmalloc(ZIN_SIZE);
		in->is_regular = 0;
	} else {
		in->end = (size_t)n;
	}
	return 0;
}

static long read_gz(struct tp_input *in, char *dst, size_t want, struct strbuf *err);

/* One code point as UTF-8 at d; returns its bytes. */
static size_t put_utf8(unsigned char *d, uint32_t c)
{
	if (c < 0x80) {
		d[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		d[0] = (unsigned char)(0xc0 | (c >> 6));
		d[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		d[0] = (unsigned char)(0xe0 | (c >> 12));
		d[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		d[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	d[0] = (unsigned char)(0xf0 | (c >> 18));
	d[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	d[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	d[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

/* Turns the UTF-16 in zin into UTF-8 at dst (at most want bytes); keeps
 * what a unit or a surrogate pair cut at the end of the buffer needs. An
 * unpaired surrogate is U+FFFD. Returns the bytes written. */
static size_t utf16_to_utf8(struct tp_input *in, unsigned char *dst, size_t want)
{
	const unsigned char *u = in->zin;
	size_t i = 0, out = 0;
	int le = in->utf16 == 1;
	while (i + 2 <= in->u16_len && out + 4 <= want) {
		uint32_t c = le ? (uint32_t)(u[i] | u[i + 1] << 8) : (uint32_t)(u[i] << 8 | u[i + 1]);
		size_t used = 2;
		if (c >= 0xd800 && c < 0xdc00) {
			if (i + 4 > in->u16_len && !in->u16_end)
				break; /* its pair comes with the next read */
			uint32_t lo = i + 4 <= in->u16_len ? (le ? (uint32_t)(u[i + 2] | u[i + 3] << 8)
								 : (uint32_t)(u[i + 2] << 8 | u[i + 3]))
							   : 0;
			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				used = 4;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xdc00 && c < 0xe000) {
			c = 0xfffd;
		}
		out += put_utf8(dst + out, c);
		i += used;
	}
	memmove(in->zin, in->zin + i, in->u16_len - i);
	in->u16_len -= i;
	return out;
}

/* Reads UTF-16 and gives UTF-8; returns bytes, 0 at the end, -1 on error. */
static long read_utf16(struct tp_input *in, char *dst, size_t want, struct strbuf *err)
{
	if (want < 4)
		return 0;
	for (;;) {
		size_t out = utf16_to_utf8(in, (unsigned char *)dst, want);
		if (out)
			return (long)out;
		if (in->u16_end)
			return 0; /* an odd byte at the end is no character */
		long r = read_fd(in->fd, in->zin + in->u16_len, ZIN_SIZE - in->u16_len);
		if (r < 0) {
			strbuf_addf(err, "%s: read error: %s", in->name, strerror(errno));
			return -1;
		}
		if (r == 0)
			in->u16_end = 1; /* a lone high surrogate left is decoded now */
		in->u16_len += (size_t)r;
	}
}

/* Raw bytes of the log as text: inflated, decoded or as read. */
static long read_text(struct tp_input *in, char *dst, size_t want, struct strbuf *err)
{
	if (in->zs)
		return read_gz(in, dst, want, err);
	if (in->utf16)
		return read_utf16(in, dst, want, err);
	long r = read_fd(in->fd, dst, want);
	if (r < 0)
		strbuf_addf(err, "%s: read error: %s", in->name, strerror(errno));
	return r;
}

/* Inflates into dst; returns bytes, 0 at a clean end, -1 on error. */
static long read_gz(struct tp_input *in, char *dst, size_t want, struct strbuf *err)
{
	z_stream *zs = in->zs;
	zs->next_out = (unsigned char *)dst;
	zs->avail_out = (uInt)want;
	while (zs->avail_out == want) {
		if (zs->avail_in == 0) {
			long r = read_fd(in->fd, in->zin, ZIN_SIZE);
			if (r < 0) {
				strbuf_addf(err, "%s: read error: %s", in->name, strerror(errno));
				return -1;
			}
			if (r == 0) {
				if (in->z_done)
					return 0;
				strbuf_addf(err, "%s: truncated gzip data (the file ends inside the stream)",
					    in->name);
				return -1;
			}
			zs->next_in = in->zin;
			zs->avail_in = (uInt)r;
		}
		if (in->z_done) {
			/* another gzip member follows (concatenated .gz files) */
			if (inflateReset(zs) != Z_OK)
				return -1;
			in->z_done = 0;
		}
		int rc = inflate(zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			in->z_done = 1;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			strbuf_addf(err, "%s: corrupt gzip data: %s", in->name,
				    zs->msg ? zs->msg : "inflate failed");
			return -1;
		}
	}
	return (long)(want - zs->avail_out);
}

long tp_input_read(struct tp_input *in, char *dst, size_t want, struct strbuf *err)
{
	if (in->start < in->end) {
		size_t k = in->end - in->start;
		if (k > want)
			k = want;
		memcpy(dst, in->buf + in->start, k);
		in->start += k;
		return (long)k;
	}
	if (in->eof)
		return 0;
	if (in->utf16 && want < 4) {
		/* a character may take 4 bytes: the rest waits in the buffer */
		long r = read_utf16(in, in->buf, 4, err);
		if (r <= 0) {
			in->eof = r == 0;
			return r;
		}
		in->start = 0;
		in->end = (size_t)r;
		return tp_input_read(in, dst, want, err);
	}
	long r = read_text(in, dst, want, err);
	if (r == 0)
		in->eof = 1;
	return r;
}

/* Refills the buffer, keeping unconsumed bytes; returns bytes added or -1. */
static long refill(struct tp_input *in, struct strbuf *err)
{
	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	if (in->eof || TP_INPUT_BUF - in->end < ROOM_MIN)
		return 0;
	long r = read_text(in, in->buf + in->end, TP_INPUT_BUF - in->end, err);
	if (r < 0) {
		in->eof = 1;
		return -1;
	}
	if (r == 0)
		in->eof = 1;
	in->end += (size_t)r;
	return r;
}

int tp_input_next(struct tp_input *in, const char **s, size_t *n, int *flags, struct strbuf *err)
{
	for (;;) {
		char *b = in->buf + in->start;
		size_t avail = in->end - in->start;
		char *nl = avail ? memchr(b, '\n', avail) : NULL;
		if (nl) {
			*s = b;
			*n = (size_t)(nl - b);
			*flags = (in->in_line ? 0 : TP_LINE_START) | TP_LINE_END;
			in->in_line = 0;
			in->start += *n + 1;
			return 1;
		}
		if (in->eof) {
			if (!avail)
				return 0;
			*s = b;
			*n = avail;
			*flags = (in->in_line ? 0 : TP_LINE_START) | TP_LINE_END | TP_LINE_NOEOL;
			in->in_line = 0;
			in->start = in->end;
			return 1;
		}
		if (in->start == 0 && TP_INPUT_BUF - in->end < ROOM_MIN) {
			/* a line longer than the buffer: hand out a part, cut after a '\r' */
			char *cr = memrchr(b, '\r', avail);
			size_t k = cr ? (size_t)(cr - b) + 1 : avail;
			*s = b;
			*n = k;
			*flags = in->in_line ? 0 : TP_LINE_START;
			in->in_line = 1;
			in->start += k;
			return 1;
		}
		if (refill(in, err) < 0)
			return -1;
	}
}

int64_t tp_input_tell(const struct tp_input *in)
{
	if (!in->is_regular || in->zs || in->start < in->end || in->eof)
		return -1;
	off_t off = lseek(in->fd, 0, SEEK_CUR);
	return off < 0 ? -1 : (int64_t)off;
}

long tp_input_pread(const struct tp_input *in, char *dst, size_t n, int64_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(in->fd, dst + got, n - got, (off_t)(off + (int64_t)got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

int tp_input_advance(struct tp_input *in, size_t n, struct strbuf *err)
{
	if (n == 0) {
		in->eof = 1;
		return 0;
	}
	if (lseek(in->fd, (off_t)n, SEEK_CUR) < 0) {
		strbuf_addf(err, "%s: seek error: %s", in->name, strerror(errno));
		return -1;
	}
	return 0;
}

void tp_input_close(struct tp_input *in)
{
	if (in->zs) {
		inflateEnd(in->zs);
		free(in->zs);
		in->zs = NULL;
	}
	free(in->zin);
	in->zin = NULL;
	free(in->buf);
	in->buf = NULL;
	if (in->close_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
}
