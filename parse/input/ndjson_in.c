/*
 * ndjson_in.c - maps one NDJSON object written by tprof-parse back to a
 * struct tp_record (see ndjson_in.h). Generic over the schemas in record.h:
 * a new record type or field needs no change here.
 */
#include "ndjson_in.h"

#include <math.h>
#include <string.h>

/* Appends "field \"name\": expected WHAT, got KIND" and returns -1. */
static int type_error(struct strbuf *err, const char *field, const char *what,
		      const struct json_value *v)
{
	strbuf_addf(err, "field \"%s\": expected %s, got %s", field, what,
		    json_kind_name(v->kind));
	return -1;
}

static int key_is(const struct json_member *m, const char *key)
{
	size_t n = strlen(key);
	return m->key_len == n && memcmp(m->key, key, n) == 0;
}

/* A JSON integer in [lo, hi]: the writer prints these without decimals. */
static int get_int(const struct json_value *v, double lo, double hi, const char *field,
		   struct strbuf *err, double *out)
{
	if (v->kind != JSON_NUM)
		return type_error(err, field, "an integer", v);
	if (v->num.v != floor(v->num.v) || v->num.v < lo || v->num.v > hi) {
		strbuf_addf(err, "field \"%s\": expected an integer in [%.0f, %.0f]",
			    field, lo, hi);
		return -1;
	}
	*out = v->num.v;
	return 0;
}

/* The keys every record may have: "file", "line", "ts", "rank", "role",
 * "parent".
 * Returns 1 if m was one of them (-1 on error), 0 if not. */
static int set_common(const struct json_member *m, struct tp_record *r,
		      struct strbuf *err)
{
	const struct json_value *v = &m->value;
	double d;

	if (key_is(m, "file")) {
		if (v->kind != JSON_STR)
			return type_error(err, "file", "a string", v);
		r->file = v->str.s;
	} else if (key_is(m, "line")) {
		if (get_int(v, 0, 9007199254740992.0, "line", err, &d) < 0)
			return -1;
		r->line = (uint64_t)d;
	} else if (key_is(m, "ts")) {
		if (v->kind != JSON_STR)
			return type_error(err, "ts", "a string", v);
		r->ts = v->str.s;
	} else if (key_is(m, "rank")) {
		if (get_int(v, -1, 1e9, "rank", err, &d) < 0)
			return -1;
		r->rank = (int)d;
	} else if (key_is(m, "role")) {
		int role = v->kind == JSON_STR ? tp_role_from_name(v->str.s, v->str.len) : -1;
		if (role < 0)
			return type_error(err, "role", "a role (step, component, phase, running, "
					  "average, clock, rate, eta, quantity)", v);
		r->role = (enum tp_role)role;
	} else if (key_is(m, "parent")) {
		if (v->kind != JSON_STR)
			return type_error(err, "parent", "a string", v);
		r->parent = v->str.s;
		r->parent_len = v->str.len;
	} else {
		return 0;
	}
	return 1;
}

/* A schema field: stores v according to the field's kind. */
static int set_field(const struct tp_field *f, const struct json_value *v,
		     struct tp_record *r, struct strbuf *err)
{
	switch (f->kind) {
	case TP_F_NAME:
	case TP_F_TEXT:
		if (v->kind != JSON_STR)
			return type_error(err, f->name, "a string", v);
		if (f->kind == TP_F_NAME) {
			r->name = v->str.s;
			r->name_len = v->str.len;
		} else {
			r->text = v->str.s;
			r->text_len = v->str.len;
		}
		return 0;
	case TP_F_NUM:
	case TP_F_INT:
		if (v->kind != JSON_NUM)
			return type_error(err, f->name, "a number", v);
		tp_set(r, f->slot, v->num.v);
		return 0;
	case TP_F_VALUE:
		/* A meta value is a number, else text; a boolean reads as
		 * its text so that it survives a round trip as text. */
		if (v->kind == JSON_NUM) {
			tp_set(r, f->slot, v->num.v);
		} else if (v->kind == JSON_STR) {
			r->text = v->str.s;
			r->text_len = v->str.len;
		} else if (v->kind == JSON_BOOL) {
			r->text = v->boolean ? "true" : "false";
			r->text_len = strlen(r->text);
		} else {
			return type_error(err, f->name, "a number or a string", v);
		}
		return 0;
	}
	return 0;
}

static int record_type(const struct json_value *obj, struct strbuf *err)
{
	const struct json_value *t = json_get(obj, "type");
	int type;

	if (!t) {
		strbuf_addstr(err, "missing field \"type\"");
		return -1;
	}
	if (t->kind != JSON_STR)
		return type_error(err, "type", "a string", t);
	type = tp_type_from_name(t->str.s, t->str.len);
	if (type < 0) {
		strbuf_addstr(err, "field \"type\": unknown record type \"");
		strbuf_add_json_str(err, t->str.s, t->str.len);
		strbuf_addch(err, '"');
	}
	return type;
}

static void record_init(struct tp_record *r, enum tp_type type)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->file = "";
	r->rank = -1;
}

int tp_record_from_json(const struct json_value *obj, struct tp_record *r,
			struct strbuf *err)
{
	int type;

	if (!obj || obj->kind != JSON_OBJ) {
		strbuf_addf(err, "expected a JSON object, got %s",
			    obj ? json_kind_name(obj->kind) : "nothing");
		return -1;
	}
	type = record_type(obj, err);
	if (type < 0)
		return -1;
	record_init(r, (enum tp_type)type);
	for (size_t i = 0; i < obj->obj.n; i++) {
		const struct json_member *m = &obj->obj.members[i];
		int idx, rc;

		if (m->value.kind == JSON_NULL || key_is(m, "type"))
			continue; /* null: the writer's "absent" (or NaN) */
		rc = set_common(m, r, err);
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		idx = tp_field_index(r->type, m->key, m->key_len);
		if (idx >= 0 &&
		    set_field(&tp_schemas[type].fields[idx], &m->value, r, err) < 0)
			return -1;
	}
	return 0;
}
