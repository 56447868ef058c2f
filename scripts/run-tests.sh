#!/bin/sh
# run-tests.sh - runs every Criterion suite given as an argument from the
# repository root, prints each suite's synthesis and one closing line, and
# fails if any suite failed, crashed or printed no synthesis.
set -u
passed=0; failed=0; bad=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
	name=$(basename "$t")
	"$t" --jobs 2 >"$log" 2>&1
	rc=$?
	syn=$(grep 'Synthesis:' "$log" | tail -1)
	if [ -z "$syn" ]; then
		cat "$log"
		echo "$name: no synthesis (exit $rc)"
		bad=$((bad + 1)); continue
	fi
	p=$(echo "$syn" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
	f=$(echo "$syn" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
	c=$(echo "$syn" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
	passed=$((passed + p)); failed=$((failed + f + c))
	if [ "$rc" != 0 ] || [ "$f" != 0 ] || [ "$c" != 0 ]; then
		grep -v '^\[----\] *$' "$log" | grep -E 'FAIL|CRASH|\[----\]|Warning|error' | head -40
		bad=$((bad + 1))
	fi
	printf '%-24s %s\n' "$name" "$(echo "$syn" | sed 's/.*Synthesis: //')"
done
echo "tests: $passed passed, $failed failed"
[ "$bad" = 0 ] && [ "$failed" = 0 ]
