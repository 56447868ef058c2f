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
#
# The surface: an internal header (*_int.h, *Int.h) belongs to its layer.
# A file of another layer that includes one, however it is spelled
# (quotes or angle brackets, any path, from any depth of its folder),
# fails the check too: the rule above reads only `#include "..."` at the
# start of a line in the first two levels of a folder.
set -u
cd "$(dirname "$0")/.."

LAYERS="base parse analyze history render replay cli"

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

# The layer whose folder holds the header that file f names as inc (as the
# compiler finds it: beside f for quotes, then from the top, -I.); nothing
# if it is not in the tree (a system header).
header_layer() { # f inc
	for cand in "$(dirname "$1")/$2" "$2"; do
		[ -f "$cand" ] || continue
		rel=$(cd "$(dirname "$cand")" && pwd -P)
		top=$(pwd -P)
		case $rel in
		"$top"/*) rel=${rel#"$top"/}; echo "${rel%%/*}" ;;
		esac
		return
	done
}

# file:line: for every internal header of another layer included (one grep
# over every depth of the layers; only its hits are resolved)
surface() {
	grep -rnE --include='*.c' --include='*.h' --include='*.cu' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]*(_int|Int)\.h[>"]' $LAYERS |
	sort | while IFS= read -r hit; do
		f=${hit%%:*}
		rest=${hit#*:}
		inc=$(printf '%s' "${rest#*:}" | sed 's/^[^<"]*[<"]\([^>"]*\)[>"].*/\1/')
		owner=$(header_layer "$f" "$inc")
		[ -n "$owner" ] && [ "$owner" != "${f%%/*}" ] &&
			echo "$f:${rest%%:*}: includes $inc, an internal header of $owner/: use $owner/$owner.h"
	done
}

bad=0
for layer in $LAYERS; do
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
surface >>"${TMPDIR:-/tmp}/tprof-layers.$$"
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
