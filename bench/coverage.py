#!/usr/bin/env python3
"""coverage.py - how much of the timing in framework logs tprof reads out
of the box (issue 13's measure), on the golden logs of the format packs.

  clean: tests/data/packs/*.log as written by tests/gen-packs.sh (the
         frameworks' own format strings).
  messy: the same lines as real runs print them: srun and torchrun rank
         prefixes, hydra and glog logger headers, tqdm redraws before the
         line and glued to it, ANSI cursor-up, CRLF; plus decoy lines a
         real log holds that carry no measurement (echoed f-strings,
         config dumps, thresholds).

A timing value is a duration or a rate the line prints for the run
(running averages in parentheses and ETAs excluded); it counts as read
when a record of that line holds it, converted, in a duration or rate
field. A false record is one made from a decoy line. Run from the
repository root after `make`: python3 bench/coverage.py
"""
import json
import subprocess
import sys

# pack -> {line: [values in seconds or per second]}
TRUTH = {
    "deepspeed": {1: [0.4123, 0.8901, 0.012], 2: [31.5, 32.1]},
    "detectron2": {1: [0.4567, 0.45, 0.0123, 0.01], 4: [7.07], 6: [1.23]},
    "fairseq": {1: [12345.6, 3.4, 45, 60]},
    "hf-trainer": {2: [12.3456, 81.002, 10.125], 3: [1477.1115, 16.248, 2.031],
                   4: [1477.1115, 4567.8], 7: [1477.11], 8: [16.248], 10: [86401.5]},
    "imagenet": {1: [0.345, 0.012], 2: [0.21]},
    "keras": {1: [5, 0.003], 2: [7, 0.004]},
    "lightning": {5: [64.068], 7: [31.69, 63.38], 8: [0.0123, 38.45], 11: [63.38]},
    "llama-cpp": {1: [1.23456], 2: [0.12345, 0.01029, 97.21], 3: [2.34567, 0.03723, 26.86],
                  5: [2345.67]},
    "megatron": {1: [19.1318, 111.5], 2: [19.1328, 112.5], 3: [19.1338, 113.5],
                 5: [19.10012, 19.10045], 6: [0.0355, 0.03675]},
    "mmengine": {1: [0.4432, 0.0123], 2: [0.512, 0.051]},
    "modded-nanogpt": {1: [1.234, 0.1234], 2: [2.468, 0.1234]},
    "nanogpt": {2: [15.23456], 3: [0.12345]},
    "nccl-tests": {4: [123.4e-6, 67.98, 127.46, 122.9e-6, 68.24, 127.96], 6: [98.7654]},
    "ollama": {1: [128.77], 2: [0.0680198], 4: [0.1234], 5: [97.21], 7: [2.345], 8: [26.86]},
    "timm": {1: [0.345, 742.1, 0.012]},
    "tqdm": {1: [1.67], 2: [0.3125]},
}

DECOYS = [
    '    print(f"iter {iter_num}: loss {lossf:.4f}, time {dt*1000:.2f}ms, mfu {running_mfu*100:.2f}%")',
    "        log_string += ' elapsed time per iteration (ms): {:.1f} |'.format(",
    "TrainingArguments(ddp_timeout=1800, eval_steps=500, logging_steps=10, warmup_ratio=0.1)",
    "  --log-interval 10 --eval-interval 1000 --timeout 1800",
    "metrics['train_runtime'] = round(time.time() - start, 4)",
    "Namespace(lr=0.0003, time_limit=3600, save_interval_s=600)",
    "early stopping: patience 5, threshold 0.001",
    '    logger.info(f"  {key: <{k_width}} = {metrics_formatted[key]:>{v_width}}")',
    "print(f'Epoch: [{epoch}][{i}/{len(loader)}]\\tTime {batch_time.val:.3f}')",
    "dataloader: num_workers=8, prefetch_factor=2, timeout=120",
]

# messy forms of one line: each returns the physical line to write
MESS = [
    lambda l: "0: " + l,
    lambda l: "[rank0]: " + l,
    lambda l: "[2024-05-01 12:00:00,123][__main__][INFO] - " + l,
    lambda l: " 10%|#         | 1/10 [00:01<00:09,  1.00it/s]\r" + l,
    lambda l: "\x1b[A" + l + "\r",
    lambda l: "[rank1]:W0705 12:00:00.123000 140 train.py:12] " + l,
]


def records(path):
    out = subprocess.run(["bin/tprof-parse", "-j1", "-q", path], capture_output=True, text=True)
    recs = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        recs.setdefault(r["line"], []).append(r)
    return recs


def values_of(r):
    """Durations (in seconds) and rates a record holds."""
    v = []
    for k, x in r.items():
        if not isinstance(x, (int, float)) or k in ("line", "rank", "index", "count", "step", "runs"):
            continue
        if k == "seconds" or k.endswith("_s"):
            v.append(x)
        elif k.endswith("_ms"):
            v.append(x / 1000)
        elif k == "value" and r["type"] == "rate":
            v.append(x)
    return v


def matched(want, got):
    return any(abs(g - want) <= 1e-6 * max(abs(want), 1e-9) + 1e-12 for g in got)


def measure(messy):
    total = read = false = decoy_lines = 0
    missed = []
    for pack, truth in TRUTH.items():
        src = open(f"tests/data/packs/{pack}.log", encoding="utf-8", newline="").read().split("\n")[:-1]
        lines, where = [], {}
        for i, l in enumerate(src, 1):
            if messy:
                for d in DECOYS[(i * 3) % len(DECOYS):][:1]:
                    lines.append(d)
                    where[len(lines)] = ("decoy", None)
                l = MESS[i % len(MESS)](l)
            lines.append(l)
            where[len(lines)] = ("line", i)
        tmp = f"/tmp/coverage-{pack}.log"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write("\r\n".join(lines) + "\r\n" if messy else "\n".join(lines) + "\n")
        recs = records(tmp)
        for n, (kind, i) in where.items():
            got = [v for r in recs.get(n, []) for v in values_of(r)]
            if kind == "decoy":
                decoy_lines += 1
                false += len(got)
                continue
            for want in truth.get(i, []):
                total += 1
                if matched(want, got):
                    read += 1
                else:
                    missed.append(f"{pack}:{i} {want}")
    return total, read, false, missed


def main():
    for name, messy in (("clean", False), ("messy", True)):
        total, read, false, missed = measure(messy)
        print(f"{name}: {read}/{total} timing values read ({100 * read / total:.1f} %), "
              f"{false} false records ({100 * false / (total + false):.1f} % of the values)")
        for m in missed:
            print(f"  missed {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
