#!/bin/sh
# make-corpus.sh - regenerates the seed corpora fuzz/corpus/<target>/ from
# samples/ (split into small files), the example lines of the seed
# documents (SEEDS, default ../shared/seeds from the repository root; skipped if absent) and a
# few hand-written inputs. The corpora are committed: run this only to
# refresh them. Needs bin/tprof-parse (make) for the NDJSON corpus.
#
#   sh fuzz/make-corpus.sh [SEEDS_DIR]
set -eu
cd "$(dirname "$0")/.."
seeds=${1:-../shared/seeds}
C=fuzz/corpus
rm -rf "$C"
mkdir -p "$C/lines" "$C/rules" "$C/ndjson" "$C/docs" "$C/num" "$C/discover"

# ---- lines: every sample log and seed document, 25 lines a file
for f in samples/*.log; do
	b=$(basename "$f" .log)
	split -l 25 -d -a 3 "$f" "$C/lines/$b-"
done
if [ -d "$seeds" ]; then
	for f in "$seeds"/[0-9]*.txt; do
		b=seed$(basename "$f" | cut -c1-3)
		split -l 25 -d -a 3 "$f" "$C/lines/$b-"
	done
fi
# the awkward cases of real logs, one each
printf '\033[32m[TIMING]\033[0m fwd: 1.5s\r\n' >"$C/lines/ansi-crlf"
printf ' 45%%|####      | 45/100 [00:10<00:12]\r[TIMING] tail: 2.5s\n' >"$C/lines/progress-cr"
printf '[rank3]:[2024-10-13 22:30:01] [TIMING] x: 1s\n[1,2]<stdout>:[STAGE] y\n3: Batch 1: 0.5s, GPU 1MB, CPU 2MB\n' >"$C/lines/ranks"
printf '[TIMING] nan: nan s\n[TIMING] neg: -1.5s\n[TIMING] big: 1e999s\n[TIMING] x: 2345.67s (39.09min)\n' >"$C/lines/odd-values"
printf '[Performance] fwd: 1.234s, CPU +250.5MB, GPU +512.0MB\n  GPU peak: 1024.3MB\n[Performance] bwd: 2s, CPU -1MB, GPU +0MB\n' >"$C/lines/perf-pending"
printf 'x\0y [TIMING] a\0b: 1s\n\377\376[STAGE] \300\200\n' >"$C/lines/nul-badutf8"

# ---- rules: RULES, a "%%" line, then LOG (or one rule line, then log)
{ cat samples/rules/custom.rules; echo '%%'; cat samples/custom-format.log; } >"$C/rules/custom"
grep -v '^#' samples/rules/custom.rules | grep . | while IFS= read -r r; do
	n=$(echo "$r" | cut -d' ' -f1)
	{ echo "$r"; head -20 samples/custom-format.log; } >"$C/rules/one-$n-$(echo "$r" | cksum | cut -c1-6)"
done
printf 'timing ^\\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)$\n[TIME] fwd=1.5s\n[TIME] bwd=12ms\n[TIME] x=abc\n' >"$C/rules/timing"
printf 'runtime (?<ts>\\S+ \\S+) r(?<rank>\\d+) (?<name>\\w+) (?<mean_ms>\\S+)(?: runs=(?<runs>[\\d,]+))?\n2024-01-01 12:00:00 r3 fwd 1.5 runs=1,000\n' >"$C/rules/ts-rank"
printf 'meta key="k\\"q\\\\" (*UTF)(?i)^v=(?<value>.+)$\nV=1.5\nv=text\n' >"$C/rules/const-utf"
printf 'memory name="gpu" ^g (?<mb>.+)$\nflops ^(?<name>\\w+) (?<gflops>\\S+)\n%%%%\ng 1.5 GB\ng 1024 KiB\nfwd 12.5\n' >"$C/rules/two"
printf 'timing ^(a+)+$ (?<name>x)(?<seconds>1)\naaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n' >"$C/rules/catastrophic"
# roles and containment: role= and parent= (a template), a captured role, a bad one
printf 'timing role="phase" name="total" ^total (?<seconds>\\S+)$\ntiming role="phase" parent="in {1}" name="{1}" ^(\\w+) (?<seconds>\\S+)s$\ntiming parent="step" (?<role>\\w+)=(?<seconds>\\d+)\n%%%%\ntrain 5s\ntotal 0:00:10\ncomponent=1\nbogus=2\nrunning=3\n' >"$C/rules/roles"
printf 'summary role="clock" parent="" section="s" ^(?<name>\\w+) (?<seconds>\\S+)$\nwall 5\n' >"$C/rules/roles-bad"
printf 'timing (?<name>x\n' >"$C/rules/bad-regex"
printf 'bogus ^x$\n' >"$C/rules/bad-type"
printf 'timing ^(?<name>\\w+) (?<nosuch>\\S+)$\n' >"$C/rules/bad-field"
printf '\357\273\277# bom\r\n\r\nstage ^>> (?<name>\\w+)\r\n%%%%\r\n>> one\r\n' >"$C/rules/bom-crlf"

# ---- ndjson: tprof-parse's own output, 10 records a file, and documents
if [ -x bin/tprof-parse ]; then
	for f in samples/*.log; do
		b=$(basename "$f" .log)
		bin/tprof-parse -q "$f" | split -l 10 -d -a 3 - "$C/ndjson/$b-"
	done
fi
cp samples/graph-transformer-report.json "$C/ndjson/report.json"
printf '{"type":"timing","file":"a","line":1,"name":"\\u0000x\\ud800","seconds":1e308}\n{"type":"meta","key":"k","value":true}\n{"type":"batch","line":9007199254740992,"rank":-1,"index":1.5}\n' >"$C/ndjson/edge"
printf '{"type":"timing","seconds":"1"}\n{"type":"nosuch"}\n[1,2,3]\n{"a":1,}\n{"type":"stage","name":"x","line":-1}\n' >"$C/ndjson/errors"
printf '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' >"$C/ndjson/nested"
printf '\357\273\277{"type":"stage","name":"bom"}\r\n{"type":"stage","ts":"2024-01-01T00:00:00","rank":3,"name":"\\u00e9\\n"}\n' >"$C/ndjson/bom"

# ---- docs: the seed 001/002/000 documents and the samples
cp samples/graph-transformer-report.json "$C/docs/report.json"
cp samples/kan-timing.json "$C/docs/export.json"
cp samples/kan-timing.csv "$C/docs/export.csv"
if [ -d "$seeds" ]; then
	# the JSON report example of seed 002
	awk '/^```json/{on=1;next} /^```/{on=0} on' "$seeds"/002_*.txt >"$C/docs/seed002-report.json"
fi
printf '{\n  "timings": {"data_loading": 12.5, "forward": 30.25, "backward": 41.0},\n  "total_time": 90.1\n}\n' >"$C/docs/timing-data.json"
printf '{"section": "Section 1.1", "timestamp": "2024-11-05T16:47:12+02:00", "MLP": 1.5, "KAN": {"time": 2.5, "peak_memory_mb": 12}}\n' >"$C/docs/export-flat.json"
printf 'Time (s),Model,Section,Extra\r\n1.5,"MLP, big",S1,x\r\n"2,5",KAN,S1,\r\nbad,SIREN,S2,\n' >"$C/docs/export-reordered.csv"
printf 'Section,Model,Time (s)\nS,"unterminated,1.0\n' >"$C/docs/broken-quote.csv"
printf '{"timestamp": "not a time", "runtime": {"fwd": {"mean": 1, "std": 0.1, "min": 0.9, "max": 1.2, "num_runs": 10, "unit": "us"}, "bwd": 2.5}, "memory": {"peak_gb": 1.5, "breakdown": {"x": "y"}}, "flops": {"total_tflops": 1, "attn_flops": 2e9}, "runs": [1, "a", null, true]}\n' >"$C/docs/report-units.json"

# ---- num: one number, duration or size a file
i=0
for s in '12.34' '1,234.5' '10,000' '1,23' '2345.67s (39.09min)' '39.09min (2345.67s)' '1e999s' \
	'1e-999' '-5ms' '+.5 h' 'nan' '-inf' 'Infinity' 'NaN ms' '10.5 µs' '3 μs' '512.00 MB' \
	'1.5GiB' '1024 KiB' '7 B' '0.000001' '123456789012345678901234' '12345678901234567890.5e-3' \
	'18446744073709551615' '18446744073709551616' '1e5' '1.5e+3ms' '2.5 min' '3hrs' \
	'4 seconds' '5 nanoseconds' '0x1f' '1.' '.5' '-' '1e' '1,000,000.25 sec' \
	'44.23s' '0.538s' '1 mss' '99999999999999999999999999999999999999999e-30'; do
	printf '%s' "$s" >"$C/num/$(printf '%03d' $i)"
	i=$((i + 1))
done
# ---- discover: real logs with templates and progress bars, 25 lines a file
for f in tests/data/discover/*.log tests/data/packs/tqdm.log tests/data/packs/mmengine.log \
	tests/data/packs/lightning.log tests/data/packs/keras.log; do
	b=$(basename "$f" .log)
	split -l 25 -d -a 3 "$f" "$C/discover/$b-"
done
printf 'step    1 | loss 0.0262 | step_time 18.1 ms | data 0.16 ms | samples/s 3536\nstep    2 | loss 0.0251 | step_time 18.4 ms | data 0.17 ms | samples/s 3501\nstep    3 | loss 0.0249 | step_time 17.9 ms | data 0.15 ms | samples/s 3570\n' >"$C/discover/units-after-and-before"
printf 'batch 0.231s (0.245s)\nbatch 0.228s (0.237s)\nbatch 0.229s (0.234s)\nEpoch Time: 0m 53s\nEpoch Time: 0m 42s\nEpoch Time: 1m 2s\n' >"$C/discover/mean-and-compound"
printf '  0%%|          | 0/613 [00:00<?, ?it/s]  0%%|          | 1/613 [03:12<32:40:54, 192.25s/it]\r 30%%|###       | 3/10 [00:00<00:01,  7.50it/s]\033[A\n' >"$C/discover/tqdm-glued-escape"

for t in lines rules ndjson docs num discover; do
	echo "fuzz/corpus/$t: $(ls "$C/$t" | wc -l) files, $(cat "$C/$t"/* | wc -c) bytes"
done
