#!/bin/sh
# run.sh - runs libFuzzer targets one after the other (make fuzz calls it).
#
#   sh fuzz/run.sh BUILD_DIR SECONDS TARGET...
#
# Each target BUILD_DIR/fuzz_TARGET runs SECONDS seconds with a -max_len
# suited to its input, its dictionary fuzz/dict/TARGET.dict, the committed
# seeds fuzz/corpus/TARGET/ and a working corpus BUILD_DIR/corpus/TARGET/
# (new inputs go there, not into the repository). Prints one line per
# target (executions, coverage, corpus, time); on a crash, leak, timeout or
# OOM prints the end of libFuzzer's report, keeps the input in
# fuzz/crashes/ and exits 1 after the remaining targets.
set -u
dir=$1
secs=$2
shift 2
mkdir -p fuzz/crashes
failed=""
for t in "$@"; do
	case $t in
	lines) len=8192 ;;
	rules) len=4096 ;;
	ndjson) len=4096 ;;
	docs) len=16384 ;;
	num) len=256 ;;
	scan) len=8192 ;;
	discover) len=8192 ;;
	*) len=4096 ;;
	esac
	bin=$dir/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "fuzz: $bin is not built (make fuzz-build)" >&2
		exit 2
	fi
	mkdir -p "$dir/corpus/$t"
	log=$dir/fuzz_$t.log
	dict=
	[ -f "fuzz/dict/$t.dict" ] && dict=-dict=fuzz/dict/$t.dict
	start=$(date +%s)
	"$bin" -max_total_time="$secs" -max_len="$len" -timeout=25 -rss_limit_mb=2048 \
		-print_final_stats=1 $dict -artifact_prefix="fuzz/crashes/$t-" \
		"$dir/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
	if [ "$rc" != 0 ]; then
		echo "fuzz_$t: FAILED (exit $rc) after $((end - start)) s; libFuzzer's report:"
		# the error, its first stack (12 frames) and the summary
		awk '/ERROR:|runtime error:|invariant broken|^SUMMARY|^(READ|WRITE) of|is located/ { print; f = 0; next }
		     /^ +#[0-9]+ / { if (f++ < 12) print }' "$log" | head -60
		ls fuzz/crashes/"$t"-* 2>/dev/null | sed 's/^/  input: /'
		failed="$failed $t"
		continue
	fi
	printf 'fuzz_%-7s %10s execs  cov %-5s ft %-6s corpus %-12s %s s\n' "$t" \
		"${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$((end - start))"
done
if [ -n "$failed" ]; then
	echo "fuzz: crashes in:$failed (inputs in fuzz/crashes/; see fuzz/README.md)"
	exit 1
fi
exit 0
