#!/bin/sh
# capture.sh - captures the live framework logs of tests/data/live (issue 25) on a machine with a GPU and
# PyTorch, transformers and Lightning installed, run by hand:
#
#   sh bench/live/capture.sh OUTDIR
#
# Each script is a tiny real run (models built from configs, random tensors, no download) captured as
# users capture theirs: `python3 run.py > NAME.log 2>&1`, stdout buffered. Each writes the framework's
# own figures (Trainer log_history, profiler key_averages(), benchmark Measurements, the run's own step
# times) to NAME.expected.json beside its log. The *_dev scripts are the packs' golden logs; the
# *_held ones were measured before anything was changed for them.
set -u
out=${1:?usage: capture.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
cd "$out" || exit 1
for s in profiler_dev benchmark_dev hf_trainer_dev lightning_dev profiler_held benchmark_held \
	hf_trainer_held lightning_held; do
	start=$(date +%s.%N)
	timeout 120 python3 "$here/$s.py" "$out/$s.expected.json" >"$s.log" 2>&1
	echo "capture: $s rc=$? $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f s", e - s }')"
done
# torchrun jobs: their launcher's prefixes ([default0]: ...) come with --tee
timeout 120 python3 -m torch.distributed.run --standalone --nproc_per_node=4 --tee=3 "$here/ddp_dev.py" "$out/ddp_dev.expected" \
	>ddp_dev.log 2>&1
echo "capture: ddp_dev rc=$?"
timeout 120 python3 -m torch.distributed.run --standalone --nproc_per_node=2 "$here/loop_held.py" "$out/loop_held.expected.json" \
	>loop_held.log 2>&1
echo "capture: loop_held rc=$?"
python3 - <<'PY' >versions.txt 2>&1
import platform, torch, transformers, lightning
print("python", platform.python_version(), "torch", torch.__version__, "transformers", transformers.__version__,
      "lightning", lightning.__version__, "device", torch.cuda.get_device_name(0))
PY
