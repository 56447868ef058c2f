#!/bin/sh
# check-layers.sh - the layering that README's "How the code is laid out"
# describes, checked on every `make check`:
#
#   base <- parse <- analyze <- render <- cli      replay beside analyze,
#                              history <- cli      history beside render
#
# A file includes headers of its own folder by their bare name, and of a
# lower layer only through that layer's public header (base/base.h,
# parse/parse.h, analyze/analyze.h, render/render.h, replay/replay.h,
# history/history.h).
# Any other include of a project header fails the check with file:line.
set -u
cd "$(dirname "$0")/.."

allowed() { # layer -> the layers it may include
	case $1 in
	base) echo "" ;;
	parse) echo "base" ;;
	analyze | replay) echo "base parse" ;;
	history) echo "base parse analyze" ;;
	render) echo "base parse analyze" ;;
	cli) echo "base parse analyze render replay history" ;;
	esac
}

bad=0
for layer in base parse analyze history render replay cli; do
	ok=$(allowed $layer)
	for f in $layer/*.c $layer/*.h $layer/*.cu $layer/*/*.c $layer/*/*.h; do
		[ -f "$f" ] || continue
		grep -n '^#include "' "$f" | while IFS= read -r hit; do
			line=${hit%%:*}
			inc=$(printf '%s' "$hit" | sed 's/^[0-9]*:#include "\([^"]*\)".*/\1/')
			case $inc in
			"$layer"/*) [ -f "$inc" ] ||
				echo "$f:$line: includes $inc, which does not exist" ;;
			*/*)
				dir=${inc%%/*}
				want="$dir/$dir.h"
				case " $ok " in
				*" $dir "*) [ "$inc" = "$want" ] ||
					echo "$f:$line: includes $inc: other layers use $want only" ;;
				*) echo "$f:$line: includes $inc: $layer/ may use only: ${ok:-nothing above the C library}" ;;
				esac ;;
			*) [ -f "$(dirname "$f")/$inc" ] ||
				echo "$f:$line: includes \"$inc\", which is not beside it" ;;
			esac
		done
	done
done >"${TMPDIR:-/tmp}/tprof-layers.$$"
if [ -s "${TMPDIR:-/tmp}/tprof-layers.$$" ]; then
	cat "${TMPDIR:-/tmp}/tprof-layers.$$"
	bad=1
fi
rm -f "${TMPDIR:-/tmp}/tprof-layers.$$"
if [ $bad = 0 ]; then
	echo "check-layers: every include follows the layers"
else
	echo "check-layers: failed"
	exit 1
fi
