#!/bin/sh
# check-asan.sh - builds the tools and every Criterion suite with
# AddressSanitizer + UBSan into build-asan/ and bin-asan/ (a tree of its
# own: the normal build is untouched), then runs each suite with the
# end-to-end tests pointed at bin-asan/ (TPROF_BIN).
#
# A sanitizer report in a test's child process does not by itself fail a
# Criterion run (a leak there is only a "crashed during teardown" warning),
# and a tool's report goes to whatever stderr the test captured. So every
# report is written to files instead (ASAN_OPTIONS/UBSAN_OPTIONS log_path,
# one file per reporting process), and the check fails if any file exists
# after a suite, printing them; it also fails on the usual failing or
# crashing tests, a non-zero exit or a missing synthesis.
#
# ASAN_CHECK_FILTER_<suite>=PATTERN (a Criterion --filter) runs a subset of
# a suite: by default test_hostile runs without its hostile_big suite (100 MB
# files and a million lines: ASan multiplies their memory and time, and the
# plain run checks their bounds).
#
# A leak report none of whose allocation stacks has a frame in our sources
# (Criterion's runner now and then leaks its own bookkeeping) is shown as a
# note and does not fail the check; every other report does. (An LSan
# suppression cannot do this: it matches any frame, and every test is
# called from libcriterion.)
set -u
cd "$(dirname "$0")/.."
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
OBJ=build-asan
BIN=bin-asan
MAKE=${MAKE:-make}

start=$(date +%s)
log=$(mktemp /tmp/tprof-asan-log.XXXXXX)
reports=$(mktemp -d /tmp/tprof-asan-reports.XXXXXX)
trap 'rm -rf "$log" "$reports"' EXIT

echo "check-asan: building into $OBJ/ and $BIN/"
if ! $MAKE --no-print-directory OBJ=$OBJ BIN=$BIN CFLAGS="-O1 -g $SAN" LDFLAGS="$SAN" \
	all tests >"$log" 2>&1; then
	cat "$log"
	echo "check-asan: build failed"
	exit 1
fi
# the trees are build output, never to be committed
for d in $OBJ $BIN; do
	[ -f $d/.gitignore ] || echo '*' >$d/.gitignore
done

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:exitcode=23:log_path=$reports/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
export TPROF_BIN=$BIN
: "${ASAN_CHECK_FILTER_test_hostile:=hostile/*}"

# 1 if a report file must fail the check: a memory error, UB, or a leak
# allocated from a frame in our sources (relative paths: parse/x.c:12).
ours() {
	awk '
	/ERROR: AddressSanitizer|ERROR: UndefinedBehaviorSanitizer|runtime error:/ { r = 1 }
	/^(Direct|Indirect) leak of/ { inleak = 1; next }
	inleak && /^ *#[0-9]+ / {
		if ($0 ~ / in [^ ]+ (\.\/)?(base|parse|analyze|history|render|replay|cli|tests|fuzz|bench)\/[^ ]*:[0-9]+/ ||
		    $0 ~ / in [^ ]+ (\.\/)?tprof\.c:[0-9]+/)
			r = 1
		next
	}
	{ inleak = 0 }
	END { print r + 0 }' "$1"
}

passed=0
failed=0
bad=0
for t in $OBJ/tests/test_*; do
	name=$(basename "$t")
	filter=
	eval "filter=\${ASAN_CHECK_FILTER_$name:-}"
	if [ -n "$filter" ]; then
		"$t" --jobs 2 --filter "$filter" >"$log" 2>&1
	else
		"$t" --jobs 2 >"$log" 2>&1
	fi
	rc=$?
	syn=$(grep 'Synthesis:' "$log" | tail -1)
	p=$(echo "$syn" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
	f=$(echo "$syn" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
	c=$(echo "$syn" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0} + ${c:-0}))
	nrep=0
	ignored=0
	for r in "$reports"/*; do
		[ -f "$r" ] || continue
		if [ "$(ours "$r")" = 1 ]; then
			nrep=$((nrep + 1))
		else
			echo "check-asan: $name: note: a leak inside Criterion ignored ($(grep -m1 SUMMARY "$r"))"
			rm -f "$r"
			ignored=$((ignored + 1))
		fi
	done
	# such a leak makes its process exit non-zero (a Criterion "warning")
	[ "$rc" != 0 ] && [ "$ignored" != 0 ] && [ "${f:-0}" = 0 ] && [ "${c:-0}" = 0 ] && rc=0
	if [ -z "$syn" ] || [ "$rc" != 0 ] || [ "${f:-0}" != 0 ] || [ "${c:-0}" != 0 ] || [ "$nrep" != 0 ]; then
		grep -v '^\[----\] *$' "$log" | grep -E 'FAIL|CRASH|\[----\]|Warning|error' | head -40
		for r in "$reports"/*; do
			[ -f "$r" ] || continue
			echo "--- sanitizer report $(basename "$r"):"
			grep -v '^  0x\|^Shadow\|^  [A-Z][a-z ]*: *[0-9a-f ]*$' "$r" | head -60
		done
		rm -f "$reports"/*
		bad=$((bad + 1))
		[ -n "$syn" ] || syn="no synthesis (exit $rc)"
	fi
	printf '%-24s %s%s\n' "$name" "$(echo "$syn" | sed 's/.*Synthesis: //')" \
		"$([ "$nrep" != 0 ] && echo " | sanitizer reports: $nrep")"
done
echo "check-asan: $bad suites with problems, $(($(date +%s) - start)) s"
echo "check-asan: $passed passed, $failed failed"
[ "$bad" = 0 ] && [ "$failed" = 0 ]
