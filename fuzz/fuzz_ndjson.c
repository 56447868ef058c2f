/*
 * fuzz_ndjson.c - libFuzzer target for the JSON parser (base/json.c) and
 * the NDJSON record reader (parse/input/ndjson_in.c), the path tprof-analyze
 * takes for the output of tprof-parse.
 *
 * Each line of the input (as tprof-analyze reads them: one document reused
 * across lines, so the arena reuse is exercised) goes to json_parse and,
 * if it is valid JSON, to tp_record_from_json. A record read is written
 * back as NDJSON and must read back to the same record (fuzz_common.h).
 * Then the whole input is parsed as one JSON document (deep nesting, big
 * arrays) and walked. Errors must carry a message and a position inside
 * the input.
 *
 * tests/test_regress.c includes this file with FUZZ_NO_MAIN defined and
 * calls fuzz_ndjson_one().
 */
#include "fuzz_common.h"

/* Walks a value, touching every string; returns the number of values. */
static size_t fz_json_walk(const struct json_value *v, int depth)
{
	size_t k = 1;
	if (depth > JSON_MAX_DEPTH)
		fz_fail("a parsed document is deeper than JSON_MAX_DEPTH");
	switch (v->kind) {
	case JSON_STR:
		if (v->str.s[v->str.len] != '\0')
			fz_fail("a decoded string is not NUL-terminated");
		(void)fz_touch(v->str.s, v->str.len);
		break;
	case JSON_NUM:
		if (!isfinite(v->num.v))
			fz_fail("json_parse returned a non-finite number");
		break;
	case JSON_ARR:
		for (size_t i = 0; i < v->arr.n; i++)
			k += fz_json_walk(&v->arr.items[i], depth + 1);
		break;
	case JSON_OBJ:
		for (size_t i = 0; i < v->obj.n; i++) {
			const struct json_member *m = &v->obj.members[i];
			if (m->key[m->key_len] != '\0')
				fz_fail("a decoded key is not NUL-terminated");
			(void)fz_touch(m->key, m->key_len);
			if (json_getn(v, m->key, m->key_len) == NULL)
				fz_fail("json_getn cannot find a member that is there");
			k += fz_json_walk(&m->value, depth + 1);
		}
		break;
	case JSON_NULL:
	case JSON_BOOL:
		break;
	default:
		fz_fail("json value of kind %d", (int)v->kind);
	}
	return k;
}

static void fz_json_check_error(const struct json_error *je, const struct json_doc *doc, size_t n)
{
	if (doc->root)
		fz_fail("json_parse failed but left a root");
	if (!je->msg[0] || !memchr(je->msg, '\0', sizeof(je->msg)))
		fz_fail("json_parse failed without a message");
	if (je->offset > n || je->line < 1 || je->col < 1)
		fz_fail("json error position %zu (line %u col %u) outside the %zu bytes", je->offset,
			(unsigned)je->line, (unsigned)je->col, n);
}

static int fuzz_ndjson_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *e = buf + size;
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	struct strbuf err = STRBUF_INIT;
	struct fz_sink s;

	fz_sink_init(&s);
	s.any_ts = 1;
	for (const char *l = buf; l < e;) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e;
		size_t len = (size_t)(le - l);
		char *c = fz_copy(l, len);
		if (json_parse(c, len, &doc, &je) < 0) {
			fz_json_check_error(&je, &doc, len);
		} else {
			struct tp_record r;
			if (!doc.root)
				fz_fail("json_parse succeeded without a root");
			fz_json_walk(doc.root, 1);
			strbuf_reset(&err);
			if (tp_record_from_json(doc.root, &r, &err) < 0) {
				if (!err.len)
					fz_fail("tp_record_from_json failed without a message");
			} else {
				/* numbers read from JSON are always finite; positions
				 * are whatever the writer said */
				s.max_line = 0;
				if (r.line == 0)
					r.line = 1; /* fz_check_record wants a 1-based line */
				fz_check_record(&s, &r);
			}
		}
		free(c);
		l = nl ? nl + 1 : e;
	}

	/* the whole input as one document */
	if (json_parse(buf, size, &doc, &je) < 0)
		fz_json_check_error(&je, &doc, size);
	else
		fz_json_walk(doc.root, 1);
	json_free(&doc);
	/* and once into a fresh document */
	struct json_doc d2 = JSON_DOC_INIT;
	if (json_parse(buf, size, &d2, &je) == 0)
		(void)json_get_path(d2.root, "runs.0.name");
	json_free(&d2);

	fz_sink_free(&s);
	strbuf_release(&err);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_ndjson_one(data, size);
}
#endif
