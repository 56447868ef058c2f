/*
 * sha256.h - SHA-256 (FIPS 180-4) of a file's bytes: the content hash that
 * identifies a run in the history, so that adding a log twice is a no-op
 * whatever its path.
 */
#ifndef TPROF_SHA256_H
#define TPROF_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;      /* bytes so far */
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *p, size_t n);
/* 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(struct sha256 *s, char hex[65]);

#endif
