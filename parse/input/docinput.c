/*
 * docinput.c - turns whole documents (JSON reports and exports, the CSV
 * export) into typed records; the mapping is described in docinput.h.
 *
 * JSON documents are parsed whole into a DOM first (json.h), then walked in
 * document order. The CSV export is fed to libcsv one physical line at a
 * time so that every row and every error has a line number.
 */
#include "docinput.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>

#include "base/base.h"

/* ---- emitting records ----------------------------------------------- */

struct emitter {
	const struct tp_sink *sink;
	const char *file;
	const char *ts;  /* every record's timestamp, or NULL */
	char tsbuf[TP_TS_MAX]; /* normalized timestamp that ts points to */
	int stopped;     /* the sink asked to stop */
	struct strbuf msg;  /* warning text */
	struct strbuf path; /* dotted name of the meta value being walked */
};

static void rec_init(const struct emitter *e, struct tp_record *r, enum tp_type type,
		     uint64_t line)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->file = e->file;
	r->line = line;
	r->ts = e->ts;
	r->rank = -1;
}

static void emit(struct emitter *e, const struct tp_record *r)
{
	if (!e->stopped && e->sink->emit(e->sink->ctx, r))
		e->stopped = 1;
}

static void warn(struct emitter *e, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct emitter *e, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	if (!e->sink->warn || e->stopped)
		return;
	strbuf_reset(&e->msg);
	va_start(ap, fmt);
	strbuf_vaddf(&e->msg, fmt, ap);
	va_end(ap);
	e->sink->warn(e->sink->ctx, e->file, line, e->msg.buf);
}

/* Warns "WHAT \"KEY\": PROBLEM", the key escaped and cut to 80 bytes, as
 * it comes from the input. */
static void warn_key(struct emitter *e, uint64_t line, const char *what,
		     const struct json_member *m, const char *problem)
{
	if (!e->sink->warn || e->stopped)
		return;
	strbuf_reset(&e->msg);
	strbuf_addf(&e->msg, "%s \"", what);
	strbuf_add_json_str(&e->msg, m->key, m->key_len < 80 ? m->key_len : 80);
	strbuf_addf(&e->msg, "\": %s", problem);
	e->sink->warn(e->sink->ctx, e->file, line, e->msg.buf);
}

static int key_is(const struct json_member *m, const char *key)
{
	size_t n = strlen(key);
	return m->key_len == n && memcmp(m->key, key, n) == 0;
}

static int all_digits(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Time zone suffix: Z, +HH, +HHMM or +HH:MM. */
static int is_tz(const char *s, size_t n)
{
	if (n == 1)
		return *s == 'Z' || *s == 'z';
	if (n < 3 || (*s != '+' && *s != '-') || !all_digits(s + 1, 2))
		return 0;
	if (n == 3)
		return 1;
	if (s[3] == ':')
		return n == 6 && all_digits(s + 4, 2);
	return n == 5 && all_digits(s + 3, 2);
}

/*
 * An ISO 8601 date-time ("2024-01-01T12:00:00", a space for the 'T', any
 * fraction, an optional time zone) in the record form, the fraction cut or
 * padded to milliseconds. Returns 0, or -1 if s is not one.
 */
static int norm_ts(const char *s, size_t n, char out[TP_TS_MAX])
{
	char buf[TP_TS_MAX];
	const char *end = tp_ts_read(s, s + n, TP_TS_MS, buf);
	if (!end || (end < s + n && !is_tz(end, (size_t)(s + n - end))))
		return -1;
	memcpy(out, buf, sizeof(buf));
	return 0;
}

/* Sets every record's ts from a "timestamp" member, if any. */
static void set_doc_ts(struct emitter *e, const struct json_value *root)
{
	const struct json_value *t = json_get(root, "timestamp");

	if (!t || t->kind == JSON_NULL)
		return;
	if (t->kind == JSON_STR && norm_ts(t->str.s, t->str.len, e->tsbuf) == 0) {
		e->ts = e->tsbuf;
		return;
	}
	warn(e, t->line, "\"timestamp\" is not an ISO 8601 date-time: ignored");
}

/* ---- meta: any scalar, named by its dotted path ---------------------- */

static void path_truncate(struct strbuf *sb, size_t len)
{
	if (sb->buf) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

static void meta_scalar(struct emitter *e, const struct json_value *v)
{
	struct tp_record r;

	rec_init(e, &r, TP_META, v->line);
	r.name = e->path.buf;
	r.name_len = e->path.len;
	if (v->kind == JSON_NUM) {
		tp_set(&r, S_META_VALUE, v->num.v);
	} else if (v->kind == JSON_STR) {
		r.text = v->str.s;
		r.text_len = v->str.len;
	} else {
		r.text = v->boolean ? "true" : "false";
		r.text_len = strlen(r.text);
	}
	emit(e, &r);
}

/* Emits a meta record for every scalar under v (depth is bounded by the
 * JSON parser's nesting limit). */
static void meta_walk(struct emitter *e, const struct json_value *v)
{
	size_t len = e->path.len;

	switch (v->kind) {
	case JSON_NULL:
		return;
	case JSON_OBJ:
		for (size_t i = 0; i < v->obj.n && !e->stopped; i++) {
			const struct json_member *m = &v->obj.members[i];
			if (len)
				strbuf_addch(&e->path, '.');
			strbuf_add(&e->path, m->key, m->key_len);
			meta_walk(e, &m->value);
			path_truncate(&e->path, len);
		}
		return;
	case JSON_ARR:
		for (size_t i = 0; i < v->arr.n && !e->stopped; i++) {
			strbuf_addf(&e->path, len ? ".%zu" : "%zu", i);
			meta_walk(e, &v->arr.items[i]);
			path_truncate(&e->path, len);
		}
		return;
	default:
		meta_scalar(e, v);
	}
}

/* Walks member m of a section named prefix as meta "prefix.key". */
static void meta_member(struct emitter *e, const char *prefix, const struct json_member *m)
{
	strbuf_reset(&e->path);
	if (prefix) {
		strbuf_addstr(&e->path, prefix);
		strbuf_addch(&e->path, '.');
	}
	strbuf_add(&e->path, m->key, m->key_len);
	meta_walk(e, &m->value);
}

/* ---- report (S2) ---------------------------------------------- */

/* Milliseconds per unit of a runtime entry, or 0 for an unknown unit. */
static double runtime_unit_ms(const struct json_value *unit)
{
	static const struct {
		const char *name;
		double ms;
	} units[] = {
		{ "ms", 1 }, { "s", 1e3 }, { "sec", 1e3 }, { "us", 1e-3 },
		{ "\xC2\xB5s", 1e-3 }, { "\xCE\xBCs", 1e-3 }, { "ns", 1e-6 },
	};

	if (!unit)
		return 1;
	if (unit->kind != JSON_STR)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (strcmp(unit->str.s, units[i].name) == 0)
			return units[i].ms;
	return 0;
}

static void set_num(struct tp_record *r, int slot, const struct json_value *v, double scale)
{
	if (json_is(v, JSON_NUM))
		tp_set(r, slot, v->num.v * scale);
}

static void runtime_entry(struct emitter *e, const struct json_member *m)
{
	const struct json_value *v = &m->value, *mean;
	struct tp_record r;
	double ms;

	rec_init(e, &r, TP_RUNTIME, v->line);
	r.name = m->key;
	r.name_len = m->key_len;
	if (v->kind == JSON_NUM) {
		tp_set(&r, S_RT_MEAN_MS, v->num.v);
		emit(e, &r);
		return;
	}
	mean = json_get(v, "mean");
	if (!json_is(mean, JSON_NUM)) {
		warn_key(e, v->line, "runtime", m, "no numeric \"mean\": skipped");
		return;
	}
	ms = runtime_unit_ms(json_get(v, "unit"));
	if (ms == 0) {
		warn_key(e, v->line, "runtime", m, "unknown \"unit\": skipped");
		return;
	}
	set_num(&r, S_RT_MEAN_MS, mean, ms);
	set_num(&r, S_RT_STD_MS, json_get(v, "std"), ms);
	set_num(&r, S_RT_MIN_MS, json_get(v, "min"), ms);
	set_num(&r, S_RT_MAX_MS, json_get(v, "max"), ms);
	set_num(&r, S_RT_RUNS, json_get(v, "num_runs"), 1);
	emit(e, &r);
}

/* A unit suffix of a member name and what it multiplies by. */
struct suffix {
	const char *s;
	double scale;
};

/* How "memory" and "flops" map to records. */
struct measure {
	const char *section;
	enum tp_type type;
	int slot;
	const struct suffix *suffixes;
	size_t nsuffixes;
};

static const struct suffix mem_suffixes[] = { { "_mb", 1 }, { "_gb", 1024 } };
static const struct suffix flops_suffixes[] = {
	{ "_gflops", 1 }, { "_tflops", 1e3 }, { "_flops", 1e-9 }
};
static const struct measure mem_measure = {
	"memory", TP_MEMORY, S_MEM_MB, mem_suffixes, ARRAY_SIZE(mem_suffixes)
};
static const struct measure flops_measure = {
	"flops", TP_FLOPS, S_FLOPS_GFLOPS, flops_suffixes, ARRAY_SIZE(flops_suffixes)
};

/* The unit suffix that key ends with, leaving a non-empty stem, or NULL. */
static const struct suffix *find_suffix(const struct measure *ms, const char *key,
					size_t n, size_t *stem_len)
{
	for (size_t i = 0; i < ms->nsuffixes; i++) {
		size_t sl = strlen(ms->suffixes[i].s);
		if (n > sl && memcmp(key + n - sl, ms->suffixes[i].s, sl) == 0) {
			*stem_len = n - sl;
			return &ms->suffixes[i];
		}
	}
	return NULL;
}

static void measure_rec(struct emitter *e, const struct measure *ms, const char *name,
			size_t name_len, const struct json_value *v, double scale)
{
	struct tp_record r;

	rec_init(e, &r, ms->type, v->line);
	r.name = name;
	r.name_len = name_len;
	/* FLOPs to GFLOPs by dividing by 1e9: x * 1e-9 is not the nearest double */
	tp_set(&r, ms->slot, scale < 1 ? v->num.v / round(1 / scale) : v->num.v * scale);
	emit(e, &r);
}

/* "breakdown": every number is a record in the section's unit (x scale). */
static void measure_breakdown(struct emitter *e, const struct measure *ms,
			      const struct json_value *bd, double scale)
{
	for (size_t i = 0; i < bd->obj.n && !e->stopped; i++) {
		const struct json_member *m = &bd->obj.members[i];
		if (m->value.kind == JSON_NUM) {
			measure_rec(e, ms, m->key, m->key_len, &m->value, scale);
		} else {
			strbuf_reset(&e->path);
			strbuf_addf(&e->path, "%s.breakdown.", ms->section);
			strbuf_add(&e->path, m->key, m->key_len);
			meta_walk(e, &m->value);
		}
	}
}

/*
 * FLOPsEstimate.to_dict writes {"total": FLOPs, "total_gflops": total / 1e9,
 * "breakdown": FLOPs}: with a bare "total" beside "total_gflops", the bare
 * total is the same count in FLOPs (read once, as total_gflops) and the
 * breakdown is in FLOPs too. Returns what turns a breakdown value into the
 * section's unit (1 when the breakdown is in it already).
 */
static double breakdown_scale(const struct measure *ms, const struct json_value *sec)
{
	const struct json_value *raw = json_get(sec, "total"), *g = json_get(sec, "total_gflops");
	if (ms->type != TP_FLOPS || !json_is(raw, JSON_NUM) || !json_is(g, JSON_NUM) || !(raw->num.v > 0))
		return 1;
	return g->num.v / raw->num.v;
}

/* MemoryStats.to_dict under "forward"/"backward": {"peak_mb", "allocated_mb", ...} -> "forward.peak". */
static void measure_stats(struct emitter *e, const struct measure *ms, const struct json_member *m)
{
	for (size_t i = 0; i < m->value.obj.n && !e->stopped; i++) {
		const struct json_member *k = &m->value.obj.members[i];
		const struct suffix *suf = NULL;
		size_t stem = 0;
		if (k->value.kind == JSON_NUM)
			suf = find_suffix(ms, k->key, k->key_len, &stem);
		if (!suf) {
			strbuf_reset(&e->path);
			strbuf_addf(&e->path, "%s.%.*s", ms->section, (int)m->key_len, m->key);
			strbuf_addch(&e->path, '.');
			strbuf_add(&e->path, k->key, k->key_len);
			meta_walk(e, &k->value);
			continue;
		}
		struct strbuf name = STRBUF_INIT;
		strbuf_add(&name, m->key, m->key_len);
		strbuf_addch(&name, '.');
		strbuf_add(&name, k->key, stem);
		measure_rec(e, ms, name.buf, name.len, &k->value, suf->scale);
		strbuf_release(&name);
	}
}

/* An object whose members include a number named with the section's unit suffix. */
static int has_unit_member(const struct measure *ms, const struct json_value *v)
{
	size_t stem;
	for (size_t i = 0; v->kind == JSON_OBJ && i < v->obj.n; i++)
		if (v->obj.members[i].value.kind == JSON_NUM &&
		    find_suffix(ms, v->obj.members[i].key, v->obj.members[i].key_len, &stem))
			return 1;
	return 0;
}

static void measure_section(struct emitter *e, const struct measure *ms,
			    const struct json_value *sec)
{
	double bscale = breakdown_scale(ms, sec);
	for (size_t i = 0; i < sec->obj.n && !e->stopped; i++) {
		const struct json_member *m = &sec->obj.members[i];
		const struct suffix *suf = NULL;
		size_t stem = 0;

		if (m->value.kind == JSON_OBJ && key_is(m, "breakdown")) {
			measure_breakdown(e, ms, &m->value, bscale);
			continue;
		}
		if (bscale != 1 && key_is(m, "total"))
			continue; /* the FLOP count of total_gflops */
		if (has_unit_member(ms, &m->value)) {
			measure_stats(e, ms, m);
			continue;
		}
		if (m->value.kind == JSON_NUM)
			suf = find_suffix(ms, m->key, m->key_len, &stem);
		if (suf)
			measure_rec(e, ms, m->key, stem, &m->value, suf->scale);
		else
			meta_member(e, ms->section, m);
	}
}

/*
 * ScalingResult.to_dict under "scaling": {"parameter_name", "parameter_values",
 * "runtime": [RuntimeStats | null], "memory": [MemoryStats | null], "flops":
 * [FLOPs]}: one scaling record per value. Anything else is meta.
 */
static void scaling_experiment(struct emitter *e, const struct json_member *m)
{
	const struct json_value *v = &m->value, *pn = json_get(v, "parameter_name"),
				*vals = json_get(v, "parameter_values"), *rt = json_get(v, "runtime"),
				*mem = json_get(v, "memory"), *fl = json_get(v, "flops");
	if (!json_is(pn, JSON_STR) || !json_is(vals, JSON_ARR)) {
		meta_member(e, "scaling", m);
		return;
	}
	for (size_t i = 0; i < vals->arr.n && !e->stopped; i++) {
		const struct json_value *x = &vals->arr.items[i];
		const struct json_value *r = json_is(rt, JSON_ARR) && i < rt->arr.n ? &rt->arr.items[i] : NULL;
		const struct json_value *mm = json_is(mem, JSON_ARR) && i < mem->arr.n ? &mem->arr.items[i] : NULL;
		const struct json_value *f = json_is(fl, JSON_ARR) && i < fl->arr.n ? &fl->arr.items[i] : NULL;
		if (!json_is(x, JSON_NUM))
			continue; /* a PE name: no size to fit */
		struct tp_record rec;
		rec_init(e, &rec, TP_SCALING, x->line);
		rec.name = pn->str.s;
		rec.name_len = pn->str.len;
		tp_set(&rec, S_SC_VALUE, x->num.v);
		double ms = r ? runtime_unit_ms(json_get(r, "unit")) : 0;
		if (r && json_is(json_get(r, "mean"), JSON_NUM) && ms > 0) {
			set_num(&rec, S_SC_MEAN_MS, json_get(r, "mean"), ms);
			set_num(&rec, S_SC_STD_MS, json_get(r, "std"), ms);
		}
		if (mm)
			set_num(&rec, S_SC_PEAK_MB, json_get(mm, "peak_mb"), 1);
		if (f && json_is(f, JSON_NUM) && f->num.v > 0)
			tp_set(&rec, S_SC_GFLOPS, f->num.v / 1e9);
		if (!tp_has(&rec, S_SC_MEAN_MS) && !tp_has(&rec, S_SC_PEAK_MB)) {
			warn_key(e, x->line, "scaling", m, "a value without runtime or memory: skipped");
			continue;
		}
		emit(e, &rec);
	}
}

/*
 * profile_model.py's pe_costs: {"lap": {"precomputation_ms": mean,
 * "precomputation_std": std}} -> runtime "lap precomputation" (ms); an
 * "error" string and anything else is meta.
 */
static void pe_cost(struct emitter *e, const struct json_member *m)
{
	const struct json_value *ms = json_get(&m->value, "precomputation_ms");
	if (!json_is(ms, JSON_NUM)) {
		meta_member(e, "pe_costs", m);
		return;
	}
	struct tp_record r;
	struct strbuf name = STRBUF_INIT;
	strbuf_add(&name, m->key, m->key_len);
	strbuf_addstr(&name, " precomputation");
	rec_init(e, &r, TP_RUNTIME, ms->line);
	r.name = name.buf;
	r.name_len = name.len;
	tp_set(&r, S_RT_MEAN_MS, ms->num.v);
	set_num(&r, S_RT_STD_MS, json_get(&m->value, "precomputation_std"), 1);
	emit(e, &r);
	strbuf_release(&name);
}

static void do_report(struct emitter *e, const struct json_value *root)
{
	set_doc_ts(e, root);
	for (size_t i = 0; i < root->obj.n && !e->stopped; i++) {
		const struct json_member *m = &root->obj.members[i];
		int is_obj = m->value.kind == JSON_OBJ;

		if (key_is(m, "timestamp"))
			continue;
		if (is_obj && key_is(m, "runtime")) {
			for (size_t k = 0; k < m->value.obj.n && !e->stopped; k++)
				runtime_entry(e, &m->value.obj.members[k]);
		} else if (is_obj && key_is(m, "memory")) {
			measure_section(e, &mem_measure, &m->value);
		} else if (is_obj && key_is(m, "flops")) {
			measure_section(e, &flops_measure, &m->value);
		} else if (is_obj && key_is(m, "scaling")) {
			for (size_t k = 0; k < m->value.obj.n && !e->stopped; k++)
				scaling_experiment(e, &m->value.obj.members[k]);
		} else if (is_obj && key_is(m, "pe_costs")) {
			for (size_t k = 0; k < m->value.obj.n && !e->stopped; k++)
				pe_cost(e, &m->value.obj.members[k]);
		} else {
			meta_member(e, NULL, m);
		}
	}
}

/* ---- timing exports (S1 and S0) ----------------------------- */

/* One timer: seconds, or {"time": s, memory fields...}. */
static void timer_entry(struct emitter *e, const struct json_member *m,
			const char *section, size_t section_len)
{
	const struct json_value *v = &m->value, *t = v;
	struct tp_record r;

	rec_init(e, &r, TP_SUMMARY, v->line);
	r.name = m->key;
	r.name_len = m->key_len;
	r.text = section;
	r.text_len = section_len;
	if (v->kind == JSON_OBJ)
		t = json_get(v, "time");
	if (!json_is(t, JSON_NUM)) {
		warn_key(e, v->line, "timer", m, "no time in seconds: skipped");
		return;
	}
	tp_set(&r, S_SECONDS, t->num.v);
	if (v->kind == JSON_OBJ) {
		set_num(&r, S_SUM_CPU_MB, json_get(v, "peak_memory_mb"), 1);
		set_num(&r, S_SUM_GPU_MB, json_get(v, "allocated_mb"), 1);
		set_num(&r, S_SUM_GPU_PEAK_MB, json_get(v, "max_allocated_mb"), 1);
	}
	emit(e, &r);
}

static int is_export_key(const struct json_member *m)
{
	return key_is(m, "section") || key_is(m, "timestamp");
}

static void do_export(struct emitter *e, const struct json_value *root)
{
	const struct json_value *timings = json_get(root, "timings");
	const struct json_value *sec = json_get(root, "section");
	const char *section = NULL;
	size_t section_len = 0;
	int bare = !json_is(timings, JSON_OBJ);

	set_doc_ts(e, root);
	if (json_is(sec, JSON_STR)) {
		section = sec->str.s;
		section_len = sec->str.len;
	} else if (sec && sec->kind != JSON_NULL) {
		warn(e, sec->line, "\"section\" is not a string: ignored");
	}
	if (bare)
		timings = root;
	for (size_t i = 0; i < timings->obj.n && !e->stopped; i++) {
		const struct json_member *m = &timings->obj.members[i];
		if (!bare || !is_export_key(m))
			timer_entry(e, m, section, section_len);
	}
}

static void do_timing_data(struct emitter *e, const struct json_value *root)
{
	static const char section[] = "timing_data";
	const struct json_value *timings = json_get(root, "timings");
	const struct json_value *total = json_get(root, "total_time");
	struct tp_record r;

	for (size_t i = 0; i < timings->obj.n && !e->stopped; i++)
		timer_entry(e, &timings->obj.members[i], section, sizeof(section) - 1);
	if (!total)
		return;
	if (total->kind != JSON_NUM) {
		warn(e, total->line, "\"total_time\" is not a number: ignored");
		return;
	}
	/* time.time() - start_time: wall time since the profiler started, the
	 * stages plus the time between them, so not a TOTAL of the rows */
	rec_init(e, &r, TP_SUMMARY, total->line);
	r.name = "WALL";
	r.name_len = 4;
	r.text = section;
	r.text_len = sizeof(section) - 1;
	tp_set(&r, S_SECONDS, total->num.v);
	emit(e, &r);
}

/* A bare export: every member but section/timestamp is a timer. */
static int looks_like_timers(const struct json_value *root)
{
	size_t ntimers = 0;

	for (size_t i = 0; i < root->obj.n; i++) {
		const struct json_member *m = &root->obj.members[i];
		if (is_export_key(m))
			continue;
		if (m->value.kind != JSON_NUM && !json_is(json_get(&m->value, "time"), JSON_NUM))
			return 0;
		ntimers++;
	}
	return ntimers > 0;
}

/* Which known document a JSON object is, from its keys; 0 if none. */
static int classify(const struct json_value *root)
{
	static const char *const report_keys[] = { "runtime", "memory", "flops",
						   "hardware", "model_info" };

	for (size_t i = 0; i < ARRAY_SIZE(report_keys); i++)
		if (json_is(json_get(root, report_keys[i]), JSON_OBJ))
			return TP_DOC_REPORT;
	if (json_is(json_get(root, "timings"), JSON_OBJ))
		return json_get(root, "total_time") && !json_get(root, "section")
			       ? TP_DOC_TIMING_DATA
			       : TP_DOC_EXPORT;
	return looks_like_timers(root) ? TP_DOC_EXPORT : TP_DOC_NONE;
}

/* Checks the shape a forced kind needs; classify() implies it. */
static int shape_ok(int kind, const struct json_value *root)
{
	if (kind == TP_DOC_TIMING_DATA)
		return json_is(json_get(root, "timings"), JSON_OBJ);
	return kind == TP_DOC_REPORT || kind == TP_DOC_EXPORT;
}

static int doc_error(struct emitter *e, struct strbuf *err, uint32_t line, uint32_t col,
		     const char *msg)
{
	strbuf_addf(err, "%s:%u:%u: %s", e->file, (unsigned)line, (unsigned)col, msg);
	return -1;
}

static int parse_json_doc(int kind, const char *buf, size_t n, struct emitter *e,
			  struct strbuf *err)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	const struct json_value *root;
	int rc = 0;

	if (json_parse(buf, n, &doc, &je) < 0) {
		strbuf_addf(err, "%s:%u:%u: invalid JSON: %s", e->file, (unsigned)je.line,
			    (unsigned)je.col, je.msg);
		json_free(&doc);
		return -1;
	}
	root = doc.root;
	if (kind == TP_DOC_JSON && root->kind == JSON_OBJ)
		kind = classify(root);
	if (root->kind != JSON_OBJ || !shape_ok(kind, root)) {
		rc = doc_error(e, err, root->line, root->col,
			       "not a known timing document (expected a profiling report "
			       "with runtime/memory/flops, a timing export or "
			       "timing_data.json)");
	} else if (kind == TP_DOC_REPORT) {
		do_report(e, root);
	} else if (kind == TP_DOC_EXPORT) {
		do_export(e, root);
	} else {
		do_timing_data(e, root);
	}
	json_free(&doc);
	return rc;
}

/* ---- CSV export (S1) ------------------------------------------ */

enum { COL_SECTION, COL_MODEL, COL_TIME, NCOLS };

/* Which export column a header cell names (surrounding blanks and quotes
 * ignored, any case), or -1. */
static int header_col(const char *s, size_t n)
{
	static const char *const names[NCOLS] = { "section", "model", "time (s)" };

	while (n && (*s == ' ' || *s == '\t' || *s == '"')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '"' ||
		     s[n - 1] == '\r'))
		n--;
	for (int c = 0; c < NCOLS; c++)
		if (strlen(names[c]) == n && strncasecmp(s, names[c], n) == 0)
			return c;
	return -1;
}

struct csvstate {
	struct emitter *e;
	struct strbuf cells;  /* this row's cells, each NUL-terminated */
	size_t *off;          /* start of each cell in cells */
	size_t ncells, off_alloc;
	size_t row_newlines;  /* newlines inside this row's quoted cells */
	uint64_t lineno;      /* physical line being fed */
	int col[NCOLS];       /* cell index of each column, -1 if none */
	int have_header;
	int bad_header;
};

static void csv_cell(void *s, size_t n, void *data)
{
	struct csvstate *st = data;
	const char *p = s ? s : "";

	ALLOC_GROW(st->off, st->ncells + 1, st->off_alloc);
	st->off[st->ncells++] = st->cells.len;
	strbuf_add(&st->cells, p, n);
	strbuf_addch(&st->cells, '\0');
	for (size_t i = 0; i < n; i++)
		st->row_newlines += p[i] == '\n';
}

static const char *cell(const struct csvstate *st, int i)
{
	return i >= 0 && (size_t)i < st->ncells ? st->cells.buf + st->off[i] : NULL;
}

static void csv_header(struct csvstate *st)
{
	for (int c = 0; c < NCOLS; c++)
		st->col[c] = -1;
	for (size_t i = 0; i < st->ncells; i++) {
		const char *s = cell(st, (int)i);
		int c = header_col(s, strlen(s));
		if (c >= 0 && st->col[c] < 0)
			st->col[c] = (int)i;
	}
	st->have_header = 1;
	st->bad_header = st->col[COL_MODEL] < 0 || st->col[COL_TIME] < 0;
}

/* Seconds from a cell: a whole number, blanks around it allowed. */
static int cell_seconds(const char *s, double *v)
{
	const char *end = s + strlen(s), *next;

	s = tp_skip_blanks(s, end);
	if (!tp_read_number(s, end, v, &next) || !isfinite(*v))
		return 0;
	return tp_skip_blanks(next, end) == end;
}

static void csv_row_record(struct csvstate *st, uint64_t line)
{
	struct emitter *e = st->e;
	const char *model = cell(st, st->col[COL_MODEL]);
	const char *time = cell(st, st->col[COL_TIME]);
	const char *section = cell(st, st->col[COL_SECTION]);
	struct tp_record r;
	double secs;

	if (!model || !time) {
		warn(e, line, "CSV row has %zu cells, too few for the header: skipped",
		     st->ncells);
		return;
	}
	if (!cell_seconds(time, &secs)) {
		warn(e, line, "CSV \"Time (s)\" is not a number: skipped");
		return;
	}
	rec_init(e, &r, TP_SUMMARY, line);
	r.name = model;
	r.name_len = strlen(model);
	if (section && *section) {
		r.text = section;
		r.text_len = strlen(section);
	}
	tp_set(&r, S_SECONDS, secs);
	emit(e, &r);
}

static void csv_row(int term, void *data)
{
	struct csvstate *st = data;
	/* The row ended on the line being fed; it began as many lines
	 * earlier as its cells hold newlines. */
	uint64_t line = st->lineno - st->row_newlines;

	(void)term;
	if (!st->bad_header && !st->e->stopped) {
		if (!st->have_header)
			csv_header(st);
		else
			csv_row_record(st, line);
	}
	strbuf_reset(&st->cells);
	st->ncells = 0;
	st->row_newlines = 0;
}

/* Column of the quote that opens the field still open at the end of a
 * line that began outside any quoted field. */
static size_t open_quote_col(const char *line, size_t n)
{
	size_t open = 0;
	int inq = 0, field_start = 1;

	for (size_t i = 0; i < n; i++) {
		char c = line[i];
		if (inq) {
			if (c == '"' && i + 1 < n && line[i + 1] == '"')
				i++; /* "" is an escaped quote */
			else if (c == '"')
				inq = 0;
		} else if (c == '"' && field_start) {
			inq = 1;
			open = i;
		} else if (c != ' ' && c != '\t') {
			field_start = c == ',';
		}
	}
	return open + 1;
}

struct csvfeed {
	const char *line;      /* start of the line being fed */
	const char *open_line; /* start of the line where the open quote is */
	uint64_t open_lineno;
};

static int csv_fail(struct emitter *e, struct strbuf *err, uint64_t line, size_t col,
		    const char *msg)
{
	strbuf_addf(err, "%s:%llu:%zu: %s", e->file, (unsigned long long)line, col, msg);
	return -1;
}

/* Feeds the lines of [p, end) to libcsv; returns 0 or -1 with err set. */
static int csv_feed(struct csv_parser *cp, struct csvstate *st, const char *p,
		    const char *end, struct strbuf *err)
{
	struct csvfeed f = { p, p, 1 };

	while (p < end && !st->bad_header && !st->e->stopped) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p), done;

		st->lineno++;
		if (!cp->quoted) { /* libcsv's documented field: inside quotes? */
			f.open_line = p;
			f.open_lineno = st->lineno;
		}
		done = csv_parse(cp, p, n, csv_cell, csv_row, st);
		if (done != n)
			return csv_fail(st->e, err, st->lineno, done + 1,
					"broken CSV quoting");
		p += n;
	}
	if (st->bad_header || st->e->stopped)
		return 0;
	if (csv_fini(cp, csv_cell, csv_row, st) != 0) {
		const char *lend = memchr(f.open_line, '\n', (size_t)(end - f.open_line));
		size_t len = lend ? (size_t)(lend - f.open_line) : (size_t)(end - f.open_line);
		return csv_fail(st->e, err, f.open_lineno, open_quote_col(f.open_line, len),
				"unterminated quoted CSV field");
	}
	return 0;
}

static int parse_csv_doc(const char *buf, size_t n, struct emitter *e, struct strbuf *err)
{
	struct csv_parser cp;
	struct csvstate st;
	int rc;

	memset(&st, 0, sizeof(st));
	st.e = e;
	if (csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return csv_fail(e, err, 1, 1, "cannot initialize the CSV parser");
	csv_set_realloc_func(&cp, xrealloc);
	csv_set_free_func(&cp, free);
	if (n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		buf += 3;
		n -= 3;
	}
	rc = csv_feed(&cp, &st, buf, buf + n, err);
	if (rc == 0 && (st.bad_header || !st.have_header))
		rc = csv_fail(e, err, 1, 1,
			      "not a timing CSV export: expected a header with "
			      "\"Model\" and \"Time (s)\" columns");
	csv_free(&cp);
	strbuf_release(&st.cells);
	free(st.off);
	return rc;
}

/* ---- detection and entry point -------------------------------------- */

#define SNIFF_MAX (64 * 1024)

static const char *skip_bom(const char *p, const char *end)
{
	if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		return p + 3;
	return p;
}

static const char *skip_json_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* One object per line: the first line is "{...}" and more lines follow. */
static int is_line_stream(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;

	if (!nl)
		return 0;
	q = nl;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	if (q == p || q[-1] != '}')
		return 0;
	return skip_json_ws(nl, end) < end;
}

static int detect_json(const char *p, const char *end)
{
	const char *q = skip_json_ws(p + 1, end);

	if (q >= end || *q != '"')
		return TP_DOC_NONE;
	if (end - q >= 6 && memcmp(q, "\"type\"", 6) == 0)
		return TP_DOC_NONE; /* tprof-parse's own NDJSON */
	return is_line_stream(p, end) ? TP_DOC_NONE : TP_DOC_JSON;
}

/* The first line names both the "Model" and the "Time (s)" columns. */
static int detect_csv(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	int seen[NCOLS] = { 0 };

	if (nl)
		end = nl;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *cend = comma ? comma : end;
		int c = header_col(p, (size_t)(cend - p));
		if (c >= 0)
			seen[c] = 1;
		if (!comma)
			break;
		p = comma + 1;
	}
	return seen[COL_MODEL] && seen[COL_TIME] ? TP_DOC_CSV : TP_DOC_NONE;
}

int tp_doc_detect(const char *buf, size_t n)
{
	const char *end = buf + (n < SNIFF_MAX ? n : SNIFF_MAX);
	const char *p = skip_bom(buf, end);
	const char *q = skip_json_ws(p, end);

	if (q < end && *q == '{')
		return detect_json(q, end);
	return detect_csv(p, end);
}

int tp_doc_parse(int kind, const char *buf, size_t n, const char *file,
		 const struct tp_sink *sink, struct strbuf *err)
{
	struct emitter e;
	int rc;

	memset(&e, 0, sizeof(e));
	e.sink = sink;
	e.file = file;
	if (kind == TP_DOC_CSV)
		rc = parse_csv_doc(buf, n, &e, err);
	else if (kind >= TP_DOC_JSON && kind <= TP_DOC_TIMING_DATA)
		rc = parse_json_doc(kind, buf, n, &e, err);
	else
		rc = doc_error(&e, err, 1, 1, "not a document kind");
	strbuf_release(&e.msg);
	strbuf_release(&e.path);
	return rc;
}

static const char *const kind_names[] = {
	[TP_DOC_JSON] = "json", [TP_DOC_REPORT] = "report", [TP_DOC_EXPORT] = "export",
	[TP_DOC_TIMING_DATA] = "timing-data", [TP_DOC_CSV] = "csv",
};

const char *tp_doc_kind_name(int kind)
{
	return kind > 0 && (size_t)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : NULL;
}

int tp_doc_kind_from_name(const char *name)
{
	for (size_t i = 1; i < ARRAY_SIZE(kind_names); i++)
		if (strcmp(name, kind_names[i]) == 0)
			return (int)i;
	return TP_DOC_NONE;
}

/* Documents are small (reports, exports); a bigger file is a log. */
#define TP_DOC_MAX (64u << 20)

int tp_doc_load(const char *path, struct strbuf *buf)
{
	size_t n = strlen(path);
	int by_name = (n > 5 && !strcmp(path + n - 5, ".json")) || (n > 4 && !strcmp(path + n - 4, ".csv"));
	if (!by_name)
		return TP_DOC_NONE;
	/* only a regular file: a FIFO read here would be empty for the log
	 * reader if it holds a log after all */
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return TP_DOC_NONE;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return TP_DOC_NONE; /* the log reader reports it */
	char tmp[65536];
	size_t k;
	while ((k = fread(tmp, 1, sizeof(tmp), fp)) > 0 && buf->len < TP_DOC_MAX)
		strbuf_add(buf, tmp, k);
	fclose(fp);
	if (buf->len >= TP_DOC_MAX || !buf->len)
		return TP_DOC_NONE;
	return tp_doc_detect(buf->buf, buf->len);
}
