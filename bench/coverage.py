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
    "deepspeed": {1: [0.4123, 0.8901, 0.85, 0.04005, 0.012], 2: [4.12302, 8.90111, 8.5002, 0.40091, 0.12],
                  3: [31.54212345678901, 32.1], 4: [0.1011, 0.2022, 0.0105], 5: [25.37, 26.01],
                  22: [0.4123], 23: [13.53e12], 24: [0.8901], 25: [12.54e12], 26: [12.85e12], 27: [0.012],
                  28: [1.31], 29: [12.74e12], 30: [97.38], 36: [0.04567], 37: [1.23e12], 38: [456.7e-6],
                  39: [123.45], 43: [9.34], 49: [43.68e12]},
    # detectron2: time is the mean since the start and data_time the mean of
    # the last 20, read under names that say so; "Inference done" (line 6)
    # prints means since the warm-up, not counted.
    "detectron2": {1: [0.45, 0.4567, 0.0123, 0.01], 2: [0.4301, 0.4512, 0.0119, 0.0098], 3: [0.3001, 0.004],
                   4: [35548, 0.3951], 5: [36133, 585], 7: [232.140625, 0.046474], 8: [220, 0.044123],
                   11: [2.38], 15: [20.47], 17: [2.4], 20: [0.81], 25: [7.07], 27: [1.23], 28: [65, 0.13],
                   29: [1745, 0.4365]},
    "fairseq": {1: [12345.6, 3.4, 45, 60], 2: [57640.1], 3: [12001.3, 3.31, 290, 305],
                4: [12345.6, 3.4, 45, 60], 5: [57640.1], 6: [12001.3, 3.31, 290, 305], 7: [23163, 3, 28, 34],
                8: [23010, 3, 318, 372], 10: [1234570, 10.2, 9, 1234570], 11: [15479.1], 12: [56001.2]},
    "hf-trainer": {2: [12.3456, 81.002, 10.125], 3: [1477.1115, 16.248, 2.031],
                   4: [1477.1115, 4567.8], 7: [1477.11], 8: [16.248], 10: [86401.5]},
    "imagenet": {1: [3.456, 2.901], 2: [0.345, 0.012], 3: [12.345, 11.912], 4: [1.21], 5: [0.21],
                 7: [0.12, 0.001], 8: [0.101]},
    # keras:3 is an epoch's unfinished line (an ETA and the running time per
    # step); keras:5's "- 6s" (and keras:8's "- 0s") is the time to the
    # print, validation included
    "keras": {1: [5, 0.003], 2: [7, 0.004], 4: [6, 0.003], 5: [6, 5, 0.003],
              6: [1, 0.00085], 7: [5, 0.000083], 8: [0, 0.412, 0.006], 9: [5]},
    "lightning": {6: [64.068], 8: [31.69, 63.38], 9: [0.012301, 38.453], 10: [0.0054321, 16.981],
                  11: [1.2345e-05, 9.876e-05], 16: [63.38], 23: [6.729], 32: [4.5678, 4.5678],
                  33: [0.0034567, 1.0818], 35: [12, 75.83], 37: [250.41]},
    "lightning-1.x": {7: [120.5], 9: [59.8, 119.6], 10: [0.0151, 94.405]},
    "llama-cpp": {2: [1.23456], 3: [0.04567, 0.00036], 4: [12.34567, 0.08818], 5: [13.7],
                  6: [1.23456], 7: [0.04567, 0.00036, 2802.71], 8: [0.12345, 0.01029, 97.21],
                  9: [2.34567, 0.03723, 26.86], 10: [2.60012], 11: [0.0105, 0.00008, 12190.48],
                  12: [0.81234], 13: [0.04567, 0.00228, 437.92], 14: [1.23456, 0.00972, 102.87],
                  15: [1.3], 17: [0.0112], 18: [0.0105], 19: [0.02],
                  22: [2345.67], 23: [450.12], 24: [6425.91], 25: [131.42],
                  26: [0.01225, 0.00038]},
    "megatron": {1: [19.1318, 111.5], 2: [19.1328, 112.5], 3: [19.1338, 113.5],
                 5: [19.10012, 19.10045], 6: [0.0355, 0.03675]},
    "megatron-variants": {1: [1.5214, 331.09, 141.27], 2: [1.5224, 332.09, 142.27],
                          4: [1.4982], 5: [0.01234]},
    "mmengine": {1: [0.4432, 0.0123], 2: [0.1201, 0.0021], 3: [0.1187, 0.0025], 4: [0.34, 0.02],
                 5: [0.082, 0.0031], 6: [0.0815, 0.003], 7: [0.119, 0.0024], 8: [0.512, 0.051],
                 10: [0.545, 0.012], 11: [0.498, 0.018], 12: [11.4, 44], 13: [20.5, 244]},
    "modded-nanogpt": {1: [1.234, 0.1234], 2: [2.468, 0.1234], 3: [0, 0], 4: [13.711, 0.15234],
                       5: [30.123, 0.12551]},
    "nanogpt": {2: [15.23456], 3: [0.12345]},
    "nccl-tests": {6: [123.4e-6, 67.98, 127.46, 122.9e-6, 68.24, 127.96],
                   7: [0.034468, 249.21, 467.28, 0.034525, 248.80, 466.51], 9: [297.303],
                   14: [0.079531, 13.50, 26.58, 0.079371, 13.53, 26.63],
                   15: [43.34e-6, 0.02, 0.02, 42.48e-6, 0.02, 0.02], 17: [13.3125]},
    "ollama": {1: [128.77], 2: [0.0680198], 4: [0.1234], 5: [97.21], 7: [2.345], 8: [26.86],
               9: [5.123456789], 11: [0.000512345], 12: [50747.06]},
    "timm": {1: [4.123, 62.08, 3.456], 2: [0.345, 742.1, 0.012], 3: [0.412, 621.36, 0.004], 4: [1.234],
             5: [0.103], 6: [0.101], 7: [0.311]},
    # tqdm:5 is an unfinished bar: its rate is superseded by the final redraw's
    "tqdm": {1: [1.67], 2: [0.3125], 3: [9583.41], 4: [612000]},
    # a row's Self CPU / Self CUDA, CPU total, CPU time avg, CUDA total and CUDA
    # time avg (a 0.000 cell says the op has no time on that side: not a value)
    "torch-profiler": {4: [0.00102, 0.017087, 0.017087], 5: [43e-6, 0.011077, 0.00055385],
                       7: [0.017087],
                       12: [0.001152, 0.047812, 0.047812, 0.011666, 0.011666],
                       13: [43e-6, 0.005475, 0.00027375, 0.008235, 0.00041175],
                       14: [0.010318, 0.010318, 17.163e-6], 15: [0.006245, 0.006245, 0.00031225],
                       17: [0.047812], 18: [0.011666], 23: [160e-6, 160e-6, 1.739e-6], 25: [0.017087]},
    "torch-benchmark": {4: [379.29e-6], 10: [6.62e-6], 19: [2.34e-6], 24: [4.19e-3]},
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
    '        LLAMA_LOG_INFO("%s:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\\n",',
    '        print0(f"step:{step}/{train_steps} val_loss:{val_loss:.4f} train_time:{training_time_ms:.0f}ms step_avg:{training_time_ms/max(step, 1):.2f}ms", console=True)',
    '  PRINT("# %-20s : %g %s\\n", "Avg bus bandwidth", bw[0], check_avg_bw == -1 ? "" : "OK");',
    '\t\tfmt.Fprintf(os.Stderr, "eval rate:            %.2f tokens/s\\n", float64(m.EvalCount)/m.EvalDuration.Seconds())',
    '            formatted += f" {time_per_unit * 1000.0:.0f}ms/{unit_name}"',
    "            log_string += ' samples per second: {:.3f} |'.format(samples_per_sec)",
    "        print(line_fmt.format('fwd latency: ', duration_to_string(fwd_latency)))",
    "        logger.info(f'Epoch({mode}) [{cur_epoch}][{cur_iter}/{n}]  time: {time:.4f}  data_time: {dt:.4f}')",
    '    self.logging("epoch={}/micro_step={}/global_step={}, RunningAvgSamplesPerSec={}, CurrSamplesPerSec={}".format(',
]

# Held out: lines the packs were not written against (other versions,
# other options and values of the same print statements), with the
# timing values they print.
HELD_OUT = [
    ("{'loss': 1.9, 'grad_norm': 0.8, 'learning_rate': 1e-05, 'epoch': 2.0, 'num_input_tokens_seen': 4096}", []),
    ("{'eval_loss': 0.7, 'eval_accuracy': 0.81, 'eval_runtime': 3.2, 'eval_samples_per_second': 312.5, 'eval_steps_per_second': 39.1, 'epoch': 2.0}", [3.2, 312.5, 39.1]),
    ('{"train_runtime": 95.4, "train_samples_per_second": 10.48, "train_steps_per_second": 1.31, "total_flos": 1e+15, "train_loss": 2.1, "epoch": 1.0}', [95.4, 10.48, 1.31]),
    ("  predict_runtime            = 0:00:12.34", [12.34]),
    ("  predict_samples_per_second =     81.003", [81.003]),
    (" [2024-03-01 10:00:00] iteration      500/  100000 | consumed samples:      2048000 | consumed tokens:   8388608000 | elapsed time per iteration (ms): 512.4 | learning rate: 3.000E-04 | global batch size:  4096 | lm loss: 2.513621E+00 | loss scale: 1.0 | grad norm: 0.301 | number of skipped iterations:   0 | number of nan iterations:   0 | samples per second: 7993.2 | TFLOPs: 180.21 |", [0.5124, 7993.2, 180.21]),
    ("    optimizer-copy-to-main-grad ....................: (1.23, 1.50)", []),
    ("[2024-01-02 03:04:05,678] [INFO] [logging.py:128:log_dist] [Rank 0] time (ms) | fwd: 101.10 | bwd: 202.20 | bwd_inner: 150.00 | bwd_allreduce: 52.20 | step: 10.50", [0.1011, 0.2022, 0.15, 0.0522, 0.0105]),
    ("[2024-01-02 03:04:05,678] [INFO] [timer.py:264:stop] epoch=1/micro_step=100/global_step=50, RunningAvgSamplesPerSec=120.7, CurrSamplesPerSec=118.2, MemAllocated=12.5GB, MaxMemAllocated=20.1GB", [120.7, 118.2]),
    ("iter 2000: loss 1.2345, time 45.67ms, mfu 40.12%", [0.04567]),
    ("2024/02/02 10:00:00 - mmengine - INFO - Epoch(train)  [12][1000/1250]  base_lr: 2.0000e-02 lr: 2.0000e-03  eta: 0:45:10  time: 0.2180  data_time: 0.0050  memory: 5120  grad_norm: 3.1  loss: 0.4321", [0.218, 0.005]),
    ("2024/02/02 10:00:00 - mmengine - INFO - Iter(train) [  200/80000]  lr: 1.0e-02  eta: 7:30:00  time: 0.3400  data_time: 0.0200  memory: 4000  loss: 1.1000", [0.34, 0.02]),
    ("782/782 [==============================] - 12s 15ms/step - loss: 1.0 - accuracy: 0.6 - val_loss: 0.9 - val_accuracy: 0.65", [12, 0.015]),
    ("469/469 ━━━━━━━━━━━━━━━━━━━━ 1s 2ms/step - loss: 0.05", [1, 0.002]),
    ("llama_perf_sampler_print:    sampling time =      10.50 ms /   128 runs   (    0.08 ms per token, 12190.48 tokens per second)", [0.0105, 0.00008, 12190.48]),
    ("llama_perf_context_print:        load time =     812.34 ms", [0.81234]),
    ("Epoch: [3][1000/5005]\tTime  0.120 ( 0.125)\tData  0.001 ( 0.002)\tLoss 2.1000e+00 (2.2000e+00)\tAcc@1  55.00 ( 52.10)\tAcc@5  80.00 ( 78.20)", [0.12, 0.001]),
    ("[03/04 05:06:07 d2.utils.events]:  eta: 2:00:00  iter: 1999  total_loss: 0.9  loss_cls: 0.2  time: 0.3001  last_time: 0.2950  data_time: 0.0040  last_data_time: 0.0030   lr: 0.02  max_mem: 7000M", [0.3001, 0.295, 0.004, 0.003]),
    ("step:1770/1770 val_loss:3.2790 train_time:180520ms step_avg:102.05ms", [180.52, 0.10205]),
    ("total duration:       1.5s", [1.5]),
    ("eval duration:        1m2.5s", [62.5]),
    ("eval rate:            45.10 tokens/s", [45.1]),
    ("Train: 3 [1000/1251 ( 80%)]  Loss: 3.210 (3.30)  Time: 0.290s, 1765.52/s  (0.300s, 1706.67/s)  LR: 5.000e-04  Data: 0.003 (0.004)", [0.29, 1765.52, 0.003]),
    ("2023-05-05 10:00:00 | INFO | train_inner | epoch 003:    500 / 2000 loss=5.1, ppl=34.3, wps=45678.9, ups=12.1, wpb=3776.4, bsz=128, num_updates=4500, lr=0.0005, gnorm=0.9, train_wall=41, gb_free=11.0, wall=380", [45678.9, 12.1, 41, 380]),
    ("Training: 100%|██████████| 2000/2000 [05:33<00:00,  6.00it/s, loss=0.1, v_num=3]", [6.0]),
    ("782/782 - 12s - 15ms/step - accuracy: 0.6000 - loss: 1.0000", [12, 0.015]),
    ("eval duration:        850.123µs", [0.000850123]),
    ("| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         tg128 |        120.45 ± 0.52 |", [120.45]),
    ("%-70s  %-8s" % ("bwd latency: ", "1.02 s"), [1.02]),
    ("%-60s  %-8s" % ("bwd FLOPS per GPU = 2.5 * fwd flops per GPU / bwd latency: ", "98.5 GFLOPS"), [98.5e9]),
    ("%-60s  %-8.2f" % ("samples/second: ", 1234.5), [1234.5]),
    ('2023-03-03 03:03:03 | INFO | train_inner | {"epoch": 3, "update": 2.45, "loss": "4.1", "ppl": "17.1", "wps": "98765.4", "ups": "5.12", "wpb": "19290.4", "bsz": "640.5", "num_updates": "4500", "lr": "0.0005", "gnorm": "0.8", "loss_scale": "64", "train_wall": "123", "gb_free": "20.1", "wall": "912"}', [98765.4, 5.12, 123, 912]),
    ("2023-03-03 03:03:03 | INFO | valid | epoch 003 | valid on 'valid' subset | loss 4.0 | nll_loss 3.5 | ppl 11.3 | wps 123456 | wpb 2846.5 | bsz 107.6 | num_updates 4500 | best_loss 4.0", [123456]),
    ("[" + ">" * 30 + "] 40670/40670, 9.8 task/s, elapsed: 4150s, ETA:     0s", [9.8, 4150]),
    ("2024/02/02 11:00:00 - mmengine - INFO - Epoch(val) [12][5000/5000]    coco/bbox_mAP: 0.4010  data_time: 0.0031  time: 0.0543", [0.0031, 0.0543]),
    ("[09/09 09:09:09 d2.engine.hooks]: Overall training speed: 269997 iterations in 1 day, 2:03:04 (0.3474 s / it)", [93784, 0.3474]),
    ("[09/09 09:09:09 d2.engine.hooks]: Total training time: 1 day, 2:15:00 (0:11:56 on hooks)", [94500, 716]),
    ("Test (EMA): [  10/390]  Time: 0.088 (0.102)  Loss:   1.234 ( 1.300)  Acc@1:  70.000 ( 71.000)  Acc@5:  90.000 ( 91.000)", [0.088]),
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


def score(lines, truth_of, tmp):
    """Parses lines; truth_of[n] is line n's values, None for a decoy.
    Returns (values, read, false, missed): a decoy's values and a line's
    values that match none of its truth are false."""
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines) + "\n")
    recs = records(tmp)
    total = read = false = 0
    missed = []
    for n, (label, vals) in truth_of.items():
        got = [v for r in recs.get(n, []) for v in values_of(r)]
        if vals is None:
            false += len(got)
            continue
        false += sum(1 for g in got if not any(matched(w, [g]) for w in vals))
        for w in vals:
            total += 1
            if matched(w, got):
                read += 1
            else:
                missed.append(f"{label} {w}")
    return total, read, false, missed


def build(source, messy):
    """Lines to parse from [(label, line, values)], with decoys and mess."""
    lines, truth_of = [], {}
    for i, (label, l, vals) in enumerate(source, 1):
        if messy:
            lines.append(DECOYS[i % len(DECOYS)])
            truth_of[len(lines)] = ("decoy", None)
            l = MESS[i % len(MESS)](l)
        lines.append(l)
        truth_of[len(lines)] = (label, vals)
    return lines, truth_of


def golden(pack):
    src = open(f"tests/data/packs/{pack}.log", encoding="utf-8", newline="").read().split("\n")[:-1]
    return [(f"{pack}:{i}", l, TRUTH[pack].get(i, [])) for i, l in enumerate(src, 1)]


def report(name, total, read, false, missed):
    print(f"{name}: {read}/{total} timing values read ({100 * read / total:.1f} %), "
          f"{false} false or extra values ({100 * false / (total + false):.1f} %)")
    for m in missed:
        print(f"  missed {m}")


def main():
    for messy in (False, True):
        kind = "messy" if messy else "clean"
        held = [(f"held-out:{i}", l, v) for i, (l, v) in enumerate(HELD_OUT, 1)]
        report(f"held-out {kind}", *score(*build(held, messy), "/tmp/coverage-held-out.log"))
        sums = [0, 0, 0, []]
        for pack in TRUTH:
            r = score(*build(golden(pack), messy), f"/tmp/coverage-{pack}.log")
            for k in range(3):
                sums[k] += r[k]
            sums[3] += r[3]
        report(f"golden {kind}", *sums)
    return 0


if __name__ == "__main__":
    sys.exit(main())
