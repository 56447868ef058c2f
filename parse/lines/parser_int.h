/*
 * parser_int.h - what parser.c (the line driver) and the format readers
 * (lines.c: one-line formats; blocks.c: multi-line tables and blocks)
 * share. Not a public header.
 */
#ifndef TPROF_PARSER_INT_H
#define TPROF_PARSER_INT_H

#include "parse/discover/discover.h"
#include "parser.h"

#define TP_NAME_MAX 256

enum block_kind {
	BLK_NONE,
	BLK_SUMMARY,     /* [TIMING SUMMARY] (S0) and TIMING SUMMARY - Section (S1) */
	BLK_BREAKDOWN,   /* X - Detailed Breakdown: (S1) */
	BLK_PERFSUM,     /* PERFORMANCE SUMMARY (S4) */
	BLK_AGGSTATS,    /* AGGREGATE STATISTICS (S4) */
	BLK_SPEEDUP,     /* SPEEDUP ANALYSIS (S1) */
	BLK_INFERENCE,   /* X Inference Benchmark: (S1) */
	BLK_WARMUP,      /* X - Warmup Analysis: (S1) */
	BLK_METRICS,     /* --- Profiling Metrics (Step N) --- (S3) */
	BLK_HFHEADER     /* ***** Running training ***** (HF Trainer) */
};

/* A short owned string (names from block headers outlive their line). */
struct name_buf {
	char s[TP_NAME_MAX];
	size_t n;
};

struct block {
	enum block_kind kind;
	int rows;       /* rows read so far */
	int misses;     /* consecutive lines that were neither row nor rule */
	uint64_t line;  /* header line */
	struct name_buf section;
	struct name_buf baseline;
	double baseline_s;
	int has_baseline_s;
	double step;
	int has_step;
	struct tp_record acc; /* inference / warmup fields being collected */
	struct name_buf ts;
};

/* Per-rank state: a rank's lines may interleave with other ranks'. */
struct rank_state {
	struct block blk;
	int has_pending;        /* a [Performance] line waiting for its GPU peak line */
	struct tp_record pending;
	struct name_buf pending_name;
	struct name_buf pending_ts;
};

struct tp_parser {
	const char *file;
	struct tp_sink sink;
	const struct tp_rules *rules;
	struct tp_rules_scratch *scratch;
	uint64_t lineno;
	struct tp_stats st;
	struct rank_state **ranks; /* index rank+1; 0 is "no rank" */
	size_t nranks;
	int cur_rank;
	const char *cur_ts;  /* timestamp of the current segment or NULL */
	char tsbuf[TP_TS_MAX];
	/* the first and last time stamps the parser read, with their lines:
	 * the log's own span, given as two meta records when it finishes */
	char span_ts[2][TP_TS_MAX];
	uint64_t span_line[2];
	uint64_t rec_ts_line[2]; /* the first and last lines of records with a time stamp */
	int emitted;         /* records emitted for the current line */
	struct strbuf clean; /* segment with ANSI escapes removed */
	/* a finished bar the terminal wrapped: its first part, for the next line */
	char wrap[1024]; /* 300 columns of 3-byte glyphs */
	size_t wrap_len;
	uint64_t wrap_line;
	struct strbuf joined; /* the wrapped bar made whole */
	struct tp_sink rules_sink; /* counts records from user rules */
	size_t line_bytes;   /* bytes of the current physical line so far */
	int long_line;
	int seg_open;        /* the last part fed ended inside a segment */
	/* the candidate search (scan.h); NULL: every line is read */
	const struct tp_scanner *scan;
	struct tp_scan_scratch *scan_ss;
	const char **cand;   /* starts of candidate lines, scan_cap of them */
	int no_rule_marker;  /* the line being read holds no rules marker (scan.h) */
	const char *buf;     /* the buffer tp_parse_buffer reads, while it does */
	const char *buf_end;
	int progress;        /* progress records for every redraw of a bar */
	int seg_bar;         /* the segment being read is a progress bar */
	/* discovery: the hook, and what rules read on the segment */
	void (*disc)(void *ctx, const struct tp_disc_line *ln);
	uint64_t disc_line;  /* the last line handed to the miner */
	void *disc_ctx;
	double seen[TP_DISC_SEEN];
	size_t nseen;
	int rule_records;    /* records rules made of the segment */
	char bar_unit[64];   /* a progress record's rate unit, rewritten to "X/s" */
};

/* A view of the current segment after prefixes were stripped. */
struct seg {
	const char *s, *e;   /* whole segment */
	const char *t;       /* first byte after launcher/timestamp/level prefixes and blanks */
};

/* sink.c: records and warnings out of the format readers */
void tp_emit(struct tp_parser *p, struct rank_state *rs, struct tp_record *r);
/* Emits r at once, leaving a held record held. */
void tp_emit_now(struct tp_parser *p, const struct tp_record *r);
/* Emits the record held by tp_emit, if any. */
void tp_flush_pending(struct tp_parser *p, struct rank_state *rs);
void tp_warn(struct tp_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tp_rec_init(struct tp_parser *p, struct tp_record *r, enum tp_type t);
/* Stores v in slot after checking it is finite (warns and drops otherwise);
 * nonneg: also warn if negative (value kept). Returns 1 if stored. */
int tp_check_set(struct tp_parser *p, struct tp_record *r, int slot, double v, int nonneg,
		 const char *what);
void name_set(struct name_buf *b, const char *s, size_t n);

/* prefix.c: strips a logging library's prefix at t (Python logging's
 * common formats, loguru, rich, absl, transformers); may move *e back (rich
 * prints the caller at the right edge) and set p->cur_ts. */
const char *tp_strip_logger(struct tp_parser *p, const char *t, const char **e);

/* progress.c: progress bars. The tqdm bars at the start of [s,e) (with
 * all, every redraw glued to the first; else the first alone): a progress
 * record for each when p->progress; returns the end of the last bar, or s
 * if none starts there; *last: where the last bar starts. */
const char *tp_progress_tqdm(struct tp_parser *p, const char *s, const char *e, int all, const char **last);
/* An mmcv, rich or Keras bar filling [s,e): its progress record when
 * p->progress; returns 1 if the segment is such a bar. */
int tp_progress_other(struct tp_parser *p, const char *s, const char *e);

/* lines.c: one-line formats; returns 1 if the segment was consumed. */
int tp_lines_dispatch(struct tp_parser *p, struct rank_state *rs, const struct seg *sg);
/* Rows that are also blocks' rows: metric lines (step from blk if any) and
 * "Key = value" meta lines (any_key: inside the HF header block). */
int tp_read_metric_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg,
		       const struct block *blk);
int tp_read_meta_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg, int any_key);

/* blocks.c */
int tp_block_start(struct tp_parser *p, struct rank_state *rs, const struct seg *sg);
int tp_block_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg);
void tp_block_end(struct tp_parser *p, struct rank_state *rs);

/* Keeps the lines of the first and last records with a time stamp (the
 * log's span is given only where it reaches beyond them). */
static inline void tp_note_emitted(struct tp_parser *p, const struct tp_record *r)
{
	if (!r->ts)
		return;
	if (!p->rec_ts_line[0] || r->line < p->rec_ts_line[0])
		p->rec_ts_line[0] = r->line;
	if (r->line > p->rec_ts_line[1])
		p->rec_ts_line[1] = r->line;
}

#endif
