/*
 * json.h - a small, strict RFC 8259 JSON parser into a read-only DOM.
 *
 * Used for the NDJSON that tprof-parse writes (read back one object per
 * line by tprof-analyze, so parsing must be cheap) and for whole JSON
 * documents (docinput.c). A document owns one allocation arena: every value,
 * key and decoded string of a parse lives there, and re-parsing into the
 * same json_doc reuses it, so a reader of NDJSON lines allocates nothing in
 * the steady state.
 *
 * Decisions (part of the contract):
 *  - Strict grammar: no comments, no trailing commas, no single quotes, no
 *    NaN/Infinity literals, no leading '+' or zeros, nothing but whitespace
 *    after the top-level value. A leading UTF-8 byte order mark is skipped.
 *  - Any value may be the top-level value (RFC 8259), not only objects.
 *  - Nesting deeper than JSON_MAX_DEPTH arrays/objects is an error (the
 *    outermost container is depth 1), never a stack overflow.
 *  - Numbers are doubles, correctly rounded. A number whose magnitude
 *    overflows a double (1e999) is the error "number out of range"; one
 *    that underflows (1e-999) becomes 0 or a subnormal. is_int says the text
 *    had no fraction and no exponent; integers beyond 2^53 lose precision.
 *  - Strings are decoded into the arena and NUL-terminated; len counts bytes
 *    and a "\u0000" escape yields an embedded NUL. Invalid UTF-8 inside a
 *    string, and a \u escape of an unpaired surrogate, are each replaced by
 *    U+FFFD (EF BF BD) rather than rejected: tprof reads what Python wrote,
 *    and Python writes lone surrogates. Raw control characters (< 0x20) in
 *    a string are an error, as RFC 8259 requires.
 *  - Objects keep their members in input order, duplicates included;
 *    json_get returns the last of duplicate keys (as Python's json does).
 *  - Positions are 1-based lines and 1-based byte columns.
 */
#ifndef TPROF_JSON_H
#define TPROF_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 256

enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

struct json_member;

struct json_value {
	enum json_kind kind;
	uint32_t line; /* where the value starts, 1-based */
	uint32_t col;
	union {
		int boolean; /* JSON_BOOL: 0 or 1 */
		struct {
			double v;
			int is_int; /* no fraction, no exponent in the text */
		} num;
		struct {
			const char *s; /* NUL-terminated, decoded UTF-8 */
			size_t len;
		} str;
		struct {
			struct json_value *items;
			size_t n;
		} arr;
		struct {
			struct json_member *members;
			size_t n;
		} obj;
	};
};

struct json_member {
	const char *key; /* NUL-terminated, decoded */
	size_t key_len;
	struct json_value value;
};

struct json_block; /* arena block, private to json.c */

/* Zero-initialize (JSON_DOC_INIT) before the first json_parse; reuse it for
 * later parses and json_free it once at the end. */
struct json_doc {
	struct json_value *root; /* NULL unless the last parse succeeded */
	/* private */
	struct json_block *blocks;
	struct json_member *stack; /* members of the containers being parsed */
	size_t stack_len, stack_alloc;
	char *scratch; /* decoding buffer for escaped / non-ASCII strings */
	size_t scratch_alloc;
};
#define JSON_DOC_INIT { NULL, NULL, NULL, 0, 0, NULL, 0 }

struct json_error {
	char msg[96];    /* e.g. "expected ',' or '}'" */
	uint32_t line;   /* 1-based */
	uint32_t col;    /* 1-based, in bytes */
	size_t offset;   /* 0-based byte offset of the error */
};

/*
 * Parses s[0..n) (no NUL needed) into doc, replacing what doc held before.
 * Returns 0 and sets doc->root, or -1 with err filled (err may be NULL) and
 * doc->root NULL. Values stay valid until the next json_parse or json_free
 * on doc.
 */
int json_parse(const char *s, size_t n, struct json_doc *doc, struct json_error *err);

/* Releases doc's memory; doc is then as after JSON_DOC_INIT. */
void json_free(struct json_doc *doc);

/* Member value of an object by key (last one if duplicated), or NULL if obj
 * is NULL, not an object, or lacks the key. */
const struct json_value *json_get(const struct json_value *obj, const char *key);
const struct json_value *json_getn(const struct json_value *obj, const char *key,
				   size_t key_len);

/*
 * Follows a dot-separated path: "a.b" is json_get(json_get(v, "a"), "b").
 * A segment of digits indexes an array ("runs.0"). Keys containing '.'
 * cannot be reached this way. NULL if any step is missing.
 */
const struct json_value *json_get_path(const struct json_value *v, const char *path);

/* "null", "boolean", "number", "string", "array", "object". */
const char *json_kind_name(enum json_kind k);

static inline int json_is(const struct json_value *v, enum json_kind k)
{
	return v && v->kind == k;
}

#endif
