#!/bin/sh
# history.sh - the run history benchmark, run by hand: N synthetic runs
# (50 batches each, 5 % noise between runs, a 10 % step at 60 % of them)
# stored by `tprof history add`, then `regressions` and `trend` over them,
# on SQLite and, when TPROF_BENCH_PG names a database (a postgresql://
# URI), on PostgreSQL. Prints a markdown table of wall times and peak
# memory (GNU time) and the machine it ran on.
#
# Environment:
#   RUNS            runs to store (default 1000)
#   SEPARATE        also time RUNS separate `add` commands (default 1)
#   TPROF_BENCH_PG  a PostgreSQL database to use as well (emptied first!)
set -u

cd "$(dirname "$0")/.." || exit 1
tool=bin/tprof-history
runs=${RUNS:-1000}
[ -x "$tool" ] || { echo "bench: $tool is missing: run make first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time)" >&2; exit 1; }

dir=$(mktemp -d /tmp/tprof-bench-history.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# the logs: a fixed LCG in awk, so that every machine gets the same runs
awk -v n="$runs" -v dir="$dir" 'BEGIN {
	s = 12345
	for (i = 0; i < n; i++) {
		s = (s * 1103515245 + 12345) % 2147483648; u1 = (s + 1) / 2147483649
		s = (s * 1103515245 + 12345) % 2147483648; u2 = s / 2147483648
		z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
		lvl = (i >= int(n * 0.6) ? 0.55 : 0.5) * (1 + 0.05 * z)
		f = sprintf("%s/r%05d.log", dir, i)
		printf "[TIMING] Data loading: %.3fs\n", 1 + i % 7 / 10 > f
		for (b = 0; b < 50; b++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "  Batch %d: %.4fs, GPU 23.1MB, CPU 1648.9MB, loss=0.01\n", b, lvl * (0.98 + 0.04 * s / 2147483648) > f
		}
		close(f)
	}
}'

measure() { # label command...: one table row
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; }
	read -r secs kb <"$dir/time"
	printf '| %s | %s s | %s MB |\n' "$label" "$secs" "$((kb / 1024))"
}

bench_db() { # name spec
	echo
	echo "### $1, $runs runs"
	echo
	echo "| step | wall | peak memory |"
	echo "|---|---|---|"
	measure "add (one command)" $tool --db "$2" add -q "$dir"/r*.log
	measure "regressions" $tool --db "$2" regressions
	measure "trend 'batch time'" $tool --db "$2" trend 'batch time'
	if [ "${SEPARATE:-1}" = 1 ]; then
		measure "add again, one command per log (all already stored)" \
			sh -c 'for f in "$2"/r*.log; do "$0" --db "$1" add -q "$f" || exit 1; done' $tool "$2" "$dir"
	fi
}

echo "## tprof history: $runs runs ($(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d))"
bench_db SQLite "$dir/history.db"
if [ -n "${TPROF_BENCH_PG:-}" ]; then
	# only tprof's tables go, through the schema they live in
	psql -q "$TPROF_BENCH_PG" -c 'DROP TABLE IF EXISTS samples, findings, stages, series, run_meta, runs, tprof_schema' \
		>/dev/null 2>&1 || echo "bench: psql could not empty $TPROF_BENCH_PG" >&2
	bench_db PostgreSQL "$TPROF_BENCH_PG"
fi
$tool --db "$dir/history.db" regressions | grep -m1 'batch time' >&2
