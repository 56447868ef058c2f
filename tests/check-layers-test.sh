#!/bin/sh
# check-layers-test.sh - shows that scripts/check-layers.sh fails where a
# layer reaches into another layer's internal header, however the include
# is spelled: on a copy of the layers, clean first (it must pass), then with
# one violating include at a time (it must fail and name the file).
# Run by `make check` (CHECK_SCRIPTS) after check-layers.sh itself.
set -u
cd "$(dirname "$0")/.."

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
LAYERS="base parse analyze history render replay cli"
fail=0

copy_tree() {
	rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/scripts" &&
		cp -R $LAYERS "$tmp/tree/" && cp scripts/check-layers.sh "$tmp/tree/scripts/"
}

# expect_fail NAME FILE LINE: the copy with LINE appended to FILE fails,
# naming FILE
expect_fail() {
	copy_tree || exit 1
	mkdir -p "$(dirname "$tmp/tree/$2")"
	printf '%s\n' "$3" >>"$tmp/tree/$2"
	if sh "$tmp/tree/scripts/check-layers.sh" >"$tmp/out" 2>&1; then
		echo "check-layers-test: $1: passed, should fail"
		fail=1
	elif ! grep -q "^$2:[0-9]*: includes .*internal header" "$tmp/out"; then
		echo "check-layers-test: $1: failed without naming $2:"
		cat "$tmp/out"
		fail=1
	fi
}

copy_tree || exit 1
if ! sh "$tmp/tree/scripts/check-layers.sh" >"$tmp/out" 2>&1; then
	echo "check-layers-test: the clean copy fails:"
	cat "$tmp/out"
	fail=1
fi
# the old rule reads these too; the surface check must name them as well
expect_fail "quoted path" analyze/series.c '#include "parse/scan/scan_int.h"'
# what only the surface check sees
expect_fail "angle brackets" render/render.h '#include <parse/rules/rules_int.h>'
expect_fail "spaced directive" history/db.c '#  include "parse/lines/parser_int.h"'
expect_fail "three levels deep" cli/common/deep/x.c '#include <parse/scan/scan_int.h>'
expect_fail "relative path" replay/graph.c '#include "../parse/rules/rules_int.h"'
expect_fail "analyze internal" render/csv.c '#include "analyze/analyses_int.h"'

if [ $fail = 0 ]; then
	echo "check-layers-test: a layer that includes another's internal header fails the check"
else
	exit 1
fi
