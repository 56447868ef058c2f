/*
 * emit.c - NDJSON, CSV and table writers for records (see emit.h).
 */
#include "emit.h"

#include <csv.h>
#include <math.h>
#include <string.h>

void tp_out_format_names(struct strbuf *sb)
{
	strbuf_addstr(sb, "ndjson, csv, table");
}

int tp_out_format_from_name(const char *s)
{
	if (!strcmp(s, "ndjson") || !strcmp(s, "json") || !strcmp(s, "jsonl"))
		return TP_OUT_NDJSON;
	if (!strcmp(s, "csv"))
		return TP_OUT_CSV;
	if (!strcmp(s, "table"))
		return TP_OUT_TABLE;
	return -1;
}

/*
 * The NDJSON writer runs once per record of a multi-GB log, so it reserves
 * room once and writes keys and numbers straight into the buffer.
 */
#define PUT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) += sizeof(lit) - 1)

static char *put_key(char *o, const char *k)
{
	size_t n = strlen(k);
	*o++ = ',';
	*o++ = '"';
	memcpy(o, k, n);
	o += n;
	*o++ = '"';
	*o++ = ':';
	return o;
}

static void json_str(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_addch(sb, '"');
	strbuf_add_json_str(sb, s, n);
	strbuf_addch(sb, '"');
}

/* Writes ,"key": then a number (room for both must be reserved). */
static void key_num(struct strbuf *sb, const char *k, double v)
{
	char *o = put_key(sb->buf + sb->len, k);
	o += tp_fmt_num(o, v);
	sb->len = (size_t)(o - sb->buf);
}

static void key_str(struct strbuf *sb, const char *k, const char *s, size_t n)
{
	strbuf_grow(sb, 40);
	sb->len = (size_t)(put_key(sb->buf + sb->len, k) - sb->buf);
	json_str(sb, s, n);
}

void tp_record_to_json(const struct tp_record *r, struct strbuf *sb)
{
	const struct tp_schema *sc = &tp_schemas[r->type];
	strbuf_grow(sb, 64);
	char *o = sb->buf + sb->len;
	PUT(o, "{\"type\":\"");
	size_t tn = strlen(sc->type_name);
	memcpy(o, sc->type_name, tn);
	o += tn;
	*o++ = '"';
	sb->len = (size_t)(o - sb->buf);
	key_str(sb, "file", r->file, strlen(r->file));
	strbuf_grow(sb, 48);
	key_num(sb, "line", (double)r->line);
	if (r->ts)
		key_str(sb, "ts", r->ts, strlen(r->ts));
	if (r->rank >= 0) {
		strbuf_grow(sb, 48);
		key_num(sb, "rank", r->rank);
	}
	if (r->role != TP_ROLE_NONE) {
		const char *rn = tp_role_name(r->role);
		key_str(sb, "role", rn, strlen(rn));
	}
	if (r->parent)
		key_str(sb, "parent", r->parent, r->parent_len);
	for (int i = 0; i < sc->nfields; i++) {
		const struct tp_field *f = &sc->fields[i];
		switch (f->kind) {
		case TP_F_NAME:
			if (r->name)
				key_str(sb, f->name, r->name, r->name_len);
			break;
		case TP_F_TEXT:
			if (r->text)
				key_str(sb, f->name, r->text, r->text_len);
			break;
		case TP_F_VALUE:
			if (tp_has(r, f->slot)) {
				strbuf_grow(sb, 64);
				key_num(sb, f->name, r->num[f->slot]);
			} else if (r->text) {
				key_str(sb, f->name, r->text, r->text_len);
			}
			break;
		case TP_F_NUM:
		case TP_F_INT:
			if (tp_has(r, f->slot)) {
				strbuf_grow(sb, 64);
				key_num(sb, f->name, r->num[f->slot]);
			}
			break;
		}
	}
	strbuf_addch(sb, '}');
}

/* Every schema field, in the order the types added them; test_docs checks that
 * every field of tp_schemas has its column. */
static const char *const csv_columns[] = {
	"type", "file", "line", "ts", "rank", "section", "name", "key", "param", "value",
	"seconds", "percent", "cpu_mb", "gpu_mb", "gpu_peak_mb", "graphs", "pattern_gen_ms",
	"total_ms", "avg_nodes", "peak_mb", "factor", "baseline", "baseline_s", "mean_ms",
	"min_ms", "max_ms", "throughput", "first_s", "steady_s", "overhead_s", "overhead_pct",
	"std_ms", "runs", "mb", "gflops", "step", "avg_s", "total_s", "count", "index", "loss",
	"reserved_mb", "mean_s", "min_s", "max_s", "cpu_delta_mb", "gpu_delta_mb", "n", "total",
	"elapsed_s", "remaining_s", "rate", "unit", "median_ms", "iqr_ms", "q1_ms", "q3_ms", "case",
	"threads", "self_s", "self_pct", "total_pct", "device_self_s", "device_self_pct", "device_total_s",
	"device_total_pct", "device_mean_s", "role", "parent",
};
/* The two last columns, every type's: what a value is and what it belongs to. */
#define CSV_ROLE (ARRAY_SIZE(csv_columns) - 2)

size_t tp_csv_columns(const char *const **names)
{
	*names = csv_columns;
	return ARRAY_SIZE(csv_columns);
}

void tp_csv_cell(struct strbuf *sb, const char *s, size_t n)
{
	int formula = n > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' ||
				s[0] == '\t' || s[0] == '\r');
	int quote = formula;
	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	/* libcsv quotes and doubles embedded quotes; the leading ' keeps a
	 * spreadsheet from evaluating the cell; bytes that are not UTF-8 (or
	 * NUL) become U+FFFD so that every reader accepts the file. */
	struct strbuf tmp = STRBUF_INIT;
	if (formula)
		strbuf_addch(&tmp, '\'');
	strbuf_add_utf8(&tmp, s, n);
	if (!quote) {
		strbuf_add(sb, tmp.buf, tmp.len);
		strbuf_release(&tmp);
		return;
	}
	size_t cap = 2 * tmp.len + 3;
	strbuf_grow(sb, cap);
	size_t w = csv_write(sb->buf + sb->len, cap, tmp.buf, tmp.len);
	sb->len += w < cap ? w : cap;
	sb->buf[sb->len] = '\0';
	strbuf_release(&tmp);
}

static void csv_num(struct strbuf *sb, double v)
{
	strbuf_add_num(sb, v);
}

static void csv_record(const struct tp_record *r, struct strbuf *sb)
{
	const struct tp_schema *sc = &tp_schemas[r->type];
	for (size_t c = 0; c < ARRAY_SIZE(csv_columns); c++) {
		const char *col = csv_columns[c];
		if (c)
			strbuf_addch(sb, ',');
		switch (c) {
		case 0:
			strbuf_addstr(sb, sc->type_name);
			continue;
		case 1:
			tp_csv_cell(sb, r->file, strlen(r->file));
			continue;
		case 2:
			csv_num(sb, (double)r->line);
			continue;
		case 3:
			if (r->ts)
				tp_csv_cell(sb, r->ts, strlen(r->ts));
			continue;
		case 4:
			if (r->rank >= 0)
				csv_num(sb, r->rank);
			continue;
		default:
			break;
		}
		if (c >= CSV_ROLE) {
			if (c == CSV_ROLE && r->role != TP_ROLE_NONE)
				strbuf_addstr(sb, tp_role_name(r->role));
			else if (c > CSV_ROLE && r->parent)
				tp_csv_cell(sb, r->parent, r->parent_len);
			continue;
		}
		int fi = tp_field_index(r->type, col, strlen(col));
		if (fi < 0)
			continue;
		const struct tp_field *f = &sc->fields[fi];
		if (f->kind == TP_F_NAME && r->name)
			tp_csv_cell(sb, r->name, r->name_len);
		else if (f->kind == TP_F_TEXT && r->text)
			tp_csv_cell(sb, r->text, r->text_len);
		else if ((f->kind == TP_F_NUM || f->kind == TP_F_INT || f->kind == TP_F_VALUE) &&
			 tp_has(r, f->slot))
			csv_num(sb, r->num[f->slot]);
		else if (f->kind == TP_F_VALUE && r->text)
			tp_csv_cell(sb, r->text, r->text_len);
	}
	strbuf_add(sb, "\r\n", 2);
}

/* Pads with blanks to width w (in bytes; UTF-8 names may look shorter). */
static void pad_to(struct strbuf *sb, size_t start, size_t w)
{
	size_t used = sb->len - start;
	if (used < w) {
		strbuf_grow(sb, w - used);
		memset(sb->buf + sb->len, ' ', w - used);
		sb->len += w - used;
		sb->buf[sb->len] = '\0';
	}
	strbuf_addch(sb, ' ');
}

/* Control bytes would let a log line move the cursor of the user's terminal. */
static void add_printable(struct strbuf *sb, const char *s, size_t n, size_t max)
{
	struct strbuf tmp = STRBUF_INIT;
	if (n > max)
		n = max;
	strbuf_add_utf8(&tmp, s, n);
	for (size_t i = 0; i < tmp.len; i++)
		strbuf_addch(sb, ((unsigned char)tmp.buf[i] < 0x20 || tmp.buf[i] == 0x7f) ? '?' : tmp.buf[i]);
	strbuf_release(&tmp);
}

static void table_record(const struct tp_record *r, struct strbuf *sb)
{
	const struct tp_schema *sc = &tp_schemas[r->type];
	size_t start = sb->len;
	add_printable(sb, r->file, strlen(r->file), 40);
	strbuf_addf(sb, ":%llu", (unsigned long long)r->line);
	pad_to(sb, start, 30);
	start = sb->len;
	strbuf_addstr(sb, sc->type_name);
	pad_to(sb, start, 9);
	start = sb->len;
	if (r->rank >= 0)
		strbuf_addf(sb, "r%d", r->rank);
	pad_to(sb, start, 4);
	start = sb->len;
	if (r->name)
		add_printable(sb, r->name, r->name_len, 40);
	pad_to(sb, start, 40);
	for (int i = 0; i < sc->nfields; i++) {
		const struct tp_field *f = &sc->fields[i];
		if (f->kind == TP_F_NAME)
			continue;
		if (f->kind == TP_F_TEXT || (f->kind == TP_F_VALUE && !tp_has(r, f->slot))) {
			if (!r->text)
				continue;
			strbuf_addf(sb, " %s=", f->name);
			add_printable(sb, r->text, r->text_len, 60);
			continue;
		}
		if (!tp_has(r, f->slot))
			continue;
		strbuf_addf(sb, " %s=", f->name);
		/* for people: ten significant digits, so that "31.68 us" read as
		 * milliseconds shows 0.03168, not the double's 0.03167999999999999
		 * that NDJSON and CSV keep for a reader that round-trips it */
		double v = r->num[f->slot];
		if (isfinite(v))
			strbuf_addf(sb, "%.10g", v);
		else
			strbuf_add_num(sb, v);
	}
	strbuf_addch(sb, '\n');
}

void tp_emit_header(enum tp_out_format f, struct strbuf *sb)
{
	if (f == TP_OUT_CSV) {
		for (size_t c = 0; c < ARRAY_SIZE(csv_columns); c++) {
			if (c)
				strbuf_addch(sb, ',');
			strbuf_addstr(sb, csv_columns[c]);
		}
		strbuf_add(sb, "\r\n", 2);
	} else if (f == TP_OUT_TABLE) {
		size_t start = sb->len;
		strbuf_addstr(sb, "LOCATION");
		pad_to(sb, start, 30);
		start = sb->len;
		strbuf_addstr(sb, "TYPE");
		pad_to(sb, start, 9);
		start = sb->len;
		strbuf_addstr(sb, "RANK");
		pad_to(sb, start, 4);
		start = sb->len;
		strbuf_addstr(sb, "NAME");
		pad_to(sb, start, 40);
		strbuf_addstr(sb, " FIELDS (s, ms, MB as named)\n");
	}
}

void tp_emit_record(enum tp_out_format f, const struct tp_record *r, struct strbuf *sb)
{
	switch (f) {
	case TP_OUT_NDJSON:
		tp_record_to_json(r, sb);
		strbuf_addch(sb, '\n');
		break;
	case TP_OUT_CSV:
		csv_record(r, sb);
		break;
	case TP_OUT_TABLE:
		table_record(r, sb);
		break;
	}
}
