#!/usr/bin/env python3
"""coverage-real.py - how much of the timing in real, committed training
logs tprof reads out of the box, and how many values it invents.

bench/real-logs.tsv lists each log (file name used here, GitHub
repository, path, commit, framework, the lines taken, the number of
timing values the truth below finds, a note; then the answer set's
columns step_s, step_source, wall_s, wall_source, top, top_note, read
by people, not by tprof: see tests/data/real/README.md; and the SHA-256
of the log, where it is known). Columns are read by their header names.
The answer set's logs are kept byte-exact under tests/data/real/; the
other rows are not kept: bench/fetch-real-logs.py fetches them there (it
downloads each file at its commit from GitHub,
https://raw.githubusercontent.com/REPO/COMMIT/PATH, keeps what the
'lines' column names: 'all'; '1-40', those lines; 'tail-10', the last
ten; 'ipynb-streams', a notebook's stream outputs; and checks the
SHA-256); the rows marked 'pick' (lines selected by hand, listed in the
note column) are to be cut by hand. Then, from the repository root after
`make`:

    python3 bench/coverage-real.py tests/data/real    (or TPROF_REAL_LOGS=DIR)

A log missing from DIR is looked for in tests/data/real/. Rows whose
framework has no truth below, or whose 'values' is '-', are listed and
not scored.

TPROF_REAL_MANIFEST=bench/discover-logs.tsv reads another manifest (the
logs of template discovery, issue 23), TPROF_REAL_MANIFEST=bench/unseen-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen the logs no one here had seen
before their truths were written, TPROF_REAL_MANIFEST=bench/unseen2-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen2 a second such set, TPROF_REAL_MANIFEST=bench/unseen3-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen3 a third, TPROF_REAL_MANIFEST=bench/unseen4-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen4 a fourth, TPROF_REAL_MANIFEST=bench/unseen5-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen5 a fifth, TPROF_REAL_MANIFEST=bench/unseen6-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen6 a sixth, TPROF_REAL_MANIFEST=bench/unseen7-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen7 a seventh, TPROF_REAL_MANIFEST=bench/unseen8-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen8 an eighth, TPROF_REAL_MANIFEST=bench/unseen9-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen9 a ninth, TPROF_REAL_MANIFEST=bench/unseen10-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen10 a tenth, TPROF_REAL_MANIFEST=bench/unseen11-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen11 an eleventh, TPROF_REAL_MANIFEST=bench/unseen12-logs.tsv
with TPROF_REAL_LOGS=tests/data/unseen12 a twelfth, and so on to unseen34 (no unseen19); TPROF_PARSE=PATH another
tprof-parse (to compare a tree before and after a change).

The truth is made without tprof: per framework, a regular expression
that finds the timing values a person counts on each physical line (a
duration or a rate the line prints for the run; ETAs, configuration
values and thresholds are not timing). A tqdm bar counts once, at its
final redraw (n == total); its other redraws are progress display:
values read from them are neither counted nor false. Lines are in three
classes:

  timing   the truth lists its values; a record value of the line (or of
           the three lines before it: a wrapped line is reported where
           it starts) that equals one is read, one that equals none is
           'wrong';
  neutral  the line shows timing that is not counted (progress redraws,
           ETAs, prose that quotes a duration): nothing is scored;
  none     the line holds no timing value: every value read is false.

A record value is a duration (field seconds, *_s, *_ms) or a rate (a
'rate' record's value). Coverage = read / truth values; false rate =
false / (truth values + false).
"""
import json
import math
import os
import re
import subprocess
import sys

NUM = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
UNIT_S = {"ms": 1e-3, "us": 1e-6, "µs": 1e-6, "s": 1.0}
SI = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

# any tqdm redraw: 'N%|bar| n/total [elapsed<remaining, rate]'
TQDM = re.compile(r"(\d+)%\|[^|\n]*\|\s*(\d+)/(\d+)\s*\[[^\]<]*<[^\],]*,\s*"
                  r"(?:(" + NUM + r")\s*(?:([A-Za-z]+)/s|s/([A-Za-z]+))|\?[A-Za-z]+/s)[^\]]*\]")
# the rest of a bar wrapped by the terminal: '████| n/total [elapsed<remaining, rate]'
TQDM_CONT = re.compile(r"^[\u2588-\u258f ]*\|\s*(\d+)/(\d+)\s*\[[^\]<]*<[^\],]*,\s*(" + NUM + r")\s*[A-Za-z]+/s\]")
TQDM_NOTOTAL = re.compile(r"\d+ [A-Za-z]+ \[\d[\d:]*, " + NUM + r" ?[A-Za-z]+/s\]")
# a number with a time or rate unit: the line shows timing of some kind
ANY_TIMING = re.compile(r"(?<![\w.])" + NUM + r"\s*(?:ms|s|sec|secs|seconds|min|mins|us)\b|"
                        r"[A-Za-z]+/s\b|s/it\b|\bETA\b|\beta:", re.I)


def tqdm_values(line):
    """Rates of the bars that complete on this line (their last redraw)."""
    out = []
    m = TQDM_CONT.match(line)
    if m and m.group(1) == m.group(2):
        out.append(float(m.group(3)))
    redraws = list(TQDM.finditer(line))
    for i, m in enumerate(redraws):
        nxt = redraws[i + 1] if i + 1 < len(redraws) else None
        if nxt is not None and nxt.group(3) == m.group(3):
            continue          # the same bar is redrawn later on this line
        if m.group(2) != m.group(3) or m.group(4) is None:
            continue          # not complete, or '?it/s'
        x = float(m.group(4))
        if m.group(6):        # 's/it': seconds per item, a rate of 1/x
            out.append(1.0 / x if x else math.inf)
        elif len(m.group(5)) > 1 and m.group(5)[0] in SI:
            out.append(x * SI[m.group(5)[0]])   # unit_scale: '1.39MB/s'
        else:
            out.append(x)
    return out


HF_KEY = re.compile(r"['\"](\w*(?:_runtime|_samples_per_second|_steps_per_second|_tokens_per_second))['\"]\s*:\s*['\"]?(" + NUM + r")")
HF_TABLE = re.compile(r"^\s*(\w*(?:_runtime|_samples_per_second|_steps_per_second))\s*=\s*(\S+)\s*$")


def clock_or_number(v):
    """Seconds of 'h:mm:ss.ff' (a Trainer's metrics table), or the number itself."""
    secs = 0.0
    for part in v.split(":"):
        secs = secs * 60 + float(part)
    return secs


def hf_values(line):
    out = [float(m.group(2)) for m in HF_KEY.finditer(line)]
    m = HF_TABLE.match(line)
    if m:
        out.append(clock_or_number(m.group(2)))
    return out


NANOGPT = re.compile(r"^iter \d+: loss \S+, time (" + NUM + r")ms")


def nanogpt_values(line):
    m = NANOGPT.search(line)
    return [float(m.group(1)) / 1000] if m else []


D2 = re.compile(r"(?<![\w])(?:time|last_time|data_time|last_data_time): (" + NUM + r")(?!\S)")


def detectron2_values(line):
    if "d2.utils.events" not in line or "iter:" not in line:
        return []
    return [float(x) for x in D2.findall(line)]


KERAS_V2 = re.compile(r"^\s*\d+/\d+ - (\d+)s - .*?(?: - (" + NUM + r")(ms|s)/epoch)? - (" + NUM + r")(ms|s|us)/step\s*$")
KERAS_OLD = re.compile(r"^\s*\d+/\d+ \[=+\] - (\d+)s (?:(\d+)(ms|us)/step )?- ")


def keras_values(line):
    m = KERAS_V2.match(line)
    if m:
        epoch = float(m.group(2)) * UNIT_S[m.group(3)] if m.group(2) else float(m.group(1))
        return [epoch, float(m.group(4)) * UNIT_S[m.group(5)]]
    m = KERAS_OLD.match(line)
    if m:
        out = [float(m.group(1))]
        if m.group(2):
            out.append(float(m.group(2)) * UNIT_S[m.group(3)])
        return out
    return []


LLAMA = re.compile(r"^llama_(?:print_timings|perf_\w+):\s+[\w ]+ time =\s+(" + NUM + r") ms"
                   r"(?: /\s+\d+ \w+\s+\(\s*(" + NUM + r") ms per token(?:,\s*(" + NUM + r") tokens per second)?\))?")


def llamacpp_values(line):
    m = LLAMA.search(line)
    if not m:
        return []
    out = [float(m.group(1)) / 1000]
    if m.group(2):
        out.append(float(m.group(2)) / 1000)
    if m.group(3):
        out.append(float(m.group(3)))
    return out


MEGATRON_TIME = re.compile(r"elapsed time per iteration \((ms|s)\):\s*(" + NUM + r")")
MEGATRON_RATE = re.compile(r"(?:throughput per GPU \(TFLOP/s/GPU\)|\| samples per second|\| TFLOPs):\s*(" + NUM + r")")


# Megatron-DeepSpeed: DeepSpeed's engine prints its own line per step
DS_STEPS = re.compile(r"^steps: \d+ loss: " + NUM + r" iter time \(s\): (" + NUM + r") samples/sec: (" + NUM + r")\s*$")


def megatron_values(line):
    m = DS_STEPS.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    if not re.search(r"\biteration\s+\d+/\s*\d+\s*\|", line):
        return []
    out = [float(v) * UNIT_S[u] for u, v in MEGATRON_TIME.findall(line)]
    out += [float(x) for x in MEGATRON_RATE.findall(line)]
    return out


# torch.profiler key_averages() tables: every time and share cell of a row
# (times with their unit, shares in percent), and the totals under a table
PROF_TIME = re.compile(r"^(-?\d+\.\d+)(us|ms|s)$")
PROF_PCT = re.compile(r"^(-?\d+\.\d+)%$")
PROF_TOTAL = re.compile(r"^(?:Self [A-Z][A-Z0-9]*|CUDA) time total:\s+(-?\d+\.\d+)(us|ms|s)\s*$")


def profiler_values(line):
    m = PROF_TOTAL.match(line)
    if m:
        return [float(m.group(1)) * UNIT_S[m.group(2)]]
    cells = re.split(r"\s{2,}|\t", line.strip())
    times = [PROF_TIME.match(c) for c in cells[1:]]
    pcts = [PROF_PCT.match(c) for c in cells[1:]]
    if not any(times) or not any(pcts):
        return []
    out = []
    for t, p in zip(times, pcts):
        if t:
            out.append(float(t.group(1)) * UNIT_S[t.group(2)])
        elif p:
            out.append(float(p.group(1)))
    return out


# torch.utils.benchmark: a Measurement's median and, when printed, its IQR
# and quartiles (counted on the title line, the line after the object's
# repr, which names them), and every cell of a Compare table in the unit of
# its footer ("Times are in microseconds (us).")
BENCH_OBJ = re.compile(r"<torch\.utils\.benchmark\.utils\.common\.Measurement object at 0x[0-9a-fA-F]+>\s*$")
BENCH_MEDIAN = re.compile(r"^\s+(?:Median:\s+)?(" + NUM + r") (ns|us|ms|s)\s*$")
BENCH_IQR = re.compile(r"^\s+IQR:\s+(" + NUM + r") (ns|us|ms|s) \((" + NUM + r") to (" + NUM + r")\)\s*$")
BENCH_RUNS = re.compile(r"^\s+\d+ measurements?, \d+ runs")
COMPARE_TITLE = re.compile(r"^\[-+.*-+\]\s*$")
COMPARE_UNIT = re.compile(r"^Times are in \w+ \((ns|us|ms|s)\)\.\s*$")
COMPARE_CELL = re.compile(r"^\s*(" + NUM + r")(?:\s*\(.*\))?\s*$")
UNIT_S["ns"] = 1e-9


def benchmark_truth(lines):
    """{line: values} of a log's Measurements and Compare tables."""
    out = {}
    title = None
    for n, line in enumerate(lines, 1):
        if BENCH_OBJ.search(line):
            title = n + 1
            continue
        if title is None:
            continue
        m = BENCH_MEDIAN.match(line)
        if m:
            out.setdefault(title, []).append(float(m.group(1)) * UNIT_S[m.group(2)])
            continue
        m = BENCH_IQR.match(line)
        if m:
            u = UNIT_S[m.group(2)]
            out.setdefault(title, []).extend(float(m.group(i)) * u for i in (1, 3, 4))
            continue
        if BENCH_RUNS.match(line):
            title = None
    start = None
    for n, line in enumerate(lines, 1):
        if COMPARE_TITLE.match(line):
            start = n
        elif start and COMPARE_UNIT.match(line):
            u = UNIT_S[COMPARE_UNIT.match(line).group(1)]
            for k in range(start + 2, n):
                if "|" not in lines[k - 1]:
                    continue
                for cell in lines[k - 1].split("|")[1:]:
                    c = COMPARE_CELL.match(cell)
                    if c:
                        out.setdefault(k, []).append(float(c.group(1)) * u)
            start = None
    return out


# Lightning: a finished Rich bar's elapsed time and speed ("Epoch 4/4 ━━━
# 25/25 0:00:48 • 0:00:00 0.48it/s"; the remaining time is an ETA), the
# SimpleProfiler's rows (mean and total), the AdvancedProfiler's and
# cProfile's "N function calls in T seconds"; tqdm bars are counted for all
RICH = re.compile(r"━[━╸╺\s]*\s(\d+)/(\d+) (\d+:\d\d:\d\d) •(?: [-\d:]+)? (" + NUM + r")it/s")
SIMPLE_ROW = re.compile(r"^\|?\s*\S[^|\t]*?\s*\|\s+(" + NUM + r")\s*\|(?:\s*\d+\s*\|)?\s+(" + NUM + r")\s*\|")
PSTATS = re.compile(r"^\s*\d+ function calls (?:\(\d+ primitive calls\) )?in (" + NUM + r") seconds")


def lightning_values(line):
    m = RICH.search(line)
    if m and m.group(1) == m.group(2):
        h, mi, se = (int(x) for x in m.group(3).split(":"))
        return [h * 3600 + mi * 60 + se, float(m.group(4))]
    m = SIMPLE_ROW.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = PSTATS.match(line)
    return [float(m.group(1))] if m else []


MMENGINE = re.compile(r"(?<![\w])(?:time|data_time): (" + NUM + r")(?!\S)")


def mmengine_values(line):
    if not re.search(r"mmengine - INFO - (?:Epoch|Iter)\((?:train|val|test)\)", line):
        return []
    return [float(x) for x in MMENGINE.findall(line)]


NCCL_ROW = re.compile(r"^\s*\d+\s+\d+\s+\w+\s+\w+\s+-?\d+"
                      r"\s+(" + NUM + r")\s+(" + NUM + r")\s+(" + NUM + r")\s+\S+"
                      r"\s+(" + NUM + r")\s+(" + NUM + r")\s+(" + NUM + r")\s+\S+\s*$")
NCCL_AVG = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*(" + NUM + r")")


def nccl_values(line):
    m = NCCL_ROW.match(line)
    if m:
        t1, a1, b1, t2, a2, b2 = (float(x) for x in m.groups())
        return [t1 / 1e6, a1, b1, t2 / 1e6, a2, b2]
    m = NCCL_AVG.match(line)
    return [float(m.group(1))] if m else []


DSCHAT_E2E = re.compile(r"\|E2E latency=(" + NUM + r")s \|Gather latency=(" + NUM + r")s \(" + NUM + r"%\) "
                        r"\|Generate time=(" + NUM + r")s \(" + NUM + r"%\) \|Training time=(" + NUM + r")s "
                        r"\(" + NUM + r"%\) \|Others=(" + NUM + r") \(" + NUM + r"%\)\|CurSamplesPerSec=(" + NUM +
                        r") \|AvgSamplesPerSec=(" + NUM + r")")
DSCHAT_TPUT = re.compile(r"Latency: (" + NUM + r")s, TFLOPs: (" + NUM + r"), Samples/sec: (" + NUM +
                         r"), Time/seq (" + NUM + r")s")
DS_TIMER = re.compile(r"RunningAvgSamplesPerSec=(" + NUM + r"), CurrSamplesPerSec=(" + NUM + r")")
DS_OPLOAD = re.compile(r"^Time to load \w+ op: (" + NUM + r") seconds")


def deepspeed_chat_values(line):
    """DeepSpeed-Chat (DeepSpeedExamples): the step-3 timer line, print_throughput,
    DeepSpeed's timer.py samples/s and the op loading time."""
    m = DSCHAT_E2E.search(line)
    if m:
        return [float(x) for x in m.groups()]
    m = DSCHAT_TPUT.search(line)
    if m:
        return [float(x) for x in m.groups()]
    m = DS_TIMER.search(line)
    if m:
        return [float(x) for x in m.groups()]
    m = DS_OPLOAD.search(line)
    return [float(m.group(1))] if m else []


KERAS1_EPOCH = re.compile(r"^\s*(\d+)s - loss: ")
MODEL_COMPILED = re.compile(r"Model compiled in (" + NUM + r")s")


def keras1_values(line):
    """Keras 1 fit(verbose=2): '224s - loss: ...'; a script's 'Model compiled in 3.91s'."""
    m = KERAS1_EPOCH.match(line) or MODEL_COMPILED.search(line)
    return [float(m.group(1))] if m else []


HOME_SECONDS = re.compile(r"(?:\| (?:train|infer) |\bin |\b(?:heun|single):)(" + NUM + r")s\b")


def home_grown_values(line):
    """gaggenwaschke/NoProp's trainer: '| train 2.5s', '| infer 4.5s', 'done ... in 12.3s',
    'heun:1.2s single:0.4s'."""
    return [float(x) for x in HOME_SECONDS.findall(line)]


# logs no one here had seen (issue 23), bench/unseen-logs.tsv

PADDLEREC = re.compile(r"(?:avg_reader_cost|avg_batch_cost): (" + NUM + r") sec\b|\bips: (" + NUM + r") ins/s|"
                       r"\bepoch time: (" + NUM + r") s\b")


def paddlerec_values(line):
    """PaddleRec's trainer: 'avg_reader_cost: 0.00058 sec, avg_batch_cost: 0.00205 sec, ...
    ips: 1000.71910 ins/s', 'epoch: 0 done, ... epoch time: 1105.58 s'."""
    return [float(next(g for g in m.groups() if g is not None)) for m in PADDLEREC.finditer(line)]


PADDLE_HAPI = re.compile(r"^\s*step\s+\d+/\d+ - .* - (" + NUM + r")(s|ms|us)/step\s*$")


def paddle_hapi_values(line):
    """paddle.Model.fit (hapi ProgBarLogger, verbose=2): 'step 20/614 - loss: ... - 3s/step'."""
    m = PADDLE_HAPI.match(line)
    return [float(m.group(1)) * UNIT_S[m.group(2)]] if m else []


CYCLEGAN_ITER = re.compile(r"\(epoch: \d+, iters: \d+, time: (" + NUM + r"), data: (" + NUM + r")\)")
CYCLEGAN_EPOCH = re.compile(r"^End of epoch \d+ / \d+ \t Time Taken: (" + NUM + r") sec")


def cyclegan_values(line):
    """pytorch-CycleGAN-and-pix2pix: '(epoch: 1, iters: 100, time: 1.294, data: 0.907)' (seconds per
    image and data wait) and 'End of epoch 1 / 200 \t Time Taken: 210 sec'; its tqdm bars below."""
    m = CYCLEGAN_ITER.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = CYCLEGAN_EPOCH.match(line)
    return [float(m.group(1))] if m else []


GPT2_STEP = re.compile(r"^INFO:__main__:Epoch \d+ \| Step\s+\d+/\d+ \| .*\| Time: (" + NUM + r")s\s*$")
GPT2_EPOCH = re.compile(r"Epoch \d+ completed in (" + NUM + r")s\b")


def gpt2_finetune_values(line):
    """A home-grown GPT-2 fine-tuning loop: 'Epoch 0 | Step 10/6501 | ... | Time: 0.507s' and
    'Epoch 1 completed in 3330.51s | Avg Loss: ...'."""
    m = GPT2_STEP.match(line) or GPT2_EPOCH.search(line)
    return [float(m.group(1))] if m else []


AUGSEG_EPOCH = re.compile(r"^Epoch \d+/\d+ \[(" + NUM + r")s\] \|")


def augseg_values(line):
    """A home-grown segmentation trainer: 'Epoch 1/100 [138.0s] | LR: ... | Train Loss: ...'."""
    m = AUGSEG_EPOCH.match(line)
    return [float(m.group(1))] if m else []


HRNET_ITER = re.compile(r"^Epoch: \[\d+/\d+\] Iter:\[\d+/\d+\], Time: (" + NUM + r"), lr: ")


def hrnet_values(line):
    """HRNet-Semantic-Segmentation's train loop: 'Epoch: [0/520] Iter:[10/247], Time: 1.21, lr: ...'
    (the mean batch time in seconds, no unit printed)."""
    m = HRNET_ITER.match(line)
    return [float(m.group(1))] if m else []


METER_LINE = re.compile(r"^(?:Epoch: \[\d+\]\[\d+/\d+\]|Extract Features: \[\d+/\d+\])\t")
METER_PAIR = re.compile(r"\t(?:Time|Data) (" + NUM + r") \((" + NUM + r")\)")
METER_TOTAL = re.compile(r"^(?:total time|Jaccard distance computing time cost): (" + NUM + r")\s*$")


def averagemeter_values(line):
    """The ImageNet example's AverageMeter print as cluster-contrast re-ID trainers use it:
    'Epoch: [0][10/400]\tTime 5.656 (6.701)\tData 0.000 (0.497)\tLoss ...' (each value and its
    running mean, seconds without a unit), 'Extract Features: [50/137]\tTime ... Data ...',
    'total time: 0.204...' and 'Jaccard distance computing time cost: 64.15...'."""
    if METER_LINE.match(line):
        out = []
        for m in METER_PAIR.finditer(line):
            out += [float(m.group(1)), float(m.group(2))]
        return out
    m = METER_TOTAL.match(line)
    return [float(m.group(1))] if m else []


MXNET_SPEED = re.compile(r"\bSpeed: (" + NUM + r") samples/sec\b")
MXNET_EPOCH = re.compile(r"\bEpoch\[\d+\] Time cost=(" + NUM + r")\s*$")


def mxnet_values(line):
    """MXNet: Speedometer's 'Epoch[5] Batch [0-40]\tSpeed: 25.69 samples/sec', Module.fit's
    'Epoch[5] Time cost=1029.713' (seconds), and GluonCV-style scripts' 'Speed: 0.563 samples/sec'."""
    out = [float(x) for x in MXNET_SPEED.findall(line)]
    m = MXNET_EPOCH.search(line)
    if m:
        out.append(float(m.group(1)))
    return out


# a second set of logs no one here had seen (issues 22, 23), bench/unseen2-logs.tsv

MLM_TIMER = re.compile(r"^\s{4}[\w/-]+ \.{3,}: \((" + NUM + r"), (" + NUM + r")\)\s*$")
MLM_SECONDS = re.compile(r"(?:time to initialize megatron \(seconds\): |Compilation time: |"
                         r"finished creating indexed dataset in |loaded indexed file in )(" + NUM + r")")


def megatron_lm_values(line):
    """Megatron-LM (2023): the iteration line as megatron_values reads it, and the start-up
    prints: the timers under '(min, max) time across ranks (ms):' ('    load-checkpoint
    ....: (1364.17, 1365.23)', milliseconds), 'time to initialize megatron (seconds): 11.394',
    'Compilation time: 9.256 seconds', 'finished creating indexed dataset in 0.0012 seconds',
    'loaded indexed file in 0.002 seconds'."""
    out = megatron_values(line)
    m = MLM_TIMER.match(line)
    if m:
        out += [float(m.group(1)) / 1000, float(m.group(2)) / 1000]
    out += [float(x) for x in MLM_SECONDS.findall(line)]
    return out


OCR_STEP = re.compile(r"^epoch : \d+ \[\d+/\d+\] Train loss: \S+,Valid loss: \S+, time : (" + NUM + r") lr : ")


def homegrown_ocr_values(line):
    """A home-grown Korean OCR trainer: 'epoch : 0 [0/21279] Train loss: 8.01477,Valid loss:
    7.96785, time : 43.055087089538574 lr : 1' (seconds of the step and its validation, no unit)."""
    m = OCR_STEP.match(line)
    return [float(m.group(1))] if m else []


DTRB_STEP = re.compile(r"^\[\d+/\d+\] Train loss: \S+, Valid loss: \S+, Elapsed_time: (" + NUM + r")\s*$")


def dtrb_values(line):
    """clovaai deep-text-recognition-benchmark's train.py: '[1/200000] Train loss: 0.00023, Valid
    loss: 0.00622, Elapsed_time: 3.53794' (seconds since the start, no unit)."""
    m = DTRB_STEP.match(line)
    return [float(m.group(1))] if m else []


SSD_TIMER = re.compile(r"(?:^|\|\| )timer: (" + NUM + r") sec\.")


def ssd_values(line):
    """amdegroot/ssd.pytorch's train.py: 'iter 10190 || Loss: 3.5366 || timer: 0.2049 sec.'
    (and 'timer: 0.2165 sec.' alone after a 'Saving state' line)."""
    return [float(x) for x in SSD_TIMER.findall(line)]



# a third set of logs no one here had seen (issues 22, 23), bench/unseen3-logs.tsv

YOLO_DONE = re.compile(r"^\d+ epochs completed in (" + NUM + r") hours\.")


def yolov5_values(line):
    """ultralytics YOLOv5 train.py: its tqdm bars ('197/197 [05:51<00:00,  1.79s/it]', counted for
    all) and '64 epochs completed in 6.662 hours.' (in seconds)."""
    m = YOLO_DONE.match(line)
    return [float(m.group(1)) * 3600] if m else []


SWAV_ITER = re.compile(r"^INFO - \d\d/\d\d/\d\d \d\d:\d\d:\d\d - \d+:\d\d:\d\d - Epoch: \[\d+\]\[\d+\]\t")
SWAV_PAIR = re.compile(r"\t(?:Time|Data) (" + NUM + r") \((" + NUM + r")\)")


def swav_values(line):
    """facebookresearch/swav main_swav.py: 'INFO - 09/02/20 18:08:49 - 0:00:21 - Epoch: [0][0]\tTime
    13.081 (13.081)\tData 1.617 (1.617)\tLoss ...' (batch and data time with their running means,
    seconds without a unit). The '0:00:21' after the date is the logger's elapsed clock, a stamp
    like the date: not counted."""
    if not SWAV_ITER.match(line):
        return []
    out = []
    for m in SWAV_PAIR.finditer(line):
        out += [float(m.group(1)), float(m.group(2))]
    return out


GOLF = re.compile(r"(?<![\w])(?:train_time|step_avg|this_step|eval_time|train):(" + NUM + r")ms\b|"
                  r"(?<![\w])wall_ms:(\d+)(?!\w)|(?<![\w])(?:time|elapsed)=(" + NUM + r")(ms|s)\b|"
                  r"\((" + NUM + r") min\)")


def golf_values(line):
    """A modded-nanogpt derived trainer (parameter-golf): 'train_time:122ms step_avg:121.76ms
    this_step:121.8ms', 'eval_time:27032ms', 'ttt:batch 5/74 time=1267ms', 'ttt_chunk [1/1893]
    ... time=0.5s', 'elapsed=563.8s', 'phase:TOTAL wall_ms:904687 (15.1 min)', 'train:599635ms';
    'max_wallclock_seconds:600.000' is configuration."""
    out = []
    for m in GOLF.finditer(line):
        if m.group(1):
            out.append(float(m.group(1)) / 1000)
        elif m.group(2):
            out.append(float(m.group(2)) / 1000)
        elif m.group(3):
            out.append(float(m.group(3)) * UNIT_S[m.group(4)])
        else:
            out.append(float(m.group(5)) * 60)
    return out


LEROBOT = re.compile(r"(?<![\w])(?:updt_s|data_s):(" + NUM + r")(?!\S)")


def lerobot_values(line):
    """LeRobot's training script: 'INFO 2026-06-12 10:53:24 ot_train.py:357 step:400 smpl:13K ...
    updt_s:0.504 data_s:0.083' (seconds per update and per batch load)."""
    if not re.search(r"\.py:\d+ step:\d", line):
        return []
    return [float(x) for x in LEROBOT.findall(line)]


AVPSE = re.compile(r"^\d\d:\d\d:\d\d  step=\d+  .*  elapsed=(" + NUM + r")s\s*$")


def avpse_values(line):
    """A home-grown speech-separation trainer: '08:35:31  step=100  loss=0.2927  lr=1.00e-03
    elapsed=71s' (seconds since its start)."""
    m = AVPSE.match(line)
    return [float(m.group(1))] if m else []


HIFI = re.compile(r"^step\s+\d+ \| phase \d+ \| .*\| (" + NUM + r")s\s*$")


def hifi_tse_values(line):
    """A home-grown GAN trainer (HiFi_TSE): 'step  705000 | phase 2 | loss_G -2.6541 | ... | rss
    1283MB | 1.52s' (the step's seconds)."""
    m = HIFI.match(line)
    return [float(m.group(1))] if m else []


# a fourth set of logs no one here had seen (issues 22, 23), bench/unseen4-logs.tsv

VERL_STEP = re.compile(r"\bstep:\d+ - ")
VERL_KV = re.compile(r"(?<![\w/])((?:timing_s|timing_per_token_ms|perf)/[\w/]+):(" + NUM + r")")
VERL_WEIGHTS = re.compile(r"update_weights done, time cost: (" + NUM + r")s\b")
VLLM_BAR = re.compile(r"(\d+)% Completed \| (\d+)/(\d+) \[[^\]<]*<[^\],]*,\s*(" + NUM + r")it/s\]")


def verl_values(line):
    """verl's PPO/GRPO trainer (Ray): the step line '(TaskRunner pid=625502) step:15 - ... -
    timing_s/gen:2.573713675024919 - ... - timing_s/step:8.900699015008286 - ... -
    timing_per_token_ms/gen:1.2566961303832613 - ... - perf/time_per_step:8.900699015008286 -
    perf/throughput:278.62980152662664' (every timing_s/ key in seconds but the counts
    timing_s/agent_loop/num_preempted/*, .../slowest/prompt_length, .../slowest/response_length;
    timing_per_token_ms/ in milliseconds; perf/time_per_step; perf/throughput in tokens/s, not
    perf/mfu/ or perf/total_num_tokens), the worker's 'INFO:2026-04-03 07:05:44,707:update_weights
    done, time cost: 2.27s', and vLLM's finished bar 'Loading safetensors checkpoint shards: 100%
    Completed | 1/1 [00:00<00:00,  2.26it/s]'."""
    out = []
    if VERL_STEP.search(line):
        for m in VERL_KV.finditer(line):
            key, x = m.group(1), float(m.group(2))
            if key.startswith("timing_s/"):
                if not re.search(r"num_preempted|prompt_length|response_length", key):
                    out.append(x)
            elif key.startswith("timing_per_token_ms/"):
                out.append(x / 1000)
            elif key in ("perf/time_per_step", "perf/throughput"):
                out.append(x)
    m = VERL_WEIGHTS.search(line)
    if m:
        out.append(float(m.group(1)))
    for m in VLLM_BAR.finditer(line):
        if m.group(2) == m.group(3):
            out.append(float(m.group(4)))
    return out


COQUI_PAIR = re.compile(r"\| > (?:step_time|loader_time): (" + NUM + r")\s+\((" + NUM + r")\)")
COQUI_AVG = re.compile(r"\| > avg_loader_time:(?:\x1b\[[0-9;]*m)?\s*(" + NUM + r")")


def coqui_values(line):
    """Coqui TTS's Trainer (trainer_0_log.txt): '     | > step_time: 1.31510  (1.38766)' and
    '     | > loader_time: 19.81310  (5.34136)' (the step's value and its running mean, seconds),
    the evaluation's '     | > avg_loader_time:ESC[91m 0.26195 ESC[0m(+0.00508)' (ANSI colours; the value,
    the signed change from the previous evaluation is not counted). '> TRAINING (2022-11-03 10:47:31)'
    is a stamp."""
    m = COQUI_PAIR.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = COQUI_AVG.search(line)
    return [float(m.group(1))] if m else []


MF_STEP = re.compile(r"\bper_step_time: (\d+)ms\b")
MF_RATE = re.compile(r"\|\s*(" + NUM + r") samples/s/p\b")


def mindformers_values(line):
    """MindSpore MindFormers' loss monitor (callback.py): '... - INFO - { Epoch:[  2/  3], step:[
    1085/ 3125], loss: 0.194, per_step_time: 1413ms, lr: ...' and the line after it, '... - INFO -
      44.9% |██████| 5.66011 samples/s/p  2:01:40 }' (a rate; the trailing time is what remains, an
    ETA, not counted)."""
    m = MF_STEP.search(line)
    if m:
        return [float(m.group(1)) / 1000]
    m = MF_RATE.search(line)
    return [float(m.group(1))] if m else []


METRIC_ITER = re.compile(r"^(?:Epoch: \[[^\]]*\]|Test:)\s+\[\s*\d+/\d+\]\s+eta: ")
METRIC_PAIR = re.compile(r"\s(?:time|data): (" + NUM + r")(?!\S)")
METRIC_TOTAL = re.compile(r"Total time: (\d+):(\d\d):(\d\d) \((" + NUM + r") s / it\)")


def metriclogger_values(line):
    """The MetricLogger of facebookresearch/dino (as DETR and DeiT print it): 'Epoch: [0/100]  [
    10/1562]  eta: 0:30:15  loss: 10.884450 (10.884587)  lr: ...  time: 1.169906  data: 0.404951
    max mem: 11482' (seconds without a unit; eta is an ETA) and 'Epoch: [0/100] Total time: 0:13:11
    (0.506737 s / it)'."""
    if METRIC_ITER.match(line):
        return [float(x) for x in METRIC_PAIR.findall(line)]
    m = METRIC_TOTAL.search(line)
    if m:
        return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)), float(m.group(4))]
    return []


SB3_ROW = re.compile(r"^\|\s+(?:fps|time_elapsed)\s+\|\s+(" + NUM + r")\s+\|")


def sb3_values(line):
    """stable-baselines3's logger table: '|    fps             | 180      |' (environment steps per
    second since the start) and '|    time_elapsed    | 11       |' (seconds since the start)."""
    m = SB3_ROW.match(line)
    return [float(m.group(1))] if m else []


MARIAN = re.compile(r"\] Ep\. \d+ : Up\. \d+ : .* : Time (" + NUM + r")s : (" + NUM + r") words/s\b")


def marian_values(line):
    """Marian NMT: '[2018-12-09 17:47:21] Ep. 1 : Up. 1000 : Sen. 1,210,512 : Cost 72.61126709 :
    Time 483.07s : 11993.35 words/s : L.r. 1.8750e-05' (seconds since the previous display, 500
    updates here, and its rate); '[valid] ...' lines print no time."""
    m = MARIAN.search(line)
    return [float(m.group(1)), float(m.group(2))] if m else []


PNLP_INLINE = re.compile(r"(?<![\w])(?:interval|eval|train|test)_(?:runtime|samples_per_second|steps_per_second): ("
                         + NUM + r")")
PNLP_TABLE = re.compile(r" - \s+(?:train|eval|test)_(?:runtime|samples_per_second|steps_per_second)\s+=\s+([\d:.]+)")


def paddlenlp_values(line):
    """PaddleNLP's Trainer (ANSI-coloured): '[2022-08-31 14:25:49,741] [    INFO] - loss: 1.21554871,
    learning_rate: ..., global_step: 10, interval_runtime: 6.8718, interval_samples_per_second:
    9.313, interval_steps_per_second: 1.455, epoch: 0.0016', 'eval_loss: ..., eval_runtime:
    54.9586, eval_samples_per_second: 222.731, eval_steps_per_second: 3.494', 'train_runtime:
    2567.5215, train_samples_per_second: ..., train_steps_per_second: ...', and the metrics tables
    '[...] [    INFO] -   train_runtime            = 0:42:47.52' (h:mm:ss in seconds)."""
    out = [float(x) for x in PNLP_INLINE.findall(line)]
    m = PNLP_TABLE.search(line)
    if m:
        out.append(clock_or_number(m.group(1)))
    return out


# a fifth set of logs no one here had seen (issues 22, 23), bench/unseen5-logs.tsv

ONMT_STEP = re.compile(r"\] Step \d+/\s*\d+; acc: .*; (" + NUM + r")/(" + NUM + r") tok/s;\s+(" + NUM + r") sec\b")


def opennmt_values(line):
    """OpenNMT-py's report: '[2020-02-09 07:30:02,326 INFO] Step 100/100000; acc:   4.41; ppl:
    8355.35; xent: 9.03; lr: 0.00001; 15248/15953 tok/s;     60 sec' (source and target tokens per
    second since the previous report, and seconds since training started); 'Validation perplexity'
    lines print no time."""
    m = ONMT_STEP.search(line)
    return [float(m.group(1)), float(m.group(2)), float(m.group(3))] if m else []


TIMM_TRAIN = re.compile(r"^Train: \d+ \[\s*\d+/\d+ \(\s*\d+%\)\]  Loss: .*?  Time: (" + NUM + r")s,\s+(" + NUM +
                        r")/s\s+\((" + NUM + r")s,\s+(" + NUM + r")/s\)  LR: \S+  Data: (" + NUM + r") \((" + NUM +
                        r")\)")
TIMM_TEST = re.compile(r"^Test(?: \(EMA\))?: \[\s*\d+/\d+\]  Time: (" + NUM + r") \((" + NUM + r")\)")


def timm_values(line):
    """timm's train.py: 'Train: 0 [  50/10009 (  0%)]  Loss:  6.940417 (6.9492)  Time: 0.659s,  194.36/s
    (2.170s,   58.99/s)  LR: 1.000e-06  Data: 0.023 (1.435)' (the batch's seconds and images/s, their
    means since the epoch began, the data wait and its mean) and 'Test: [  50/390]  Time: 0.233 (1.233)
    Loss: ...' / 'Test (EMA): [...]  Time: ...' (seconds per batch and the mean, no unit)."""
    m = TIMM_TRAIN.match(line)
    if m:
        return [float(x) for x in m.groups()]
    m = TIMM_TEST.match(line)
    return [float(m.group(1)), float(m.group(2))] if m else []


DCGAN_STEP = re.compile(r"^\[\s*\d+ Epoch:\[\s*\d+/\s*\d+\] \[\s*\d+/\s*\d+\] time: (" + NUM + r"), d_loss: ")


def dcgan_values(line):
    """carpedm20's DCGAN-tensorflow: '[     101 Epoch:[ 0/25] [ 100/ 273] time: 77.1365, d_loss:
    1.39600825, g_loss: 0.69304067' (seconds since training began, no unit)."""
    m = DCGAN_STEP.match(line)
    return [float(m.group(1))] if m else []


GAITSET_DELTA = re.compile(r"^(\d+):(\d\d):(\d\d(?:\.\d+)?)\s*$")


def gaitset_values(line):
    """GaitSet's train loop: a bare timedelta line '0:04:19.419558' every 1000 iterations (the time
    those 1000 iterations took); 'iter 100:, hard_loss_metric=...' lines print no time."""
    m = GAITSET_DELTA.match(line)
    return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))] if m else []


TFCIFAR_STEP = re.compile(r"^Global Step:\s+\d+, accuracy:\s+\S+, loss = \S+ \((" + NUM + r") examples/sec, (" +
                          NUM + r") sec/batch\)")


def tf_cifar10_values(line):
    """A TensorFlow 1 CIFAR-10 trainer (the cifar10_train.py print): 'Global Step:    100, accuracy:
    14.1%, loss = 2.29 (612.0 examples/sec, 0.21 sec/batch)'."""
    m = TFCIFAR_STEP.match(line)
    return [float(m.group(1)), float(m.group(2))] if m else []


ELAPSED_MIN = re.compile(r"^(?:Time elapsed|Total Training Time): (" + NUM + r") min\s*$")


def elapsed_min_values(line):
    """A home-grown PyTorch loop (the helper of Raschka's course notebooks): 'Time elapsed: 3.97 min'
    after each epoch (minutes since training began) and 'Total Training Time: 4.15 min' (in seconds);
    'Epoch: 086/090 | Batch 0010/0011 | Loss: 0.170425' prints no time."""
    m = ELAPSED_MIN.match(line)
    return [float(m.group(1)) * 60] if m else []


OPENPI_READ = re.compile(r"/bytes_per_sec: (" + NUM + r") [KMGT]?i?B/s \(total bytes: [^)]*\) \(time elapsed: (" +
                         NUM + r") seconds\)")
OPENPI_RESTORE = re.compile(r"Finished restoring checkpoint in (" + NUM + r") seconds\b")


def openpi_values(line):
    """openpi (JAX, orbax) training start-up: '01:07:07.130 [I] [process=0] /jax/checkpoint/read/
    bytes_per_sec: 1.6 GiB/s (total bytes: 12.1 GiB) (time elapsed: 7 seconds) (per-host)' (the rate
    as printed and the seconds) and 'Finished restoring checkpoint in 7.61 seconds'. 'Progress on:
    -/30000 rate:- remaining:? elapsed:00:06' is a progress display; 'timeout: 7200 secs' is
    configuration."""
    m = OPENPI_READ.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = OPENPI_RESTORE.search(line)
    return [float(m.group(1))] if m else []


HYPEROPT_TOOK = re.compile(r"hyperopt\.tpe INFO\s+build_posterior_wrapper took (" + NUM + r") seconds\b")


def hyperopt_values(line):
    """hyperopt's TPE in a LightGBM pipeline's logging: '2021-09-25 15:59:35,084 hyperopt.tpe INFO
    build_posterior_wrapper took 0.002497 seconds'; the other lines ('raif_hack.model INFO     Fit
    lightgbm') are stamps."""
    m = HYPEROPT_TOOK.search(line)
    return [float(m.group(1))] if m else []


DSFD_TIMER = re.compile(r"^Timer: (" + NUM + r")\s*$")


def dsfd_values(line):
    """DSFD.pytorch's train.py: 'Timer: 0.6654' (seconds of the iteration, no unit) on its own line
    before 'epoch:35 || iter:46150 || Loss:4.9365'."""
    m = DSFD_TIMER.match(line)
    return [float(m.group(1))] if m else []


RLLIB_KEY = re.compile(r"^\s+(?:time_this_iter_s|time_total_s|time_since_restore|warmup_time|allreduce_latency|"
                       r"\w+_time_ms|\w+_throughput|mean_\w+_ms): (" + NUM + r")\s*$")
RLLIB_RUNNING = re.compile(r"^Current time: \S+ \S+ \(running for (\d+):(\d\d):(\d\d(?:\.\d+)?)\)\s*$")
RLLIB_ROW = re.compile(r"^\| \S+ \| \w+\s+\| [\d.:]+ \|\s+\d+ \|\s+(" + NUM + r") \|")


def rllib_values(line):
    """Ray Tune / RLlib (1.x) console output: each 'Result for DQN_shogi_...:' block prints
    'time_this_iter_s: 1.3878920078277588', 'time_total_s: ...', 'time_since_restore: ...',
    'warmup_time: ...', the learner's 'allreduce_latency: 0.0', 'timers:' ('learn_throughput: 1561.745',
    'learn_time_ms: 20.49', 'update_time_ms: 16.113') and 'sampler_perf:' ('mean_env_wait_ms: ...', ms per
    env step); each '== Status ==' prints 'Current time: 2022-04-22 01:29:15 (running for 00:00:15.02)'
    (time since the experiment began) and a table whose row holds 'total time (s)'. 'timestamp:
    1650590955', 'date: 2022-04-22_01-29-15' and 'cpu_util_percent' are no durations."""
    m = RLLIB_KEY.match(line)
    if m:
        # durations in seconds: the *_ms keys print milliseconds
        return [float(m.group(1)) / 1000 if line.rstrip().split(":")[0].endswith("_ms") else float(m.group(1))]
    m = RLLIB_RUNNING.match(line)
    if m:
        return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))]
    m = RLLIB_ROW.match(line)
    return [float(m.group(1))] if m else []


TFEST_RATE = re.compile(r"^INFO:tensorflow:global_step/sec: (" + NUM + r")\s*$")
TFEST_STEP = re.compile(r"^INFO:tensorflow:loss = \S+, step = \d+ \((" + NUM + r") sec\)\s*$")


def tf_estimator_values(line):
    """TensorFlow 1 Estimator (BERT run_classifier-style fine-tuning): 'INFO:tensorflow:global_step/sec:
    0.693925' (steps per second since the previous report) and 'INFO:tensorflow:loss = 0.35847408,
    step = 200 (144.108 sec)' (seconds of the last 100 steps). 'Starting evaluation at
    2019-02-18-08:07:59' is a stamp; '_save_checkpoints_secs': 600 is configuration."""
    m = TFEST_RATE.match(line) or TFEST_STEP.match(line)
    return [float(m.group(1))] if m else []


JOEY_TOKENS = re.compile(r" - joeynmt\.training - Epoch\s+\d+, Step:\s+\d+, Batch Loss:\s+\S+, Tokens per Sec:\s+(" +
                         NUM + r"), Lr: ")
JOEY_VALID = re.compile(r" - joeynmt\.training - Validation result \(\w+\) at epoch .*, duration: (" + NUM + r")s\s*$")


def joeynmt_values(line):
    """JoeyNMT 1.x: '2021-10-08 14:51:19,672 - INFO - joeynmt.training - Epoch   1, Step:      100,
    Batch Loss:     5.560523, Tokens per Sec:     4095, Lr: 0.000300' (target tokens per second since the
    previous report) and 'Validation result (greedy) at epoch   3, step     1000: bleu:   1.70, loss:
    98871.7656, ppl:  59.5687, duration: 90.9818s' (the validation's seconds)."""
    m = JOEY_TOKENS.search(line) or JOEY_VALID.search(line)
    return [float(m.group(1))] if m else []


CHAINER_SPEED = re.compile(r"^\s*(" + NUM + r") iters/sec\. Estimated time to finish: ")
CHAINER_ROW = re.compile(r"^(?:\x1b\[\d*[AJ])*\d+\s+(?:" + NUM + r"\s+)+?(" + NUM + r")\s*$")


def chainer_values(line):
    """Chainer (ChainerMN under mpiexec) trainer extensions in a batch job's output: ProgressBar
    redraws ('\x1b[4A\x1b[J     total [#####....] 13.73%', 'this epoch [...]', '159 iter, 0 epoch / 3 epochs',
    '  3.1839 iters/sec. Estimated time to finish: 0:01:00.067030.'; the rate is counted, the estimate is
    not, 'inf iters/sec' holds no number) and PrintReport rows ('\x1b[4A\x1b[J1  6.91707  0.000908467
    3627.65', whose last column is elapsed_time, seconds since training began)."""
    m = CHAINER_SPEED.match(line)
    if m:
        return [float(m.group(1))]
    m = CHAINER_ROW.match(line)
    return [float(m.group(1))] if m else []


FASTSCNN_ITER = re.compile(r" - INFO - Epoch: \[\s*\d+/\d+\] Iter \[\s*\d+/\d+\] \|\| Time: (" + NUM + r") sec \|\| ")


def fast_scnn_values(line):
    """Fast-SCNN-pytorch's train.py (Tramac) on Apple Silicon: '2025-06-12 13:31:13,075 - INFO - Epoch:
    [ 0/200] Iter [  10/1487] || Time: 3.7996 sec || lr: 0.00999973 || Loss: 2.3565' (seconds since
    training began, every 10 iterations)."""
    m = FASTSCNN_ITER.search(line)
    return [float(m.group(1))] if m else []


T2I_COST = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d, Epoch \d+ (?:Train|Val|Test), .*\bCost:? (" + NUM + r") sec\s*$")


def t2icount_values(line):
    """T2ICount's trainer (the Bayesian-crowd-counting lineage) with a year-less stamp: '04-06 22:00:33,
    Epoch 0 Train, reg:0.3237, RRC_stage1:0.7828, ..., mae:84.73, mse:100.34, Cost: 715.7 sec' and
    'Epoch 50 Val, MAE: 14.68, MSE: 64.80 Cost 239.5 sec' / 'Epoch 50 Test, ... Cost 192.6 sec' (seconds of
    the epoch's training, validation or test)."""
    m = T2I_COST.match(line)
    return [float(m.group(1))] if m else []


NER_ITER = re.compile(r" - INFO - Iter: \d+ \| .*\| Time: (\d+):(\d\d):(\d\d) \|")


def ner_iter_values(line):
    """A home-grown BiLSTM-CRF NER trainer (Chinese-Text-Classification-Pytorch style report):
    '2020-05-23 20:11:48,853 - train.log - INFO - Iter: 100 | Train Loss: 4970.5537 | Dev Loss: 56.6288 |
    Dev F1-macro: 0.0450 | Time: 0:01:09 | *' (time since the launch began, h:mm:ss)."""
    m = NER_ITER.search(line)
    return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))] if m else []


SLOWFAST_KEY = re.compile(r'"(?:dt|dt_data|dt_net|time_diff)": (' + NUM + r")")
SLOWFAST_EPOCH = re.compile(r"\] train_net\.py:\s*\d+: Epoch \d+ takes (" + NUM + r")s\. Epochs from \d+ to \d+ take (" +
                            NUM + r")s in average and (" + NUM + r")s in median\.")
SLOWFAST_ITER = re.compile(r"\] train_net\.py:\s*\d+: For epoch \d+, each iteraction takes (" + NUM +
                           r")s in average\. From epoch \d+ to \d+, each iteraction takes (" + NUM + r")s in average\.")


def pyslowfast_values(line):
    """PySlowFast (facebookresearch/SlowFast) stdout.log: '[06/21 17:58:49][INFO] logging.py:   99:
    json_stats: {"_type": "train_iter_", "dt": 19.53594, "dt_data": 18.29932, "dt_net": 1.23662, "epoch":
    "1/2", "eta": "3:22:31", ...}' (the iteration's seconds, its data wait and its network time; 'eta' is
    not counted), the train_epoch record's dt/dt_data/dt_net, val_iter's 'time_diff', 'Epoch 0 takes
    14354.32s. Epochs from 0 to 0 take 14354.32s in average and 14354.32s in median.' and 'For epoch 0,
    each iteraction takes 45.43s in average. From epoch 0 to 0, each iteraction takes 45.43s in average.'"""
    if "json_stats: {" in line:
        return [float(x) for x in SLOWFAST_KEY.findall(line)]
    m = SLOWFAST_EPOCH.search(line) or SLOWFAST_ITER.search(line)
    return [float(x) for x in m.groups()] if m else []


HYPERCDR_EPOCH = re.compile(r"^INFO:__main__:Epoch: \d+ avg_loss_\w+: .* time: (" + NUM + r")s\s*$")


def hypercdr_values(line):
    """A home-grown cross-domain recommender (Hyper_CDR) with bare Python logging: 'INFO:__main__:Epoch:
    0000 avg_loss_tgt: 299.861 time: 42.3726s' (seconds since the epoch began; the source domain's line
    that follows it is measured from the same start); 'INFO:__main__:0.0319recall_tgt:...' prints no
    time."""
    m = HYPERCDR_EPOCH.match(line)
    return [float(m.group(1))] if m else []


NF_RECON = re.compile(r"\|\s+INFO\| Reconstruction finished in (" + NUM + r") seconds\.")


def neural_field_values(line):
    """A home-grown neural-field human reconstruction trainer (NVIDIA Warp, kaolin) with '|'-separated
    logging: tqdm bars 'Epoch 1/1000:: 100%|##########| 41/41 [09:33<00:00, 13.99s/batch]', 'Marching
    cube: 100%|...| 34/34 [02:43<00:00,  4.67s/chunk]', 'Texture prediction: ...' (counted by the tqdm
    rule, CR-joined redraws on one physical line, a logging line glued after the first redraw) and
    '2025-04-28 22:03:33,070|    INFO| Reconstruction finished in 167.4495508670807 seconds.'"""
    m = NF_RECON.search(line)
    return [float(m.group(1))] if m else []


def tqdm_only_values(line):
    return []



GRPO_SAMPLE = re.compile(r"^\[timing\] sample processed in (" + NUM + r")s\s*$")
GRPO_PHASE = re.compile(r"^(?:Sampling|Logprob forward|Reward \+ Adv|Backward):\s+(" + NUM + r")s\s*$")
GRPO_SLOW = re.compile(r"Sampling slow: (" + NUM + r")s, steps=\d+\s*$")
GRPO_WARN = re.compile(r"^  Time: (" + NUM + r")s \(too slow\)\s*$")


def home_grown_grpo_values(line):
    """A home-grown GRPO post-training loop for Gemma-2-2B with LoRA (JunyiJ/PostTraining-LLM-Small):
    '[timing] sample processed in 74.50s' (the whole step for one prompt), the profiler block under it
    'Sampling:          46.03s', 'Logprob forward:   2.95s', 'Reward + Adv:      2.58s',
    'Backward:          22.20s' (also under '=== PROFILER ===' at the end of an epoch, where they are
    the epoch's sums), the sampler's warning '\u26a0\ufe0f Sampling slow: 46.0s, steps=158' and the
    '\U0001f6a8 SAMPLING WARNING' block's '  Time: 224.34s (too slow)'. The generated answers quote
    durations ('passes a pole in 10 seconds', 'f = 3s'): not timing of the run."""
    for rx in (GRPO_SAMPLE, GRPO_PHASE, GRPO_WARN):
        m = rx.match(line)
        if m:
            return [float(m.group(1))]
    m = GRPO_SLOW.search(line)
    return [float(m.group(1))] if m else []


TACO_STEP = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\]  Step \d+\s+\[(" + NUM + r") sec/step, loss=")
TACO_FEED = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\]  Generated \d+ batches of size \d+ in (" + NUM +
                       r") sec\s*$")


def keithito_tacotron_values(line):
    """keithito/tacotron's train.py (here slyedoc/vae_tacotron, TensorFlow 1) writing
    logs-tacotron/train.log: '[2019-01-22 01:40:38.739]  Step 50      [1.986 sec/step, loss=0.99249,
    avg_loss=1.07273]' (the mean of the last 100 steps' seconds, a moving window) and the DataFeeder's
    '[2019-01-22 01:39:06.225]  Generated 32 batches of size 32 in 8.125 sec'. 'Loaded metadata for
    13100 examples (23.94 hours)' is the corpus's audio length, not timing."""
    m = TACO_STEP.match(line) or TACO_FEED.match(line)
    return [float(m.group(1))] if m else []


SOCKEYE_SPEED = re.compile(r"\] Epoch\[\d+\] Batch \[\d+\]\tSpeed: (" + NUM + r") samples/sec (" + NUM +
                           r") tokens/sec (" + NUM + r") updates/sec\b")
SOCKEYE_CKPT = re.compile(r"\] Checkpoint \[\d+\]\tUpdates=\d+ Epoch=\d+ Samples=\d+ Time-cost=(" + NUM +
                          r") Updates/sec=(" + NUM + r")\s*$")


def sockeye_values(line):
    """Sockeye 1.18 (MXNet backend) model/log: '[2018-08-28:13:41:56:INFO:sockeye.training:__call__]
    Epoch[0] Batch [50]\tSpeed: 76.66 samples/sec 1820.19 tokens/sec 0.35 updates/sec\tperplexity=...'
    (three rates over the last 50 batches) and '[2018-08-28:14:56:26:INFO:sockeye.training:fit]
    Checkpoint [1]\tUpdates=4000 Epoch=0 Samples=1070440 Time-cost=4626.838 Updates/sec=0.865' (seconds
    of the checkpoint interval and its update rate). The stamp is '[YYYY-MM-DD:HH:MM:SS:LEVEL:...' with
    colons, not a duration."""
    m = SOCKEYE_SPEED.search(line) or SOCKEYE_CKPT.search(line)
    return [float(x) for x in m.groups()] if m else []


BIOIE_EPOCH = re.compile(r"^\[I\|Train\] Epoch took (\d+):(\d\d):(\d\d), predicted \d+:\d\d:\d\d left\s*$")


def home_grown_bioie_values(line):
    """cambridgeltl/functional-genomics-ie's BERT multi-head tagger trainer (home-grown, PyTorch, 2 TITAN
    GPUs): '[I|Train] Epoch took 00:01:10, predicted 00:05:50 left' (the epoch's hh:mm:ss in seconds; the
    predicted time left is an ETA, not counted)."""
    m = BIOIE_EPOCH.match(line)
    return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))] if m else []


DSN_EPOCH = re.compile(r"^epoch \d+ : train \((" + NUM + r") sec\): .* \| valid \((" + NUM + r") sec\): ")


def deepsleepnet_values(line):
    """DeepSleepNet's trainer (akaraspt/deepsleepnet, TensorFlow 1) as hongnguyen1306/Deepsleepnet_check
    runs it: 'epoch 1 : train (517.15 sec): n=215300, loss=1.609 (0.000), acc=0.198, ... | valid (3.22
    sec): n=5400, loss=1.609 (0.000), ...' (the epoch's training and validation seconds)."""
    m = DSN_EPOCH.match(line)
    return [float(m.group(1)), float(m.group(2))] if m else []


DARKNET_ITER = re.compile(r"^\s*\d+: " + NUM + r", " + NUM + r" avg loss, " + NUM + r" rate, (" + NUM +
                          r") seconds, \d+ images, " + NUM + r" hours left\s*$")
DARKNET_LOADED = re.compile(r"^Loaded: (" + NUM + r") seconds\s*$")


def darknet_values(line):
    """AlexeyAB darknet `detector train` (YOLOv4-tiny): ' 113: 140.081894, 190.257812 avg loss, 0.000000 rate,
    0.592299 seconds, 5424 images, 0.404300 hours left' (the iteration's seconds; 'rate' is the learning rate and
    'hours left' an ETA, neither counted) and 'Loaded: 0.000040 seconds' (the wait for the next batch)."""
    m = DARKNET_ITER.match(line) or DARKNET_LOADED.match(line)
    return [float(m.group(1))] if m else []


JDE_TRAIN = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[INFO\]:\s+\d+/\d+\s+\d+/\d+(?:\s+" + NUM + r"){5}\s+(" +
                       NUM + r")\s*$")
JDE_TEST = re.compile(r"^\s+\d+\s+\d+(?:\s+" + NUM + r"){3}\s+(" + NUM + r")s\s*$")
JDE_EXTRACT = re.compile(r"^Extracting \d+/\d+, # of instances \d+, time (" + NUM + r") sec\.\s*$")


def jde_values(line):
    """Towards-Realtime-MOT (JDE) train.py: '2021-01-25 06:04:17 [INFO]:     0/29      40/165     0.172      1.99
    18.7       149      81.4      7.12' (the last column 'time' is the seconds of the batch just done, no unit; the
    first batch after an evaluation prints '3.57e+03', the evaluation included), test.test()'s '       1312
    30353    0.00108    0.00216    0.00108       2.01s' (seconds of that test batch) and test_emb()'s 'Extracting
    40/438, # of instances 2641, time 2.00 sec.'. The header line '... Epoch  Batch  box ... time' holds none."""
    m = JDE_TRAIN.match(line) or JDE_TEST.match(line) or JDE_EXTRACT.match(line)
    return [float(m.group(1))] if m else []


NNUNET_EPOCH = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: This epoch took (" + NUM + r") s\s*$")
NNUNET_SAVE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: done, saving took (" + NUM + r") seconds\s*$")


def nnunet_v1_values(line):
    """nnU-Net v1 (nnUNetTrainerV2) training_log_*.txt: '2022-02-10 14:07:03.990716: This epoch took 307.517389 s'
    (the epoch's seconds, train + validation) and '2022-02-10 14:07:03.129326: done, saving took 0.89 seconds'
    (a checkpoint save). 'lr: 0.01', dates and the split/dice lines are no durations."""
    m = NNUNET_EPOCH.match(line) or NNUNET_SAVE.match(line)
    return [float(m.group(1))] if m else []


STARGAN_EPOCH = re.compile(r"^(?:Time Elapsed for This Epoch|Training Time): (\d+):(\d\d):(\d\d)\s*$")


def stargan_vc_values(line):
    """StarGAN-Voice-Conversion (TensorFlow 1) train.py: 'Time Elapsed for This Epoch: 00:02:46' (the epoch's
    h:mm:ss, in seconds) and 'Training Time: 04:44:00' (the run total). 'Iteration: 0000012, Generator Learning Rate:
    0.0002000, ...' prints no time; TensorFlow's '2019-04-03 03:58:56.201767: I tensorflow/...' lines are stamps."""
    m = STARGAN_EPOCH.match(line)
    return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))] if m else []


CNNGRAPH_TIME = re.compile(r"\btime: (\d+)s \(wall (\d+)s\)")


def cnn_graph_values(line):
    """mdeff's cnn_graph (ChebNet graph CNN, TensorFlow 1) as RGCNN's point-cloud trainer prints it, all on one
    physical line (the run printed no newlines): 'step 15 / 4000 (epoch 0.07 / 20):  learning_rate = 1.00e-03,
    loss_average = 1.49e-01  validation accuracy: 0.4439 (272744 / 614400), iou (weighted): 0.1135, loss: 1.83e+00
    time: 3456s (wall 310s)' (process CPU seconds and wall seconds since the run began, both counted); the bare
    numbers glued between the reports are per-batch loss values, not timing."""
    out = []
    for m in CNNGRAPH_TIME.finditer(line):
        out += [float(m.group(1)), float(m.group(2))]
    return out

# ---- the eighth unseen set (bench/unseen8-logs.tsv) ----
_NUM = r'[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?'


def _clock(s):
    """'h:mm:ss(.ffff)' or 'mm:ss' -> seconds; also 'N day(s), h:mm:ss'."""
    s = s.strip()
    days = 0
    m = re.match(r'(\d+) days?, (.*)', s)
    if m:
        days = int(m.group(1))
        s = m.group(2)
    parts = [float(p) for p in s.split(':')]
    sec = 0.0
    for p in parts:
        sec = sec * 60 + p
    return days * 86400 + sec


def _found(m, first=float):
    """The groups of match m as numbers (the first read by `first`), or []."""
    if not m:
        return []
    g = m.groups()
    return [first(g[0])] + [float(x) for x in g[1:]]


# tqdm bar segment, possibly cut off at the end of a line
_TQDM_SEG = re.compile(r'\d+%\|[^|\n]*\|\s*\d+/\d+(?:\s*\[[^\]\r\n]*\]?)?')

# ---------------------------------------------------------------------------
# maskrcnn-benchmark (MLPerf v0.6 NVIDIA Mask R-CNN submission log)
_MRB_TIME = re.compile(r'\btime: (' + _NUM + r') \((' + _NUM + r')\)\s+data: (' + _NUM + r') \((' + _NUM + r')\)')
_MRB_INFER = re.compile(r'Total inference time: (\d+:\d+:\d+(?:\.\d+)?) \((' + _NUM + r') s / img per device')
_MRB_TRAIN = re.compile(r'Total training time: (\d+:\d+:\d+(?:\.\d+)?) \((' + _NUM + r') s / it\)')
_MRB_DONE = re.compile(r'\b(?:DONE|Done) \(t=(' + _NUM + r')s\)')
_MLPERF_TPUT = re.compile(r'&&&& MLPERF METRIC THROUGHPUT=(' + _NUM + r')')
_MLPERF_TIME = re.compile(r'&&&& MLPERF METRIC TIME=\s*(' + _NUM + r')')
_RESULT_SECS = re.compile(r'^RESULT,[A-Z_]+,[^,]*,(\d+),')


def maskrcnn_benchmark_values(line):
    """maskrcnn-benchmark trainer lines 'eta: ... time: A (B)  data: C (D)'
    (window median and global average of iteration and data time: 4 values;
    eta is skipped), 'Total inference time: h:mm:ss (X s / img per device ...)'
    (2), pycocotools 'DONE (t=1.23s)' / 'Done (t=..s)' (1), 'Total training
    time: h:mm:ss (X s / it)' (2), the '&&&& MLPERF METRIC THROUGHPUT=...
    iterations / s' rate and 'MLPERF METRIC TIME=' seconds (1 each), and the
    run_and_time 'RESULT,OBJECT_DETECTION,,11611,...' seconds (1).  tqdm bars
    of the per-epoch COCO evaluation (CR redraws, 8 ranks interleaved) and
    ':::MLL <epoch-seconds>' stamps are not counted."""
    out = []
    if _TQDM_SEG.search(line):
        line = _TQDM_SEG.sub(' ', line)
    out += _found(_MRB_TIME.search(line))
    out += _found(_MRB_INFER.search(line), _clock)
    out += _found(_MRB_TRAIN.search(line), _clock)
    out += [float(x) for x in _MRB_DONE.findall(line)]
    out += _found(_MLPERF_TPUT.search(line))
    out += _found(_MLPERF_TIME.search(line))
    out += _found(_RESULT_SECS.match(line))
    return out


# ---------------------------------------------------------------------------
# HugeCTR 2.1 (MLPerf v0.7 NVIDIA DLRM submission log)
_HCTR_ITER = re.compile(r'Iter: \d+ Time\(\d+ iters\): (' + _NUM + r')s')
_HCTR_EVAL = re.compile(r'Eval Time for \d+ iters: (' + _NUM + r')s')
_HCTR_HIT = re.compile(r' in (' + _NUM + r') s\. Average speed (' + _NUM + r') records/s')
_HCTR_RESULT = re.compile(r'^RESULT,DLRM,(' + _NUM + r'),')


def hugectr_values(line):
    """HugeCTR '[20d02h08m28s][HUGECTR][INFO]: Iter: 1000 Time(1000 iters):
    3.878739s Loss: ...' (the seconds for the 1000-iteration window: 1 value),
    'Eval Time for 681 iters: 3.22s' (1), the closing 'Hit target accuracy ...
    in 249.55 s. Average speed 15116554.55 records/s.' (2) and
    'RESULT,DLRM,15116554.55,root' (records/s rate, 1).  The
    '[20dHHhMMmSSs]' day/clock stamps, the '[405902, eval_start, ...]'
    millisecond stamps and ':::MLLOG time_ms' are stamps, not values."""
    return (_found(_HCTR_ITER.search(line)) + _found(_HCTR_EVAL.search(line)) + _found(_HCTR_HIT.search(line)) +
            _found(_HCTR_RESULT.match(line)))


# ---------------------------------------------------------------------------
# NVIDIA RNN-T with DLLogger (MLPerf v1.0 Dell submission log, CRLF lines)
_RNNT_UTTS = re.compile(r'utts/s\s+(' + _NUM + r')')
_RNNT_TOOK = re.compile(r'\|\s*took\s+(' + _NUM + r') s')
_MLLOG_TPUT = re.compile(r'"key": "throughput", "value": (' + _NUM + r')')


def nvidia_rnnt_dllogger_values(line):
    """DLLogger lines 'DLL <date> <time.us> - epoch N | iter i/272 | loss L |
    utts/s 4171 | took 0.25 s | lrate ...' (rate + seconds: 2 values),
    epoch summaries '| avg train utts/s 3779 | took 73.70 s' (2), dev
    evaluation '| dev ema wer 50.17 | took 0.46 s' (1), ':::MLLOG' records
    with key "throughput" (utts/s, 1) and the run_and_time
    'RESULT,RNN_SPEECH_RECOGNITION,,4116,...' seconds (1).  'DLL ... -
    PARAMETER |' config lines and time stamps are not counted; every line
    ends in CRLF (docker exec -it)."""
    out = []
    if 'DLL ' in line and ' - epoch ' in line:
        out += [float(x) for x in _RNNT_UTTS.findall(line)]
        out += [float(x) for x in _RNNT_TOOK.findall(line)]
    out += _found(_MLLOG_TPUT.search(line))
    out += _found(_RESULT_SECS.match(line))
    return out



# ---------------------------------------------------------------------------
# NVIDIA GNMT (PyTorch seq2seq, MLPerf v0.5 NVIDIA submission log, 8 ranks)
_GNMT_TV = re.compile(r'^\d+: (?:TRAIN|VALIDATION) \[\d+\]\[\d+/\d+\]\tTime (' + _NUM + r') \((' + _NUM + r')\)\tData (' + _NUM + r') \((' + _NUM + r')\)\tTok/s (' + _NUM + r') \((' + _NUM + r')\)')
_GNMT_TEST = re.compile(r'^\d+: TEST \[\d+\]\[\d+/\d+\]\tTime (' + _NUM + r') \((' + _NUM + r')\)\tDecoder iters \S+ \(\S+\)\tTok/s (' + _NUM + r') \((' + _NUM + r')\)')
_GNMT_PERF = re.compile(r'(?:Training|Validation): (' + _NUM + r') Tok/s')


def nvidia_gnmt_seq2seq_values(line):
    """Rank-prefixed ('0: ' .. '7: ') lines of the NVIDIA GNMT trainer:
    'N: TRAIN [e][i/3416]\tTime A (B)\tData C (D)\tTok/s E (F)\tLoss/tok ...'
    and the same for VALIDATION (iteration time, running average, data time,
    running average, tokens/s, running average: 6 values), 'N: TEST [e][i/n]
    \tTime A (B)\tDecoder iters ..\tTok/s E (F)' (4 values; decoder
    iteration counts are not times), 'N: Performance: Epoch: e\tTraining:
    N Tok/s[\tValidation: N Tok/s]' (1-2) and 'RESULT,RNN_TRANSLATOR,,1124,...'
    seconds (1).  ':::MLPv0.5.0 gnmt <epoch-seconds> (file:line) key' lines
    are stamps only; Learning Rate [..] and Loss/tok are not timing."""
    out = []
    out += _found(_GNMT_TV.match(line))
    out += _found(_GNMT_TEST.match(line))
    if 'Performance: Epoch:' in line:
        out += [float(x) for x in _GNMT_PERF.findall(line)]
    out += _found(_RESULT_SECS.match(line))
    return out


# ---------------------------------------------------------------------------
# Swin-Transformer main.py (log_rank0.txt of a fork)
_SWIN_TRAIN = re.compile(r'INFO Train: \[\d+/\d+\]\[\d+/\d+\]\teta \S+ .*\ttime (' + _NUM + r') \((' + _NUM + r')\)')
_SWIN_TEST = re.compile(r'INFO Test: \[\d+/\d+\]\tTime (' + _NUM + r') \((' + _NUM + r')\)')
_SWIN_EPOCH = re.compile(r'INFO EPOCH \d+ training takes (\d+:\d\d:\d\d(?:\.\d+)?)')
_SWIN_TOTAL = re.compile(r'INFO Training time (\d+:\d\d:\d\d(?:\.\d+)?)')


def swin_transformer_values(line):
    """Swin-Transformer logger lines '[2023-12-21 22:44:51 swin_tiny_...]
    (main.py 311): INFO Train: [e/150][i/924]\teta 0:00:56 lr ..\t wd ..\t
    time A (B)\tloss ..' (batch time and its running average: 2 values; the
    eta clock is skipped), 'INFO Test: [i/185]\tTime A (B)\t...' (2),
    'INFO EPOCH e training takes 0:00:31' (1) and, if present, the closing
    'INFO Training time h:mm:ss' (1).  The bracketed second-resolution stamps
    are not values."""
    out = []
    out += _found(_SWIN_TRAIN.search(line))
    out += _found(_SWIN_TEST.search(line))
    out += _found(_SWIN_EPOCH.search(line), _clock)
    out += _found(_SWIN_TOTAL.search(line), _clock)
    return out


# ---------------------------------------------------------------------------
# YOLACT train.py JSON-lines log (logs/yolact_base.log)
_YOLACT_ELAPSED = re.compile(r'"elapsed": (' + _NUM + r')')


def yolact_jsonl_values(line):
    """One JSON object per line.  {"type": "train", ..., "data": {...,
    "elapsed": 0.366}, "time": 1607422676.03} gives the iteration's own
    seconds (1 value); {"type": "val", "data": {"elapsed": 7.97, ...}} the
    validation pass seconds (1).  "type": "session" lines are the per-launch
    config dump; the trailing "time" epoch stamp on every line is a stamp,
    not a value."""
    if '"type": "session"' in line:
        return []
    return [float(x) for x in _YOLACT_ELAPSED.findall(line)]


# ---------------------------------------------------------------------------
# NVIDIA Tacotron2/WaveGlow trainer with old DLLogger (':::NVLOGv0.2.2')
_NVLOG_KV = re.compile(r'^:::NVLOGv[\d.]+ \S+ [\d.]+ \([^)]*\) (iter_time|train_iter_items/sec|train_epoch_items/sec|train_epoch_avg_items/sec|epoch_time|run_time): (' + _NUM + r')')
_NVLOG_TOTAL = re.compile(r'^training time (' + _NUM + r')')


def nvidia_waveglow_nvlog_values(line):
    """':::NVLOGv0.2.2 Tacotron2_PyT <epoch-seconds> (logger.py:251) key: value'
    records, one key per line.  Counted keys: iter_time (seconds per
    iteration), train_iter_items/sec (rate), train_epoch_items/sec and
    train_epoch_avg_items/sec (rates), epoch_time and run_time (seconds), plus
    the bare 'training time 417.61' line.  train_iter_start/stop and
    train_epoch_start/stop carry iteration/epoch numbers, not times; the
    epoch-seconds after the model name are stamps; 'Batch: i/312 epoch e'
    progress lines carry no time."""
    m = _NVLOG_KV.match(line)
    if m:
        return [float(m.group(2))]
    m = _NVLOG_TOTAL.match(line)
    if m:
        return [float(m.group(1))]
    return []


# --- the ninth unseen set (tests/data/unseen9) ---

# ---------------------------------------------------------------------------
# DBNet.pytorch (WenmuZhou) trainer, python logging 'YYYY-mm-dd HH:MM:SS,mmm DBNet INFO:'
_DB_ITER = re.compile(r'DBNet INFO: \[\d+/\d+\], \[\d+/\d+\], global_step: \d+, speed: (' + NUM +
                      r') samples/sec, .*, lr:\S+, time:(' + NUM + r')\s*$')
_DB_EPOCH = re.compile(r'DBNet INFO: \[\d+/\d+\], train_loss: \S+, time: (' + NUM + r'), lr: ')
_DB_FPS = re.compile(r'DBNet INFO: FPS:(' + NUM + r')\s*$')


def dbnet_pytorch_values(line):
    """'... DBNet INFO: [38/200], [2/604], global_step: 13100, speed: 13.8
    samples/sec, acc: ..., loss: ..., , lr:0.000847883, time:0.73' (rate and
    the seconds since the previous iteration line: 2 values), the epoch
    summary '[38/200], train_loss: 1.0320, time: 542.3107, lr: ...' (epoch
    seconds, 1) and the evaluation's 'FPS:0.3246' (rate, 1).  lr, losses,
    acc/iou and the 110 pretty-printed config dumps are not time; the
    asctime stamps are stamps."""
    m = _DB_ITER.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _DB_EPOCH.search(line) or _DB_FPS.search(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# home-grown TF2 Transformer (PanXiebit/transformer-tf2.0 log_train.txt)
_TF2_TAKEN = re.compile(r'^Time taken for 1 epoch: (' + NUM + r') secs\s*$')


def home_grown_tf2_transformer_values(line):
    """'Time taken for 1 epoch: 56.124008655548096 secs', printed after every
    logged batch (a misplaced print): the seconds since the epoch started,
    cumulative within the epoch (1 value).  'Epoch 1 Loss 4.1730 Accuracy
    0.0000', the shape prints and 'Saving checkpoint for epoch 5 at ...'
    carry no time; the TensorFlow start-up lines have stamps only."""
    m = _TF2_TAKEN.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# home-grown THGNN trainer (phananhlocpal/thgnn log_train.txt)
_THGNN_EP = re.compile(r'^\s*\[(?:Fold \d+ )?Ep \d+(?:/\d+)?\].*\|\s*(' + NUM + r')s\s*$')


def home_grown_thgnn_values(line):
    """Cross-validation epochs '  [Fold 1 Ep 001] tr_loss=0.2590 tr_auc=0.4949
    | val_auc=0.3667 val_f1=0.4351 thr=0.62 | 2.5s' and final-training epochs
    '[Ep 001/20] loss=0.3885 train_auc=0.5146 lr=3.33e-05 | 3.2s' (epoch
    seconds, 1 value each).  AUC/F1 tables and the classification report are
    not time; there are no stamps."""
    m = _THGNN_EP.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# Caffe solver (glog) inside py-faster-rcnn / R-FCN
_CAFFE_ITER = re.compile(r'solver\.cpp:\d+\] Iteration \d+ \((' + NUM + r') iter/s, (' + NUM + r')s/\d+ iters\)')
_PYFRCNN_SPEED = re.compile(r'^speed: (' + NUM + r')s / iter\s*$')


def caffe_values(line):
    """glog 'I0401 08:05:55.118290  5674 solver.cpp:218] Iteration 119900
    (2.95174 iter/s, 6.77566s/20 iters), loss = 0.135465' (rate and the
    seconds for the 20-iteration display window: 2 values) and
    py-faster-rcnn's Timer 'speed: 0.350s / iter' (1).  'Train net output',
    'Iteration N, lr = ...', the numpy count arrays and '-- skip count --'
    are not time; the glog month-day stamps are stamps."""
    m = _CAFFE_ITER.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _PYFRCNN_SPEED.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# DGL node-classification sampling example (train_sampling.py style output)
_DGL_STEP = re.compile(r'^Epoch \d+ \| Step \d+ \| Loss \S+ \| Train Acc \S+ \| Time (' + NUM +
                       r') \| Speed \(samples/sec\) (\S+) \| GPU ')
_DGL_EPOCH = re.compile(r'^Epoch Time\(s\): (' + NUM + r')\s*$')


def dgl_sampling_values(line):
    """'Epoch 00000 | Step 00020 | Loss 1.9194 | Train Acc 0.5801 | Time 0.9820
    | Speed (samples/sec) 519.3363 | GPU 0.0 MB' (step seconds and the
    running-average samples/sec: 2 values; on step 0 the speed is 'nan', so
    only the time counts) and 'Epoch Time(s): 390.0861' (1).  The layer-wise
    inference tqdm bars count once each through tqdm_values; 'Eval Acc',
    'GPU ... MB' and the markdown fences are not time."""
    m = _DGL_STEP.match(line)
    if m:
        out = [float(m.group(1))]
        if re.fullmatch(NUM, m.group(2)):
            out.append(float(m.group(2)))
        return out
    m = _DGL_EPOCH.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# home-grown BYOL linear evaluation (hyeok-jong/BYOL_v1 linear.out)
_BYOL_EP = re.compile(r'^Train epoch \d+, total time (' + NUM + r'), accuracy:')


def home_grown_byol_values(line):
    """'Train epoch 8, total time 18.90, accuracy:12.23' (epoch seconds, 1
    value).  The wandb banner (its run name carries a '[2022-08-28 00:24:12]'
    stamp), the ResNet-50 repr and 'False' prints are not time."""
    m = _BYOL_EP.match(line)
    return [float(m.group(1))] if m else []


# --- the tenth unseen set (tests/data/unseen10) ---

# ---------------------------------------------------------------------------
# home-grown ShuffleFaceNet trainer (MobileFaceNet_Pytorch lineage),
# mbfaria/ShuffleFaceNet_Pytorch model/CASIA_ShuffleFaceNet_20200204_195134/log.log
_SFN_EPOCH = re.compile(r'^\d{8}-\d\d:\d\d:\d\d\s+total_loss: \S+ time: (?:(\d+)h )?(\d+)m (\d+)s\s*$')


def home_grown_shufflefacenet_values(line):
    """'20200204-20:09:01     total_loss: 24.7161 time: 15m 1s' (the train
    epoch's duration written as minutes and seconds: 901 s, 1 value).  The
    'Train Epoch: 1/70 ...', 'Test Epoch: 5 ...', '    ave: 87.3500' and
    'Saving checkpoint: 10' lines carry only their 'YYYYmmdd-HH:MM:SS'
    stamps; ave (LFW accuracy) and total_loss are not time."""
    m = _SFN_EPOCH.match(line)
    if not m:
        return []
    return [int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + int(m.group(3))]


# ---------------------------------------------------------------------------
# home-grown ASGL spiking-network trainer (Windere/ASGL-SNN log/train.log)
_ASGL_ELAPSED = re.compile(r' - INFO: Time elasped: (' + NUM + r')\s*$')


def home_grown_asgl_snn_values(line):
    """'2023-03-19 09:54:38,969 - INFO: Time elasped: 15.817720174789429'
    (sic 'elasped'): seconds since the epoch's training loop began, printed
    every 100 of 390 steps, so cumulative within the epoch and restarting
    each epoch (1 value).  The 'Epoch [0/300], Step [100/390], Loss: ...'
    continuation lines, the epoch summaries 'Epoch 0: train loss ..., train
    acc ..., test acc ...', 'Saving custom_model..', the hyper-parameter
    list and the ResNet repr carry no time."""
    m = _ASGL_ELAPSED.search(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# home-grown Keras PSPNet fine-tuning (HoustonJ2013/Capstone_DL_Object_detection train_log.txt)
_PSP_ITER = re.compile(r'^\d+/\d+ in \d+ epoch finished at time (?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?) '
                       r'from start, Loss is \S+ Acc is \S+\s*$')


def home_grown_keras_pspnet_values(line):
    """'0/10105 in 0 epoch finished at time 0:00:23.953285 from start, Loss is
    0.542636 Acc is 0.851258' (a datetime.timedelta: seconds since the
    script's start clock, cumulative over the whole run, 1 value).  The
    Namespace line, 'No. 10105 of batches for each epoch', 'The GPU memory
    has to be more than 4.370000 Gb' and 'Saved model to disk' are not
    time; Loss/Acc are not time."""
    m = _PSP_ITER.match(line)
    if not m:
        return []
    return [int(m.group(1) or 0) * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60 + float(m.group(4))]


# ---------------------------------------------------------------------------
# MMClassification 0.x on mmcv 1.x (EpochBasedRunner + TextLoggerHook)
_MMCLS_ITER = re.compile(r' - mmcls - INFO - Epoch \[\d+\]\[\d+/\d+\]\tlr: \S+, eta: [^,]*(?:, \d+:\d\d:\d\d)?, '
                         r'time: (' + NUM + r'), data_time: (' + NUM + r'), memory: \d+, ')


def mmcv_mmcls_values(line):
    """'2022-10-08 17:17:20,545 - mmcls - INFO - Epoch [1][100/5005]\\tlr:
    1.000e-01, eta: 1 day, 10:55:11, time: 0.251, data_time: 0.066, memory:
    3058, loss: 6.9620' (mean iteration seconds and mean data seconds over
    the 100-iteration window: 2 values).  eta is an estimate, memory is MB,
    lr/loss are not time; 'Epoch(val) [1][196]\\taccuracy_top-1: ...',
    'Saving checkpoint at 10 epochs', 'Now best checkpoint is saved as ...'
    carry only their stamps.  The config dump and the hook table
    ('(LOW         ) IterTimerHook') are not time."""
    m = _MMCLS_ITER.search(line)
    return [float(m.group(1)), float(m.group(2))] if m else []


# ---------------------------------------------------------------------------
# home-grown TF1 FaceBoxes trainer (610265158/faceboxes-tensorflow log.log)
_FB_ITER = re.compile(r'\] \[INFO\] epoch \d+: iter \d+, total_loss=.*\((' + NUM + r') examples/sec; (' + NUM +
                      r') sec/batch\) fetch data time = (' + NUM + r')run time = (' + NUM + r')\s*$')


def home_grown_faceboxes_tf_values(line):
    """'[2019-07-28 16:10:57,490] [INFO] epoch 4: iter 2330, total_loss=5.18
    ... learn_rate =1.000000e-03 (33.7 examples/sec; 0.949 sec/batch) fetch
    data time = 0.799685run time = 0.148984 ' (rate, the printed
    iteration's seconds, its data-fetch seconds and its session-run seconds
    - 'run time' glued to the previous number: 4 values).  The
    '**************val_loss 5.197523' / 'A new low loss model saved as ...'
    lines, TensorFlow device lines and tensorpack '[0728 15:45:56 @...]'
    warnings carry stamps only; learn_rate and losses are not time."""
    m = _FB_ITER.search(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# home-grown PyTorch k-fold classifier (610265158/torch_classfier_com log.log)
_TCC_TRAIN = re.compile(r'\[fold \d+\], Train Step \d+, summary_loss: \S+, accuracy: \S+, time: (' + NUM +
                        r'), speed (' + NUM + r') images/persec\s*$')
_TCC_VAL = re.compile(r'\[fold \d+\], Val Step \d+, summary_loss: \S+, acc: \S+, time: (' + NUM + r')\s*$')
_TCC_EPOCH = re.compile(r'\[fold \d+\], \[RESULT\]: (?:Train|VAL)\. Epoch: \d+, summary_loss: \S+, a\w+: \S+, time:(' +
                        NUM + r')\s*$')


def home_grown_torch_classifier_values(line):
    """'[fold 0], Train Step 10, summary_loss: 2.147573, accuracy: 0.195652,
    time: 0.199544, speed 160 images/persec' (the printed step's seconds and
    its images/sec: 2 values), 'Val Step 10, ..., time: 0.406002' (seconds
    since the validation pass began, cumulative: 1), '[RESULT]: Train.
    Epoch: 0, summary_loss: ..., acuracy: ..., time:124.03813' (train epoch
    seconds: 1) and '[RESULT]: VAL. Epoch: 0, ..., time:126.47093' (seconds
    since the train epoch began, i.e. train + validation: 1).  'warm up with
    learning rate: [0.000002]', 'learning rate: [...]', ' for class 1, acc
    ...', 'A model saved to ...' and the apex AMP banner are not time."""
    m = _TCC_TRAIN.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _TCC_VAL.search(line) or _TCC_EPOCH.search(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# home-grown ConcatBERT (MulT-style trainer) on MM-IMDb (IsaacRodgz/ConcatBERT train_log.txt)
_CB_BATCH = re.compile(r'^Epoch\s+\d+ \| Batch\s+\d+/\s*\d+ \| Time/Batch\(ms\) (' + NUM + r') \| Train Loss \S+\s*$')
_CB_EPOCH = re.compile(r'^Epoch\s+\d+ \| Time (' + NUM + r') sec \| Train Acc ')


def home_grown_concatbert_values(line):
    """'Epoch  1 | Batch 100/972 | Time/Batch(ms) 691.84 | Train Loss 0.7241'
    (mean milliseconds per batch over the last 100 batches: 0.69184 s, 1
    value) and 'Epoch  1 | Time 1041.3202 sec | Train Acc 21.7959 | ...'
    (train + validation + test seconds of the epoch: 1).  'F1 score:',
    'Accuracy:', the dashed rules and 'Saved model at ...' are not time."""
    m = _CB_BATCH.match(line)
    if m:
        return [float(m.group(1)) / 1000.0]
    m = _CB_EPOCH.match(line)
    return [float(m.group(1))] if m else []


# --- the eleventh unseen set (tests/data/unseen11) ---

# ---------------------------------------------------------------------------
# PaddleClas (ppcls engine, PaddlePaddle 2.3), robinbg/PaddleClas output/train.log
_PPCLS_ITER = re.compile(r'^\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\] ppcls INFO: \[(?:Train|Eval)\]\[Epoch \d+(?:/\d+)?\]'
                         r'\[Iter: \d+/\d+\].*, batch_cost: (' + NUM + r')s, reader_cost: (' + NUM +
                         r'), ips: (' + NUM + r') (?:samples/s|images/sec)(?:, eta: .*)?\s*$')


def paddleclas_values(line):
    """'[2022/10/07 21:46:45] ppcls INFO: [Train][Epoch 1/400][Iter: 10/98]lr(LinearWarmup):
    0.00002245, CELoss: 6.93595, loss: 6.93595, batch_cost: 0.49343s, reader_cost: 0.00027,
    ips: 259.40864 samples/s, eta: 5:22:17' and '[Eval][Epoch 1][Iter: 10/25]CELoss: ...,
    top1: ..., top5: ..., batch_cost: 0.71648s, reader_cost: 0.39282, ips: 357.30297
    images/sec' (mean seconds per iteration and mean reader seconds since the epoch's 5th
    iteration - the first print of an epoch is iteration 0 alone - and the rate: 3 values).
    eta is an estimate; lr, losses and top-k are not time.  '[Train][Epoch 1/400][Avg]...',
    '[Eval][Epoch 1][Avg]...', '[Eval][Epoch 1][best metric: ...]', 'Already save model in
    ...', the banner and the config dump carry only their stamps."""
    m = _PPCLS_ITER.match(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# PaddleOCR (tools/train.py, ppocr program.py of 2.6), ChenJie666/PaddleOCR_CarPlate
# output/rec_chinese_lite_v2.0/train.log (CRLF, GBK bytes in the label-error lines)
_PPOCR_ITER = re.compile(r'^\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\] root INFO: epoch: \[\d+/\d+\], iter: \d+, .*'
                         r'reader_cost: (' + NUM + r') s, batch_cost: (' + NUM + r') s, samples: \d+, ips: (' +
                         NUM + r')\s*$')


def paddleocr_values(line):
    """'[2022/12/12 13:25:40] root INFO: epoch: [1/500], iter: 10, lr: 0.001000, loss:
    254.144928, acc: 0.000000, norm_edit_dis: 0.000000, reader_cost: 2.98897 s, batch_cost:
    5.33197 s, samples: 704, ips: 13.20337' (reader seconds and batch seconds per iteration,
    averaged over the 10-iteration print window, and samples/s of the window: 3 values;
    'samples' is a count).  The label-parsing 'root ERROR: When parsing line ...' lines,
    'The shape of model params ... not matched' lines, 'save model in ...', the config dump
    ('print_batch_step : 10', 'eval_batch_step : [0, 2000]') carry no time."""
    m = _PPOCR_ITER.match(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# BAAF-Net / RandLA-Net style trainer (PyTorch port), huixiancheng/My_BAAF_with_SemanticKITTI
_BAAF_STEP = re.compile(r'^\[\d{8} \d\d:\d\d:\d\d\]\[INFO\] Step \d+ L_out=\S+ Acc=\S+ ---\s*(' + NUM +
                        r') ms/batch\s*$')


def home_grown_baaf_values(line):
    """'[20221127 22:30:55][INFO] Step 00000050 L_out=13.618 Acc=0.43 ---  862.44 ms/batch'
    (the printed batch's milliseconds: 0.86244 s, 1 value; printed every 50 steps).
    '****EPOCH 1****', 'eval accuracy: 0.60...', 'mean IOU:0.21...', 'Mean IoU = 21.1%',
    the per-class IoU row and 'Best m_IoU is: 21.119' carry only their stamps."""
    m = _BAAF_STEP.match(line)
    return [float(m.group(1)) / 1000.0] if m else []


# ---------------------------------------------------------------------------
# DiT-style train.py (facebookresearch/DiT logger with ANSI-coloured stamps) run under
# accelerate, captured from a terminal: ahmedgh970/traffic-diffuser log.txt
_DIT_STEP = re.compile(r'\x1b\[34m\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\x1b\[0m\] \(step=\d+\) Train Loss: \S+, '
                       r'Train Steps/Sec: (' + NUM + r')\s*$')


def dit_values(line):
    """'[\\x1b[34m2024-07-18 18:59:44\\x1b[0m] (step=0000013) Train Loss: 0.5001, Train
    Steps/Sec: 0.51' (steps per second over the 13 steps since the last print: 1 value, a
    rate).  'Beginning epoch 1...', 'Saved checkpoint to ...', 'Done!', 'Experiment
    directory created ...', 'TrafficDiffuser-S Parameters: 11,475,104', the accelerate
    defaults, the shell prompts and the torch.distributed.elastic '[2024-07-19
    10:12:11,604] ...' lines carry no time value."""
    m = _DIT_STEP.search(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------------------
# WS-DAN + SAC fine-grained classifier (ImageNet-example AverageMeter prints, no stamps),
# 17314796423/WS_DAN_SAC train.log
_WSDAN_TRAIN = re.compile(r'^Epoch: \[\d+\]\[\d+/\d+\]\tTime (' + NUM + r') \((' + NUM + r')\)\tData (' +
                          NUM + r') \((' + NUM + r')\)\tLoss ')
_WSDAN_TEST = re.compile(r'^Test: \[\d+/\d+\]\tTime (' + NUM + r') \((' + NUM + r')\)\tLoss ')


def home_grown_wsdan_values(line):
    """'Epoch: [1][160/250]\\tTime 1.151 (1.175)\\tData 0.356 (0.370)\\tLoss 5.2086 (5.2454)'
    (the printed batch's seconds and the epoch's running mean, its data seconds and their
    running mean: 4 values) and 'Test: [10/242]\\tTime 0.646 (0.638)\\tLoss ...' (2
    values).  The 'Prec@1 ...' / 'cos_sim_loss ...' / 'loss1,loss2,loss3,...' lines under
    each print, ' * Prec@1 ...', 'Start epoch 3 ==========,lr=0.001000', 'Save best model
    at ...' and the parameter lists are not time."""
    m = _WSDAN_TRAIN.match(line) or _WSDAN_TEST.match(line)
    return [float(g) for g in m.groups()] if m else []


# --- the twelfth unseen set (tests/data/unseen12) ---

# ---------------------------------------------------------------------------
# PaddleSeg (paddleseg/core/train.py of 2.3, PaddlePaddle 2.2, launched with
# paddle.distributed.launch), Shun14/ENCNet-paddle log/workerlog.0
_PPSEG_TRAIN = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[INFO\]\t\[TRAIN\] epoch: \d+, iter: \d+/\d+, .*'
                          r'batch_cost: (' + NUM + r'), reader_cost: (' + NUM + r'), ips: (' + NUM +
                          r') samples/sec \| ETA .*$')


def paddleseg_values(line):
    """'2021-11-23 20:45:58 [INFO]\\t[TRAIN] epoch: 1, iter: 10/80000, loss: 6.8504, lr:
    0.009999, batch_cost: 1.5401, reader_cost: 0.12922, ips: 1.2986 samples/sec | ETA
    34:13:14' (mean seconds per iteration and mean reader seconds over the 10-iteration
    print window, and samples/s: 3 values; no units on the first two).  ETA is an estimate;
    loss and lr are not time.  The environment and config dumps, the glog 'W1123
    20:45:25.962155 ...' lines, the nccl/topology lines and the FLOPs count at the end
    ('Total Flops: 437453619200     Total Params: 52608512') carry no time."""
    m = _PPSEG_TRAIN.match(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# PaddleDetection (ppdet.engine trainer, RT-DETR), douling843/M2S-DETR
# log/default.lwmmle.0.log
_PPDET_STAMP = r'^\[\d\d/\d\d \d\d:\d\d:\d\d\] '
_PPDET_ITER = re.compile(_PPDET_STAMP + r'ppdet\.engine INFO: Epoch: \[\d+\] \[\s*\d+/\d+\] .* eta: \S+ '
                         r'batch_cost: (' + NUM + r') data_cost: (' + NUM + r') ips: (' + NUM +
                         r') images/s\s*$')
_PPDET_FPS = re.compile(_PPDET_STAMP + r'ppdet\.engine INFO: Total sample number: \d+, average FPS: (' +
                        NUM + r')\s*$')
_COCO_DONE = re.compile(r'^(?:DONE|Done) \(t=(' + NUM + r')s\)\.?\s*$')


def ppdet_values(line):
    """'[08/02 02:44:23] ppdet.engine INFO: Epoch: [0] [  0/464] learning_rate: 0.000000
    loss_class: ... eta: 13:53:14 batch_cost: 1.4965 data_cost: 0.0003 ips: 1.3365 images/s'
    (smoothed seconds per iteration, data seconds, images/s: 3 values; eta is an estimate,
    the losses and learning_rate are not time), '[08/02 02:48:58] ppdet.engine INFO: Total
    sample number: 232, average FPS: 9.339532106662555' (the evaluation's rate, 1 value) and
    pycocotools' 'Done (t=0.08s)' / 'DONE (t=0.48s).' (1 value).  'Eval iter: 100', 'Save
    checkpoint: output/...', 'Best test bbox ap is 0.756.', the AP/AR table and the
    DeprecationWarning lines carry no time."""
    m = _PPDET_ITER.match(line) or _PPDET_FPS.match(line) or _COCO_DONE.match(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# PaddleVideo (paddlevideo/tasks/train.py, 2.x), justld/3D-ResNets_paddle log/train.log
_PPVID_STEP = re.compile(r'^\[\d\d/\d\d \d\d:\d\d:\d\d\] epoch:\[\s*\d+/\d+\s*\] (?:train|val) step:\d+\s+.*'
                         r'batch_cost: (' + NUM + r') sec, reader_cost: (' + NUM + r') sec, ips: (' +
                         NUM + r') instance/sec\.\s*$')
_PPVID_END = re.compile(r'^\[\d\d/\d\d \d\d:\d\d:\d\d\] END epoch:\d+\s+(?:train|val) .*'
                        r'avg_batch_cost: (' + NUM + r') sec, avg_reader_cost: (' + NUM +
                        r') sec, batch_cost_sum: (' + NUM + r') sec, avg_ips: (' + NUM +
                        r') instance/sec\.\s*$')


def paddlevideo_values(line):
    """'[12/25 14:22:40] epoch:[  1/25 ] train step:0    loss: 4.97011 lr: 0.010000 top1:
    0.01562 top5: 0.04688 batch_cost: 7.44212 sec, reader_cost: 7.01723 sec, ips: 8.59970
    instance/sec.' and the same for 'val step:0' (that iteration's seconds and reader
    seconds and the rate: 3 values), '[12/25 14:25:53] END epoch:1   train loss_avg: ...
    avg_batch_cost: 6.85139 sec, avg_reader_cost: 6.42886 sec, batch_cost_sum: 199.92121
    sec, avg_ips: 47.69879 instance/sec.' and 'END epoch:1   val ...' (4 values).  lr,
    losses and top-k are not time; 'Already save the best model (top1 acc)0.4396', 'training
    Res18 finished' and the config dump carry only their stamps."""
    m = _PPVID_STEP.match(line) or _PPVID_END.match(line)
    return [float(g) for g in m.groups()] if m else []


# ---------------------------------------------------------------------------
# CIRKD (winycg/CIRKD train_kd.py: semantic-segmentation knowledge distillation,
# logging module), aaryangrg/CIRKD logs/kd_l1_b0_kld/deeplabv3_resnet101_resnet18_log.txt
_CIRKD_STAMP = r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} semantic_segmentation INFO: '
_CIRKD_ITER = re.compile(_CIRKD_STAMP + r'Iters: \d+/\d+ \|\| .*\|\| Cost Time: (\d+):(\d\d):(\d\d) \|\| '
                         r'Estimated Time: .*$')
_CIRKD_TOTAL = re.compile(_CIRKD_STAMP + r'Total training time: (\d+):(\d\d):(\d\d(?:\.\d+)?) \((' + NUM +
                          r')s / it\)\s*$')


def cirkd_values(line):
    """'2023-10-02 23:08:57,029 semantic_segmentation INFO: Iters: 10/20000 || Lr: 0.019992 ||
    Task Loss: 3.2864 || KD Loss: 1.6073|| Cost Time: 0:00:20 || Estimated Time: 11:13:35'
    (the seconds since training started, h:mm:ss: 1 value; Estimated Time is an estimate,
    Lr and the losses are not time) and the last line 'Total training time:
    4:49:16.701480 (0.8678s / it)' (the total and the seconds per iteration: 2 values).
    'Start validation, Total sample: 250', the per-sample 'Sample: 216, Validation pixAcc:
    0.027, mIoU: 0.002' lines, 'Overall validation pixAcc: ...' and the Namespace line carry
    only their stamps."""
    m = _CIRKD_ITER.match(line)
    if m:
        h, mi, s = m.groups()
        return [int(h) * 3600 + int(mi) * 60 + int(s)]
    m = _CIRKD_TOTAL.match(line)
    if m:
        h, mi, s, per = m.groups()
        return [int(h) * 3600 + int(mi) * 60 + float(s), float(per)]
    return []



# ---------------------------------------------------------------------------
# the thirteenth unseen set (tests/data/unseen13)
# demucs-style trainer (ApiaoSamaa/audio_sep): progress lines print a rate in it/sec.
_DEMUCS = re.compile(
    r"^- (?:Train|Valid) \| Epoch \d+ \| \d+/\d+ \| (" + NUM + r") it/sec \| Loss " + NUM
    + r" \| Reco " + NUM + r" \| (?:Grad " + NUM + r" \| Penalty " + NUM + r"|Nsdr " + NUM + r")\r?$")


def demucs_values(line):
    m = _DEMUCS.match(line)
    return [float(m.group(1))] if m else []


# minGPT trainer (karpathy/minGPT callback as used in ccc-ai0/minGPT): iter_dt in ms.
_MINGPT = re.compile(r"^iter_dt (" + NUM + r")ms; iter \d+: train loss " + NUM + r"\r?$")


def mingpt_values(line):
    m = _MINGPT.match(line)
    return [float(m.group(1)) / 1000.0] if m else []



# bash `time` output (appears in the xnmt, ncrfpp and gensim notes): real/user/sys like "real\t26m20.354s".
_BASHTIME = re.compile(r"^(?:real|user|sys)\s+(\d+)m(" + NUM + r")s\s*$")


def _bash_time(line):
    m = _BASHTIME.match(line)
    return [int(m.group(1)) * 60 + float(m.group(2))] if m else []


def _dhms(s):
    d, hms = s.split("-")
    h, m, sec = hms.split(":")
    return int(d) * 86400 + int(h) * 3600 + int(m) * 60 + int(sec)


# XNMT (neulab/xnmt): "[task] Epoch 0.0756: train_loss/word=8.3 (steps=19, words/sec=8054.45, time=0-00:00:05)".
_XNMT_TRAIN = re.compile(r"^\[[^\]]+\] Epoch " + NUM + r": train_loss/word=" + NUM
                         + r" \(steps=\d+, words/sec=(" + NUM + r"), time=(\d+-\d+:\d\d:\d\d)\)\s*$")
_XNMT_DEV = re.compile(r"^\[[^\]]+\] Epoch " + NUM + r" dev BLEU4: .*\(time=(\d+-\d+:\d\d:\d\d)\)\s*$")
_XNMT_CKPT = re.compile(r"^\s+checkpoint took (\d+-\d+:\d\d:\d\d)\s*$")


def xnmt_values(line):
    m = _XNMT_TRAIN.match(line)
    if m:
        return [float(m.group(1)), float(_dhms(m.group(2)))]
    m = _XNMT_DEV.match(line) or _XNMT_CKPT.match(line)
    if m:
        return [float(_dhms(m.group(1)))]
    return _bash_time(line)


# NCRF++ (jiesutd/NCRFpp).
_NCRF_INST = re.compile(r"^\s+Instance: \d+; Time: (" + NUM + r")s; loss: " + NUM + r"; acc: \d+/\d+=" + NUM + r"\s*$")
_NCRF_EPOCH = re.compile(r"^Epoch: \d+ training finished\. Time: (" + NUM + r")s, speed: (" + NUM
                         + r")st/s,\s+total loss: " + NUM + r"\s*$")
_NCRF_EVAL = re.compile(r"^(?:Dev|Test|raw): time:\s?(" + NUM + r")s, speed:\s?(" + NUM + r")st/s; acc: .*$")


def ncrfpp_values(line):
    m = _NCRF_INST.match(line)
    if m:
        return [float(m.group(1))]
    m = _NCRF_EPOCH.match(line) or _NCRF_EVAL.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    return _bash_time(line)


# gensim Word2Vec/FastText logging ("%(asctime)s : %(levelname)s : %(message)s").
_GS = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} : INFO : "
_GS_PROG = re.compile(_GS + r"EPOCH \d+ - PROGRESS: at " + NUM + r"% examples, (\d+) words/s, in_qsize \d+, out_qsize \d+\s*$")
_GS_EPOCH = re.compile(_GS + r"(?:EPOCH - \d+ : training on|training on a) \d+ raw words \(\d+ effective words\) took ("
                       + NUM + r")s, (\d+) effective words/s\s*$")


def gensim_values(line):
    m = _GS_PROG.match(line)
    if m:
        return [float(m.group(1))]
    m = _GS_EPOCH.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    return _bash_time(line)



# ---------------------------------------------------------------------------
# the fourteenth unseen set (tests/data/unseen14)
def _f(x):
    return float(x)


# ---------------------------------------------------------------- pygcn
# [2022-06-26 21:43:42,483]iter:0020 loss_train: 2.1153 acc_train: 0.3594 time: 0.1659s
PYGCN_ITER = re.compile(
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\]iter:\d+ loss_train: " + NUM +
    r" acc_train: " + NUM + r" time: (" + NUM + r")s$")
# [2022-06-27 05:56:21,505]Total time elapsed: 3680.2636s
PYGCN_TOTAL = re.compile(
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\]Total time elapsed: (" + NUM + r")s$")


def pygcn_values(line):
    m = PYGCN_ITER.match(line)
    if m:
        return [_f(m.group(1))]
    m = PYGCN_TOTAL.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- prednet-paddle
# Epoch 0, Step 25, total used time 7.178124904632568 (s), avg loss so far is 0.1097...
PREDNET_STEP = re.compile(
    r"^Epoch \d+, Step \d+, total used time (" + NUM + r") \(s\), avg loss so far is " +
    NUM + r"$")


def prednet_paddle_values(line):
    m = PREDNET_STEP.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- srn-deblur-tf
# Epoch 131: average_loss = 0.00484 (17.6 data/s; 119.66 s/epoch), 2019-05-27 22:52:44
SRN_EPOCH = re.compile(
    r"^Epoch \d+: average_loss = " + NUM + r" \((" + NUM + r") data/s; (" + NUM +
    r") s/epoch\), \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def srn_deblur_tf_values(line):
    m = SRN_EPOCH.match(line)
    if m:
        return [_f(m.group(1)), _f(m.group(2))]
    return []


# ---------------------------------------------------------------- rcn-tf (IMON)
# *Dec01-2035*  2019-12-01 13:06:24 Steps 80, Total time 5.90, data 0.01%. Loss 3.924e+01 lr 1.000e-04
# "data 0.01%" is a share of the Total time on the same line: not counted.
RCN_STEP = re.compile(
    r"^\*[A-Z][a-z]{2}\d\d-\d{4}\*  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Steps \d+, Total time (" +
    NUM + r"), data " + NUM + r"%\. Loss " + NUM + r" lr " + NUM + r"$")


def rcn_tf_values(line):
    m = RCN_STEP.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-mtcnn
# cost time  1.4422030448913574
MTCNN_COST1 = re.compile(r"^cost time  (" + NUM + r")$")
# cost time pnet-- 1.4768810272216797   rnet-- 0.020955324172973633
MTCNN_COST2 = re.compile(r"^cost time pnet-- (" + NUM + r")   rnet-- (" + NUM + r")$")
# once, a numpy DeprecationWarning from stderr cuts the line after "rnet-- ";
# the pnet value still counts; the rnet value lands alone on a later line
# ("0.02931952476501465") with no label and is not counted.
MTCNN_COST2_CUT = re.compile(r"^cost time pnet-- (" + NUM + r")   rnet-- /\S+\.py:\d+: DeprecationWarning: .*$")


def home_grown_mtcnn_values(line):
    m = MTCNN_COST1.match(line)
    if m:
        return [_f(m.group(1))]
    m = MTCNN_COST2.match(line)
    if m:
        return [_f(m.group(1)), _f(m.group(2))]
    m = MTCNN_COST2_CUT.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-vfi
# [000500/50000] X4K    | loss 0.0488 | VRAM 9.8/15.9GB (62%) | GPU 0% | 3.04 it/s | ETA 271.3 min | batch 16
# the ETA is a remaining-time estimate: not counted.
VFI_STEP = re.compile(
    r"^\[\d+/\d+\] [A-Z0-9]+ +\| loss " + NUM + r" \| VRAM " + NUM + r"/" + NUM +
    r"GB \(\d+%\) \| GPU \d+% \| (" + NUM + r") it/s \| ETA " + NUM +
    r" min \| batch \d+$")


def home_grown_vfi_values(line):
    m = VFI_STEP.match(line)
    if m:
        return [_f(m.group(1))]
    return []



# ---------------------------------------------------------------------------
# the sixteenth unseen set (tests/data/unseen16)
# ---------------------------------------------------------------- edsr
# EDSR-PyTorch trainer (used by HNCT): '[1600/16000]\t[L1: 0.0816]\t72.1+19.7s'
_EDSR_ITER = re.compile(r"^\[\d+/\d+\]\t(?:\[[^\]]+\])+\t(" + NUM + r")\+(" + NUM + r")s$")
_EDSR_FWD = re.compile(r"^Forward: (" + NUM + r")s$")
_EDSR_TOTAL = re.compile(r"^Total: (" + NUM + r")s$")


def edsr_values(line):
    line = line.rstrip("\r")
    m = _EDSR_ITER.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _EDSR_FWD.match(line) or _EDSR_TOTAL.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-east
# '2021-05-03 03:54:30,231 [MainThread  ] [INFO ]  Epoch is [1/600], mini-batch is
#  [30/1600], time consumption is 0.83459949, batch_loss is 4.06646585'
_EAST_STEP = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \[[^\]]*\] \[INFO \]  Epoch is \[\d+/\d+\], "
    r"mini-batch is \[\d+/\d+\], time consumption is (" + NUM + r"), batch_loss is " + NUM + r"$")


def home_grown_east_values(line):
    line = line.rstrip("\r")
    m = _EAST_STEP.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-voxelmorph
# UTF-16LE file (BOM, CRLF).  Decoded line:
# 'epoch: 0001  step: 1/100    time: 12.74 sec  loss: -0.050625  (-0.050625, 0.000000)'
# The function also accepts the line if a reader left NUL bytes / BOM in it.
_VXM_STEP = re.compile(
    r"^epoch: \d+\s+step: \d+/\d+\s+time: (" + NUM + r") sec\s+loss: " + NUM
    + r"\s+\(" + NUM + r", " + NUM + r"\)\s*$")


def home_grown_voxelmorph_values(line):
    line = line.replace("\x00", "").replace("\ufeff", "").replace("\ufffd", "").replace("\xff\xfe", "")
    line = line.rstrip("\r").strip()
    m = _VXM_STEP.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- yolox
_YOLOX_STAMP = r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \| [A-Z]+ +\| [\w.]+:\w+:\d+ - "
_YOLOX_ITER = re.compile(
    _YOLOX_STAMP + r"epoch: \d+/\d+, iter: \d+/\d+, mem: \d+Mb, iter_time: (" + NUM
    + r")s, data_time: (" + NUM + r")s, .*, ETA: [\d:]+(?: days?, [\d:]+)?$")
_YOLOX_DONE = re.compile(_YOLOX_STAMP + r"(?:Done|DONE) \(t=(" + NUM + r")s\)\.?$")
_YOLOX_COCO_DONE = re.compile(r"^(?:Done|DONE) \(t=(" + NUM + r")s\)\.?$")
_YOLOX_INFER = re.compile(
    r"^Average forward time: (" + NUM + r") ms, Average NMS time: (" + NUM
    + r") ms, Average inference time: (" + NUM + r") ms$")


def yolox_values(line):
    line = line.rstrip("\r")
    m = _YOLOX_ITER.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _YOLOX_DONE.match(line) or _YOLOX_COCO_DONE.match(line)
    if m:
        return [float(m.group(1))]
    m = _YOLOX_INFER.match(line)
    if m:
        return [float(m.group(i)) / 1000.0 for i in (1, 2, 3)]
    return []



# ---------------------------------------------------------------------------
# the fifteenth unseen set (tests/data/unseen15)
# ---------------------------------------------------------------- home-grown-g2p
# Epoch 01 | Train Loss: 0.1752 | Val Loss: 0.1233 | Val PER: 0.0338 | Time: 37.9s
_G2P_EPOCH = re.compile(
    r"^Epoch \d+ \| Train Loss: " + NUM + r" \| Val Loss: " + NUM +
    r" \| Val PER: " + NUM + r" \| Time: (" + NUM + r")s$")


def home_grown_g2p_values(line):
    m = _G2P_EPOCH.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-awe
# 2024-06-17 16:43:11,171 - INFO - Epoch: 1, Avg_loss: 0.507, Duration: 3.65s
# ... Duration: 1.03s, Average_precission: 0.153[, Average_corr: -0.021]
_AWE_EPOCH = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - INFO - Epoch: \d+, Avg_loss: " + NUM +
    r", Duration: (" + NUM + r")s(?:, Average_precission: " + NUM +
    r"(?:, Average_corr: " + NUM + r")?)?$")


def home_grown_awe_values(line):
    m = _AWE_EPOCH.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- ltsf-exp-main
# \tspeed: 0.3320s/iter; left time: 7503.0597s   (left time is an ETA: not counted)
_LTSF_SPEED = re.compile(
    r"^\tspeed: (" + NUM + r")s/iter; left time: " + NUM + r"s$")
# Epoch: 1 cost time: 73.52644205093384
_LTSF_COST = re.compile(r"^Epoch: \d+ cost time: (" + NUM + r")$")


def ltsf_exp_main_values(line):
    m = _LTSF_SPEED.match(line)
    if m:
        return [_f(m.group(1))]
    m = _LTSF_COST.match(line)
    if m:
        return [_f(m.group(1))]
    return []


# ---------------------------------------------------------------- home-grown-qwen3-pt
# step   47700 | loss 1.4684 | lr 1.79e-04 | grad 0.075 | 113.4k tok/s | mfu 114.07%
_QWEN_STEP = re.compile(
    r"^step +\d+ \| loss " + NUM + r" \| lr " + NUM + r" \| grad " + NUM +
    r" \| (" + NUM + r")(k?) tok/s \| mfu " + NUM + r"%$")


def home_grown_qwen3_pt_values(line):
    m = _QWEN_STEP.match(line)
    if m:
        v = _f(m.group(1))
        if m.group(2) == "k":
            v *= 1000.0
        return [v]
    return []


# ---------------------------------------------------------------- home-grown-dsz3
# [Step 1/100] Loss: 5.0507 | Global Tokens/s: 1376.92 | GPU Mem (GB): 6.49 | Peak Mem: 21.31
_DSZ3_STEP = re.compile(
    r"^\[Step \d+/\d+\] Loss: " + NUM + r" \| Global Tokens/s: (" + NUM +
    r") \| GPU Mem \(GB\): " + NUM + r" \| Peak Mem: " + NUM + r"$")
# [2025-10-28 20:50:34,397] [INFO] [timer.py:264:stop] epoch=0/micro_step=3/global_step=3,
#   RunningAvgSamplesPerSec=6.64, CurrSamplesPerSec=6.64, MemAllocated=13.0GB, MaxMemAllocated=21.31GB
_DSZ3_TIMER = re.compile(
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] \[INFO\] \[timer\.py:\d+:stop\] "
    r"epoch=\d+/micro_step=\d+/global_step=\d+, RunningAvgSamplesPerSec=(" + NUM +
    r"), CurrSamplesPerSec=(" + NUM + r"), MemAllocated=" + NUM +
    r"GB, MaxMemAllocated=" + NUM + r"GB$")


def home_grown_dsz3_values(line):
    m = _DSZ3_STEP.match(line)
    if m:
        return [_f(m.group(1))]
    m = _DSZ3_TIMER.match(line)
    if m:
        return [_f(m.group(1)), _f(m.group(2))]
    return []



# ---------------------------------------------------------------------------
# the seventeenth unseen set (tests/data/unseen17)
def _f17(s):
    return float(s.replace(",", ""))


# ---------------------------------------------------------------- nanochat
_NANOCHAT_UV = re.compile(r"^(?:Resolved|Audited) \d+ packages in (" + NUM + r")ms$")
_NANOCHAT_TOKTRAIN = re.compile(r"^Training time: (" + NUM + r")s$")
_NANOCHAT_STEP = re.compile(
    r"^step \d+(?:/\d+)? \(" + NUM + r"%\) \| loss: " + NUM + r" \| lrm: " + NUM +
    r" \| dt: (" + NUM + r")ms \| tok/sec: ([\d,]+) \| (?:bf16_)?mfu: " + NUM +
    r" \| epoch: \d+(?: pq: \d+ rg: \d+)? \| total time: (" + NUM + r")m(?: \| eta: " + NUM + r"m)?$")
_NANOCHAT_TOTAL = re.compile(r"^Total training time: (" + NUM + r")m$")
_NANOCHAT_WANDB = re.compile(r"^wandb: +(total_training_time|train/dt|train/tok_per_sec) (" + NUM + r")$")


def nanochat_values(line):
    m = _NANOCHAT_STEP.match(line)
    if m:
        return [_f17(m.group(1)) / 1000.0, _f17(m.group(2)), _f17(m.group(3)) * 60.0]
    m = _NANOCHAT_UV.match(line)
    if m:
        return [_f17(m.group(1)) / 1000.0]
    m = _NANOCHAT_TOKTRAIN.match(line)
    if m:
        return [_f17(m.group(1))]
    m = _NANOCHAT_TOTAL.match(line)
    if m:
        return [_f17(m.group(1)) * 60.0]
    m = _NANOCHAT_WANDB.match(line)
    if m:
        # wandb run summary: total_training_time and train/dt in seconds, tok_per_sec a rate
        return [_f17(m.group(2))]
    return []



# ---------------------------------------------------------------- maniskill-ppo (cleanrl-style hyper-PPO)
_MANISKILL_PPO_SPS = re.compile(r"^SPS: (\d+), pg_loss=" + NUM + r", v_loss=" + NUM + r"$")


def maniskill_ppo_values(line):
    m = _MANISKILL_PPO_SPS.match(line)
    if m:
        return [_f17(m.group(1))]  # cumulative env steps per second since start
    return []


# ---------------------------------------------------------------- home-grown-neuroslm
_NEUROSLM_STEP = re.compile(
    r"^\x00*step +\d+ \| loss " + NUM + r" \| lm " + NUM + r" \| ppl " + NUM + r" \| lr " + NUM +
    r" \| (\d+) tok/s \| mesoLG " + NUM + r" \| NT\[[^\]]*\]$")


def home_grown_neuroslm_values(line):
    m = _NEUROSLM_STEP.match(line.rstrip("\r"))
    if m:
        return [_f17(m.group(1))]
    return []



# ---------------------------------------------------------------------------
# the eighteenth unseen set (tests/data/unseen18)
# ---------------------------------------------------------------------------
# vac-slr: VAC-style continuous sign-language-recognition trainer
# (ResNet18 + 1D conv + BiLSTM, CTC) on PHOENIX-2014.
# Stamp: "[ Mon Dec  1 22:54:11 2025 ] "
# ---------------------------------------------------------------------------
_VACSLR_STAMP = r"\[ [A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4} \] "
_VACSLR_EPOCH = re.compile(
    r"^" + _VACSLR_STAMP + r"Epoch \d+ costs (\d+) mins (\d+) seconds$")
_VACSLR_TOTAL = re.compile(
    r"^" + _VACSLR_STAMP + r"Training costs (\d+) hours (\d+) mins (\d+) seconds$")


def vac_slr_values(line):
    line = line.rstrip("\r")
    m = _VACSLR_EPOCH.match(line)
    if m:
        return [int(m.group(1)) * 60 + int(m.group(2))]
    m = _VACSLR_TOTAL.match(line)
    if m:
        return [int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))]
    return []


# ---------------------------------------------------------------------------
# vietocr: VietOCR Trainer (VGG19-bn + seq2seq).  load time / gpu time are
# seconds summed over the last print_every (=100) iterations.
# ---------------------------------------------------------------------------
_VIETOCR_TRAIN = re.compile(
    r"^iter: \d{6} - train loss: " + NUM + r" - lr: " + NUM +
    r" - load time: (" + NUM + r") - gpu time: (" + NUM + r")$")


def vietocr_values(line):
    line = line.rstrip("\r")
    m = _VIETOCR_TRAIN.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    return []


# ---------------------------------------------------------------------------
# reid-strong-baseline: the ignite-based "baseline.train" trainer of
# reid-strong-baseline, reused for RANZCR CLiP catheter classification.
# ---------------------------------------------------------------------------
_REIDSB_STAMP = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} "
_REIDSB_DONE = re.compile(
    r"^" + _REIDSB_STAMP + r"baseline\.train INFO: Epoch \d+ done\. "
    r"Time per batch: (" + NUM + r")\[s\] Speed: (" + NUM + r")\[samples/s\]$")


def reid_strong_baseline_values(line):
    line = line.rstrip("\r")
    m = _REIDSB_DONE.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    return []


# ---------------------------------------------------------------------------
# home-grown-hsi-cons: semi-supervised RGB->hyperspectral reconstruction
# trainer (teacher/student consistency).  One line per epoch; Time is the
# whole epoch (train + valid + test + checkpoint) in seconds.
# ---------------------------------------------------------------------------
_HSICONS_EPOCH = re.compile(
    r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} - Epoch\[\d+\] Iter\[\d+\] "
    r"Time:(" + NUM + r"), main_loss: .*$")


def home_grown_hsi_cons_values(line):
    line = line.rstrip("\r")
    m = _HSICONS_EPOCH.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------------------
# home-grown-flare-nafnet: night-time lens-flare removal trainer (NAFNet /
# U-Net).  "END Taken X min" is printed once per epoch, in minutes.
# ---------------------------------------------------------------------------
_FLARE_END = re.compile(
    r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} - EPOCH\[\d+/\d+\] END "
    r"Taken (" + NUM + r") min$")


def home_grown_flare_nafnet_values(line):
    line = line.rstrip("\r")
    m = _FLARE_END.match(line)
    if m:
        return [float(m.group(1)) * 60.0]
    return []



# ---------------------------------------------------------------------------
# the twentieth unseen set (tests/data/unseen20)
# ---------------------------------------------------------------- fadnet
# FADNet's dltrainer.py (AverageMeter prints), python logging stamps.
_FADNET_STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \[[\w.]+:\d+\] INFO "
_FADNET_TRAIN = re.compile(
    r"^" + _FADNET_STAMP
    + r"Epoch: \[\d+\]\[\d+/\d+\]\tTime (" + NUM + r") \((" + NUM + r")\)"
    r"\tData (" + NUM + r") \((" + NUM + r")\)"
    r"\tLoss " + NUM + r" \(" + NUM + r"\)\tEPE " + NUM + r" \(" + NUM + r"\)$")
_FADNET_TEST = re.compile(
    r"^" + _FADNET_STAMP
    + r"Test: \[\d+/\d+\]\t Time (" + NUM + r")\t EPE " + NUM + r"$")


def fadnet_dltrainer_values(line):
    m = _FADNET_TRAIN.match(line)
    if m:
        return [float(g) for g in m.groups()]
    m = _FADNET_TEST.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- pysot
# pysot tools/train.py + pysot/utils/log_helper.py.  The per-iteration
# record is printed as one logging call with embedded newlines, so the
# batch_time/data_time meters sit on their own physical line.
_PYSOT_METERS = re.compile(
    r"^\tbatch_time: (" + NUM + r") \((" + NUM + r")\)"
    r"\tdata_time: (" + NUM + r") \((" + NUM + r")\)$")
_PYSOT_PROGRESS = re.compile(
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}-rk\d+-log_helper\.py#\s*\d+\] "
    r"Progress: \d+ / \d+ \[\d+%\], Speed: (" + NUM + r") s/iter, "
    r"ETA \d+:\d\d:\d\d \(D:H:M\)$")


def pysot_values(line):
    m = _PYSOT_METERS.match(line)
    if m:
        return [float(g) for g in m.groups()]
    m = _PYSOT_PROGRESS.match(line)
    if m:
        return [float(m.group(1))]   # the ETA is not counted
    return []


# ---------------------------------------------------------------- openpcdet
_OPENPCDET_STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\s+INFO\s+"
_OPENPCDET_CLOCK = r"\d+(?::\d\d){1,2}"
_OPENPCDET_TRAIN = re.compile(
    r"^" + _OPENPCDET_STAMP
    + r"Train:\s+\d+/\d+ \(\s*\d+%\) \[\s*\d+/\d+ \(\s*\d+%\)\]\s+"
    r"Loss: " + NUM + r" \(" + NUM + r"\)\s+LR: " + NUM + r"\s+"
    r"Time cost: (" + _OPENPCDET_CLOCK + r")/" + _OPENPCDET_CLOCK
    + r" \[(" + _OPENPCDET_CLOCK + r")/" + _OPENPCDET_CLOCK + r"\]\s+"
    r"Acc_iter \d+\s+"
    r"Data time: (" + NUM + r")\((" + NUM + r")\)\s+"
    r"Forward time: (" + NUM + r")\((" + NUM + r")\)\s+"
    r"Batch time: (" + NUM + r")\((" + NUM + r")\)$")
_OPENPCDET_EVAL = re.compile(
    r"^" + _OPENPCDET_STAMP
    + r"Generate label finished\(sec_per_example: (" + NUM + r") second\)\.$")


def _openpcdet_clock(s):
    sec = 0
    for part in s.split(":"):
        sec = sec * 60 + int(part)
    return float(sec)


def openpcdet_values(line):
    m = _OPENPCDET_TRAIN.match(line)
    if m:
        g = m.groups()
        # elapsed-in-epoch and elapsed-in-run clocks; the two remaining
        # times after the slashes are ETAs and are not counted
        return [_openpcdet_clock(g[0]), _openpcdet_clock(g[1])] + [float(x) for x in g[2:]]
    m = _OPENPCDET_EVAL.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- stylegan2-ada
# stylegan2-ada-pytorch training_loop.py status line and metric JSON lines.
_STYLEGAN2ADA_DUR = r"(?:\d+d \d+h \d+m|\d+h \d+m \d+s|\d+m \d+s|\d+s)"
_STYLEGAN2ADA_TICK = re.compile(
    r"^tick \d+\s+kimg " + NUM + r"\s+time (" + _STYLEGAN2ADA_DUR + r")\s+"
    r"sec/tick (" + NUM + r")\s+sec/kimg (" + NUM + r")\s+"
    r"maintenance (" + NUM + r")\s+cpumem " + NUM + r"\s+gpumem " + NUM
    + r"\s+augment " + NUM + r"$")
_STYLEGAN2ADA_METRIC = re.compile(
    r'^\{"results": \{.*\}, "metric": "[\w-]+", '
    r'"total_time": (' + NUM + r'), "total_time_str": "(' + _STYLEGAN2ADA_DUR + r')", '
    r'"num_gpus": \d+, "snapshot_pkl": "[^"]*", "timestamp": ' + NUM + r'\}$')


def _stylegan2ada_dur(s):
    mult = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return float(sum(int(v) * mult[u] for v, u in re.findall(r"(\d+)([dhms])", s)))


def stylegan2_ada_values(line):
    m = _STYLEGAN2ADA_TICK.match(line)
    if m:
        return [_stylegan2ada_dur(m.group(1)), float(m.group(2)),
                float(m.group(3)), float(m.group(4))]
    m = _STYLEGAN2ADA_METRIC.match(line)
    if m:
        # total_time and its rendered twin total_time_str; the unix
        # "timestamp" is a date, not a duration
        return [float(m.group(1)), _stylegan2ada_dur(m.group(2))]
    return []


# ---------------------------------------------------------------- the twenty-first unseen set
# nii-yamagishilab project-NN-Pytorch-scripts (core_scripts/op_manager/
# op_display_tools.print_train_info): one table row per epoch,
#   "      0 |         70.5 | 403.31   3.49| 268.28   2.32|   yes"
# The second column, Duration(s), is train time + dev time of the epoch.
# The losses, the epoch index and the "Start program <date>" stamps are not
# counted.
_NII_ROW = re.compile(r"^\s*\d+ \|\s*(" + NUM + r") \|")


def nii_nn_pytorch_values(line):
    m = _NII_ROW.match(line)
    return [float(m.group(1))] if m else []


# CURRENNT (C++/CUDA toolkit): one table row per epoch,
#   "     1 |    760.3 |      10.615 /     0.001/    0.000|   ..."
# The second column is the epoch Duration in seconds; the error columns,
# "Total timesteps" counts and the configuration block are not counted.
_CURRENNT_ROW = re.compile(r"^\s*\d+ \|\s*(" + NUM + r") \|")


def currennt_values(line):
    m = _CURRENNT_ROW.match(line)
    return [float(m.group(1))] if m else []


# JusperLee's Conv-TasNet / Dual-Path-RNN trainer (python logging,
# "20-02-03 21:41:56 [...trainer_Tasnet.py:145 - INFO ] Finished *** <epoch:0,
# iter:352, lr:1.000e-03, loss:34.046, Total time:4.332 min>"): the end of each
# train or validation pass prints the pass time in minutes.  The per-100-iter
# lines carry only lr and loss; the line timestamps are not counted.
_JL_TOTAL = re.compile(r"Total time:\s*(" + NUM + r")\s*min\b")


def home_grown_jusperlee_values(line):
    return [float(v) * 60.0 for v in _JL_TOTAL.findall(line)]


# ---------------------------------------------------------------- the twenty-third unseen set
# ---------------------------------------------------------------------------
# torchtitan (pytorch/torchtitan's train.py / MetricsProcessor), three logs:
#   torchtitan-attnres-lm447m.log, torchtitan-vlm447m-sft.log (both with
#   ANSI colour codes around each field) and torchtitan-npu-glm5.log (plain).
# Counted:
#   training step line  '... - root - INFO - step: 8010  loss: ... memory:
#       22.21GiB(70.83%)  tps: 1,049  tflops: 7.95  mfu: 2.55%'
#       -> tps (tokens/s, commas removed) and tflops (TFLOP/s); memory and
#          mfu (a percentage of peak) are not timing;
#   validation line      '... validate step: 9000  loss: ... tps: 4,609'
#       -> tps;
#   '[GC] ... took 0.05 seconds' (periodic, initial, checkpoint-loading and
#       checkpointer-invoked GC passes) -> the seconds;
#   'Finished loading the checkpoint in 2.41 seconds.',
#   'Finished saving the checkpoint (or staging if async is enabled) in
#       17.16 seconds.', 'Checkpointer deleted .../step-6000 in 1.50
#       seconds.' -> the seconds.
# Not counted: 'Sleeping 2 seconds for other ranks to complete' (a fixed
# sleep), 'adjusting timeout for all ProcessGroups to 0:01:40' and the HCCL
# 'watchdog timeout 300000ms ... 1836000ms' warning (configuration), the
# 'https:' of httpx request lines (not a 'tps:' field), timestamps.
# ---------------------------------------------------------------------------
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TT_STEP = re.compile(r"\[titan\].* - root - INFO - (?:validate )?step: +\d+ ")
TT_TPS = re.compile(r"(?<![\w:/])tps: +(\d[\d,]*(?:\.\d+)?)")
TT_TFLOPS = re.compile(r"(?<![\w])tflops: +(" + NUM + r")")
TT_TOOK = re.compile(r"\[titan\].* - root - INFO - \[GC\] .* took (" + NUM + r") seconds\s*$")
TT_CKPT = re.compile(r"\[titan\].* - root - INFO - (?:Finished loading the checkpoint in|"
                     r"Finished saving the checkpoint \(or staging if async is enabled\) in|"
                     r"Checkpointer deleted \S+ in) (" + NUM + r") seconds\.?\s*$")


def torchtitan_values(line):
    s = ANSI.sub("", line)
    if TT_STEP.search(s):
        out = []
        m = TT_TPS.search(s)
        if m:
            out.append(float(m.group(1).replace(",", "")))
        m = TT_TFLOPS.search(s)
        if m:
            out.append(float(m.group(1)))
        return out
    m = TT_TOOK.search(s) or TT_CKPT.search(s)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------------------
# home-grown-monarch-grpo: QIU023/torchtitan_attention_residual's phase-11
# GRPO driver (Monarch actors, torchtitan trainer, SGLang generator), which
# prints one line per RL step from the root actor:
#   '[actor=<root>] step 193  loss=18.2912  reward_mean=-0.438  dt=0.9s'
#   -> dt (the step's wall seconds: rollout generation, reward and update).
# Everything else (reward/sample echo lines, SGLang start-up, tqdm bars of
# CUDA-graph capture, tracebacks) carries no counted timing.
# ---------------------------------------------------------------------------
GRPO_STEP = re.compile(r"^\[actor=<root>\] step +\d+ .*\bdt=(" + NUM + r")s\s*$")


def home_grown_monarch_grpo_values(line):
    m = GRPO_STEP.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------- the twenty-second unseen set
# DeePMD-kit (TF backend, v2.2.7) 'dp train':
#   'DEEPMD INFO    batch    1000 training time 0.65 s, testing time 0.00 s, total wall time 0.67 s'
#   'DEEPMD INFO    average training time: 0.0066 s/batch (exclude first 100 batches)'
#   'DEEPMD INFO    wall time: 6857.409 s'
DEEPMD_BATCH = re.compile(r"\bbatch\s+\d+ training time (" + NUM + r") s, testing time (" + NUM + r") s"
                          r"(?:, total wall time (" + NUM + r") s)?")
DEEPMD_AVG = re.compile(r"\baverage training time: (" + NUM + r") s/batch\b")
DEEPMD_WALL = re.compile(r"^DEEPMD (?:rank:\d+\s+)?INFO\s+wall time: (" + NUM + r") s\b")


def deepmd_kit_values(line):
    m = DEEPMD_BATCH.search(line)
    if m:
        return [float(g) for g in m.groups() if g is not None]
    m = DEEPMD_AVG.search(line)
    if m:
        return [float(m.group(1))]          # seconds per batch: a duration
    m = DEEPMD_WALL.search(line)
    if m:
        return [float(m.group(1))]
    return []


# ProteinMPNN's training/training.py, log.txt:
#   'epoch: 1, step: 35, time: 32.1, train: 26.076, valid: 18.379, train_acc: 0.069, valid_acc: 0.086'
PROTEINMPNN = re.compile(r"^epoch: \d+, step: \d+, time: (" + NUM + r"),")


def proteinmpnn_values(line):
    m = PROTEINMPNN.match(line)
    return [float(m.group(1))] if m else []


# latteine1217/pinns-mvp's own PINN trainer (python logging):
#   '... - __main__ - INFO - Epoch   7900 | Total: 135.83 | ... | Time: 2195.7s | W_data: 1.000'
#   '... - __main__ - INFO - Training completed in 974.5s'
PINNX = re.compile(r"\| Time: (" + NUM + r")s\b|\bTraining completed in (" + NUM + r")s\b")


def home_grown_pinnx_values(line):
    return [float(a or b) for a, b in PINNX.findall(line)]


# KGAT-pytorch (LunaBlack) main_kgat.py, python logging:
#   '... - root - INFO - CF Training: Epoch 0001 Iter 0001 / 0909 | Time 2.6s | Iter Loss 0.0381 | ...'
#   (also 'KG Training: ... | Time 1.2s |', '... | Total Time 12.3s | ...', 'CF Evaluation: ... | Total Time 12.3s')
KGAT = re.compile(r"\|\s*(?:Total )?Time (" + NUM + r")s\b")


def kgat_pytorch_values(line):
    return [float(x) for x in KGAT.findall(line)]


# facebookresearch/dlrm dlrm_s_pytorch.py with --print-time, plus the
# instrumentation Denker233/dlrm_minrui added:
#   'Finished training it 31/31 of epoch 0, 4661.26 ms/it, loss 0.560811'
#   'Embedding lookup time: 66.49 ms, MLP time: 935.99 ms, interaction time: 715.69 ms '
#   'Running dlrm: 1379.19 ms, backpropagation after dlrm: 3279.15 ms, backpass: 2844.43 ms'
#   'The MLP time is 29.01566457748413'   (seconds, no unit printed)
DLRM_IT = re.compile(r"Finished (?:training|testing) it \d+/\d+ of epoch \d+, (" + NUM + r") ms/it\b")
DLRM_MS = re.compile(r"(?:Embedding lookup time|MLP time|interaction time|Running dlrm|"
                     r"backpropagation after dlrm|backpass): (" + NUM + r") ms\b")
DLRM_TOTAL = re.compile(r"^The (?:MLP|embedding|interaction|total) time is (" + NUM + r")\s*$")


def dlrm_values(line):
    m = DLRM_IT.search(line)
    if m:
        return [float(m.group(1)) / 1000.0]
    out = [float(x) / 1000.0 for x in DLRM_MS.findall(line)]
    if out:
        return out
    m = DLRM_TOTAL.match(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- the twenty-fourth unseen set
# Restormer_Paddle-main / SRMNet_Paddle-main utils/logger.py (a Paddle port of
# BasicSR's MessageLogger):
# '2023-06-10 01:01:32,116 INFO: epoch:0, iter:100, lr: 0.000150 loss: 0.209294
#  eta: 1 day, 17:15:43, time (data): 0.110'
# 'time (data)' holds ONE value, the current iteration time (iter_time); the
# eta clock is a remaining time and is not counted.
RESTORMER_PADDLE = re.compile(r"INFO: epoch:\d+, iter:\d+, .* time \(data\): (" + NUM + r")\s*$")


def home_grown_restormer_paddle_values(line):
    m = RESTORMER_PADDLE.search(line)
    return [float(m.group(1))] if m else []


# eunseon02/PointTransformer train.py:
# 'Epoch [1/500] - Train Loss: 51.9945, Validation Loss: 22.8247, Time: 140.1885s'
# (the training time of the epoch, seconds)
POINTTRANSFORMER = re.compile(r"^Epoch \[\d+/\d+\] - Train Loss: .*, Time: (" + NUM + r")s\s*$")


def home_grown_pointtransformer_values(line):
    m = POINTTRANSFORMER.match(line)
    return [float(m.group(1))] if m else []


# facebookresearch/barlowtwins main.py stats.txt, one JSON object per print:
# '{"epoch": 3, "step": 4800, "lr_weights": ..., "lr_biases": ..., "loss": ..., "time": 8576}'
# 'time' is the elapsed wall clock since the process started (int seconds).
BARLOWTWINS = re.compile(r'^\{"epoch": \d+, "step": \d+, .*"time": (' + NUM + r")\}\s*$")


def barlowtwins_values(line):
    m = BARLOWTWINS.match(line)
    return [float(m.group(1))] if m else []


# thedinaiym/Judge-in-the-Loop... GRPO trainer of FLUX.1 + LoRA:
# '[step 0003]  step=3  loss=6.827  mean_reward=13.500  mean_kl=170.667
#  parse_rate=1.000  step_sec=595.000  axis/Aesthetics=27.000 ...'
FLUX_GRPO = re.compile(r"^\[step \d+\]\s.*\bstep_sec=(" + NUM + r")")


def home_grown_flux_grpo_values(line):
    m = FLUX_GRPO.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------- the twenty-fifth unseen set
SI25 = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}


# GluonNLP scripts/bert/finetune_classifier.py (mx1.6.0rc1 era):
#   INFO:root:09:30:14 Time cost=1.77s, throughput=592.26 samples/s   (dev/test pass)
#   INFO:root:09:30:25 Time cost=35.56s                              (whole epoch)
_BC_TIME = re.compile(r"Time cost=(" + NUM + r")s\b")
_BC_RATE = re.compile(r"throughput=(" + NUM + r") samples/s")


def gluonnlp_bert_classifier_values(line):
    out = []
    for m in sorted(list(_BC_TIME.finditer(line)) + list(_BC_RATE.finditer(line)),
                    key=lambda m: m.start()):
        out.append(float(m.group(1)))
    return out


# GluonNLP scripts/bert/finetune_squad.py:
#   ... Epoch: 0, Batch: 49/7387, Loss=5.6445, lr=0.0000010 Time cost=21.1 Thoughput=28.48 samples/s
#   ... Time cost=5842.42 s, Thoughput=30.34 samples/s
_BS_TIME = re.compile(r"Time cost=(" + NUM + r")")
_BS_RATE = re.compile(r"Thoughput=(" + NUM + r") samples/s")


def gluonnlp_bert_squad_values(line):
    out = []
    for m in sorted(list(_BS_TIME.finditer(line)) + list(_BS_RATE.finditer(line)),
                    key=lambda m: m.start()):
        out.append(float(m.group(1)))
    return out


# GluonNLP scripts/machine_translation/train_transformer.py:
#   2018-06-25 19:21:20,799 - root - [Epoch 0 Batch 800/34064] loss=10.3670, ppl=31793.0480, throughput=54.01K wps, wc=6521.39K
# (wc is a word count, not timing)
_NMT_RATE = re.compile(r"throughput=(" + NUM + r")([kKMG]?) ?wps")


def gluonnlp_nmt_values(line):
    return [float(v) * SI25[p] for v, p in _NMT_RATE.findall(line)]


# GluonNLP scripts/sentiment_analysis (CNN sentence classifier):
#   Done! Tokenizing Time=0.05s, #Sentences=5452
#   [Epoch 0 Batch 30/99] avg loss 0.0354479, throughput 0.546026K wps
#   [Epoch 0] train avg loss 0.0348569, dev acc 0.2789, dev avg loss 1.65768, throughput 0.906472K wps
#   Total time cost 300.51s
_SC = re.compile(r"Tokenizing Time=(" + NUM + r")s()"
                 r"|throughput (" + NUM + r")([kKMG]?) ?wps"
                 r"|Total time cost (" + NUM + r")s()")


def gluonnlp_sentiment_cnn_values(line):
    out = []
    for m in _SC.finditer(line):
        if m.group(1) is not None:
            out.append(float(m.group(1)))
        elif m.group(3) is not None:
            out.append(float(m.group(3)) * SI25[m.group(4)])
        else:
            out.append(float(m.group(5)))
    return out


# Region-embedding text classifier (Python 2 tuple prints):
#   ('21.3200 %', 'train_loss:', '0.87...', ' train_acc:', 0.855, 'time:', 11.890928983688354)
_RE_TIME = re.compile(r"'time:', (" + NUM + r")\)")


def home_grown_region_embedding_values(line):
    return [float(v) for v in _RE_TIME.findall(line)]


# GluonNLP scripts/parsing (biaffine dependency parser):
#   Dev: UAS 85.14% LAS 82.07% 344 sents/s
_BP_RATE = re.compile(r"(" + NUM + r") sents/s")


def gluonnlp_biaffine_parser_values(line):
    return [float(v) for v in _BP_RATE.findall(line)]


# ---------------------------------------------------------------- the twenty-eighth unseen set
# --- home-grown-dsc-horovod: nikoloutsa/dsc train.horovod.pytorch.cifar10.naive.py
# under `srun -l` (every program line starts with the rank, "07: ").
DSC_EPOCH = re.compile(r"^\d+: Epoch \d+/\d+ - (" + NUM + r")s\s*$")
DSC_AVG = re.compile(r"^\d+: Average time per epoch: (" + NUM + r") s\s*$")
DSC_TOTAL = re.compile(r"^\d+: --- (" + NUM + r") seconds ---\s*$")
DSC_ELAPSED = re.compile(r"^ELAPSED: (" + NUM + r") seconds\s*$")


def home_grown_dsc_horovod_values(line):
    for rx in (DSC_EPOCH, DSC_AVG, DSC_TOTAL, DSC_ELAPSED):
        m = rx.match(line)
        if m:
            return [float(m.group(1))]
    return []


# --- mlperf-mllog: MLPerf HPC CosmoFlow (NVIDIA PyTorch implementation) on
# Polaris, ':::MLLOG {json}' lines plus the trainer's 'Epoch [i]: secs' print.
MLLOG_TRAIN_LAT = re.compile(r'"training_epoch_latency": (' + NUM + r')')
MLLOG_EVAL_LAT = re.compile(r'"eval_epoch_latency": (' + NUM + r')')
MLLOG_THROUGHPUT = re.compile(r'"key": "tracked_stats", "value": \{"throughput": (' + NUM + r')\}')
MLLOG_RUN_STOP = re.compile(r'"key": "run_stop".*"time": (' + NUM + r')')
COSMO_EPOCH = re.compile(r"^Epoch \[\d+\]: (" + NUM + r") \t score: ")


def mlperf_mllog_values(line):
    out = []
    if line.startswith(":::MLLOG "):
        # epoch_stop carries the epoch's training and eval latencies in ms
        m = MLLOG_TRAIN_LAT.search(line)
        if m:
            out.append(float(m.group(1)) / 1000.0)
        m = MLLOG_EVAL_LAT.search(line)
        if m:
            out.append(float(m.group(1)) / 1000.0)
        m = MLLOG_THROUGHPUT.search(line)
        if m:
            out.append(float(m.group(1)))  # samples/s
        m = MLLOG_RUN_STOP.search(line)
        if m:
            out.append(float(m.group(1)))  # seconds, run_start to run_stop
        # staging_stop's "staging_duration": -1662962479.37 is a broken value
        # (0 minus the start clock), not a duration: not counted.
        return out
    m = COSMO_EPOCH.match(line)
    if m:
        out.append(float(m.group(1)))
    return out


# --- tf-official-timehistory: tensorflow/models official classifier_trainer.py
# (Keras fit under MultiWorkerMirroredStrategy) with its TimeHistory callback.
TH = re.compile(r"TimeHistory: (" + NUM + r") seconds, (" + NUM + r") examples/second between steps")
CB_SLOW = re.compile(r"\(batch time: (" + NUM + r")s vs `\w+` time: (" + NUM + r")s\)")
KERAS_V2_28 = re.compile(r"^\d+/\d+ - (" + NUM + r")s - ")
AVG_EXP = re.compile(r"'avg_exp_per_second': (" + NUM + r")")


def tf_official_timehistory_values(line):
    m = TH.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = CB_SLOW.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = KERAS_V2_28.match(line)
    if m:
        return [float(m.group(1))]
    m = AVG_EXP.search(line)
    if m:
        return [float(m.group(1))]
    return []


# ---------------------------------------------------------------- the twenty-sixth unseen set
# ---------------------------------------------------------------- sample-factory
# '[2025-07-18 12:41:15,452][2131609] Fps is (10 sec: 63078.9, 60 sec: 63078.9,
#  300 sec: 63078.9). Total num frames: 315392. Throughput: 0: 14646.5. Samples:
#  73232. Policy #0 lag: (min: 0.0, avg: 0.5, max: 2.0)'  -> 3 frame rates + the
#  per-policy sample throughput; 'nan' is printed before the first window closes
#  and is not a value.
_SF_FPS = re.compile(r"Fps is \(10 sec: (\S+?), 60 sec: (\S+?), 300 sec: (\S+?)\)\.")
_SF_THR = re.compile(r"Throughput: (.*?)\. Samples:")
_SF_THR_ONE = re.compile(r"\d+: (" + NUM + r"|nan)")
# '... Updated weights for policy 0, policy_version 10 (0.0032)' -> seconds the
# inference worker spent loading the new weights
_SF_UPD = re.compile(r"Updated weights for policy \d+, policy_version \d+ \((" + NUM + r")\)")
# '... Collected {0: 4005888}, FPS: 61925.8' -> run-average frame rate
_SF_COLL = re.compile(r"Collected \{[^}]*\}, FPS: (" + NUM + r")")
# end-of-run profile trees, unstamped lines of 'name: seconds' pairs:
# 'main_loop: 64.6885', '    deserialize: 2.5305, stack: 0.2878, ...'
_SF_PROF = re.compile(r"^\s*[A-Za-z_]+: " + NUM + r"(?:, [A-Za-z_]+: " + NUM + r")*\s*$")
_SF_PROF_V = re.compile(r"[A-Za-z_]+: (" + NUM + r")")


def sample_factory_values(line):
    m = _SF_FPS.search(line)
    if m:
        out = [float(v) for v in m.groups() if v != "nan"]
        t = _SF_THR.search(line)
        if t:
            out += [float(v) for v in _SF_THR_ONE.findall(t.group(1)) if v != "nan"]
        return out
    m = _SF_UPD.search(line)
    if m:
        return [float(m.group(1))]
    m = _SF_COLL.search(line)
    if m:
        return [float(m.group(1))]
    if not line.startswith("[") and _SF_PROF.match(line):
        return [float(v) for v in _SF_PROF_V.findall(line)]
    return []


# ---------------------------------------------------------------------- pymarl
# '[INFO 04:47:29] my_main Estimated time left: 9 hours, 50 minutes, 6 seconds.
#  Time passed: 1 minutes, 24 seconds' -> the elapsed clock only (the estimate
#  is an ETA and is not counted)
_PM_PASSED = re.compile(r"Time passed: (.*)$")
_PM_UNIT = re.compile(r"(" + NUM + r") (day|hour|minute|second)s?")
_PM_SEC = {"day": 86400.0, "hour": 3600.0, "minute": 60.0, "second": 1.0}


def pymarl_values(line):
    m = _PM_PASSED.search(line)
    if not m:
        return []
    parts = _PM_UNIT.findall(m.group(1))
    if not parts:
        return []
    return [sum(float(v) * _PM_SEC[u] for v, u in parts)]


# -------------------------------------------------------------- baselines-trpo
# openai/baselines logger table row '| timelapsed      | 1.17e+03     |'
# (this TRPO fork's name for baselines' TimeElapsed: seconds since start)
_BT = re.compile(r"^\|\s*(?:timelapsed|TimeElapsed|time_elapsed)\s*\|\s*(" + NUM + r")\s*\|")


def baselines_trpo_values(line):
    m = _BT.match(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------- spinningup-progress
# Spinning Up EpochLogger progress.txt: tab-separated rows whose last column
# is 'Time' (seconds since the start of training); the header row and the
# other columns (returns, costs, losses, TotalEnvInteracts, StopIter) are not
# timing.
_SU_ROW = re.compile(r"^\d+\t")


def spinningup_progress_values(line):
    if not _SU_ROW.match(line):
        return []
    last = line.rstrip("\r").split("\t")[-1]
    if re.fullmatch(NUM, last):
        return [float(last)]
    return []


# ---------------------------------------------------------------- the twenty-seventh unseen set
def _clock27(text):
    """'19:02:39' / '0:35:52.755528' / '1 day, 2:03:04' -> seconds."""
    days = 0
    m = re.match(r"\s*(\d+) days?, (.*)$", text)
    if m:
        days = int(m.group(1))
        text = m.group(2)
    parts = [float(p) for p in text.strip().split(":")]
    sec = 0.0
    for p in parts:
        sec = sec * 60 + p
    return days * 86400 + sec


# ---------------------------------------------------------------------------
# lufficc/SSD trainer (ssd/engine/trainer.py, its own MetricLogger):
#   '... SSD.trainer INFO: iter: 000220, lr: 0.00049, total_loss: 7.303 (11.187),
#    cls_loss: 5.033 (8.538), reg_loss: 2.270 (2.649), time: 1.211 (1.322), eta: 22:03:07'
#   '... SSD.trainer INFO: Total training time: 19:02:39 (1.1426 s / it)'
_SSD_ITER = re.compile(r"SSD\.trainer INFO: iter: \d+,.*?\btime: (" + NUM + r") \((" + NUM + r")\)")
_SSD_TOTAL = re.compile(r"Total training time: ([\d:. ,a-z]+?) \((" + NUM + r") s / it\)")


def lufficc_ssd_values(line):
    m = _SSD_ITER.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = _SSD_TOTAL.search(line)
    if m:
        return [_clock27(m.group(1)), float(m.group(2))]
    return []


# ---------------------------------------------------------------------------
# Tramac/awesome-semantic-segmentation-pytorch scripts/train.py:
#   '... semantic_segmentation INFO: Iters: 10/440 || Lr: 0.000098 || Loss: 2.8932
#    || Cost Time: 0:00:39 || Estimated Time: 0:28:01'      (Cost Time = elapsed clock)
#   '... semantic_segmentation INFO: Total training time: 0:35:52.755528 (4.8926s / it)'
_TRAMAC_ITER = re.compile(r"\|\| Cost Time: (\d+(?: days?, )?[\d:]*\d(?:\.\d+)?) \|\|")
_TRAMAC_TOTAL = re.compile(r"Total training time: ((?:\d+ days?, )?[\d:]+(?:\.\d+)?) \((" + NUM + r")s / it\)")


def tramac_semseg_values(line):
    m = _TRAMAC_ITER.search(line)
    if m:
        return [_clock27(m.group(1))]
    m = _TRAMAC_TOTAL.search(line)
    if m:
        return [_clock27(m.group(1)), float(m.group(2))]
    return []


# ---------------------------------------------------------------------------
# pytracking ltr trainer as carried by OSTrack (lib/train/trainers/ltr_trainer.py):
#   '[train: 1, 50 / 1875] FPS: 25.8 (40.3)  ,  DataTime: 0.426 (0.055)  ,
#    ForwardTime: 0.757  ,  TotalTime: 1.239  ,  Loss/total: 34.11631  ,  ...'
# FPS = average and last-batch frames/s (rates); DataTime = data-loading and
# GPU-transfer time per batch; ForwardTime and TotalTime per batch (seconds).
_LTR = re.compile(r"^\[(?:train|val): \d+, \d+ / \d+\] FPS: (" + NUM + r") \((" + NUM + r")\)\s+,\s+"
                  r"DataTime: (" + NUM + r") \((" + NUM + r")\)\s+,\s+ForwardTime: (" + NUM + r")\s+,\s+"
                  r"TotalTime: (" + NUM + r")")


def pytracking_ltr_values(line):
    m = _LTR.search(line)
    if m:
        return [float(g) for g in m.groups()]
    return []


# ---------------------------------------------------------------------------
# tops (hukkelas' NTNU TDT4265 training utilities) scalar log, outputs/<cfg>/logs/scalars.json,
# one JSON object a line:
#   '{"stats/epoch_time": 71.26327991485596, "global_step": 50}'     (seconds, training part of an epoch)
#   '{"stats/total_time": 3301.1210696697235, "global_step": 2550}'   (seconds, printed once at the end)
_TOPS = re.compile(r'"stats/(?:epoch_time|total_time)": (' + NUM + r')')


def tops_scalars_values(line):
    return [float(v) for v in _TOPS.findall(line)]


# ---------------------------------------------------------------- the thirtieth unseen set
# --- LightGBM CLI (src/boosting/gbdt.cpp, src/io/dataset_loader.cpp) ---------
# [LightGBM] [Info] Finished loading data in 13.771155 seconds
# [LightGBM] [Warning] Auto-choosing row-wise multi-threading, the overhead of testing was 0.074453 seconds.
# [LightGBM] [Info] 0.445865 seconds elapsed, finished iteration 1   (cumulative training time)
S30_LGB_LOAD = re.compile(r"Finished loading data in (" + NUM + r") seconds")
S30_LGB_OVERHEAD = re.compile(r"the overhead of testing was (" + NUM + r") seconds")
S30_LGB_ELAPSED = re.compile(r"\] (" + NUM + r") seconds elapsed, finished iteration \d+")


def lightgbm_cli_values(line):
    out = []
    for rx in (S30_LGB_LOAD, S30_LGB_OVERHEAD, S30_LGB_ELAPSED):
        m = rx.search(line)
        if m:
            out.append(float(m.group(1)))
    return out


# --- XGBoost CLI (src/cli_main.cc) -------------------------------------------
# [11:30:19] INFO: src/cli_main.cc:205: boosting round 1, 7.6851 sec elapsed   (cumulative)
# [11:32:57] INFO: src/cli_main.cc:243: Complete Training loop time: 165.764 sec
# [11:32:57] INFO: src/cli_main.cc:262: update end, 165.779 sec in all
# The leading [hh:mm:ss] is a logger stamp, not a value.
S30_XGB_ROUND = re.compile(r"boosting round \d+, (" + NUM + r") sec elapsed")
S30_XGB_LOOP = re.compile(r"Complete Training loop time: (" + NUM + r") sec")
S30_XGB_END = re.compile(r"update end, (" + NUM + r") sec in all")


def xgboost_cli_values(line):
    out = []
    for rx in (S30_XGB_ROUND, S30_XGB_LOOP, S30_XGB_END):
        m = rx.search(line)
        if m:
            out.append(float(m.group(1)))
    return out


# --- CatBoost catboost_info/catboost_training.json ---------------------------
# {"learn":[0.39],"iteration":0,"passed_time":0.2405312257,"remaining_time":192.18,"test":[0.39]},
# passed_time = seconds since training start (counted); remaining_time is an ETA (not counted).
S30_CB_PASSED = re.compile(r'"passed_time":(' + NUM + r")")


def catboost_training_json_values(line):
    m = S30_CB_PASSED.search(line)
    return [float(m.group(1))] if m else []


# --- skorch NeuralNet epoch table (skorch.callbacks.PrintLog) ----------------
#   epoch    auprc    train_loss    valid_acc    valid_loss    cp     dur
#       1   \x1b[36m0.1936\x1b[0m  ...  \x1b[31m0.2481\x1b[0m     +  0.9262
# Only the last column, dur (seconds the epoch took, train + validation), is timing.
S30_SKORCH_ROW = re.compile(r"^\s*\d+\s+\S.*\s(" + NUM + r")\s*$")


def skorch_values(line):
    m = S30_SKORCH_ROW.match(line)
    return [float(m.group(1))] if m else []


# --- GluonTS (MXNet) Trainer, gluonts/trainer/_base.py ------------------------
# 2019-11-01 14:55:24 INFO     _base               : Epoch[0] Elapsed time 2.637 seconds
# Learning rates, 'epoch_loss' and the final metrics dict are not timing.
S30_GTS_EPOCH = re.compile(r"Epoch\[\d+\] Elapsed time (" + NUM + r") seconds")


def gluonts_mx_trainer_values(line):
    m = S30_GTS_EPOCH.search(line)
    return [float(m.group(1))] if m else []


# ---------------------------------------------------------------- the thirty-first unseen set
# '[step  3/20] loss=12.0948 step_time=1511.1ms throughput=43369 tok/s'
S31_QWEN_STEP = re.compile(r"^\[step\s+\d+/\d+\] loss=" + NUM + r" step_time=(" + NUM +
                           r")ms throughput=(" + NUM + r") tok/s\s*$")
# 'avg throughput        : 43354 tok/s (5419/chip)'
S31_QWEN_AVG = re.compile(r"^avg throughput\s*:\s*(" + NUM + r") tok/s \((" + NUM + r")/chip\)\s*$")


def home_grown_qwen3_jax_xpk_values(line):
    """A home-grown JAX/Flax-NNX trainer (/app/trainer/train.py) run under
    XPK on a 2-host TPU v6e-8 slice; both hosts' stdout are concatenated.
    '[step  i/20] loss=L step_time=T ms throughput=R tok/s' gives the step
    time (ms -> s) and the tokens/s of that step; the closing summary's
    'avg throughput : R tok/s (r/chip)' gives the run's mean tokens/s and
    the per-chip tokens/s.  'XPK Start:/XPK End:' dates are stamps, 'steps
    measured : 18' a count, 'approx MFU : 31.1%' a utilisation, the
    '[splash] bq=2048 ...' block sizes configuration."""
    m = S31_QWEN_STEP.match(line)
    if m:
        return [float(m.group(1)) / 1000.0, float(m.group(2))]
    m = S31_QWEN_AVG.match(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    return []


# ---------------------------------------------------------------- the thirty-third unseen set
# ---------------------------------------------------------------------------
# ms-swift (ModelScope SWIFT) logging.jsonl: one JSON object a line, written
# by swift's trainer callback.  Newer swift (3.x) adds "elapsed_time": "1m 42s"
# (swift's own compact clock: d/h/m/s parts) and "remaining_time" (an ETA, not
# counted); every line carries "train_speed(iter/s)": 0.193342 (a running
# rate); evaluation lines carry HF's "eval_runtime" (s) and
# "eval_samples_per_second" / "eval_steps_per_second"; the closing line
# "train_runtime" (s) and "train_samples_per_second" / "train_steps_per_second".
# The summary line at the end repeats the log history (every key above that
# it holds is counted again, as printed there) and swift 2.x's summary adds
# "train_time": {"train_runtime": 30049.8413, ..., "train_samples_per_second": 0.98}.
S33_SWIFT = re.compile(
    r'"(train_speed\(iter/s\)|eval_runtime|eval_samples_per_second|eval_steps_per_second|'
    r'train_runtime|train_samples_per_second|train_steps_per_second)": (' + NUM + r')'
    r'|"elapsed_time": "((?:\d+[dhms] ?)+)"')
S33_SWIFT_PART = re.compile(r"(\d+)([dhms])")
S33_SWIFT_UNIT = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def ms_swift_values(line):
    out = []
    for m in S33_SWIFT.finditer(line):
        if m.group(2) is not None:
            out.append(float(m.group(2)))
        else:
            out.append(sum(int(n) * S33_SWIFT_UNIT[u] for n, u in S33_SWIFT_PART.findall(m.group(3))))
    return out


# ---------------------------------------------------------------------------
# LLaMA-Factory trainer_log.jsonl (its LogCallback): {"current_steps": 10,
# "total_steps": 6750, "loss": 2.219, "lr": 1.3e-06, "epoch": 0.004,
# "percentage": 0.15, "elapsed_time": "0:00:32", "remaining_time": "6:01:13"}.
# elapsed_time is str(timedelta) of the time since training began (counted,
# 'h:mm:ss', possibly 'N day(s), h:mm:ss'); remaining_time is an ETA (not
# counted).  Other LLaMA-Factory versions add "throughput": "123.45"
# (tokens/s, counted).
S33_LF_ELAPSED = re.compile(r'"elapsed_time": "(?:(\d+) days?, )?(\d+):(\d\d):(\d\d)(?:\.(\d+))?"')
S33_LF_THROUGHPUT = re.compile(r'"throughput": "?(' + NUM + r')"?')


def llamafactory_values(line):
    out = []
    for m in S33_LF_ELAPSED.finditer(line):
        d, h, mi, s, frac = m.groups()
        v = (int(d) * 86400 if d else 0) + int(h) * 3600 + int(mi) * 60 + int(s)
        if frac:
            v += float("0." + frac)
        out.append(float(v))
    for m in S33_LF_THROUGHPUT.finditer(line):
        out.append(float(m.group(1)))
    return out


# ---------------------------------------------------------------------------
# PEFT method_comparison (MetaMathQA run.py) result JSON, pretty-printed, one
# key a line: "total_time": 1153.30 (the whole run, s), "train_time": 941.96
# (training loop less validation, s), and per 250-step block "train time"
# (sum of the block's step durations, s), "eval time" (the validation pass,
# s), "tokens / sec" (training tokens per second of step time) and
# "elapsed time" (seconds since training began).
S33_PEFT = re.compile(r'^\s*"(?:total_time|train_time|train time|eval time|tokens / sec|elapsed time)": (' +
                      NUM + r'),?\s*$')


def peft_method_comparison_values(line):
    m = S33_PEFT.match(line)
    return [float(m.group(1))] if m else []



FILES_33 = {
    "swift-qwen3-8b-lora-climate.log": "ms-swift",
    "swift-v2-two-rank-sft.log": "ms-swift",
    "llamafactory-qwen25-7b-medical.log": "llamafactory",
    "peft-metamathqa-lora-r32.log": "peft-method-comparison",
}


# ---------------------------------------------------------------- the twenty-ninth unseen set
# PyTorch-StudioGAN's logger (POSTECH-CVLab), both the 2020 (v0.2) and the 2021 (v0.3) trainers:
#   [INFO] 2020-11-18 15:33:13 > Step:    7200 Progress: 3.6% Elapsed: 1 day, 0:10:38 temperature: no ...
#   [INFO] 2021-10-18 00:41:34 > Step:    100 Progress: 0.1% Elapsed: 0:00:46 Gen_loss: 4.107 Dis_loss: ...
# 'Elapsed' is str(datetime.timedelta) of the seconds since this (re)start of training: one value.
S29_STUDIOGAN_STEP = re.compile(r"^\[INFO\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d > Step:\s*\d+ Progress:\s*" + NUM +
                                r"% Elapsed: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d)(?:\.(\d+))? ")


def studiogan_values(line):
    """PyTorch-StudioGAN: the step line's 'Elapsed: [D day(s), ]H:MM:SS' (training time since this start or
    resume, in seconds). 'Progress: 3.6%' is a fraction of the steps; the '[INFO] 2020-11-17 15:17:48 >'
    logger stamp is a stamp; evaluation lines ('FID score (Step: 2000, ...): 8.1', 'Inception score
    (Step: ..., 50000 generated images): 87.6'), 'Save model to ...' and the config dumps print no time."""
    m = S29_STUDIOGAN_STEP.match(line)
    if not m:
        return []
    days = int(m.group(1) or 0)
    secs = days * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4))
    if m.group(5):
        secs += float("0." + m.group(5))
    return [secs]


# AOT-GAN (inpainting) PaddlePaddle port, ctkindle/AOT_GAN_Paddle train.py's log.txt, one tab-separated line
# per logged step:
#   current_step:[1]\tg_l1:[0.6234078]\t...\td_total:[0.28612092]\tfilename:[...jpg]\ttime:[2022-08-26 21:35:14]

def home_grown_aot_gan_paddle_values(line):
    """AOT-GAN-for-Inpainting on PaddlePaddle (a home-grown loop): every line is the step number, eight losses
    in brackets, the image file name and 'time:[YYYY-MM-DD HH:MM:SS]', a wall-clock stamp written at the end
    of the line. No line prints a duration or a rate, so there is nothing to count (the stamps give the step
    time and the wall)."""
    return []


# A DTU 02456 course DDPM (czekluk/02456_Group_44_DDPM_Project) run on the DTU HPC, stdout with nested tqdm
# bars (epoch bar 'N/30 [..., 600.66s/epoch]', train bar 'n/469 [..., 1.42minibatch/s]\x1b[A', validation bar
# 'n/79 [...]'), each redraw '\r...' on its own physical line; its own prints are
#   Epoch: 0 | Train Loss: 32.06753347677463
#   Epoch: 1 | Validation Loss: 22.342445373535156 | Approx. FID Score: 22.79208755493164


def home_grown_dtu_ddpm_values(line):
    """DTU DDPM: the program's own lines print losses and an FID only; all timing is in the tqdm bars
    ('[05:33<00:00,  1.41minibatch/s]', '[04:32<00:00,  3.45s/minibatch]', '[5:00:32<00:00, 601.08s/epoch]'),
    which the common code counts at their final redraws; TensorFlow's '2024-11-23 10:54:29.131104: I ...'
    lines (one glued after a bar redraw) are stamps. So no line adds a value of its own."""
    return []


# ---------------------------------------------------------------- the thirty-second unseen set
# --- randla-net-tf ---------------------------------------------------------
# RandLA-Net (TensorFlow) RandLANet.train(): every 50th step
#   'Step 00000050 L_out=14.854 Acc=0.42 ---  379.50 ms/batch'
# the time of that one sess.run (one training step), in milliseconds.
S32_RANDLA_STEP = re.compile(r"^Step \d+ L_out=\S+ Acc=\S+ ---\s*(" + NUM + r") ms/batch\s*$")


def randla_net_tf_values(line):
    m = S32_RANDLA_STEP.match(line)
    if m:
        return [float(m.group(1)) / 1000.0]
    return []


# --- home-grown-spinesegformer3d --------------------------------------------
# SpineSegFormer3D (MONAI, LOOCV) trainer:
#   '  Cache ready in 0.0s'                 phase time (s)
#   '  elapsed 18min  |  ETA ~12min'        run time so far (min); the ETA is not a value
#   '  Fold done in 0.49h'                  fold time (h)
#   '  LOOCV complete in 2.37h'             run time (h)
# '[fold_0] 001/200: 100%|...| 4/4 [00:17<00:00,  2.98s/it, loss=3.8402]' are
# tqdm bars (each redraw on its own line): left to the common code.
S32_SPINE_TQDM = re.compile(r"\d+%\|")
S32_SPINE_CACHE = re.compile(r"^\s*Cache ready in (" + NUM + r")s\s*$")
S32_SPINE_ELAPSED = re.compile(r"^\s*elapsed (" + NUM + r")min\s*\|\s*ETA ~" + NUM + r"min\s*$")
S32_SPINE_FOLD = re.compile(r"^\s*Fold done in (" + NUM + r")h\s*$")
S32_SPINE_LOOCV = re.compile(r"^\s*LOOCV complete in (" + NUM + r")h\s*$")


def home_grown_spinesegformer3d_values(line):
    if S32_SPINE_TQDM.search(line):
        return []
    m = S32_SPINE_CACHE.match(line)
    if m:
        return [float(m.group(1))]
    m = S32_SPINE_ELAPSED.match(line)
    if m:
        return [float(m.group(1)) * 60.0]
    m = S32_SPINE_FOLD.match(line)
    if m:
        return [float(m.group(1)) * 3600.0]
    m = S32_SPINE_LOOCV.match(line)
    if m:
        return [float(m.group(1)) * 3600.0]
    return []


# --- nnunet-v2 ----------------------------------------------------------------
# nnU-Net v2 nnUNetTrainer.print_to_log_file: '<stamp>: Epoch time: 224.93 s '
# (the epoch's training + validation iterations).  The leading
# 'YYYY-MM-DD HH:MM:SS.ffffff: ' stamp is not a value.
S32_NNUNETV2_EPOCH = re.compile(r"Epoch time: (" + NUM + r") s\s*$")


def nnunet_v2_values(line):
    m = S32_NNUNETV2_EPOCH.search(line)
    if m:
        return [float(m.group(1))]
    return []


# --- Live output of today's frameworks (tests/data/live, issue 25) -------------------
# A torchrun job's script logging every 5 steps through Python's logging, the launcher's
# '[defaultN]:' before each line (bench/live/ddp_dev.py):
# [default2]:2026-11-27 18:26:54,934 - INFO - train - step    5 | loss 0.1996 | step_time 2.7 ms | data 0.14 ms | samples/s 23562
LIVE_DDP = re.compile(r"\| step_time (" + NUM + r") ms \| data (" + NUM + r") ms \| samples/s (" + NUM + r")\s*$")


def live_ddp_logging_values(line):
    m = LIVE_DDP.search(line)
    return [float(m.group(1)) / 1e3, float(m.group(2)) / 1e3, float(m.group(3))] if m else []


# Lightning 2.6's Rich bar written to a file (not a terminal): drawn once, wrapped at 80
# columns, the rate after blanks, the remaining time on the next line; its SimpleProfiler's
# 'Total' row, whose mean is '-', holds the total time (bench/live/lightning_dev.py):
# Epoch 2/2  ━━━━━━━━━━━━━━━━ 100/100 0:00:00 •       242.37it/s v_num: 0.000
# |  Total   \t|  -   \t|  11823   \t|  2.2427   \t|  100 %   \t|
LIVE_RICH = re.compile(r"━[━╸╺\s]*\s(\d+)/(\d+) (\d+:\d\d:\d\d) •(?:\s+[-\d:]+)?\s+(" + NUM + r")it/s")
LIVE_SIMPLE_TOTAL = re.compile(r"^\|\s*Total\s*\|\s*-\s*\|\s*\d+\s*\|\s*(" + NUM + r")\s*\|")


def live_lightning_values(line):
    m = LIVE_RICH.search(line)
    if m and m.group(1) == m.group(2):
        h, mi, se = (int(x) for x in m.group(3).split(":"))
        return [h * 3600 + mi * 60 + se, float(m.group(4))]
    m = LIVE_SIMPLE_TOTAL.match(line)
    return [float(m.group(1))] if m else lightning_values(line)


# --- Live output of today's frameworks, held out (tests/data/live-held, issue 25) ------
# Written by reading the five logs, before tprof read them (bench/live/*_held.py made them
# on an H100, 2026-11-27). The percentages of a profiler row are counted as the harness
# counts them elsewhere (profiler_values).
LH_UNIT_S = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0}
LH_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# ---- torch.profiler table ------------------------------------------------
LH_PROF_TIME = re.compile(r"^(" + NUM + r")(ns|us|\u00b5s|ms|s)$")
LH_PROF_PCT = re.compile(r"^" + NUM + r"%$")
LH_PROF_TOTAL = re.compile(r"^Self (?:CPU|CUDA|[A-Z][A-Z0-9]*) time total:\s+(" + NUM + r")(ns|us|\u00b5s|ms|s)\s*$")


def live_held_profiler_values(line):
    m = LH_PROF_TOTAL.match(line)
    if m:
        return [float(m.group(1)) * LH_UNIT_S[m.group(2)]]
    cells = re.split(r"\s{2,}|\t", line.strip())
    if len(cells) < 3:
        return []
    rest = cells[1:]                      # cells[0] is the Name column
    if not any(LH_PROF_PCT.match(c) for c in rest):
        return []                         # not a row of the table
    out = []
    for c in rest:
        m = LH_PROF_TIME.match(c)
        if m:
            out.append(float(m.group(1)) * LH_UNIT_S[m.group(2)])
        elif LH_PROF_PCT.match(c):        # the harness counts a row's shares too (records' *_pct)
            out.append(float(c[:-1]))
    return out


# ---- torch.utils.benchmark Measurements and Compare ----------------------
LH_BENCH_OBJ = re.compile(r"<torch\.utils\.benchmark\.utils\.common\.Measurement object at 0x[0-9a-fA-F]+>\s*$")
LH_BENCH_MEDIAN = re.compile(r"^\s+(?:Median:\s+)?(" + NUM + r") (ns|us|\u00b5s|ms|s)\s*$")
LH_BENCH_IQR = re.compile(r"^\s+IQR:\s+(" + NUM + r") (ns|us|\u00b5s|ms|s) \((" + NUM + r") to (" + NUM + r")\)\s*$")
LH_BENCH_END = re.compile(r"^\s+\d+ measurements?, \d+ runs")
LH_COMPARE_TITLE = re.compile(r"^\[-+.*-+\]\s*$")
LH_COMPARE_UNIT = re.compile(r"^Times are in \w+ \((ns|us|\u00b5s|ms|s)\)\.\s*$")
LH_COMPARE_CELL = re.compile(r"^\s*(" + NUM + r")(?:\s*\(.*\))?\s*$")


def live_held_benchmark_values(lines):
    """{line_no (1-based): [values]} for the whole log (lines without newlines)."""
    out = {}
    inside = False
    for n, line in enumerate(lines, 1):
        if LH_BENCH_OBJ.search(line):
            inside = True
            continue
        if not inside:
            continue
        m = LH_BENCH_MEDIAN.match(line)
        if m:
            out.setdefault(n, []).append(float(m.group(1)) * LH_UNIT_S[m.group(2)])
            continue
        m = LH_BENCH_IQR.match(line)
        if m:
            u = LH_UNIT_S[m.group(2)]
            out.setdefault(n, []).extend(float(m.group(i)) * u for i in (1, 3, 4))
            continue
        if LH_BENCH_END.match(line):
            inside = False
    start = None
    for n, line in enumerate(lines, 1):
        if LH_COMPARE_TITLE.match(line):
            start = n
            continue
        if start is None:
            continue
        m = LH_COMPARE_UNIT.match(line)
        if not m:
            continue
        u = LH_UNIT_S[m.group(1)]
        # rows between the column header (start + 1) and the footer
        for k in range(start + 2, n):
            row = LH_ANSI.sub("", lines[k - 1])
            if "|" not in row:
                continue                  # '1 threads: ----', blank lines
            for cell in row.split("|")[1:]:
                c = LH_COMPARE_CELL.match(cell)
                if c:
                    out.setdefault(k, []).append(float(c.group(1)) * u)
        start = None
    return out


# ---- Hugging Face Trainer -------------------------------------------------
LH_HF_KEY = re.compile(r"['\"](\w*(?:_runtime|_per_second))['\"]\s*:\s*['\"]?(" + NUM + r")")
LH_HF_TABLE = re.compile(r"^\s*(\w*(?:_runtime|_per_second))\s*=\s*([\d:.]+)\s*$")


def live_held_hf_values(line):
    out = [float(m.group(2)) for m in LH_HF_KEY.finditer(line)]
    m = LH_HF_TABLE.match(line)
    if m:
        secs = 0.0
        for part in m.group(2).split(":"):
            secs = secs * 60 + float(part)
        out.append(secs)
    return out


# ---- Lightning SimpleProfiler ---------------------------------------------
LH_SIMPLE_CELL = re.compile(r"^\s*(" + NUM + r"|-)\s*$")
LH_SIMPLE_PCT = re.compile(r"^\s*" + NUM + r"\s*%?\s*$")     # '77.587', the Total row's '100 %'


def live_held_lightning_values(line):
    """'|  run_training_epoch  \\t|  0.50423  \\t|  4  \\t|  2.0169  \\t|  77.587  \\t|'"""
    if not line.startswith("|"):
        return []
    cells = line.split("|")
    # '', action, mean, num calls, total, percentage, ''
    if len(cells) != 7 or cells[-1].strip():
        return []
    mean, calls, total = (LH_SIMPLE_CELL.match(c) for c in cells[2:5])
    if not (mean and calls and total and LH_SIMPLE_PCT.match(cells[5])) or not re.fullmatch(r"\s*\d+\s*", cells[3]):
        return []
    out = []
    for m in (mean, total):
        if m.group(1) != "-":
            out.append(float(m.group(1)))
    return out


# ---- home-grown torchrun loop ---------------------------------------------
LH_LOOP_DONE = re.compile(r"(?<![\w])epoch \d+ done in (" + NUM + r")s \((" + NUM + r") it/s\)")


def live_held_loop_values(line):
    # the line begins '\r<spaces>\x1b[A' (tqdm clearing its bar): drop the escapes
    m = LH_LOOP_DONE.search(LH_ANSI.sub("", line))
    return [float(m.group(1)), float(m.group(2))] if m else []



# --- tests/data/unseen34 ---------------------------------------------------------------
# IQA-PyTorch (pyiqa, its BasicSR-derived MessageLogger): every 100 iterations the
# iteration's time and its data time (the ETA before them is not timing); at the end the
# time from the start of training; the validation bars are tqdm's (common code):
# 2025-02-04 16:48:00,314 INFO: [basel..][epoch:  1, iter:     100, lr:(2.999e-05,)] [eta: 2:37:00, time (data): 2.064 (0.521)] l_mos: ...
# 2025-02-04 19:50:35,211 INFO: End of training. Time consumed: 3:06:01
S34_PYIQA_ITER = re.compile(r"\[eta: [^\]]*?, time \(data\): (" + NUM + r") \((" + NUM + r")\)\]")
S34_PYIQA_END = re.compile(r"INFO: End of training\. Time consumed: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d)\s*$")


def pyiqa_values(line):
    m = S34_PYIQA_ITER.search(line)
    if m:
        return [float(m.group(1)), float(m.group(2))]
    m = S34_PYIQA_END.search(line)
    if m:
        d = int(m.group(1) or 0)
        return [d * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4))]
    return []


# flair 0.4 ModelTrainer: each tenth of an epoch the batches' samples per second (the
# mini-batch size times the batches since the last line over their forward/backward
# time); older flair (0.4.0) prints the same line without the rate: no timing.
# 2019-10-12 00:35:31,968 epoch 1 - iter 12/123 - loss 27.15042650 - samples/sec: 30.72
S34_FLAIR_ITER = re.compile(r" - iter \d+/\d+ - loss " + NUM + r" - samples/sec: (" + NUM + r")\s*$")


def flair_values(line):
    m = S34_FLAIR_ITER.search(line)
    return [float(m.group(1))] if m else []


# A transformers-examples run_squad-style script (2019-2020) under nohup: its nested
# 'Epoch' and 'Iteration' tqdm bars are its only timing (common code); the rest
# (' args.device = 1 cpu', warnings) holds none.
def hf_run_squad_values(line):
    return []


FRAMEWORK = {
    "live-held-profiler": live_held_profiler_values,
    "live-held-benchmark": None,  # whole-log truth: live_held_benchmark_values
    "live-held-hf": live_held_hf_values,
    "live-held-lightning": live_held_lightning_values,
    "live-held-loop": live_held_loop_values,
    "live-lightning": live_lightning_values,
    "live-ddp-logging": live_ddp_logging_values,
    "deepspeed-chat": deepspeed_chat_values,
    "keras1": keras1_values,
    "home-grown": home_grown_values,
    "tqdm": tqdm_only_values,
    "hf-trainer": hf_values,
    "torch-profiler": profiler_values,
    "torch-benchmark": None,  # whole-log truth: benchmark_truth
    "lightning": lightning_values,
    "nanogpt": nanogpt_values,
    "detectron2": detectron2_values,
    "keras": keras_values,
    "llama-cpp": llamacpp_values,
    "megatron": megatron_values,
    "mmengine": mmengine_values,
    "nccl-tests": nccl_values,
    "paddlerec": paddlerec_values,
    "paddle-hapi": paddle_hapi_values,
    "cyclegan": cyclegan_values,
    "home-grown-gpt2": gpt2_finetune_values,
    "home-grown-augseg": augseg_values,
    "hrnet-seg": hrnet_values,
    "averagemeter": averagemeter_values,
    "mxnet": mxnet_values,
    "megatron-lm": megatron_lm_values,
    "home-grown-ocr": homegrown_ocr_values,
    "dtrb": dtrb_values,
    "ssd-pytorch": ssd_values,
    "yolov5": yolov5_values,
    "swav": swav_values,
    "golf": golf_values,
    "lerobot": lerobot_values,
    "home-grown-avpse": avpse_values,
    "home-grown-hifi-tse": hifi_tse_values,
    "stamps-only": tqdm_only_values,   # time stamps and no printed duration: every value read is false
    "verl": verl_values,
    "coqui-tts": coqui_values,
    "mindformers": mindformers_values,
    "metriclogger": metriclogger_values,
    "sb3": sb3_values,
    "marian": marian_values,
    "paddlenlp": paddlenlp_values,
    "opennmt-py": opennmt_values,
    "timm": timm_values,
    "dcgan-tf": dcgan_values,
    "gaitset": gaitset_values,
    "tf-cifar10": tf_cifar10_values,
    "home-grown-elapsed-min": elapsed_min_values,
    "openpi": openpi_values,
    "hyperopt": hyperopt_values,
    "dsfd": dsfd_values,
    "rllib": rllib_values,
    "tf-estimator": tf_estimator_values,
    "joeynmt": joeynmt_values,
    "chainer": chainer_values,
    "fast-scnn": fast_scnn_values,
    "t2icount": t2icount_values,
    "home-grown-ner-iter": ner_iter_values,
    "pyslowfast": pyslowfast_values,
    "hypercdr": hypercdr_values,
    "home-grown-neural-field": neural_field_values,
    "home-grown-grpo": home_grown_grpo_values,
    "keithito-tacotron": keithito_tacotron_values,
    "sockeye": sockeye_values,
    "home-grown-bioie": home_grown_bioie_values,
    "deepsleepnet": deepsleepnet_values,
    "darknet": darknet_values,
    "jde": jde_values,
    "nnunet-v1": nnunet_v1_values,
    "stargan-vc": stargan_vc_values,
    "cnn-graph": cnn_graph_values,
    "maskrcnn-benchmark": maskrcnn_benchmark_values,
    "hugectr": hugectr_values,
    "nvidia-rnnt-dllogger": nvidia_rnnt_dllogger_values,
    "nvidia-gnmt-seq2seq": nvidia_gnmt_seq2seq_values,
    "swin-transformer": swin_transformer_values,
    "yolact-jsonl": yolact_jsonl_values,
    "nvidia-waveglow-nvlog": nvidia_waveglow_nvlog_values,
    "dbnet-pytorch": dbnet_pytorch_values,
    "home-grown-tf2-transformer": home_grown_tf2_transformer_values,
    "home-grown-thgnn": home_grown_thgnn_values,
    "caffe": caffe_values,
    "dgl-sampling": dgl_sampling_values,
    "home-grown-byol": home_grown_byol_values,
    "home-grown-shufflefacenet": home_grown_shufflefacenet_values,
    "home-grown-asgl-snn": home_grown_asgl_snn_values,
    "home-grown-keras-pspnet": home_grown_keras_pspnet_values,
    "mmcv-mmcls": mmcv_mmcls_values,
    "home-grown-faceboxes-tf": home_grown_faceboxes_tf_values,
    "home-grown-torch-classifier": home_grown_torch_classifier_values,
    "home-grown-concatbert": home_grown_concatbert_values,
    "paddleclas": paddleclas_values,
    "paddleocr": paddleocr_values,
    "home-grown-baaf": home_grown_baaf_values,
    "dit": dit_values,
    "home-grown-wsdan": home_grown_wsdan_values,
    "paddleseg": paddleseg_values,
    "ppdet": ppdet_values,
    "paddlevideo": paddlevideo_values,
    "cirkd": cirkd_values,
    "demucs": demucs_values,
    "mingpt": mingpt_values,
    "xnmt": xnmt_values,
    "ncrfpp": ncrfpp_values,
    "gensim": gensim_values,
    "pygcn": pygcn_values,
    "prednet-paddle": prednet_paddle_values,
    "srn-deblur-tf": srn_deblur_tf_values,
    "rcn-tf": rcn_tf_values,
    "home-grown-mtcnn": home_grown_mtcnn_values,
    "home-grown-vfi": home_grown_vfi_values,
    "edsr": edsr_values,
    "home-grown-east": home_grown_east_values,
    "home-grown-voxelmorph": home_grown_voxelmorph_values,
    "yolox": yolox_values,
    "home-grown-g2p": home_grown_g2p_values,
    "home-grown-awe": home_grown_awe_values,
    "ltsf-exp-main": ltsf_exp_main_values,
    "home-grown-qwen3-pt": home_grown_qwen3_pt_values,
    "home-grown-dsz3": home_grown_dsz3_values,
    "nanochat": nanochat_values,
    "maniskill-ppo": maniskill_ppo_values,
    "home-grown-neuroslm": home_grown_neuroslm_values,
    "vac-slr": vac_slr_values,
    "vietocr": vietocr_values,
    "reid-strong-baseline": reid_strong_baseline_values,
    "home-grown-hsi-cons": home_grown_hsi_cons_values,
    "home-grown-flare-nafnet": home_grown_flare_nafnet_values,
    "fadnet-dltrainer": fadnet_dltrainer_values,
    "pysot": pysot_values,
    "openpcdet": openpcdet_values,
    "stylegan2-ada": stylegan2_ada_values,
    "nii-nn-pytorch": nii_nn_pytorch_values,
    "currennt": currennt_values,
    "home-grown-jusperlee": home_grown_jusperlee_values,
    "torchtitan": torchtitan_values,
    "home-grown-monarch-grpo": home_grown_monarch_grpo_values,
    "deepmd-kit": deepmd_kit_values,
    "proteinmpnn": proteinmpnn_values,
    "home-grown-pinnx": home_grown_pinnx_values,
    "kgat-pytorch": kgat_pytorch_values,
    "dlrm": dlrm_values,
    "home-grown-restormer-paddle": home_grown_restormer_paddle_values,
    "home-grown-pointtransformer": home_grown_pointtransformer_values,
    "barlowtwins": barlowtwins_values,
    "home-grown-flux-grpo": home_grown_flux_grpo_values,
    "gluonnlp-bert-classifier": gluonnlp_bert_classifier_values,
    "gluonnlp-bert-squad": gluonnlp_bert_squad_values,
    "gluonnlp-nmt": gluonnlp_nmt_values,
    "gluonnlp-sentiment-cnn": gluonnlp_sentiment_cnn_values,
    "home-grown-region-embedding": home_grown_region_embedding_values,
    "gluonnlp-biaffine-parser": gluonnlp_biaffine_parser_values,
    "home-grown-dsc-horovod": home_grown_dsc_horovod_values,
    "mlperf-mllog": mlperf_mllog_values,
    "tf-official-timehistory": tf_official_timehistory_values,
    "sample-factory": sample_factory_values,
    "pymarl": pymarl_values,
    "baselines-trpo": baselines_trpo_values,
    "spinningup-progress": spinningup_progress_values,
    "lufficc-ssd": lufficc_ssd_values,
    "tramac-semseg": tramac_semseg_values,
    "pytracking-ltr": pytracking_ltr_values,
    "tops-scalars": tops_scalars_values,
    "lightgbm-cli": lightgbm_cli_values,
    "xgboost-cli": xgboost_cli_values,
    "catboost-training-json": catboost_training_json_values,
    "skorch": skorch_values,
    "gluonts-mx-trainer": gluonts_mx_trainer_values,
    "home-grown-qwen3-jax-xpk": home_grown_qwen3_jax_xpk_values,
    "ms-swift": ms_swift_values,
    "llamafactory": llamafactory_values,
    "peft-method-comparison": peft_method_comparison_values,
    "studiogan": studiogan_values,
    "home-grown-aot-gan-paddle": home_grown_aot_gan_paddle_values,
    "home-grown-dtu-ddpm": home_grown_dtu_ddpm_values,
    "randla-net-tf": randla_net_tf_values,
    "home-grown-spinesegformer3d": home_grown_spinesegformer3d_values,
    "nnunet-v2": nnunet_v2_values,
    "pyiqa": pyiqa_values,
    "flair": flair_values,
    "hf-run-squad": hf_run_squad_values
}


# Truths read from the whole log (a Compare table's unit is in its footer)
WHOLE_LOG = {"torch-benchmark": benchmark_truth, "live-held-benchmark": live_held_benchmark_values}


def truth(path, framework):
    """[(line, class, values)] for every physical line of the log."""
    extract = FRAMEWORK[framework]
    out = []
    with open(path, encoding="utf-8", errors="replace", newline="\n") as f:
        lines = [raw.rstrip("\n") for raw in f]
    whole = WHOLE_LOG[framework](lines) if framework in WHOLE_LOG else {}
    for n, line in enumerate(lines, 1):
        if True:
            vals = (extract(line) if extract else whole.get(n, [])) + tqdm_values(line)
            if vals:
                out.append((n, "timing", vals))
            elif TQDM.search(line) or TQDM_CONT.match(line) or TQDM_NOTOTAL.search(line) or ANY_TIMING.search(line):
                out.append((n, "neutral", []))
            else:
                out.append((n, "none", []))
    return out


def values_of(r):
    """Durations (in seconds) and rates a record holds; a progress record is a
    bar's redraw, progress display in the truth's terms, and holds none."""
    v = []
    if r.get("type") == "progress":
        return v
    for k, x in r.items():
        if not isinstance(x, (int, float)) or isinstance(x, bool):
            continue
        if k in ("line", "rank", "index", "count", "step", "runs"):
            continue
        if k == "seconds" or k.endswith("_s") or k.endswith("_pct"):
            v.append(x)
        elif k.endswith("_ms"):
            v.append(x / 1000)
        elif k == "value" and r.get("type") == "rate":
            v.append(x)
    return v


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-9) + 1e-12


TPROF_PARSE = os.environ.get("TPROF_PARSE", "bin/tprof-parse")


def records(path):
    out = subprocess.run([TPROF_PARSE, "-j1", "-q", path], capture_output=True, text=True)
    recs = {}
    for l in out.stdout.splitlines():
        r = json.loads(l)
        recs.setdefault(r["line"], []).extend(values_of(r))
    return recs


def score(path, framework):
    t = truth(path, framework)
    got = records(path)
    cls = {n: c for n, c, _ in t}
    total = read = false = wrong = 0
    missed = []
    used = {n: [False] * len(v) for n, v in got.items()}
    for n, c, vals in t:
        for w in vals:
            total += 1
            hit = False
            for k in range(n, max(n - 4, 0), -1):
                for i, g in enumerate(got.get(k, [])):
                    if not used[k][i] and close(g, w):
                        used[k][i] = hit = True
                        break
                if hit:
                    break
            if hit:
                read += 1
            else:
                missed.append((n, w))
    for k, vals in got.items():
        for i, g in enumerate(vals):
            if used[k][i]:
                continue
            if cls.get(k) == "none":
                false += 1
            elif cls.get(k) == "timing":
                wrong += 1
    return total, read, false, wrong, missed


def main():
    logdir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TPROF_REAL_LOGS")
    if not logdir and os.path.isdir("tests/data/real"):
        logdir = "tests/data/real"
    if not logdir:
        sys.stderr.write("usage: coverage-real.py LOGDIR (or TPROF_REAL_LOGS=LOGDIR)\n")
        return 2
    verbose = "-v" in sys.argv[2:]
    rows = []
    manifest = os.environ.get("TPROF_REAL_MANIFEST", "bench/real-logs.tsv")
    with open(manifest, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for l in f:
            if l.strip() and not l.startswith("#"):
                rows.append(dict(zip(head, l.rstrip("\n").split("\t"))))
    sums = {}
    all_ = [0, 0, 0, 0]
    status = 0
    for row in rows:
        path = os.path.join(logdir, row["file"])
        if not os.path.exists(path):
            path = os.path.join("tests", "data", "real", row["file"])
        if row["framework"] not in FRAMEWORK or row.get("values", "-") == "-":
            print(f"{row['file']:28} {row['framework']:11} no truth here (values '-'): not scored")
            continue
        if not os.path.exists(path):
            print(f"{row['file']}: missing (fetch it: see the docstring)")
            status = 1
            continue
        total, read, false, wrong, missed = score(path, row["framework"])
        if str(total) != row["values"]:
            print(f"{row['file']}: the truth finds {total} values, the manifest says {row['values']}")
            status = 1
        pct = 100 * read / total if total else 100.0
        print(f"{row['file']:28} {row['framework']:11} {read:4}/{total:<4} read ({pct:5.1f} %)  "
              f"{false} false  {wrong} wrong")
        if verbose:
            for n, w in missed:
                print(f"    missed line {n}: {w:g}")
        s = sums.setdefault(row["framework"], [0, 0, 0, 0])
        for acc in (s, all_):
            acc[0] += total
            acc[1] += read
            acc[2] += false
            acc[3] += wrong
    print()
    for fw, (total, read, false, wrong) in sorted(sums.items()):
        print(f"{fw:12} {read:4}/{total:<4} read ({100 * read / max(total, 1):5.1f} %)  "
              f"{false} false ({100 * false / max(total + false, 1):.1f} %)  {wrong} wrong")
    total, read, false, wrong = all_
    print(f"{'TOTAL':12} {read:4}/{total:<4} read ({100 * read / max(total, 1):5.1f} %)  "
          f"{false} false ({100 * false / max(total + false, 1):.1f} %)  {wrong} wrong")
    return status


if __name__ == "__main__":
    sys.exit(main())
