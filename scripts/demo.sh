#!/bin/sh
# demo.sh - the main job on a bundled sample: parse a Graph-LLaVA training
# log into records and show them as a table, then the record counts.
set -eu
log=samples/graph-llava-pretrain.log
[ -f "$log" ] || log=$(ls samples/*.log | head -1)
echo "== tprof parse --format table $log (first 40 records)"
bin/tprof parse --format table "$log" | head -41
echo
echo "== tprof parse --count --stats samples/*.log"
bin/tprof parse --count --stats samples/*.log
