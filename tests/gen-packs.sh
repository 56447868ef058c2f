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

# --- tqdm: "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
{
	printf ' 50%%|█████     | 500/1000 [05:00<05:00,  1.66it/s]\r100%%|██████████| 1000/1000 [10:00<00:00,  1.67it/s]\n'
	printf 'Epoch 0: 100%%|██████████| 10/10 [00:32<00:00,  3.20s/it, loss=0.5]\n'
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
# ' iteration {:8d}/{:8d} |' ' consumed samples: {:12d} |' ' elapsed time per iteration (ms): {:.1f} |'
# ' throughput per GPU (TFLOP/s/GPU): {:.1f} |' ' learning rate: {:.6E} |' ' {}: {:.6E} |'
# timers: '(min, max) time across ranks (ms):' + '\n    {}: ({:.2f}, {:.2f})'.format((name + ' ').ljust(48, '.'), ...)
{
	for i in 1 2 3; do
		printf ' [2025-08-01 07:19:%02d] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): %.1f | throughput per GPU (TFLOP/s/GPU): %.1f | learning rate: %.6E | global batch size: %5d | lm loss: %.6E | loss scale: 1.0 | grad norm: 26.203 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' \
			$((30 + i)) $i 5000 $((128 * i)) "1913$i.8" "11$i.5" 6.976744e-08 128 "10.4386$i"
	done
	printf '(min, max) time across ranks (ms):\n'
	printf '    %s: (%.2f, %.2f)\n' 'forward-backward ................................' 19100.12 19100.45
	printf '    %s: (%.2f, %.2f)\n' 'optimizer .......................................' 35.50 36.75
} > "$d/megatron.log"

# --- DeepSpeed --------------------------------------------------------------
# SynchronizedWallClockTimer.log: "time (ms)" + " | {}: {:.2f}".format(name, elapsed)
# ThroughputTimer: "epoch={}/micro_step={}/global_step={}, RunningAvgSamplesPerSec={}, CurrSamplesPerSec={}, MemAllocated={}GB, MaxMemAllocated={}GB"
{
	printf '[2024-01-01 12:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] time (ms) | fwd_microstep: 412.30 | bwd_microstep: 890.10 | step_microstep: 12.00\n'
	printf '[2024-01-01 12:00:01,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=31.5, CurrSamplesPerSec=32.1, MemAllocated=5.1GB, MaxMemAllocated=7.2GB\n'
} > "$d/deepspeed.log"

# --- nanoGPT: f"iter {iter_num}: loss {lossf:.4f}, time {dt*1000:.2f}ms, mfu {running_mfu*100:.2f}%"
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

# --- Keras fit (2.x and 3.x progbar) -----------------------------------------
{
	printf '1875/1875 [==============================] - 5s 3ms/step - loss: 0.2900 - accuracy: 0.9100\n'
	printf '1875/1875 ━━━━━━━━━━━━━━━━━━━━ 7s 4ms/step - accuracy: 0.9200 - loss: 0.2800\n'
} > "$d/keras.log"

# --- nccl-tests: "%12li  %12li  %8s  %6s  %6i  %7s  %6.2f  %6.2f  %6s" (li as d here) -------
{
	printf '#                                                              out-of-place                       in-place          \n'
	printf '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n'
	printf '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n'
	printf '%12d  %12d  %8s  %6s  %6d  %7.1f  %6.2f  %6.2f  %6d  %7.1f  %6.2f  %6.2f  %6d\n' 8388608 2097152 float sum -1 123.4 67.98 127.46 0 122.9 68.24 127.96 0
	printf '# Out of bounds values : 0 OK\n'
	printf '# Avg bus bandwidth    : 98.7654 \n'
} > "$d/nccl-tests.log"

# --- llama.cpp ------------------------------------------------------------------
# "%s: prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)"
{
	printf 'llama_print_timings:        load time = %10.2f ms\n' 1234.56
	printf 'llama_print_timings: prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)\n' 123.45 12 10.29 97.21
	printf 'llama_perf_context_print:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)\n' 2345.67 63 37.23 26.86
	printf '| model                          |       size |     params | backend    | ngl |          test |                  t/s |\n'
	printf '| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |         pp512 |      2345.67 ± 12.34 |\n'
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

# --- modded-nanogpt: f"step:{step}/{train_steps} train_time:{training_time_ms:.0f}ms step_avg:{...:.2f}ms"
{
	printf 'step:10/1770 train_time:1234ms step_avg:123.40ms\n'
	printf 'step:20/1770 val_loss:4.0123 train_time:2468ms step_avg:123.40ms\n'
} > "$d/modded-nanogpt.log"

# --- ollama run --verbose (Go time.Duration String) ---------------------------
{
	printf 'total duration:       2m8.77s\n'
	printf 'load duration:        68.0198ms\n'
	printf 'prompt eval count:    12 token(s)\n'
	printf 'prompt eval duration: 123.4ms\n'
	printf 'prompt eval rate:     97.21 tokens/s\n'
	printf 'eval count:           63 token(s)\n'
	printf 'eval duration:        2.345s\n'
	printf 'eval rate:            26.86 tokens/s\n'
} > "$d/ollama.log"

# --- timm train.py: 'Train: {} [{:>4d}/{} ({:>3.0f}%)]  Loss: {loss.val:#.4g} ({loss.avg:#.3g})  Time: {batch_time.val:.3f}s, {rate:>7.2f}/s  ({batch_time.avg:.3f}s, {rate_avg:>7.2f}/s)  LR: {lr:.3e}  Data: {data_time.val:.3f} ({data_time.avg:.3f})'
{
	printf 'Train: 0 [  50/1251 (  4%%)]  Loss: 6.910 (6.92)  Time: 0.345s,  742.10/s  (0.350s,  731.40/s)  LR: 1.000e-05  Data: 0.012 (0.013)\n'
} > "$d/timm.log"

# --- fairseq simple progress bar ------------------------------------------------
{
	printf '2021-01-01 00:00:00 | INFO | train_inner | epoch 001:    100 / 1000 loss=9.8, nll_loss=9.1, ppl=550.1, wps=12345.6, ups=3.4, wpb=3631.2, bsz=128, num_updates=100, lr=1.25e-05, gnorm=2.1, train_wall=45, gb_free=10.2, wall=60\n'
} > "$d/fairseq.log"

# --- torch.profiler key_averages().table(): column width 55 for Name, 12 for the others
{
	printf -- '-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  \n'
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' Name "Self CPU %" "Self CPU" "CPU total %" "CPU total" "CPU time avg" "# of Calls"
	printf -- '-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  \n'
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' model_inference 5.97% 1.020ms 100.00% 17.087ms 17.087ms 1
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::conv2d 0.25% 43.000us 64.83% 11.077ms 553.850us 20
	printf -- '-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------  \n'
	printf 'Self CPU time total: 17.087ms\n'
} > "$d/torch-profiler.log"

# --- torch.utils.benchmark Measurement.__repr__
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
} > "$d/torch-benchmark.log"
