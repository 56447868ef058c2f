#!/bin/sh
# gen-packs.sh - writes the golden logs of the format packs,
# tests/data/packs/PACK.log, with known values. Each line is printed with
# the format string the framework's own code uses (quoted in the comment
# above it), so tests/test_packs.c checks the packs against what the real
# code prints. Run from the repository root; the logs are checked in.
set -eu
d=tests/data/packs
mkdir -p "$d"

# --- Hugging Face Trainer ---------------------------------------------------
# ProgressCallback.on_log: self.training_bar.write(str(logs)); log_metrics:
# logger.info(f"***** {split} metrics *****") and
# logger.info(f"  {key: <{k_width}} = {metrics_formatted[key]:>{v_width}}"),
# *_runtime via _secs2timedelta: f"{datetime.timedelta(seconds=int(secs))}.{msec:02d}"
# examples' log format: "[%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> %(message)s"
{
	printf "{'loss': 2.1234, 'grad_norm': 1.5, 'learning_rate': 4.9e-05, 'epoch': 0.01}\n"
	printf "{'eval_loss': 1.8, 'eval_runtime': 12.3456, 'eval_samples_per_second': 81.002, 'eval_steps_per_second': 10.125, 'epoch': 1.0}\n"
	printf "{'train_runtime': 1477.1115, 'train_samples_per_second': 16.248, 'train_steps_per_second': 2.031, 'train_loss': 0.5, 'epoch': 3.0}\n"
	printf "{'train_runtime': '1477.1115', 'train_tokens_per_second': '4567.8', 'epoch': '3.0'}\n"
	printf "[INFO|trainer.py:3478] 2024-05-01 12:00:00,123 >> ***** train metrics *****\n"
	printf "[INFO|trainer.py:3478] 2024-05-01 12:00:00,123 >>   %-24s = %11s\n" epoch 3.0
	printf "[INFO|trainer.py:3478] 2024-05-01 12:00:00,123 >>   %-24s = %11s\n" train_runtime 0:24:37.11
	printf "[INFO|trainer.py:3478] 2024-05-01 12:00:00,123 >>   %-24s = %11s\n" train_samples_per_second 16.248
	printf "***** eval metrics *****\n"
	printf "  %-23s = %10s\n" eval_runtime "1 day, 0:00:01.50"
} > "$d/hf-trainer.log"

# --- tqdm (tqdm/std.py, tqdm.format_meter) ------------------------------------
# bar_format "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]",
# l_bar "{desc}: {percentage:3.0f}%|"; rate_fmt f"{rate:5.2f}" + unit + "/s", or
# f"{1/rate:5.2f}" + "s/" + unit when an item takes over a second; with
# unit_scale, format_sizeof(rate) ("612k") and n_fmt/total_fmt ("1.00M");
# postfix ", loss=0.5". Each redraw starts with "\r"; the last holds 100%.
{
	printf ' 50%%|█████     | 500/1000 [05:00<05:00,  1.66it/s]\r100%%|██████████| 1000/1000 [10:00<00:00,  1.67it/s]\n'
	printf 'Epoch 0: 100%%|██████████| 10/10 [00:32<00:00,  3.20s/it, loss=0.5]\n'
	# datasets' Dataset.map: unit=" examples"
	printf 'Map: 100%%|██████████| 25000/25000 [00:02<00:00, 9583.41 examples/s]\n'
	# unit_scale=True
	printf '100%%|██████████| 1.00M/1.00M [00:01<00:00, 612kit/s]\n'
	# a bar that did not finish: no rate
	printf ' 37%%|███▋      | 370/1000 [00:10<00:17, 36.52it/s]\n'
} > "$d/tqdm.log"

# --- PyTorch Lightning SimpleProfiler.summary (extended) ---------------------
# row = f"{sep}|  {action:<{max_key}s}\t|  {mean:<15}\t|" + f"  {num_calls:<15}\t|  {total:<15}\t|  {per:<15}\t|"
# AdvancedProfiler: f"Profile stats for: {action_name}" then pstats' "N function calls in T seconds"
{
	printf 'FIT Profiler Report\n'
	printf -- '-----------------------------------------------------------------------------------------\n'
	printf '|  %-24s\t|  %-15s\t|  %-15s\t|  %-15s\t|  %-15s\t|\n' Action "Mean duration (s)" "Num calls" "Total time (s)" "Percentage %"
	printf -- '-----------------------------------------------------------------------------------------\n'
	printf '|  %-24s\t|  %-15s\t|  %-15s\t|  %-15s\t|  %-15s\t|\n' Total - _ 64.068 "100 %"
	printf -- '-----------------------------------------------------------------------------------------\n'
	printf '|  %-24s\t|  %-15s\t|  %-15s\t|  %-15s\t|  %-15s\t|\n' run_training_epoch 31.69 2 63.38 98.926
	printf '|  %-24s\t|  %-15s\t|  %-15s\t|  %-15s\t|  %-15s\t|\n' run_training_batch 0.0123 3126 38.45 60.01
	printf '\n'
	printf 'Profile stats for: run_training_epoch\n'
	printf '         220451 function calls (210045 primitive calls) in 63.380 seconds\n'
} > "$d/lightning.log"

# --- Megatron-LM training_log and timers ------------------------------------
# megatron/training/training.py training_log():
# ' [%s]' % time.strftime('%Y-%m-%d %H:%M:%S') + ' iteration {:8d}/{:8d} |'
# ' consumed samples: {:12d} |' ' elapsed time per iteration (ms): {:.1f} |'
# ' throughput per GPU (TFLOP/s/GPU): {:.1f} |' ' learning rate: {:.6E} |'
# ' global batch size: {:5d} |' ' {}: {:.6E} |' (each loss) ' loss scale: {:.1f} |'
# ' grad norm: {:.3f} |' ' number of skipped iterations: {:3d} |' ' number of nan iterations: {:3d} |'
# Megatron-DeepSpeed (and its vendor forks) instead: ... ' consumed tokens: {:12d} |'
# ' elapsed time per iteration (ms): {:.1f} |' ' learning rate: {:.3E} |' ...
# ' actual seqlen: {:5d} |' ... ' samples per second: {:.3f} |' ' TFLOPs: {:.2f} |'
# megatron/core/timers.py: '(min, max) time across ranks (ms):' +
# '\n    {}: ({:.2f}, {:.2f})'.format((name + ' ').ljust(48, '.'), min, max);
# with log_option 'max': 'max time across ranks (ms):' + '\n    {}: {:.2f}'
{
	for i in 1 2 3; do
		printf ' [2025-08-01 07:19:%02d] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): %.1f | throughput per GPU (TFLOP/s/GPU): %.1f | learning rate: %.6E | global batch size: %5d | lm loss: %.6E | loss scale: 1.0 | grad norm: 26.203 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' \
			$((30 + i)) $i 5000 $((128 * i)) "1913$i.8" "11$i.5" 6.976744e-08 128 "10.4386$i"
	done
	printf '(min, max) time across ranks (ms):\n'
	printf '    %s: (%.2f, %.2f)\n' 'forward-backward ................................' 19100.12 19100.45
	printf '    %s: (%.2f, %.2f)\n' 'optimizer .......................................' 35.50 36.75
} > "$d/megatron.log"
# the other variants, as another run prints them
{
	for i in 1 2; do
		printf ' iteration %8d/%8d | consumed samples: %12d | consumed tokens: %12d | elapsed time per iteration (ms): %.1f | learning rate: %.3E | global batch size: %5d | lm loss: %.6E | loss scale: %.1f | grad norm: %.3f | actual seqlen: %5d | number of skipped iterations: %3d | number of nan iterations: %3d | samples per second: %.3f | TFLOPs: %.2f |\n' \
			$((100 * i)) 10000 $((51200 * i)) $((104857600 * i)) "152$i.4" 1.5e-4 512 "6.12345$i" 65536 1.234 2048 0 0 "33$i.090" "14$i.27"
	done
	printf 'max time across ranks (ms):\n'
	printf '    %s: %.2f\n' 'forward-backward ................................' 1498.20
	printf '    %s: %.2f\n' 'optimizer .......................................' 12.34
} > "$d/megatron-variants.log"

# --- DeepSpeed --------------------------------------------------------------
# SynchronizedWallClockTimer.log: "time (ms)" + " | {}: {:.2f}".format(name, elapsed)
# ThroughputTimer: "epoch={}/micro_step={}/global_step={}, RunningAvgSamplesPerSec={}, CurrSamplesPerSec={}, MemAllocated={}GB, MaxMemAllocated={}GB"
{
	printf '[2024-01-01 12:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] time (ms) | fwd_microstep: 412.30 | bwd_microstep: 890.10 | step_microstep: 12.00\n'
	printf '[2024-01-01 12:00:01,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=31.5, CurrSamplesPerSec=32.1, MemAllocated=5.1GB, MaxMemAllocated=7.2GB\n'
} > "$d/deepspeed.log"

# --- nanoGPT train.py ---------------------------------------------------------
# print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
# print(f"iter {iter_num}: loss {lossf:.4f}, time {dt*1000:.2f}ms, mfu {running_mfu*100:.2f}%")
# dt is the last iteration's time; running_mfu starts at -1.0 and is
# updated from the 5th iteration on (0.9 * running_mfu + 0.1 * mfu).
{
	printf 'step 0: train loss 10.9876, val loss 10.9912\n'
	printf 'iter 0: loss 10.9876, time 15234.56ms, mfu -100.00%%\n'
	printf 'iter 10: loss 9.1234, time 123.45ms, mfu 31.20%%\n'
} > "$d/nanogpt.log"

# --- mmengine LoggerHook / mmcv TextLoggerHook -------------------------------
{
	printf '2024/05/01 12:00:00 - mmengine - INFO - Epoch(train)  [1][  50/7330]  base_lr: 1.0000e-02 lr: 1.0000e-02  eta: 1 day, 4:12:02  time: 0.4432  data_time: 0.0123  memory: 3456  loss: 1.2345\n'
	printf '2021-05-01 12:00:00,000 - mmdet - INFO - Epoch [1][50/1251]\tlr: 1.000e-02, eta: 2:03:04, time: 0.512, data_time: 0.051, memory: 3210, loss_cls: 0.5, loss: 1.2000\n'
} > "$d/mmengine.log"

# --- Keras fit (keras/utils/progbar.py Progbar.update, _format_time) ------------
# _format_time: f" {t:.0f}s/{unit}" (t >= 1 or 0), f" {t*1e3:.0f}ms/{unit}", f" {t*1e6:.0f}us/{unit}"
# Keras 2 verbose=1: ("%" + str(numdigits) + "d/%d [") % (current, target) + "="... + "]"
#   + f" - {now - self._start:.0f}s" + _format_time(time_per_unit, unit_name)
# Keras 2 verbose=2 (tf.keras 2.5+): count + f" - {now - self._start:.0f}s" + metrics
#   + " -" + _format_time(time_per_epoch, "epoch") + " -" + _format_time(avg_time_per_step, unit)
# Keras 3 verbose=1: f"\x1b[1m{count}\x1b[0m " + "\33[32m" + "━" * done + "\x1b[0m" + "\33[37m" + "━" * rest
#   + "\x1b[0m" + f" \x1b[1m{now - self._start:.0f}s\x1b[0m" (f" \x1b[1m{eta_format}\x1b[0m" before the end)
#   + _format_time(...); written on a new line per update when stdout is not a terminal
# Keras 3 verbose=2: f"{count} - {now - self._start:.0f}s" + f" -{self._format_time(...)}"
# TF 2.0/2.1 fit on arrays counted samples: unit_name "sample"
{
	printf '1875/1875 [==============================] - 5s 3ms/step - loss: 0.2900 - accuracy: 0.9100\n'
	printf '\033[1m1875/1875\033[0m \033[32m━━━━━━━━━━━━━━━━━━━━\033[0m\033[37m\033[0m \033[1m7s\033[0m 4ms/step - accuracy: 0.9200 - loss: 0.2800\n'
	printf '\033[1m 938/1875\033[0m \033[32m━━━━━━━━━━\033[0m\033[37m━━━━━━━━━━\033[0m \033[1m3s\033[0m 4ms/step - accuracy: 0.8800 - loss: 0.4000\n'
	printf '1875/1875 - 6s - 3ms/step - accuracy: 0.9300 - loss: 0.2400\n'
	printf '1875/1875 - 6s - loss: 0.2900 - accuracy: 0.9100 - 5s/epoch - 3ms/step\n'
	printf '469/469 [==============================] - 1s 850us/step - loss: 0.0500\n'
	printf '60000/60000 [==============================] - 5s 83us/sample - loss: 0.2900 - accuracy: 0.9100\n'
	printf '64/64 - 0s - loss: 0.5000 - 412ms/epoch - 6ms/step\n'
	# Keras 2.0: f" - {now - self.start:.0f}s" and no time per step
	printf '60000/60000 [==============================] - 5s - loss: 0.2900 - acc: 0.9100\n'
} > "$d/keras.log"

# --- nccl-tests (src/common.cu, src/util.cu) -------------------------------------
# header: "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s" with
#   "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong" x2, then
#   "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "" x2
# row: "%12li  %12li  %8s  %6s  %6s" (root "%6i") then per placement
#   "  %7s  %6s  %6s  %6g" (time "%7.2f" / "%7.1f" from 100 us / "%7.0f" from 10000 us)
# footer: "# %-20s : %d %s" ("Out of bounds values"), "# %-20s : %g %s" ("Avg bus bandwidth")
# nccl-tests 2.10 and earlier: no root column, "error" printed "%5.0le" (2e-06) or "N/A".
{
	printf '# nThread 1 nGpus 8 minBytes 8388608 maxBytes 8589934592 step: 1024(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n'
	printf '#\n'
	printf '# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n' "" "" "" "" ""
	printf '# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n' size count type redop root time algbw busbw '#wrong' time algbw busbw '#wrong'
	printf '# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n' '(B)' '(elements)' "" "" "" '(us)' '(GB/s)' '(GB/s)' "" '(us)' '(GB/s)' '(GB/s)' ""
	printf '%12d  %12d  %8s  %6s  %6d  %7.1f  %6.2f  %6.2f  %6d  %7.1f  %6.2f  %6.2f  %6d\n' 8388608 2097152 float sum -1 123.4 67.98 127.46 0 122.9 68.24 127.96 0
	printf '%12d  %12d  %8s  %6s  %6d  %7.0f  %6.2f  %6.2f  %6d  %7.0f  %6.2f  %6.2f  %6d\n' 8589934592 2147483648 float sum -1 34468 249.21 467.28 0 34525 248.80 466.51 0
	printf '# Out of bounds values : 0 OK\n'
	printf '# Avg bus bandwidth    : %g \n' 297.3025
	printf '#\n'
	printf '#                                                       out-of-place                       in-place          \n'
	printf '#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n'
	printf '#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n'
	printf '%12d  %12d  %8s  %6s  %7.0f  %6.2f  %6.2f  %5.0e  %7.0f  %6.2f  %6.2f  %5.0e\n' 1073741824 268435456 float sum 79531 13.50 26.58 2e-06 79371 13.53 26.63 2e-06
	printf '%12d  %12d  %8s  %6s  %7.2f  %6.2f  %6.2f  %5s  %7.2f  %6.2f  %6.2f  %5s\n' 1024 256 float sum 43.34 0.02 0.02 N/A 42.48 0.02 0.02 N/A
	printf '# Out of bounds values : 0 OK\n'
	printf '# Avg bus bandwidth    : %g \n' 13.3125
} > "$d/nccl-tests.log"

# --- llama.cpp ------------------------------------------------------------------
# llama_print_timings (March 2023): "%s:     load time = %8.2f ms",
#   "%s:   sample time = %8.2f ms / %5d runs (%8.2f ms per run)",
#   "%s:     eval time = %8.2f ms / %5d runs (%8.2f ms per run)", "%s:    total time = %8.2f ms"
# llama_print_timings (April 2023): "%s:      sample time = %8.2f ms / %5d runs   (%8.2f ms per token)"
# llama_print_timings (mid 2023 on), llama_perf_context_print / llama_perf_sampler_print (late 2024 on):
#   "%s:        load time = %10.2f ms"
#   "%s:      sample time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)"
#   "%s:    sampling time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)"
#   "%s: prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)"
#   "%s:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)"
#   "%s:       total time = %10.2f ms / %5d tokens", "%s:    graphs reused = %10d"
# common_perf_print: "%s:    sampling time = %10.2f ms", "%s:    samplers time = %10.2f ms / %5d tokens",
#   "%s: unaccounted time = %10.2f ms / %5.1f %%      (total - sampling - prompt eval - eval) / (total)"
#   (with --log-timestamps --log-prefix the common log prints "0.00.050.628 I " first)
# llama-bench markdown: " %*s |" cells, t/s "%.2f ± %.2f"; test "pp%d", "tg%d", "pp%d+tg%d",
#   "pp%d @ d%d" with -d; "pp %d" / "tg %d" before mid 2024
{
	printf '\n'
	printf 'llama_print_timings:     load time = %8.2f ms\n' 1234.56
	printf 'llama_print_timings:   sample time = %8.2f ms / %5d runs (%8.2f ms per run)\n' 45.67 128 0.36
	printf 'llama_print_timings:     eval time = %8.2f ms / %5d runs (%8.2f ms per run)\n' 12345.67 140 88.18
	printf 'llama_print_timings:    total time = %8.2f ms\n' 13700.00
	printf 'llama_print_timings:        load time = %10.2f ms\n' 1234.56
	printf 'llama_print_timings:      sample time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\n' 45.67 128 0.36 2802.71
	printf 'llama_print_timings: prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)\n' 123.45 12 10.29 97.21
	printf 'llama_print_timings:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\n' 2345.67 63 37.23 26.86
	printf 'llama_print_timings:       total time = %10.2f ms / %5d tokens\n' 2600.12 75
	printf 'llama_perf_sampler_print:    sampling time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\n' 10.50 128 0.08 12190.48
	printf 'llama_perf_context_print:        load time = %10.2f ms\n' 812.34
	printf 'llama_perf_context_print: prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)\n' 45.67 20 2.28 437.92
	printf 'llama_perf_context_print:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\n' 1234.56 127 9.72 102.87
	printf 'llama_perf_context_print:       total time = %10.2f ms / %5d tokens\n' 1300.00 147
	printf 'llama_perf_context_print:    graphs reused = %10d\n' 120
	printf '0.01.234.567 I common_perf_print:    sampling time = %10.2f ms\n' 11.20
	printf '0.01.234.567 I common_perf_print:    samplers time = %10.2f ms / %5d tokens\n' 10.50 128
	printf '0.01.234.567 I common_perf_print: unaccounted time = %10.2f ms / %5.1f %%      (total - sampling - prompt eval - eval) / (total)\n' 20.00 1.5
	printf '| model                          |       size |     params | backend    | ngl |          test |                  t/s |\n'
	printf '| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |\n'
	printf '| %-30s | %10s | %10s | %-10s | %3s | %13s | %21s |\n' 'llama 7B Q4_0' '3.56 GiB' '6.74 B' CUDA 99 pp512 '2345.67 ± 12.34'
	printf '| %-30s | %10s | %10s | %-10s | %3s | %13s | %21s |\n' 'llama 7B Q4_0' '3.56 GiB' '6.74 B' CUDA 99 pp512+tg128 '450.12 ± 3.21'
	printf '| %-30s | %10s | %10s | %-10s | %3s | %15s | %22s |\n' 'qwen2 7B Q4_K - Medium' '4.36 GiB' '7.62 B' CUDA -1 'pp512 @ d512' '6425.91 ± 18.88'
	printf '| %-30s | %10s | %10s | %-10s | %3s | %-10s | %17s |\n' 'llama 7B mostly Q4_0' '3.56 GiB' '6.74 B' CUDA -1 'tg 128' '131.42 ± 0.59'
	printf 'llama_print_timings:      sample time = %8.2f ms / %5d runs   (%8.2f ms per token)\n' 12.25 32 0.38
} > "$d/llama-cpp.log"

# --- PyTorch ImageNet example ProgressMeter: "{name} {val" + fmt + "} ({avg" + fmt + "})"
{
	printf 'Epoch: [0][  10/5005]\tTime  0.345 ( 0.456)\tData  0.012 ( 0.013)\tLoss 6.9078e+00 (6.9100e+00)\tAcc@1   0.00 (  0.10)\tAcc@5   0.39 (  0.50)\n'
	printf 'Test: [ 10/196]\tTime  0.210 ( 0.250)\tLoss 6.8000e+00 (6.8500e+00)\tAcc@1   0.10 (  0.12)\tAcc@5   0.50 (  0.55)\n'
} > "$d/imagenet.log"

# --- detectron2 CommonMetricPrinter, pycocotools -----------------------------
{
	printf '[07/12 10:00:00 d2.utils.events]:  eta: 1 day, 2:03:04  iter: 19  total_loss: 2.123  loss_cls: 0.5  time: 0.4567  last_time: 0.4500  data_time: 0.0123  last_data_time: 0.0100   lr: 0.0002  max_mem: 3456M\n'
	printf 'Running per image evaluation...\n'
	printf 'Evaluate annotation type *bbox*\n'
	printf 'DONE (t=7.07s).\n'
	printf 'Accumulating evaluation results...\n'
	printf 'DONE (t=1.23s).\n'
} > "$d/detectron2.log"

# --- modded-nanogpt train_gpt.py ----------------------------------------------------
# f"step:{step+1}/{train_steps} train_time:{approx_training_time_ms:.0f}ms step_avg:{approx_training_time_ms/(step + 1):.2f}ms"
# f"step:{step}/{train_steps} val_loss:{val_loss:.4f} train_time:{training_time_ms:.0f}ms step_avg:{training_time_ms/max(step, 1):.2f}ms"
# 2024 records: f"step:{step+1}/{args.num_iterations} train_loss:{train_loss.item():.4f} train_time:{approx_time:.0f}ms step_avg:{approx_time/timed_steps:.2f}ms"
#   and f"step:{step}/{train_steps} val_loss:{val_loss:.5f} train_time:{training_time:.3f}s" + f" step_avg:{1000*step_avg:.2f}ms"
{
	printf 'step:10/1770 train_time:1234ms step_avg:123.40ms\n'
	printf 'step:20/1770 val_loss:4.0123 train_time:2468ms step_avg:123.40ms\n'
	printf 'step:0/1770 val_loss:10.8258 train_time:0ms step_avg:0.00ms\n'
	printf 'step:100/3000 train_loss:4.2345 train_time:13711ms step_avg:152.34ms\n'
	printf 'step:250/3000 val_loss:4.12345 train_time:30.123s step_avg:125.51ms\n'
} > "$d/modded-nanogpt.log"

# --- ollama run --verbose (api/types.go Metrics.Summary, to stderr) --------------
# "total duration:       %v", "load duration:        %v", "prompt eval count:    %d token(s)",
# "prompt eval duration: %s", "prompt eval rate:     %.2f tokens/s", "eval count:           %d token(s)",
# "eval duration:        %s", "eval rate:            %.2f tokens/s"; durations are time.Duration
# String(): "2m8.77s", "68.0198ms", "512.345µs"
{
	printf 'total duration:       2m8.77s\n'
	printf 'load duration:        68.0198ms\n'
	printf 'prompt eval count:    12 token(s)\n'
	printf 'prompt eval duration: 123.4ms\n'
	printf 'prompt eval rate:     97.21 tokens/s\n'
	printf 'eval count:           63 token(s)\n'
	printf 'eval duration:        2.345s\n'
	printf 'eval rate:            26.86 tokens/s\n'
	printf 'total duration:       5.123456789s\n'
	printf 'prompt eval count:    26 token(s)\n'
	printf 'prompt eval duration: 512.345µs\n'
	printf 'prompt eval rate:     50747.06 tokens/s\n'
} > "$d/ollama.log"

# --- timm train.py: 'Train: {} [{:>4d}/{} ({:>3.0f}%)]  Loss: {loss.val:#.4g} ({loss.avg:#.3g})  Time: {batch_time.val:.3f}s, {rate:>7.2f}/s  ({batch_time.avg:.3f}s, {rate_avg:>7.2f}/s)  LR: {lr:.3e}  Data: {data_time.val:.3f} ({data_time.avg:.3f})'
{
	printf 'Train: 0 [  50/1251 (  4%%)]  Loss: 6.910 (6.92)  Time: 0.345s,  742.10/s  (0.350s,  731.40/s)  LR: 1.000e-05  Data: 0.012 (0.013)\n'
} > "$d/timm.log"

# --- fairseq simple progress bar ------------------------------------------------
{
	printf '2021-01-01 00:00:00 | INFO | train_inner | epoch 001:    100 / 1000 loss=9.8, nll_loss=9.1, ppl=550.1, wps=12345.6, ups=3.4, wpb=3631.2, bsz=128, num_updates=100, lr=1.25e-05, gnorm=2.1, train_wall=45, gb_free=10.2, wall=60\n'
} > "$d/fairseq.log"

# --- torch.profiler key_averages().table() (torch/autograd/profiler_util.py _build_table) ----
# columns "{: >W}" + two blanks, W 55 for Name (cut to 52 + "..."), 12 for the others; the
# separator "-" * W + two blanks; headers "Name", "Self CPU %", "Self CPU", "CPU total %",
# "CPU total", "CPU time avg", [f"Self {dev}", f"Self {dev} %", f"{dev} total", f"{dev} time avg"],
# ["CPU Mem", "Self CPU Mem"], "# of Calls"; times _format_time(us): f"{t/1e6:.3f}s" from 1 s,
# f"{t/1e3:.3f}ms" from 1 ms, else f"{t:.3f}us"; shares f"{share * 100:.2f}%";
# memory _format_memory: f"{b/GB:.2f} Gb", "Mb", "Kb", f"{b} b";
# after the table f"Self CPU time total: {...}" and f"Self {dev} time total: {...}"
sep6='-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  '
sep8='-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  '
sep10='-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  ------------  '
{
	printf '%s\n' "$sep6"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' Name "Self CPU %" "Self CPU" "CPU total %" "CPU total" "CPU time avg" "# of Calls"
	printf '%s\n' "$sep6"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' model_inference 5.97% 1.020ms 100.00% 17.087ms 17.087ms 1
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::conv2d 0.25% 43.000us 64.83% 11.077ms 553.850us 20
	printf '%s\n' "$sep6"
	printf 'Self CPU time total: 17.087ms\n'
	printf '\n'
	printf '%s\n' "$sep10"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' Name "Self CPU %" "Self CPU" "CPU total %" "CPU total" "CPU time avg" "Self CUDA" "Self CUDA %" "CUDA total" "CUDA time avg" "# of Calls"
	printf '%s\n' "$sep10"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' model_inference 2.41% 1.152ms 100.00% 47.812ms 47.812ms 0.000us 0.00% 11.666ms 11.666ms 1
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::conv2d 0.09% 43.000us 11.45% 5.475ms 273.750us 0.000us 0.00% 8.235ms 411.750us 20
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' cudaLaunchKernel 21.58% 10.318ms 21.58% 10.318ms 17.163us 0.000us 0.00% 0.000us 0.000us 601
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f3... 0.00% 0.000us 0.00% 0.000us 0.000us 6.245ms 53.53% 6.245ms 312.250us 20
	printf '%s\n' "$sep10"
	printf 'Self CPU time total: 47.812ms\n'
	printf 'Self CUDA time total: 11.666ms\n'
	printf '\n'
	printf '%s\n' "$sep8"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' Name "Self CPU %" "Self CPU" "CPU total %" "CPU total" "CPU time avg" "CPU Mem" "Self CPU Mem" "# of Calls"
	printf '%s\n' "$sep8"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::empty 0.94% 160.000us 0.94% 160.000us 1.739us "94.79 Mb" "94.79 Mb" 92
	printf '%s\n' "$sep8"
	printf 'Self CPU time total: 17.087ms\n'
} > "$d/torch-profiler.log"

# --- torch.utils.benchmark Measurement.__repr__ (torch/utils/benchmark/utils/common.py) ----
# f"{super().__repr__()}\n{self.task_spec.summarize()}\n"
# f"  {'Median: ' if n > 1 else ''}{self._median / time_scale:.2f} {time_unit}\n"
# f"  IQR:    {self.iqr / time_scale:.2f} {time_unit} ({self._p25 / time_scale:.2f} to {self._p75 / time_scale:.2f})\n" (n >= 4)
# f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs {'per measurement,' if n > 1 else ','} {self.num_threads} thread{'s' if ... > 1 else ''}"
# TaskSpec.summarize: title (label, or the statement), description, and the setup:
# f"setup: {setup}" or "setup:\n" + textwrap.indent(setup, "  ") + "\n" when it has several lines
{
	printf '<torch.utils.benchmark.utils.common.Measurement object at 0x7f8e4c0d6b50>\n'
	printf 'batched_dot_mul_sum(x, x)\n'
	printf 'setup: from __main__ import batched_dot_mul_sum\n'
	printf '  379.29 us\n'
	printf '  1 measurement, 100 runs , 1 thread\n'
	printf '\n'
	printf '<torch.utils.benchmark.utils.common.Measurement object at 0x7f8e4c0d6c10>\n'
	printf 'batched_dot_bmm(x, x)\n'
	printf 'setup: from __main__ import batched_dot_bmm\n'
	printf '  Median: 6.62 us\n'
	printf '  IQR:    0.13 us (6.56 to 6.69)\n'
	printf '  26 measurements, 10000 runs per measurement, 1 thread\n'
	printf '<torch.utils.benchmark.utils.common.Measurement object at 0x7f1929a38ed0>\n'
	printf 'x * y\n'
	printf 'setup:\n'
	printf '  x = torch.ones((128,))\n'
	printf '  y = torch.ones((128,))\n'
	printf '\n'
	printf '  Median: 2.34 us\n'
	printf '  IQR:    0.07 us (2.31 to 2.38)\n'
	printf '  424 measurements, 1 runs per measurement, 1 thread\n'
	printf '<torch.utils.benchmark.utils.common.Measurement object at 0x7d6577672c90>\n'
	printf 'GEMM Benchmark: PyTorch Native Matmul\n'
	printf '  Median: 4.19 ms\n'
	printf '  IQR:    0.04 ms (4.17 to 4.21)\n'
	printf '  5 measurements, 10 runs per measurement, 1 thread\n'
} > "$d/torch-benchmark.log"
