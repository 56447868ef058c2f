#!/bin/sh
# run.sh - the tprof benchmark, run by hand (`make bench`).
#
# Builds bench/gen if needed, generates bench/data/bench-$BENCH_SIZE.log
# once (default 1G, seed 1), warms the page cache, then times each tool
# on it: wall time is the best of 3 runs, peak RSS the largest of the 3
# (GNU time's %e and %M). Prints a markdown table with throughput and the
# ratio to `rg -c` on the same marker pattern, and the machine it ran on.
# TPROF_PLAIN=1 rows time the plain per-line path (no candidate search).
# A tool that is missing is skipped with a note.
#
# Environment:
#   BENCH_SIZE   size of the generated log (K/M/G suffix), default 1G
#   BENCH_RANKS  torchrun ranks in the generated log, default 1
#   BENCH_RUNS   runs per tool, default 3
#   CC           compiler for bench/gen, default cc
set -u

cd "$(dirname "$0")/.." || exit 1

size=${BENCH_SIZE:-1G}
ranks=${BENCH_RANKS:-1}
runs=${BENCH_RUNS:-3}
gen=bench/gen
data=bench/data
if [ "$ranks" -gt 1 ]; then
	log=$data/bench-$size-r$ranks.log
else
	log=$data/bench-$size.log
fi
ndjson=/tmp/out.ndjson

# One alternation of the marker literals and patterns of all five styles.
MARKERS='\[TIMING\]|\[STAGE\]|\[GPM TIMING\]|\[Performance\]|Profiling Metrics|profiling/|Batch [0-9]+:|Epoch end:|Batch timing:|±| complete: |[A-Za-z]=[0-9]+: |TIMING SUMMARY|PERFORMANCE SUMMARY|AGGREGATE STATISTICS|SPEEDUP ANALYSIS|Inference Benchmark|Warmup Analysis|Detailed Breakdown|GFLOPs|Peak memory:|PE precomputation'

# The six seed markers (issue 16's yardstick for the candidate search).
SEED6='\[TIMING\]|\[GPM TIMING\]|\[STAGE\]|avg=.*total=.*count=|Batch [0-9]+: |complete: '

TIME=/usr/bin/time
if ! "$TIME" -f '%e %M' true >/dev/null 2>&1; then
	echo "bench: GNU time is needed at $TIME: apt-get install time" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tprof-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

note() {
	echo "bench: $*" >&2
}

build_gen() {
	if [ -x "$gen" ] && [ -n "$(find "$gen" -newer bench/gen.c)" ]; then
		return 0
	fi
	note "building $gen"
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -o "$gen" bench/gen.c
}

make_data() {
	if [ -s "$log" ]; then
		return 0
	fi
	mkdir -p "$data" || return 1
	note "generating $log ($size, seed 1, $ranks rank(s))"
	"$gen" --size "$size" --seed 1 --ranks "$ranks" > "$log.tmp" && mv "$log.tmp" "$log"
}

# measure LABEL STDOUT CMD ARGS... -> appends a row to $tmp/rows
#   row: label|seconds|rss_kb|rc|output
measure() {
	label=$1
	out=$2
	shift 2
	best=
	peak=0
	rc=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		"$TIME" -f '%e %M' -o "$tmp/time" "$@" > "$out" 2> "$tmp/err"
		rc=$?
		# GNU time puts "Command exited with non-zero status N" first.
		line=$(tail -n 1 "$tmp/time")
		secs=${line% *}
		kb=${line#* }
		if [ -z "$best" ] || awk "BEGIN { exit !($secs < $best) }"; then
			best=$secs
		fi
		if [ "$kb" -gt "$peak" ]; then
			peak=$kb
		fi
		if [ "$rc" -gt 1 ]; then
			break
		fi
	done
	if [ "$rc" -gt 1 ]; then
		what="failed (exit $rc): $(head -n 1 "$tmp/err")"
	elif [ "$out" = "$ndjson" ]; then
		what="$(wc -l < "$out" | tr -d ' ') records"
	else
		# a count: the "total" line of tprof's --count, else the first line
		what=$(grep -m 1 '^total' "$out" || head -n 1 "$out")
		what=$(echo "$what" | sed "s| $log\$||" | tr -s ' ' | cut -c1-40)
	fi
	echo "$label|$best|$peak|$rc|$what" >> "$tmp/rows"
}

# have CMD: is it runnable?
have() {
	case $1 in
	*/*) [ -x "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

run_all() {
	: > "$tmp/rows"
	if have bin/tprof-parse; then
		measure "tprof-parse --threads 1 > ndjson" "$ndjson" bin/tprof-parse --threads 1 "$log"
		measure "tprof-parse > ndjson" "$ndjson" bin/tprof-parse "$log"
		measure "tprof-parse --count" "$tmp/out" bin/tprof-parse --count "$log"
		measure "tprof-parse --threads 1 --count" "$tmp/out" bin/tprof-parse --threads 1 --count "$log"
		# the plain per-line path, without the candidate search (before issue 16)
		measure "tprof-parse --count (TPROF_PLAIN=1)" "$tmp/out" env TPROF_PLAIN=1 bin/tprof-parse --count "$log"
		measure "tprof-parse > ndjson (TPROF_PLAIN=1)" "$ndjson" env TPROF_PLAIN=1 bin/tprof-parse "$log"
		if have bin/tprof-analyze; then
			measure "tprof-analyze (all analyses)" "$tmp/an" bin/tprof-analyze -q "$log"
			measure "tprof-analyze --threads 1" "$tmp/an" bin/tprof-analyze -q --threads 1 "$log"
		fi
	else
		note "skipping tprof-parse: bin/tprof-parse not built (make)"
	fi
	if have rg; then
		measure "rg -c MARKERS" "$tmp/out" rg -c "$MARKERS" "$log"
		measure "rg -c SEED6" "$tmp/out" rg -c "$SEED6" "$log"
	else
		note "skipping rg: not installed (apt-get install ripgrep)"
	fi
	if have grep; then
		measure "grep -cE MARKERS (LC_ALL=C)" "$tmp/out" env LC_ALL=C grep -cE "$MARKERS" "$log"
	else
		note "skipping grep: not installed"
	fi
	measure "wc -l" "$tmp/out" wc -l "$log"
}

print_table() {
	bytes=$(wc -c < "$log" | tr -d ' ')
	rg_secs=$(awk -F'|' '$1 == "rg -c MARKERS" { print $2 }' "$tmp/rows")
	wc_secs=$(awk -F'|' '$1 == "wc -l" { print $2 }' "$tmp/rows")
	echo
	echo "Input: $log, $bytes bytes ($size, $ranks rank(s)), warm page cache; best of $runs runs."
	echo
	echo "| tool | seconds | MB/s | peak RSS MiB | vs rg -c | vs wc -l | output |"
	echo "|---|---:|---:|---:|---:|---:|---|"
	awk -F'|' -v bytes="$bytes" -v rg="${rg_secs:-}" -v wc="${wc_secs:-}" '{
		s = $2 + 0
		mbs = s > 0 ? sprintf("%.0f", bytes / s / 1e6) : "inf"
		ratio = (rg != "" && rg + 0 > 0) ? sprintf("%.2fx", s / rg) : "n/a"
		wr = (wc != "" && wc + 0 > 0) ? sprintf("%.1fx", s / wc) : "n/a"
		printf "| `%s` | %.2f | %s | %.1f | %s | %s | %s |\n", $1, s, mbs, $3 / 1024, ratio, wr, $5
	}' "$tmp/rows"
	echo
	echo "MARKERS = \`$MARKERS\`"
	echo
	echo "SEED6 = \`$SEED6\`"
	echo
	echo "Machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
		"$(awk '/^MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo)," \
		"$(uname -sr)"
	if have rg; then
		echo "Tools: $(rg --version 2>/dev/null | head -n 1); $(grep --version | head -n 1)"
	else
		echo "Tools: $(grep --version | head -n 1)"
	fi
}

build_gen || exit 1
make_data || exit 1
cat "$log" > /dev/null # warm the page cache
run_all
print_table
if [ -x build/bench/scanbench ]; then
	echo
	echo "The candidate search alone (build/bench/scanbench), built-in markers and with pack-like literals:"
	echo
	build/bench/scanbench "$log"
fi
