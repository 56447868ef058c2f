#!/bin/sh
# soak.sh - analyzes a generated log of SOAK_SIZE (default 10G) streamed
# from bench/gen through a pipe (never stored), sampling the analyzer's
# resident memory every second, to show that memory stays flat whatever
# the input size. Run by hand: sh bench/soak.sh
set -u
cd "$(dirname "$0")/.." || exit 1
size=${SOAK_SIZE:-10G}
[ -x bin/tprof-analyze ] || { echo "soak: build first (make)" >&2; exit 1; }
if [ ! -x bench/gen ] || [ bench/gen.c -nt bench/gen ]; then
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -o bench/gen bench/gen.c || exit 1
fi
samples=$(mktemp)
out=$(mktemp)
trap 'rm -f "$samples" "$out"' EXIT
start=$(date +%s)
bench/gen --size "$size" --seed 7 | bin/tprof-analyze -q -f json - > "$out" &
sleep 0.2
pid=$(pgrep -n -f "bin/tprof-analyze -q -f json -")
t=0
while kill -0 "$pid" 2>/dev/null; do
	rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	[ -n "$rss" ] && echo "$t $rss" >> "$samples"
	sleep 1
	t=$((t + 1))
done
wait
end=$(date +%s)
echo "soak: $size streamed in $((end - start)) s"
echo "soak: RSS samples (second, KiB): first, middle, last, max"
n=$(wc -l < "$samples")
sed -n "1p;$(( (n + 1) / 2 ))p;\$p" "$samples"
sort -k2 -n "$samples" | tail -1 | awk '{ print "max " $2 " KiB at second " $1 }'
grep -o '"id":"[a-z-]*"' "$out" | sort -u | tr '\n' ' '
echo
