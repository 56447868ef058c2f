#!/bin/sh
# replay.sh - the tprof-replay benchmark, run by hand: walk steps per second
# and attention GFLOP/s for a small workload (thousands of molecule graphs of
# 20-50 nodes, as the GPM tower and graph transformers see them) and a large
# one (a single graph of 10^5-10^6 nodes), on every backend this machine has.
#
# Each line is tprof-replay's own measurement (median of the timed runs,
# after warm-up; CUDA events on a GPU, the monotonic clock on the CPU), read
# from its CSV output. Prints a markdown table and the machine it ran on.
#
# The "seed" rows are the attention of seed 002's sizes as PyTorch runs it
# (x @ W_qkv, then scaled_dot_product_attention): 1000 and 20,000 graphs of
# exactly 30 nodes, hidden 300, 4 heads, with the projections, at every
# precision the backend has (the CPU computes FP32 only, and runs the
# 1000-graph batch only unless SEED_GRAPHS says otherwise), and on a GPU
# once more with the own projection kernel instead of cuBLAS. Their last
# column is PyTorch 2.11 on an H100 80GB HBM3 at the same shapes (measured
# 2026-11-27 in the same call as the replay, issue 24): the figure a fair replay must reach.
#
# Environment:
#   BACKENDS          backends to run (default: cpu, plus cuda if a device answers)
#   ROWS              all (default) or seed: only the PyTorch-comparable rows
#   SEED_GRAPHS       batches of the seed rows (default "1000 20000"; on the CPU "1000")
#   WALK_LARGE_NODES  nodes of the large walk graphs (default 1000000)
#   ATTN_LARGE_NODES  nodes of the large attention graph (default: 10000 on
#                     the CPU, whose O(n^2) would take minutes at 10^5;
#                     100000 on a GPU)
#   TRIALS            timed runs per measurement (default 5)
set -u

cd "$(dirname "$0")/.." || exit 1
tool=bin/tprof-replay
trials=${TRIALS:-5}
walk_large=${WALK_LARGE_NODES:-1000000}

if [ ! -x "$tool" ]; then
	echo "bench: $tool is missing: run make first" >&2
	exit 1
fi

backends=${BACKENDS:-}
if [ -z "$backends" ]; then
	backends=cpu
	if "$tool" -b cuda --kernel walk --graphs 2 --nodes 4 --trials 1 --warmup 0 >/dev/null 2>&1; then
		backends="cpu cuda"
	fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tprof-replay-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Roofline rows of one run as "kernel|workload|time ms|Msteps/s|GFLOP/s|GB/s|".
rows() {
	awk -F, '
	function unq(s) { gsub(/^"|"$/, "", s); gsub(/""/, "\"", s); return s }
	{ sub(/\r$/, "") }
	$1 == "roofline" && $2 == "roofline" {
		r = $3; c = unq($4); v = unq($6)
		for (i = 7; i <= NF; i++) v = v "," unq($i)
		val[r, c] = v; if (r > n) n = r
	}
	END {
		for (r = 1; r <= n; r++)
			printf "%s|%s|%s|%s|%s|%s|\n", val[r, "kernel"], val[r, "workload"], val[r, "time"],
				val[r, "walk_steps"], val[r, "compute"], val[r, "bandwidth"]
	}' "$1"
}

# run BACKEND SIZE ARGS...: one replay, its rows prefixed with the backend and size.
run() {
	be=$1 size=$2
	shift 2
	if ! "$tool" -b "$be" -f csv --trials "$trials" --warmup 1 --budget 10 "$@" >"$tmp/out.csv" 2>"$tmp/err"; then
		echo "bench: $be $*: $(cat "$tmp/err")" >&2
		return
	fi
	rows "$tmp/out.csv" | sed "s/^/$be|$size|/"
}

# PyTorch 2.11 on an H100 80GB HBM3 (ms, 2026-11-27: x @ W_qkv then
# scaled_dot_product_attention, median of 50) for the seed rows, by graphs and precision.
pytorch_ms() {
	case "$1 $2" in
	"1000 fp32") echo "0.791" ;;
	"1000 tf32") echo "0.520" ;;
	"1000 bf16") echo "0.342" ;;
	"20000 fp32") echo "14.371" ;;
	"20000 tf32") echo "7.827" ;;
	*) echo "not measured" ;;
	esac
}

# The seed sizes, as PyTorch runs them, at every precision the backend has.
bench_seed() {
	be=$1
	precisions="fp32 tf32 bf16" graphs=${SEED_GRAPHS:-"1000 20000"}
	if [ "$be" = cpu ]; then
		precisions=fp32
		graphs=${SEED_GRAPHS:-1000}
	fi
	for g in $graphs; do
		for p in $precisions; do
			run "$be" seed --kernel attention --graphs "$g" --nodes 30 --spread 0 --hidden 300 --heads 4 \
				--precision "$p" | sed "s/|\$/|$(pytorch_ms "$g" "$p")/"
		done
	done
	# what cuBLAS earns: the same with the own projection kernel
	[ "$be" = cuda ] && run "$be" "seed, own GEMM" --kernel attention --graphs 1000 --nodes 30 --spread 0 \
		--hidden 300 --heads 4 --gemm own | sed "s/|\$/|$(pytorch_ms 1000 fp32)/"
}

bench_backend() {
	be=$1
	bench_seed "$be"
	[ "${ROWS:-all}" = seed ] && return
	attn_large=${ATTN_LARGE_NODES:-}
	[ -n "$attn_large" ] || { [ "$be" = cuda ] && attn_large=100000 || attn_large=10000; }
	large_variant=both
	[ "$be" = cuda ] && large_variant=fused # three-step scores of 10^5 nodes: 320 GB
	run "$be" small --kernel walk --graphs 5000 --nodes 35
	run "$be" small --kernel walk --graphs 5000 --nodes 35 --patterns 16 --pattern-size 8
	run "$be" small --kernel walk --graphs 5000 --nodes 35 --p 0.25 --q 4
	run "$be" large --kernel walk --family er --graphs 1 --nodes "$walk_large"
	run "$be" large --kernel walk --family powerlaw --graphs 1 --nodes "$walk_large" --patterns 16 --pattern-size 8
	run "$be" large --kernel walk --family powerlaw --graphs 1 --nodes "$walk_large" --p 0.25 --q 4
	run "$be" small --kernel attention --graphs 5000 --nodes 35 --hidden 300 --heads 4
	run "$be" small --kernel attention --graphs 5000 --nodes 35 --hidden 128 --heads 8 --no-project
	run "$be" large --kernel attention --graphs 1 --nodes "$attn_large" --hidden 128 --heads 8 \
		--no-project --variant "$large_variant"
}

echo "| backend | size | kernel | workload | time (ms) | walk steps/s | GFLOP/s | GB/s | PyTorch, H100 (ms) |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
for be in $backends; do
	bench_backend "$be" | awk -F'|' '{
		steps = $6 != "" ? sprintf("%.1f M", $6) : ""
		gflops = $7 != "" ? sprintf("%.1f", $7) : ""
		printf "| %s | %s | %s | %s | %.3f | %s | %s | %.2f | %s |\n", $1, $2, $3, $4, $5, steps, gflops, $8, $9
	}'
done

echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs," \
	"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg); $(uname -sr)"
for be in $backends; do
	"$tool" -b "$be" -f csv --kernel attention --graphs 2 --nodes 4 --hidden 8 --heads 2 --trials 1 \
		--warmup 0 2>/dev/null |
		tr -d '\r' | awk -F, -v be="$be" '$2 == "device" { v = $6; for (i = 7; i <= NF; i++) v = v "," $i; gsub(/"/, "", v); d[$4] = v }
		END { printf "Device (%s): %s; peaks %s GB/s, %s GFLOP/s FP32, %s TF32, %s BF16 (%s); projections: %s\n",
			be, d["device"], d["peak_bandwidth"], d["peak_fp32"], d["peak_tf32"], d["peak_bf16"],
			d["peaks_from"], d["projections"] }'
done
