#!/bin/sh
# extract.sh FILE NAME... - prints the file's #define lines and the
# definitions of the named functions of a .cu file (with the template line
# above each), the text the kernels are compiled from, for
# tests/emu/emu_attn.cc. Dynamic shared memory becomes the emulator's block
# buffer; a name that is not found is an error.
set -eu
file=$1
shift
awk -v names="$*" '
BEGIN { n = split(names, want, " "); for (i = 1; i <= n; i++) todo[want[i]] = 1 }
!on && /^#define / { print }
!on {
	for (f in todo)
		if ($0 ~ ("[ *]" f "\\(") && $0 !~ /;$/ && ($0 ~ /^__global__/ || $0 ~ /^static/)) {
			on = 1
			delete todo[f]
			if (prev ~ /^template </)
				print prev
			break
		}
}
on {
	sub(/extern __shared__ float sm\[\];/, "float *sm = emu_shared;")
	print
	if ($0 == "}") {
		on = 0
		print ""
	}
}
{ prev = $0 }
END {
	for (f in todo) {
		print "extract.sh: " f " not found" > "/dev/stderr"
		bad = 1
	}
	exit bad
}' "$file"
