#!/bin/sh
# demo.sh - the main job on the bundled samples: parse a Graph-LLaVA
# training log, analyze it on the terminal, then write the reports and
# charts of every sample into out/:
#   out/report.html  out/report.xlsx  out/stages.csv  out/tables/*.csv
#   out/stages.png   out/batches.png  out/gpm.png     out/scaling.png
set -eu
log=samples/graph-llava-pretrain.log
echo "== tprof parse --format table $log (first 12 records)"
bin/tprof parse --format table "$log" | head -13
echo
echo "== tprof analyze $log"
bin/tprof analyze "$log"

mkdir -p out/tables
all="samples/graph-llava-pretrain.log samples/pde-physical.log samples/ddp-4rank.log
     samples/kan-experiments.log samples/graph-transformer-profile.log samples/ssm-training.log"
# shellcheck disable=SC2086
bin/tprof analyze -q --loss-threshold 0.005 -o out/report.html $all
# shellcheck disable=SC2086
bin/tprof analyze -q --loss-threshold 0.005 -o out/report.xlsx --csv-dir out/tables $all
cp out/tables/breakdown.csv out/stages.csv
bin/tprof plot -q --stages -o out/stages.png samples/graph-llava-pretrain.log
bin/tprof plot -q --batches -o out/batches.png samples/pde-physical.log
bin/tprof plot -q --gpm -o out/gpm.png samples/graph-llava-pretrain.log
bin/tprof plot -q --scaling -o out/scaling.png samples/graph-transformer-profile.log
echo "== written:"
ls -l out/report.html out/report.xlsx out/stages.csv out/*.png
