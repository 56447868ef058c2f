/*
 * test_json.c - unit tests of the JSON parser (base/json.c) and of the
 * NDJSON record reader (parse/input/ndjson_in.c): literals, numbers (fast path
 * against strtod, range errors), string escapes and surrogates, invalid
 * UTF-8, the nesting limit, error positions for truncated and trailing
 * input, lookups, reuse of one doc, and records round-tripped through
 * tp_record_to_json.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/emit.h"
#include "base/json.h"
#include "parse/input/ndjson_in.h"
#include "testutil.h"

/* Parses s (NUL-terminated) into a fresh doc and expects success. */
static const struct json_value *parse_ok(struct json_doc *doc, const char *s)
{
	struct json_error err;
	int rc = json_parse(s, strlen(s), doc, &err);
	cr_assert_eq(rc, 0, "parse of <%s> failed: %u:%u: %s", s, err.line, err.col, err.msg);
	cr_assert_not_null(doc->root);
	return doc->root;
}

/* Expects s to fail at line:col with a message containing msg. */
static void parse_fails(const char *s, size_t n, uint32_t line, uint32_t col, const char *msg)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error err;

	cr_assert_eq(json_parse(s, n, &doc, &err), -1, "<%.*s> parsed", (int)n, s);
	cr_expect_null(doc.root);
	cr_expect_eq(err.line, line, "<%.*s>: line %u, want %u (%s)", (int)n, s, err.line, line,
		     err.msg);
	cr_expect_eq(err.col, col, "<%.*s>: col %u, want %u (%s)", (int)n, s, err.col, col,
		     err.msg);
	cr_expect(strstr(err.msg, msg) != NULL, "<%.*s>: message \"%s\" lacks \"%s\"", (int)n, s,
		  err.msg, msg);
	json_free(&doc);
}

static void fails(const char *s, uint32_t col, const char *msg)
{
	parse_fails(s, strlen(s), 1, col, msg);
}

static double num_of(const char *s)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, s);
	double d;

	cr_assert_eq(v->kind, JSON_NUM, "<%s> is %s", s, json_kind_name(v->kind));
	d = v->num.v;
	json_free(&doc);
	return d;
}

/* ---- literals and structure ------------------------------------------ */

Test(json, literals_and_scalar_roots)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v;

	v = parse_ok(&doc, " true ");
	cr_expect_eq(v->kind, JSON_BOOL);
	cr_expect_eq(v->boolean, 1);
	v = parse_ok(&doc, "false");
	cr_expect_eq(v->kind, JSON_BOOL);
	cr_expect_eq(v->boolean, 0);
	v = parse_ok(&doc, "\n\t null\r\n");
	cr_expect_eq(v->kind, JSON_NULL);
	cr_expect_eq(v->line, 2);
	cr_expect_eq(v->col, 3);
	v = parse_ok(&doc, "\"x\"");
	cr_expect_eq(v->kind, JSON_STR);
	cr_expect_str_eq(v->str.s, "x");
	json_free(&doc);
}

Test(json, object_and_array)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v =
		parse_ok(&doc, "{\"a\": [1, 2.5, \"x\", null, true, {}, []], \"b\": {\"c\": -3}}");

	cr_assert_eq(v->kind, JSON_OBJ);
	cr_assert_eq(v->obj.n, 2);
	cr_expect_str_eq(v->obj.members[0].key, "a");
	cr_expect_str_eq(v->obj.members[1].key, "b");
	const struct json_value *a = json_get(v, "a");
	cr_assert_eq(a->kind, JSON_ARR);
	cr_assert_eq(a->arr.n, 7);
	cr_expect_eq(a->arr.items[0].num.v, 1.0);
	cr_expect_eq(a->arr.items[0].num.is_int, 1);
	cr_expect_eq(a->arr.items[1].num.v, 2.5);
	cr_expect_eq(a->arr.items[1].num.is_int, 0);
	cr_expect_str_eq(a->arr.items[2].str.s, "x");
	cr_expect_eq(a->arr.items[3].kind, JSON_NULL);
	cr_expect_eq(a->arr.items[4].kind, JSON_BOOL);
	cr_expect_eq(a->arr.items[5].kind, JSON_OBJ);
	cr_expect_eq(a->arr.items[5].obj.n, 0);
	cr_expect_eq(a->arr.items[6].kind, JSON_ARR);
	cr_expect_eq(a->arr.items[6].arr.n, 0);
	cr_expect_eq(json_get_path(v, "b.c")->num.v, -3.0);
	cr_expect_eq(json_get_path(v, "a.1")->num.v, 2.5);
	cr_expect_str_eq(json_get_path(v, "a.2")->str.s, "x");
	cr_expect_null(json_get_path(v, "a.7"));
	cr_expect_null(json_get_path(v, "a.x"));
	cr_expect_null(json_get_path(v, "b.c.d"));
	cr_expect_null(json_get_path(v, "nope"));
	cr_expect_null(json_get(a, "a"));
	cr_expect_null(json_get(NULL, "a"));
	json_free(&doc);
}

Test(json, duplicate_keys_last_wins_order_kept)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, "{\"k\": 1, \"j\": 2, \"k\": 3}");

	cr_assert_eq(v->obj.n, 3);
	cr_expect_eq(json_get(v, "k")->num.v, 3.0);
	cr_expect_eq(v->obj.members[0].value.num.v, 1.0);
	json_free(&doc);
}

Test(json, positions_of_values)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, "{\n  \"a\": 1,\n  \"b\":\n    [true]\n}");

	cr_expect_eq(v->line, 1);
	cr_expect_eq(v->col, 1);
	cr_expect_eq(json_get(v, "a")->line, 2);
	cr_expect_eq(json_get(v, "a")->col, 8);
	cr_expect_eq(json_get(v, "b")->line, 4);
	cr_expect_eq(json_get(v, "b")->col, 5);
	cr_expect_eq(json_get(v, "b")->arr.items[0].col, 6);
	json_free(&doc);
}

Test(json, byte_order_mark_skipped)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, "\xEF\xBB\xBF{\"a\": 1}");

	cr_expect_eq(json_get(v, "a")->num.v, 1.0);
	json_free(&doc);
}

/* ---- numbers ---------------------------------------------------------- */

Test(json, numbers)
{
	cr_expect_eq(num_of("0"), 0.0);
	cr_expect(signbit(num_of("-0")));
	cr_expect(signbit(num_of("-0.0e5")));
	cr_expect_eq(num_of("120"), 120.0);
	cr_expect_eq(num_of("-12.5e-3"), -0.0125);
	cr_expect_eq(num_of("0.1"), 0.1);
	cr_expect_eq(num_of("10.5"), 10.5);
	cr_expect_eq(num_of("1E3"), 1000.0);
	cr_expect_eq(num_of("1e+3"), 1000.0);
	cr_expect_eq(num_of("0.000123"), 0.000123);
	cr_expect_eq(num_of("1234567"), 1234567.0);
	cr_expect_eq(num_of("9007199254740993"), 9007199254740992.0);
	cr_expect_eq(num_of("12345678901234567890"), 12345678901234567890.0);
	cr_expect_eq(num_of("3.14159265358979323846264338327950288"), 3.141592653589793);
	cr_expect_eq(num_of("1.7976931348623157e308"), 1.7976931348623157e308);
	cr_expect_eq(num_of("4.9406564584124654e-324"), 4.9406564584124654e-324);
	cr_expect_eq(num_of("1e-999"), 0.0);
	cr_expect_eq(num_of("0e999999999999"), 0.0);
	cr_expect_eq(num_of("100000000000000000000000000000e-29"), 1.0);
}

Test(json, number_is_int)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, "[1, -2, 1.0, 1e2, 0]");

	cr_expect_eq(v->arr.items[0].num.is_int, 1);
	cr_expect_eq(v->arr.items[1].num.is_int, 1);
	cr_expect_eq(v->arr.items[2].num.is_int, 0);
	cr_expect_eq(v->arr.items[3].num.is_int, 0);
	cr_expect_eq(v->arr.items[4].num.is_int, 1);
	json_free(&doc);
}

Test(json, number_errors)
{
	fails("1e999", 1, "number out of range");
	fails("[-1e999]", 2, "number out of range");
	fails("1.8e308", 1, "number out of range");
	fails("01", 1, "leading zero");
	fails("-01", 2, "leading zero");
	fails("1.", 3, "digit expected after '.'");
	fails("1.e5", 3, "digit expected after '.'");
	fails("1e", 3, "digit expected in exponent");
	fails("1e+", 4, "digit expected in exponent");
	fails(".5", 1, "expected a value");
	fails("+1", 1, "expected a value");
	fails("-", 2, "invalid number");
	fails("0x10", 2, "trailing characters");
	fails("NaN", 1, "NaN and Infinity");
	fails("[Infinity]", 2, "NaN and Infinity");
	fails("-Infinity", 1, "NaN and Infinity");
}

/* The fast path must agree with strtod to the last bit. */
Test(json, numbers_match_strtod)
{
	struct json_doc doc = JSON_DOC_INIT;
	char buf[64];
	unsigned seed = 12345;

	for (int i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		unsigned long long m = ((unsigned long long)seed << 20) ^ (seed >> 3);
		int digits = 1 + (int)(seed % 17), e = (int)((seed >> 8) % 60) - 30;
		m %= 100000000000000000ull;
		snprintf(buf, sizeof(buf), "%llu", m);
		buf[digits < (int)strlen(buf) ? digits : (int)strlen(buf)] = '\0';
		size_t len = strlen(buf);
		if (i % 3 == 0 && len > 1) { /* put a decimal point inside */
			memmove(buf + len / 2 + 1, buf + len / 2, len - len / 2 + 1);
			buf[len / 2] = '.';
			if (buf[0] == '0' && buf[1] != '.')
				buf[0] = '1';
		}
		if (buf[0] == '0' && buf[1] >= '0' && buf[1] <= '9')
			buf[0] = '7';
		if (i % 2)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "e%d", e);
		const struct json_value *v = parse_ok(&doc, buf);
		double want = strtod(buf, NULL);
		cr_assert(memcmp(&v->num.v, &want, sizeof(want)) == 0, "%s: %.17g != %.17g", buf,
			  v->num.v, want);
	}
	json_free(&doc);
}

/* ---- strings ---------------------------------------------------------- */

static void expect_str(const char *json, const char *want, size_t want_len)
{
	struct json_doc doc = JSON_DOC_INIT;
	const struct json_value *v = parse_ok(&doc, json);

	cr_assert_eq(v->kind, JSON_STR);
	cr_expect_eq(v->str.len, want_len, "%s: len %zu, want %zu", json, v->str.len, want_len);
	cr_expect(memcmp(v->str.s, want, want_len) == 0, "%s: wrong bytes", json);
	cr_expect_eq(v->str.s[v->str.len], '\0');
	json_free(&doc);
}
#define EXPECT_STR(json, want) expect_str(json, want, sizeof(want) - 1)

Test(json, string_escapes)
{
	EXPECT_STR("\"plain text\"", "plain text");
	EXPECT_STR("\"\"", "");
	EXPECT_STR("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t");
	EXPECT_STR("\"\\u0041\\u00e9\\u20AC\"", "A\xC3\xA9\xE2\x82\xAC");
	EXPECT_STR("\"a\\u0000b\"", "a\0b");
	EXPECT_STR("\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

Test(json, string_surrogates)
{
	EXPECT_STR("\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80");
	EXPECT_STR("\"\\uD834\\uDD1E!\"", "\xF0\x9D\x84\x9E!");
	/* Unpaired surrogates become U+FFFD. */
	EXPECT_STR("\"\\ud800\"", "\xEF\xBF\xBD");
	EXPECT_STR("\"\\udc00x\"", "\xEF\xBF\xBDx");
	EXPECT_STR("\"\\ud800\\u0041\"", "\xEF\xBF\xBD" "A");
	EXPECT_STR("\"\\ud800\\ud800\\udc00\"", "\xEF\xBF\xBD\xF0\x90\x80\x80");
}

Test(json, string_invalid_utf8_replaced)
{
	EXPECT_STR("\"a\xFF" "b\"", "a\xEF\xBF\xBD" "b");
	EXPECT_STR("\"\xC0\x80\"", "\xEF\xBF\xBD\xEF\xBF\xBD");             /* overlong */
	EXPECT_STR("\"\xED\xA0\x80\"", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
	EXPECT_STR("\"\xE2\x82\"", "\xEF\xBF\xBD\xEF\xBF\xBD");             /* truncated */
	EXPECT_STR("\"\xF4\x90\x80\x80\"",
		   "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* > U+10FFFF */
}

Test(json, string_errors)
{
	fails("\"abc", 5, "unterminated string");
	fails("\"abc\\", 6, "unterminated string");
	fails("\"a\\x\"", 3, "invalid escape");
	fails("\"\\u12\"", 2, "invalid \\u escape");
	fails("\"\\uZZZZ\"", 2, "invalid \\u escape");
	fails("\"a\tb\"", 3, "control character 0x09");
	parse_fails("\"a\nb\"", 5, 1, 3, "control character 0x0a");
	parse_fails("\"a\0b\"", 5, 1, 3, "control character 0x00");
	fails("'a'", 1, "expected a value");
}

/* ---- structure errors ------------------------------------------------- */

static char *nested(int depth)
{
	char *s = xmalloc((size_t)depth * 2 + 1);

	for (int i = 0; i < depth; i++) {
		s[i] = '[';
		s[2 * depth - 1 - i] = ']';
	}
	s[2 * depth] = '\0';
	return s;
}

Test(json, nesting_limit)
{
	struct json_doc doc = JSON_DOC_INIT;
	char *ok = nested(256), *deep = nested(257), *huge = nested(100000);
	const struct json_value *v = parse_ok(&doc, ok);
	int depth = 1;

	while (v->arr.n == 1) {
		v = &v->arr.items[0];
		depth++;
	}
	cr_expect_eq(depth, 256);
	fails(deep, 257, "nesting deeper than 256");
	fails(huge, 257, "nesting deeper than 256");
	/* Objects count too. */
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 257; i++)
		strbuf_addstr(&sb, "{\"a\":");
	fails(sb.buf, 256 * 5 + 1, "nesting deeper than 256");
	strbuf_release(&sb);
	free(ok);
	free(deep);
	free(huge);
	json_free(&doc);
}

Test(json, trailing_garbage)
{
	fails("{} x", 4, "trailing characters");
	fails("[1] [2]", 5, "trailing characters");
	fails("truex", 5, "trailing characters");
	parse_fails("{\"a\":1}\n{\"a\":2}\n", 16, 2, 1, "trailing characters");
}

Test(json, truncated_input)
{
	fails("", 1, "unexpected end of input");
	fails("   ", 4, "unexpected end of input");
	fails("[", 2, "unexpected end of input");
	fails("{", 2, "unexpected end of input");
	fails("{\"a\"", 5, "unexpected end of input, expected ':'");
	fails("{\"a\":", 6, "unexpected end of input, expected a value");
	fails("{\"a\": [1, 2", 12, "unexpected end of input, expected ',' or ']'");
	fails("tru", 1, "expected a value");
	/* A parse of a prefix of a valid document never succeeds. */
	const char *full = "{\"a\": [1, {\"b\": \"x\\u00e9\"}, false], \"c\": null}";
	for (size_t n = 0; n < strlen(full); n++) {
		struct json_doc doc = JSON_DOC_INIT;
		struct json_error err;
		cr_expect_eq(json_parse(full, n, &doc, &err), -1, "prefix %zu parsed", n);
		json_free(&doc);
	}
}

Test(json, syntax_errors)
{
	fails("[1,]", 4, "expected a value");
	fails("{\"a\":1,}", 8, "expected a string key");
	fails("{a:1}", 2, "expected a string key");
	fails("{\"a\" 1}", 6, "expected ':'");
	fails("[1 2]", 4, "expected ',' or ']'");
	fails("{\"a\":1 \"b\":2}", 8, "expected ',' or '}'");
	fails("[\x01]", 2, "unexpected byte 0x01");
	fails("nul", 1, "expected a value");
	fails("/* c */ 1", 1, "unexpected '/'");
	parse_fails("{\n  \"a\": 1,\n  \"b\": ]\n}", 22, 3, 8, "expected a value");
}

Test(json, error_struct_optional)
{
	struct json_doc doc = JSON_DOC_INIT;

	cr_expect_eq(json_parse("[", 1, &doc, NULL), -1);
	cr_expect_eq(json_parse("[1]", 3, &doc, NULL), 0);
	json_free(&doc);
}

/* ---- memory: reuse and growth ----------------------------------------- */

Test(json, doc_reuse)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error err;
	char line[128];

	for (int i = 0; i < 1000; i++) {
		int n = snprintf(line, sizeof(line),
				 "{\"type\":\"timing\",\"name\":\"step %d\",\"seconds\":%d.5}", i, i);
		cr_assert_eq(json_parse(line, (size_t)n, &doc, &err), 0);
		cr_expect_eq(json_get(doc.root, "seconds")->num.v, i + 0.5);
		cr_expect_eq(json_get(doc.root, "name")->str.len, strlen("step ") + (i < 10 ? 1 : i < 100 ? 2 : 3));
	}
	cr_expect_eq(json_parse("{\"bad\":", 7, &doc, &err), -1);
	cr_expect_null(doc.root);
	cr_expect_eq(json_parse("[true]", 6, &doc, &err), 0);
	cr_expect_eq(doc.root->arr.items[0].boolean, 1);
	json_free(&doc);
	json_free(&doc); /* idempotent */
}

Test(json, large_document)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct json_error err;
	const int n = 100000;

	strbuf_addch(&sb, '[');
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s{\"i\": %d, \"s\": \"v%d\\n\"}", i ? "," : "", i, i);
	strbuf_addch(&sb, ']');
	for (int round = 0; round < 2; round++) {
		cr_assert_eq(json_parse(sb.buf, sb.len, &doc, &err), 0, "%s", err.msg);
		cr_assert_eq(doc.root->arr.n, (size_t)n);
		const struct json_value *last = &doc.root->arr.items[n - 1];
		cr_expect_eq(json_get(last, "i")->num.v, n - 1);
		cr_expect_str_eq(json_get(last, "s")->str.s, "v99999\n");
	}
	strbuf_release(&sb);
	json_free(&doc);
}

/* ---- NDJSON records ---------------------------------------------------- */

static int record_of(struct json_doc *doc, const char *json, struct tp_record *r,
		     struct strbuf *err)
{
	parse_ok(doc, json);
	strbuf_reset(err);
	return tp_record_from_json(doc->root, r, err);
}

Test(ndjson_in, timing_record)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct tp_record r;

	cr_assert_eq(record_of(&doc,
			       "{\"type\":\"timing\",\"file\":\"a.log\",\"line\":3,"
			       "\"ts\":\"2024-10-13T22:30:01\",\"rank\":2,\"name\":\"Argument parsing\","
			       "\"seconds\":0.12,\"extra\":[1,2]}",
			       &r, &err),
		     0, "%s", err.buf);
	cr_expect_eq(r.type, TP_TIMING);
	cr_expect_str_eq(r.file, "a.log");
	cr_expect_eq(r.line, 3);
	cr_expect_str_eq(r.ts, "2024-10-13T22:30:01");
	cr_expect_eq(r.rank, 2);
	cr_expect_eq(r.name_len, strlen("Argument parsing"));
	cr_expect_str_eq(r.name, "Argument parsing");
	cr_expect_eq(r.num[S_SECONDS], 0.12);
	cr_expect_eq(r.has, TP_HAS(S_SECONDS));
	cr_expect_null(r.text);
	strbuf_release(&err);
	json_free(&doc);
}

Test(ndjson_in, defaults_and_nulls)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct tp_record r;

	cr_assert_eq(record_of(&doc,
			       "{\"type\":\"summary\",\"name\":\"MLP\",\"seconds\":null,"
			       "\"rank\":null,\"ts\":null,\"section\":\"Section 1.1\"}",
			       &r, &err),
		     0, "%s", err.buf);
	cr_expect_eq(r.type, TP_SUMMARY);
	cr_expect_str_eq(r.file, "");
	cr_expect_eq(r.line, 0);
	cr_expect_null(r.ts);
	cr_expect_eq(r.rank, -1);
	cr_expect_eq(r.has, 0u);
	cr_expect_str_eq(r.text, "Section 1.1");
	strbuf_release(&err);
	json_free(&doc);
}

Test(ndjson_in, meta_values)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct tp_record r;

	cr_assert_eq(record_of(&doc, "{\"type\":\"meta\",\"key\":\"hardware.gpu_memory_gb\",\"value\":40}",
			       &r, &err), 0, "%s", err.buf);
	cr_expect_str_eq(r.name, "hardware.gpu_memory_gb");
	cr_expect(tp_has(&r, S_META_VALUE));
	cr_expect_eq(r.num[S_META_VALUE], 40.0);
	cr_assert_eq(record_of(&doc, "{\"type\":\"meta\",\"key\":\"hardware.gpu_name\",\"value\":\"NVIDIA A100\"}",
			       &r, &err), 0, "%s", err.buf);
	cr_expect_not(tp_has(&r, S_META_VALUE));
	cr_expect_str_eq(r.text, "NVIDIA A100");
	cr_assert_eq(record_of(&doc, "{\"type\":\"meta\",\"key\":\"x\",\"value\":true}", &r, &err), 0);
	cr_expect_str_eq(r.text, "true");
	cr_expect_eq(record_of(&doc, "{\"type\":\"meta\",\"key\":\"x\",\"value\":[1]}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"value\": expected a number or a string, got array");
	strbuf_release(&err);
	json_free(&doc);
}

Test(ndjson_in, errors_name_the_field)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct tp_record r;

	cr_expect_eq(record_of(&doc, "{\"type\":\"timing\",\"seconds\":\"12\"}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"seconds\": expected a number, got string");
	cr_expect_eq(record_of(&doc, "{\"type\":\"timing\",\"name\":5}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"name\": expected a string, got number");
	cr_expect_eq(record_of(&doc, "{\"type\":\"timing\",\"line\":-1}", &r, &err), -1);
	cr_expect(strstr(err.buf, "field \"line\": expected an integer") != NULL, "%s", err.buf);
	cr_expect_eq(record_of(&doc, "{\"type\":\"timing\",\"rank\":1.5}", &r, &err), -1);
	cr_expect(strstr(err.buf, "field \"rank\"") != NULL, "%s", err.buf);
	cr_expect_eq(record_of(&doc, "{\"type\":\"timing\",\"file\":{}}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"file\": expected a string, got object");
	cr_expect_eq(record_of(&doc, "{\"name\":\"x\"}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "missing field \"type\"");
	cr_expect_eq(record_of(&doc, "{\"type\":\"bogus\\n\"}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"type\": unknown record type \"bogus\\n\"");
	cr_expect_eq(record_of(&doc, "{\"type\":7}", &r, &err), -1);
	cr_expect_str_eq(err.buf, "field \"type\": expected a string, got number");
	cr_expect_eq(record_of(&doc, "[1]", &r, &err), -1);
	cr_expect_str_eq(err.buf, "expected a JSON object, got array");
	strbuf_release(&err);
	json_free(&doc);
}

/* What tprof-parse writes reads back as the same record. */
Test(ndjson_in, round_trip_through_writer)
{
	struct tp_record in[3], out;
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct json_error je;

	memset(in, 0, sizeof(in));
	in[0] = (struct tp_record){ .type = TP_RUNTIME, .file = "r.json", .line = 13,
				    .ts = "2024-01-01T12:00:00", .rank = -1,
				    .name = "forward", .name_len = 7 };
	tp_set(&in[0], S_RT_MEAN_MS, 10.5);
	tp_set(&in[0], S_RT_STD_MS, 1.2);
	tp_set(&in[0], S_RT_RUNS, 100);
	in[1] = (struct tp_record){ .type = TP_SUMMARY, .file = "x \"q\".csv", .line = 2,
				    .rank = 3, .name = "KAN", .name_len = 3,
				    .text = "Section 1.1", .text_len = 11 };
	tp_set(&in[1], S_SECONDS, 150.0);
	tp_set(&in[1], S_SUM_GPU_PEAK_MB, 1024.3);
	in[2] = (struct tp_record){ .type = TP_META, .file = "f", .line = 1, .rank = -1,
				    .name = "hardware.gpu_name", .name_len = 17,
				    .text = "NVIDIA \xC3\xA9 A100", .text_len = 15 };
	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		strbuf_reset(&sb);
		tp_record_to_json(&in[i], &sb);
		cr_assert_eq(json_parse(sb.buf, sb.len, &doc, &je), 0, "%s: %s", sb.buf, je.msg);
		strbuf_reset(&err);
		cr_assert_eq(tp_record_from_json(doc.root, &out, &err), 0, "%s", err.buf);
		cr_expect_eq(out.type, in[i].type);
		cr_expect_str_eq(out.file, in[i].file);
		cr_expect_eq(out.line, in[i].line);
		cr_expect_eq(out.rank, in[i].rank);
		if (in[i].ts)
			cr_expect_str_eq(out.ts, in[i].ts);
		else
			cr_expect_null(out.ts);
		cr_expect_eq(out.name_len, in[i].name_len);
		cr_expect(memcmp(out.name, in[i].name, in[i].name_len) == 0);
		cr_expect_eq(out.text_len, in[i].text_len);
		if (in[i].text)
			cr_expect(memcmp(out.text, in[i].text, in[i].text_len) == 0);
		cr_expect_eq(out.has, in[i].has, "%s: has %x, want %x", sb.buf, out.has, in[i].has);
		for (int s = 0; s < TP_NUM_SLOTS; s++)
			if (tp_has(&in[i], s))
				cr_expect_eq(out.num[s], in[i].num[s], "%s slot %d", sb.buf, s);
	}
	strbuf_release(&sb);
	strbuf_release(&err);
	json_free(&doc);
}
