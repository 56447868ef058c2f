#!/bin/sh
# make-samples.sh - regenerates the sample logs in samples/ from the C
# sources beside this script. Not part of the build: run it by hand after
# changing a generator, then check samples/EXPECTED.md still holds
# (sh samples/gen/make-samples.sh --check compares without writing).
#
# Usage: sh samples/gen/make-samples.sh [--check]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
samples=$(dirname "$here")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-samples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -Wshadow -Wvla -D_GNU_SOURCE \
	-o "$tmp/make-samples" "$here"/*.c
mkdir "$tmp/out"
"$tmp/make-samples" "$tmp/out"

if [ "${1:-}" = "--check" ]; then
	status=0
	for f in "$tmp"/out/*; do
		name=$(basename "$f")
		if ! cmp -s "$f" "$samples/$name"; then
			echo "make-samples: samples/$name differs from its generator" >&2
			status=1
		fi
	done
	exit $status
fi
cp "$tmp"/out/* "$samples"/
set -- "$tmp"/out/*
echo "make-samples: wrote $# files to $samples"
