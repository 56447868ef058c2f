#!/bin/sh
# demo.sh - the main job on bundled samples: parse a Graph-LLaVA training
# log into records, then analyze it and a PDE training log.
set -eu
log=samples/graph-llava-pretrain.log
echo "== tprof parse --format table $log (first 15 records)"
bin/tprof parse --format table "$log" | head -16
echo
echo "== tprof parse --count --stats samples/*.log"
bin/tprof parse --count --stats samples/*.log
echo
echo "== tprof analyze $log"
bin/tprof analyze "$log"
echo "== tprof analyze --loss-threshold 0.005 samples/pde-physical.log"
bin/tprof analyze --loss-threshold 0.005 samples/pde-physical.log
