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
	# transformers 5.x: the logged numbers formatted to 4 significant digits and
	# quoted (f"{v:.4g}"), the dict padded to the bar's width by tqdm.write
	printf "{'loss': '3.704', 'grad_norm': '0.006008', 'learning_rate': '8.8e-07', 'epoch': '0.992'}%40s\n" ""
	printf "{'train_runtime': '2.035e+04', 'train_samples_per_second': '0.983', 'train_steps_per_second': '0.061', 'train_loss': '3.779', 'epoch': '1'}%20s\n" ""
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
	# a library's message written right after a redraw, on the same line (Unsloth
	# saving a checkpoint): the redraw is still the bar's
	printf ' 90%%|█████████ | 100/111 [05:47<00:36,  3.34s/it]Unsloth: Restored added_tokens_decoder metadata in checkpoint-100/tokenizer_config.json.\n'
	printf '100%%|██████████| 111/111 [06:41<00:00,  3.38s/it]Unsloth: Restored added_tokens_decoder metadata in checkpoint-111/tokenizer_config.json.\n'
} > "$d/tqdm.log"

# --- PyTorch Lightning profilers ----------------------------------------------
# SimpleProfiler.summary, Lightning 1.5-2.x (lightning/pytorch/profilers/simple.py):
#   f"{stage.upper()} " + f"Profiler Report{sep}", then sep_lines = f"{sep}{'-' * len}",
#   extended rows f"{sep}|  {action:<{max_key}s}\t|  {mean:<15}\t|" + f"  {num_calls:<15}\t|  {total:<15}\t|  {per:<15}\t|"
#   (max_key: the longest action name), the Total row ("Total", "-", f"{total_calls:}",
#   f"{total_duration:.5}", "100 %"), values f"{x:.5}" (5 significant digits, so
#   1.2345e-05 happens); extended=False: f"{sep}|  {action:<{max_key}s}\t|  {mean:<15}\t|  {total:<15}\t|".
#   Mean and total are seconds; the mean is over the calls, the total their sum.
# SimpleProfiler, Lightning 1.0-1.2 (pytorch_lightning/profiler/profilers.py):
#   "\n\nProfiler Report\n", rows f"{os.linesep}{action:<{max_key}s}\t|  {mean:<15}\t|" + f"{num_calls:<15}\t|  {total:<15}\t|  {per:<15}\t|"
#   (no leading "|", no blanks after the third "|"), Total row with calls "_".
# AdvancedProfiler._stats_to_str: [stage + "Profiler Report"], f"Profile stats for: {action}"
#   + f" rank: {local_rank}", then pstats' print_stats: print(indent, total_calls,
#   "function calls", end=' '), "(%d primitive calls)" when they differ, "in %.3f seconds".
# TQDMProgressBar is tqdm's, read by the tqdm pack. RichProgressBar
#   (lightning/pytorch/callbacks/progress/rich_progress.py): columns description
#   (f"Epoch {current_epoch}" + f"/{max_epochs - 1}", padded to the validation
#   description), bar, BatchesProcessedColumn f"{int(task.completed)}/{total}",
#   CustomTimeColumn f"{elapsed_delta} • {remaining_delta}" (str(timedelta(seconds=int(...)))),
#   ProcessingSpeedColumn f"{task_speed}it/s" (f"{task.speed:>.2f}"), then the metrics
#   "name: value"; in a file the last frame of a bar is what stays.
{
	row='|  %-42s\t|  %-15s\t|  %-15s\t|  %-15s\t|  %-15s\t|\n'
	dash='--------------------------------------------------------------------------------------------------------------------------------------------'
	printf 'FIT Profiler Report\n\n%s\n' "$dash"
	printf "$row" Action "Mean duration (s)" "Num calls" "Total time (s)" "Percentage %"
	printf '%s\n' "$dash"
	printf "$row" Total - 6262 64.068 "100 %"
	printf '%s\n' "$dash"
	printf "$row" run_training_epoch 31.69 2 63.38 98.926
	printf "$row" run_training_batch 0.012301 3126 38.453 60.018
	printf "$row" '[LightningModule]BoringModel.optimizer_step' 0.0054321 3126 16.981 26.504
	printf "$row" '[_TrainingEpochLoop].train_dataloader_next' 1.2345e-05 8 9.876e-05 0.00015414
	printf '%s\n\n' "$dash"
	printf 'FIT Profiler Report\n'
	printf 'Profile stats for: run_training_epoch rank: 0\n'
	printf '         220451 function calls (210045 primitive calls) in 63.380 seconds\n\n'
	printf '   Ordered by: cumulative time\n\n'
	printf '   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n'
	printf '        2    0.001    0.000   63.380   31.690 fit_loop.py:203(advance)\n'
	printf 'Profile stats for: [_TrainingEpochLoop].train_dataloader_next rank: 0\n'
	printf '         8137724 function calls in 6.729 seconds\n\n\n'
	short='|  %-40s\t|  %-15s\t|  %-15s\t|\n'
	printf '\nTEST Profiler Report\n\n%s\n' "$dash"
	printf "$short" Action "Mean duration (s)" "Total time (s)"
	printf '%s\n' "$dash"
	printf "$short" run_test_evaluation 4.5678 4.5678
	printf "$short" '[Strategy]SingleDeviceStrategy.test_step' 0.0034567 1.0818
	printf '%s\n' "$dash"
	printf 'Epoch 9/9  ━━━━━━━━━━━━━━━━━━━━ 938/938 0:00:12 • 0:00:00 75.83it/s v_num: 0 train_loss: 0.123\n'
	printf 'Epoch 3/9  ━━━━━━━━━━╸━━━━━━━━━ 469/938 0:00:06 • 0:00:06 74.10it/s v_num: 0 train_loss: 0.301\n'
	printf 'Testing DataLoader 0 ━━━━━━━━━━━━━━━━━━━━ 313/313 0:00:01 • 0:00:00 250.41it/s\n'
	printf 'Validation ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 7/7 0:00:03 • 0:00:00 2.32it/s \n'
	# stdout not a terminal: rich's Console is 80 columns wide, the bar is drawn once and
	# the table's cells wrap in their columns: the metrics under the bar, and with a
	# longer description the time column's remaining time too
	printf 'Epoch 4/4  ━━━━━━━━━━━━━━━━━ 25/25 0:00:48 • 0:00:00 0.48it/s v_num: 2.000      \n'
	printf '                                                              train_loss: 0.430 \n'
	printf '                                                              val_loss: 0.007   \n'
	printf 'Epoch 12/99 ━━━━━━━━━━━━━━━━━━━━━ 938/938 0:01:12 •       83.10it/s v_num: 0    \n'
	printf '                                         0:00:00                    val_loss:   \n'
	printf '                                                                    0.512       \n'
	# cProfile's own print_stats (no profiler report around it)
	printf '         172246818 function calls (172209983 primitive calls) in 156.669 seconds\n'
} > "$d/lightning.log"
# Lightning 1.0-1.2 (one version per run: its own log)
{
	dash='--------------------------------------------------------------------------------------------------------------------------------------------'
	old='%-18s\t|  %-15s\t|%-15s\t|  %-15s\t|  %-15s\t|\n'
	printf '\n\nProfiler Report\n\n'
	printf "$old" Action "Mean duration (s)" "Num calls" "Total time (s)" "Percentage %"
	printf '%s\n' "$dash"
	printf "$old" Total - _ 120.5 "100 %"
	printf '%s\n' "$dash"
	printf "$old" run_training_epoch 59.8 2 119.6 99.253
	printf "$old" model_forward 0.0151 6252 94.405 78.344
} > "$d/lightning-1.x.log"

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
	# forks that print the elapsed time in seconds, here under torchrun --tee
	printf '[default3]: iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (s): %.4f | learning rate: %.3E | global batch size: %5d | lm loss: %.6E | loss scale: 4096.0 | grad norm: 42.627 | number of skipped iterations:   0 | number of nan iterations:   0 | samples per second: %.3f | TFLOPs: %.2f |\n' \
		10 292968 10240 35.8651 4.734E-06 1024 13.32803 28.551 199.03
	# megatron/training/training.py print_datetime(): '[' + string + '] datetime: {} '
	# .format(time.strftime('%Y-%m-%d %H:%M:%S'))
	printf '[%s] datetime: %s \n' 'after megatron is initialized' '2025-12-22 19:29:57' \
		'after training is done' '2025-12-22 22:04:38'
} > "$d/megatron-variants.log"

# --- DeepSpeed --------------------------------------------------------------
# SynchronizedWallClockTimer.log (deepspeed/utils/timer.py): string = "time (ms)"
#   (0.3-0.8: f"rank={dist.get_rank()} time (ms)"), then per timer
#   " | {}: {:.2f}".format(name, elapsed_ms / normalizer); timer names fwd_microstep,
#   bwd_microstep, bwd_inner_microstep, bwd_allreduce_microstep, step_microstep and
#   fwd, bwd, bwd_inner, bwd_allreduce, step (0.3: forward_microstep, backward_microstep, ...).
# ThroughputTimer.stop: "epoch={}/micro_step={}/global_step={}, RunningAvgSamplesPerSec={},
#   CurrSamplesPerSec={}, MemAllocated={}GB, MaxMemAllocated={}GB" (0.3: "{}/{}, Running...");
#   the rates are Python floats printed with str() (full repr); RunningAvg is the
#   mean since start_step, Curr the last global step's.
# Flops profiler print_model_profile (deepspeed/profiling/flops_profiler/profiler.py):
#   line_fmt '{:<70}  {:<8}' (0.3-0.9: '{:<60}  {:<8}'), rows 'fwd latency: ',
#   'fwd FLOPS per GPU = fwd flops per GPU / fwd latency: ', 'bwd latency: ',
#   f'bwd FLOPS per GPU = {bwd_factor:g} * fwd flops per GPU / bwd latency: ',
#   f'fwd+bwd FLOPS per GPU = {bwd_factor + 1:g} * fwd flops per GPU / (fwd+bwd latency): ',
#   'step latency: ', 'iter latency: ', f'FLOPS per GPU = {bwd_factor + 1:g} * fwd flops per GPU / iter latency: ',
#   'samples/second: ' (round(x, 2); 0.3-0.9: '{:<60}  {:<8.2f}'); durations by
#   duration_to_string: f"{round(num / magnitude, 2):g} {units}" + "s" (units "", m, u:
#   "1.31 s", "412.3 ms"), FLOPS by flops_to_string: the same + "FLOPS" (K M G T).
#   'fwd flops per GPU: ' is an operation count, the module rows "12.3 ms = 3% latency"
#   are per-module shares: neither is a timing of the run.
#   Some versions print "per device" for "per GPU"; a backward timer that did not run
#   gives negative latencies ("-2.9601e+08 us", "-1.16192e+18 uFLOPS"): not timings.
{
	printf '[2024-01-01 12:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] time (ms) | fwd_microstep: 412.30 | bwd_microstep: 890.10 | bwd_inner_microstep: 850.00 | bwd_allreduce_microstep: 40.05 | step_microstep: 12.00\n'
	printf '[2024-01-01 12:00:00,125] [INFO] [logging.py:96:log_dist] [Rank 0] time (ms) | fwd: 4123.02 | bwd: 8901.11 | bwd_inner: 8500.20 | bwd_allreduce: 400.91 | step: 120.00\n'
	printf '[2024-01-01 12:00:01,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=31.54212345678901, CurrSamplesPerSec=32.1, MemAllocated=5.1GB, MaxMemAllocated=7.2GB\n'
	printf '[2021-03-01 10:00:00,000] [INFO] [logging.py:60:log_dist] [Rank 0] rank=0 time (ms) | forward_microstep: 101.10 | backward_microstep: 202.20 | step_microstep: 10.50\n'
	printf '[2021-03-01 10:00:01,000] [INFO] [timer.py:166:stop] 0/10, RunningAvgSamplesPerSec=25.37, CurrSamplesPerSec=26.01, MemAllocated=3.2GB, MaxMemAllocated=4.4GB\n'
	printf '[2024-01-01 12:00:02,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]\n'
	printf '\n-------------------------- DeepSpeed Flops Profiler --------------------------\n'
	printf 'Profile Summary at step 10:\n'
	printf 'Notations:\ndata parallel size (dp_size), model parallel size(mp_size),\nnumber of parameters (params), number of multiply-accumulate operations(MACs),\nnumber of floating-point operations (flops), floating-point operations per second (FLOPS),\nfwd latency (forward propagation latency), bwd latency (backward propagation latency),\nstep (weights update latency), iter latency (sum of fwd, bwd and step latency)\n\n'
	f='%-70s  %-8s\n'
	printf "$f" 'world size: ' 8
	printf "$f" 'batch size per GPU: ' 16
	printf "$f" 'params per GPU: ' '110.07 M'
	printf "$f" 'fwd MACs per GPU: ' '2.79 TMACs'
	printf "$f" 'fwd flops per GPU: ' '5.58 T'
	printf "$f" 'fwd latency: ' '412.3 ms'
	printf "$f" 'fwd FLOPS per GPU = fwd flops per GPU / fwd latency: ' '13.53 TFLOPS'
	printf "$f" 'bwd latency: ' '890.1 ms'
	printf "$f" 'bwd FLOPS per GPU = 2 * fwd flops per GPU / bwd latency: ' '12.54 TFLOPS'
	printf "$f" 'fwd+bwd FLOPS per GPU = 3 * fwd flops per GPU / (fwd+bwd latency): ' '12.85 TFLOPS'
	printf "$f" 'step latency: ' '12 ms'
	printf "$f" 'iter latency: ' '1.31 s'
	printf "$f" 'FLOPS per GPU = 3 * fwd flops per GPU / iter latency: ' '12.74 TFLOPS'
	printf "$f" 'samples/second: ' 97.38
	printf '\n----------------------------- Aggregated Profile per GPU -----------------------------\n'
	printf 'depth 0:\n'
	printf "    fwd latency - {'BertForPreTraining': '412.3 ms'}\n"
	printf '  (embeddings): BertEmbeddings(23.84 M = 21.66%% Params, 0 MACs = 0%% MACs, 1.23 ms = 0.3%% latency, 0 FLOPS)\n'
	f='%-60s  %-8s\n'
	printf "$f" 'fwd latency: ' '45.67 ms'
	printf "$f" 'fwd FLOPS per GPU = fwd flops per GPU / fwd latency: ' '1.23 TFLOPS'
	printf "$f" 'iter latency: ' '456.7 us'
	printf '%-60s  %-8.2f\n' 'samples/second: ' 123.45
	f='%-70s  %-8s\n'
	printf '\n-------------------------- DeepSpeed Flops Profiler --------------------------\n'
	printf 'Profile Summary at step 2:\n'
	printf "$f" 'fwd latency: ' '9.34 s'
	printf "$f" 'bwd latency: ' '-2.9601e+08 us'
	printf "$f" 'FLOPS per GPU = 3 * fwd flops per GPU / iter latency: ' '-1.16192e+18 uFLOPS'
	printf "$f" 'samples/second: ' -0.5
	printf '\n-------------------------- DeepSpeed Flops Profiler --------------------------\n'
	printf '%-60s  %-8s\n' 'fwd FLOPS per device = fwd flops per device / fwd latency: ' '43.68 TFLOPS'
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

# --- mmengine LogProcessor / mmcv TextLoggerHook / mmcv ProgressBar -----------
# mmengine (mmengine/runner/log_processor.py) get_log_after_iter: f'Epoch({mode}){cur_epoch_str}'
#   f'[{cur_iter_str}/{dataloader_len}]  ' (cur_epoch_str = f'[{cur_epoch}]'.rjust(len(str(max_epochs)) + 3),
#   cur_iter right-justified), by iteration f'Iter({mode}) [{cur_iter_str}/{max_iters}]  ',
#   then f'{lr_str}  ' (f'{key}: {value:.{num_digits}e}', num_digits 4), f'eta: {eta_str}  ',
#   f'time: {time:.4f}  data_time: {data_time:.4f}  ', f'memory: {max_memory}  ' (MB),
#   then f'{name}: {val:.4f}' joined by '  '. time and data_time match mean_pattern, so
#   they are the mean of the last window_size (10) iterations, not one iteration's.
#   get_log_after_epoch (val, test): f'Epoch({mode}) [{cur_epoch}][{n}/{n}]  ' (test:
#   f'Epoch({mode}) [{n}/{n}]  ', by iteration f'Iter({mode}) [{n}/{n}]  '), then '  ', the
#   metrics, and data_time, time last: their mean over the whole val/test epoch.
# mmcv 1.x TextLoggerHook._log_info (mmcv/runner/hooks/logger/text.py), train:
#   f'Epoch [{epoch}][{iter}/{len(data_loader)}]\t' or f'Iter [{iter}/{max_iters}]\t',
#   f'lr: {lr:.3e}, ' (mmcv 0.x: f'lr: {lr:.5f}, '), f'eta: {eta_str}, ',
#   f'time: {time:.3f}, data_time: {data_time:.3f}, ', f'memory: {memory}, ', then
#   f'{name}: {val:.4f}' joined by ', '; time and data_time: the log_buffer average
#   over the logging interval. val: f'Epoch({mode}) [{epoch}][{iter}]\t' + metrics, no time.
# mmcv ProgressBar.update (mmcv/utils/progressbar.py): '\r[{}] {}/{}, {:.1f} task/s,
#   elapsed: {}s, ETA: {:5}s' (bar '>' * mark_width + ' ' * rest; elapsed int(elapsed + 0.5));
#   each update redraws after a CR, the line ends when the bar is full.
{
	printf '2024/05/01 12:00:00 - mmengine - INFO - Epoch(train)  [1][  50/7330]  base_lr: 1.0000e-02 lr: 1.0000e-02  eta: 1 day, 4:12:02  time: 0.4432  data_time: 0.0123  memory: 3456  loss: 1.2345  loss_cls: 0.5000  loss_bbox: 0.7345\n'
	printf '2024/05/01 13:00:00 - mmengine - INFO - Epoch(val)  [1][ 50/625]    eta: 0:01:10  time: 0.1201  data_time: 0.0021  memory: 1234  \n'
	printf '2024/05/01 13:02:00 - mmengine - INFO - Epoch(val) [1][625/625]    coco/bbox_mAP: 0.3740  coco/bbox_mAP_50: 0.5810  data_time: 0.0025  time: 0.1187\n'
	printf '2024/05/01 13:05:00 - mmengine - INFO - Iter(train) [  200/80000]  base_lr: 1.0000e-02 lr: 1.0000e-02  eta: 7:30:00  time: 0.3400  data_time: 0.0200  memory: 4000  loss: 1.1000  decode.loss_ce: 1.1000\n'
	printf '2024/05/01 13:06:00 - mmengine - INFO - Iter(val) [ 50/500]    eta: 0:00:40  time: 0.0820  data_time: 0.0031  memory: 1500  \n'
	printf '2024/05/01 13:07:00 - mmengine - INFO - Iter(val) [500/500]    aAcc: 95.1000  mIoU: 76.2000  mAcc: 84.0000  data_time: 0.0030  time: 0.0815\n'
	printf '2024/05/01 13:08:00 - mmengine - INFO - Epoch(test) [625/625]    coco/bbox_mAP: 0.3740  data_time: 0.0024  time: 0.1190\n'
	printf '2021-05-01 12:00:00,000 - mmdet - INFO - Epoch [1][50/1251]\tlr: 1.000e-02, eta: 2:03:04, time: 0.512, data_time: 0.051, memory: 3210, loss_cls: 0.5000, loss: 1.2000\n'
	printf '2021-05-01 12:30:00,000 - mmdet - INFO - Epoch(val) [1][625]\tbbox_mAP: 0.3740, bbox_mAP_50: 0.5810, bbox_mAP_copypaste: 0.374 0.581 0.404 0.212 0.410 0.481\n'
	printf '2021-05-01 12:00:00,000 - mmseg - INFO - Iter [100/160000]\tlr: 9.999e-03, eta: 1 day, 0:12:34, time: 0.545, data_time: 0.012, memory: 7433, decode.loss_ce: 1.2345, decode.acc_seg: 55.1234, loss: 1.2345\n'
	printf '2020-01-01 12:00:00,000 - mmdet - INFO - Epoch [2][100/7330]\tlr: 0.02000, eta: 20:01:02, time: 0.498, data_time: 0.018, memory: 3845, loss_rpn_cls: 0.0512, loss: 0.8123\n'
	full='>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>'
	half='>>>>>>>>>>>>>>>>>>>>>>>>>                         '
	none='                                                  '
	printf '[%s] 0/500, elapsed: 0s, ETA:\r[%s] 250/500, 11.2 task/s, elapsed: 22s, ETA:    22s\r[%s] 500/500, 11.4 task/s, elapsed: 44s, ETA:     0s\n' "$none" "$half" "$full"
	printf '[%s] 5000/5000, 20.5 task/s, elapsed: 244s, ETA:     0s\n' "$full"
	printf "log_config = dict(interval=50, hooks=[dict(type='TextLoggerHook')])  # prints 'Epoch [1][50/1251]\\\\tlr: ..., time: ...'\n"
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

# --- PyTorch ImageNet example (pytorch/examples imagenet/main.py) --------------
# ProgressMeter.display: '\t'.join([prefix + '[' + fmt + '/' + fmt.format(num_batches) + ']']
#   + [str(meter)]), fmt '{:' + str(len(str(num_batches))) + 'd}', called with i + 1;
#   AverageMeter.__str__: '{name} {val' + fmt + '} ({avg' + fmt + '})' with Time, Data
#   ':6.3f', Loss ':.4e', Acc@1/Acc@5 ':6.2f'; prefix "Epoch: [{}]".format(epoch) in
#   train, 'Test: ' in validate (no Data meter). The value before the parentheses is
#   the batch's, the one inside the running average. display_summary: ' '.join([" *"]
#   + [meter.summary()]), Time and Loss with Summary.NONE (''), so no timing.
# Before 2019: print('Epoch: [{0}][{1}/{2}]\t' 'Time {batch_time.val:.3f} ({batch_time.avg:.3f})\t'
#   'Data {data_time.val:.3f} ({data_time.avg:.3f})\t' 'Loss {loss.val:.4f} ({loss.avg:.4f})\t'
#   'Prec@1 {top1.val:.3f} ({top1.avg:.3f})\t' ...) and 'Test: [{0}/{1}]\t' 'Time ...'.
{
	printf 'Epoch: [0][   1/5005]\tTime  3.456 ( 3.456)\tData  2.901 ( 2.901)\tLoss 6.9078e+00 (6.9078e+00)\tAcc@1   0.00 (  0.00)\tAcc@5   0.39 (  0.39)\n'
	printf 'Epoch: [0][  11/5005]\tTime  0.345 ( 0.456)\tData  0.012 ( 0.013)\tLoss 6.9078e+00 (6.9100e+00)\tAcc@1   0.00 (  0.10)\tAcc@5   0.39 (  0.50)\n'
	printf 'Epoch: [0][ 101/5005]\tTime 12.345 ( 1.456)\tData 11.912 ( 1.013)\tLoss 6.8512e+00 (6.8900e+00)\tAcc@1   0.39 (  0.12)\tAcc@5   1.17 (  0.61)\n'
	printf 'Test: [  1/196]\tTime  1.210 ( 1.210)\tLoss 6.8000e+00 (6.8000e+00)\tAcc@1   0.10 (  0.10)\tAcc@5   0.50 (  0.50)\n'
	printf 'Test: [ 11/196]\tTime  0.210 ( 0.250)\tLoss 6.8000e+00 (6.8500e+00)\tAcc@1   0.10 (  0.12)\tAcc@5   0.50 (  0.55)\n'
	printf ' *   Acc@1 0.120 Acc@5 0.550\n'
	printf 'Epoch: [3][1000/5005]\tTime 0.120 (0.125)\tData 0.001 (0.002)\tLoss 2.1000 (2.2000)\tPrec@1 55.000 (52.100)\tPrec@5 80.000 (78.200)\n'
	printf 'Test: [190/196]\tTime 0.101 (0.110)\tLoss 1.2000 (1.3000)\tPrec@1 70.000 (69.500)\tPrec@5 90.000 (89.100)\n'
} > "$d/imagenet.log"

# --- detectron2 and pycocotools ------------------------------------------------
# CommonMetricPrinter.write (detectron2/utils/events.py), 2023 on:
#   " {eta}iter: {iter}  {losses}  {non_losses}  {avg_time}{last_time}{avg_data_time}{last_data_time}lr: {lr}  {memory}"
#   with eta=f"eta: {eta_string}  ", losses "{}: {:.4g}" (window medians) joined by '  ',
#   "time: {:.4f}  " = storage.history("time").global_avg() (the mean since the start),
#   "last_time: {:.4f}  " = the last iteration's, "data_time: {:.4f}  " = the mean of the
#   last 20, "last_data_time: {:.4f}  " = the last iteration's, "max_mem: {:.0f}M".
#   2020-2022: no last_time or last_data_time (" {eta}iter: {iter}  {losses}  {time}{data_time}lr: {lr}  {memory}").
# hooks.IterationTimer.after_train: "Overall training speed: {} iterations in {} ({:.4f} s / it)"
#   (str(timedelta(seconds=int(...)))) and "Total training time: {} ({} on hooks)".
# evaluator.inference_on_dataset: "Inference done {}/{}. Dataloading: {:.4f} s/iter. Inference: ...
#   s/iter. Eval: ... s/iter. Total: ... s/iter. ETA={}" (means since the warm-up: not read),
#   "Total inference time: {} ({:.6f} s / iter per device, on {} devices)" (timedelta of a
#   float: microseconds), "Total inference pure compute time: {} (...)" (int seconds);
#   2019-2020: "s / img per device".
# fast_eval_api.COCOeval_opt: "COCOeval_opt.evaluate() finished in {:0.2f} seconds." and
#   "COCOeval_opt.accumulate() finished in {:0.2f} seconds.".
# pycocotools: COCO(): 'loading annotations into memory...', 'Done (t={:0.2f}s)';
#   loadRes: 'Loading and preparing results...', 'DONE (t={:0.2f}s)'; COCOeval.evaluate:
#   'Running per image evaluation...', 'Evaluate annotation type *{}*', 'DONE (t={:0.2f}s).';
#   accumulate: 'Accumulating evaluation results...', 'DONE (t={:0.2f}s).'.
# log.txt (the file handler) heads lines "[08/30 23:53:52] d2.engine.hooks INFO: ".
{
	printf '[07/12 10:00:00 d2.utils.events]:  eta: 1 day, 2:03:04  iter: 19  total_loss: 2.123  loss_cls: 0.5  loss_box_reg: 0.3  time: 0.4567  last_time: 0.4500  data_time: 0.0123  last_data_time: 0.0100   lr: 0.0002  max_mem: 3456M\n'
	printf '[07/12 10:00:09 d2.utils.events]:  eta: 1 day, 2:02:50  iter: 39  total_loss: 1.987  loss_cls: 0.45  loss_box_reg: 0.29  time: 0.4512  last_time: 0.4301  data_time: 0.0119  last_data_time: 0.0098   lr: 0.0004  max_mem: 3460M\n'
	printf '[03/04 05:06:07 d2.utils.events]:  eta: 2:00:00  iter: 1999  total_loss: 0.9  loss_cls: 0.2  time: 0.3001  data_time: 0.0040  lr: 0.02  max_mem: 7000M\n'
	printf '[07/13 20:00:00 d2.engine.hooks]: Overall training speed: 89998 iterations in 9:52:28 (0.3951 s / it)\n'
	printf '[07/13 20:00:00 d2.engine.hooks]: Total training time: 10:02:13 (0:09:45 on hooks)\n'
	printf '[07/13 20:05:00 d2.evaluation.evaluator]: Inference done 11/5000. Dataloading: 0.0012 s/iter. Inference: 0.0456 s/iter. Eval: 0.0003 s/iter. Total: 0.0472 s/iter. ETA=0:03:55\n'
	printf '[07/13 20:09:00 d2.evaluation.evaluator]: Total inference time: 0:03:52.140625 (0.046474 s / iter per device, on 8 devices)\n'
	printf '[07/13 20:09:00 d2.evaluation.evaluator]: Total inference pure compute time: 0:03:40 (0.044123 s / iter per device, on 8 devices)\n'
	printf '[07/13 20:09:01 d2.evaluation.coco_evaluation]: Evaluating predictions with unofficial COCO API...\n'
	printf 'Loading and preparing results...\n'
	printf 'DONE (t=2.38s)\n'
	printf 'creating index...\nindex created!\n'
	printf '[07/13 20:09:04 d2.evaluation.fast_eval_api]: Evaluate annotation type *bbox*\n'
	printf '[07/13 20:09:24 d2.evaluation.fast_eval_api]: COCOeval_opt.evaluate() finished in 20.47 seconds.\n'
	printf '[07/13 20:09:24 d2.evaluation.fast_eval_api]: Accumulating evaluation results...\n'
	printf '[07/13 20:09:27 d2.evaluation.fast_eval_api]: COCOeval_opt.accumulate() finished in 2.40 seconds.\n'
	printf ' Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.410\n'
	printf 'loading annotations into memory...\n'
	printf 'Done (t=0.81s)\n'
	printf 'creating index...\nindex created!\n'
	printf 'Running per image evaluation...\n'
	printf 'Evaluate annotation type *bbox*\n'
	printf 'DONE (t=7.07s).\n'
	printf 'Accumulating evaluation results...\n'
	printf 'DONE (t=1.23s).\n'
	printf '[02/01 10:00:00 d2.evaluation.evaluator]: Total inference time: 0:01:05 (0.130000 s / img per device, on 1 devices)\n'
	printf '[08/30 23:53:52] d2.engine.hooks INFO: Overall training speed: 3998 iterations in 0:29:05 (0.4365 s / it)\n'
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

# --- timm ------------------------------------------------------------------------
# train.py train_one_epoch, 0.9 on: f'Train: {epoch} [{update_idx:>4d}/{updates_per_epoch} '
#   f'({100. * (update_idx + 1) / updates_per_epoch:>3.0f}%)]  ' f'Loss: {loss_now:#.3g} ({loss_avg:#.3g})  '
#   f'Time: {update_time_m.val:.3f}s, {update_sample_count / update_time_m.val:>7.2f}/s  '
#   f'({update_time_m.avg:.3f}s, {update_sample_count / update_time_m.avg:>7.2f}/s)  '
#   f'LR: {lr:.3e}  ' f'Data: {data_time_m.val:.3f} ({data_time_m.avg:.3f})'
#   (before: 'Train: {} [{:>4d}/{} ({:>3.0f}%)]  Loss: {loss.val:#.4g} ({loss.avg:#.3g})  Time: ...'
#   with the same Time/Data parts); the rate is samples/s over all ranks, the values in
#   parentheses running averages. Distillation adds 'CE: ... KD: ...' after the loss.
# train.py validate: f'{log_name}: [{batch_idx:>4d}/{last_idx}]  ' f'Time: {batch_time_m.val:.3f} ({batch_time_m.avg:.3f})  '
#   f'Loss: {losses_m.val:>7.3f} ({losses_m.avg:>6.3f})  ' f'Acc@1: ...  Acc@5: ...'
#   (log_name 'Test' or 'Test (EMA)'; before 1.0 '{:>7.4f}' for loss and accuracy);
#   validate.py: 'Test: [{0:>4d}/{1}]  Time: {batch_time.val:.3f}s ({batch_time.avg:.3f}s, {rate_avg:>7.2f}/s)  Loss: ...'.
{
	printf 'Train: 0 [   0/1251 (  0%%)]  Loss: 6.938 (6.94)  Time: 4.123s,   62.08/s  (4.123s,   62.08/s)  LR: 1.000e-06  Data: 3.456 (3.456)\n'
	printf 'Train: 0 [  50/1251 (  4%%)]  Loss: 6.910 (6.92)  Time: 0.345s,  742.10/s  (0.350s,  731.40/s)  LR: 1.000e-05  Data: 0.012 (0.013)\n'
	printf 'Train: 1 [ 100/1251 (  8%%)]  Loss: 5.12 (5.20)  CE: 4.01 (4.10)  KD: 1.11 (1.10)  Time: 0.412s,  621.36/s  (0.420s,  609.52/s)  LR: 2.000e-04  Data: 0.004 (0.006)\n'
	printf 'Test: [   0/48]  Time: 1.234 (1.234)  Loss:  0.6875 (0.6875)  Acc@1: 85.9375 (85.9375)  Acc@5: 96.8750 (96.8750)\n'
	printf 'Test: [  48/48]  Time: 0.103 (0.215)  Loss:   0.812 ( 0.901)  Acc@1:  81.250 ( 79.120)  Acc@5:  95.000 ( 94.500)\n'
	printf 'Test (EMA): [  48/48]  Time: 0.101 (0.210)  Loss:   0.800 ( 0.890)  Acc@1:  81.500 ( 79.300)  Acc@5:  95.100 ( 94.600)\n'
	printf 'Test: [  40/196]  Time: 0.311s (0.356s,  719.10/s)  Loss:  0.7334 (0.8123)  Acc@1:  83.203 ( 80.123)  Acc@5:  96.484 ( 95.101)\n'
	printf '*** Best metric: 79.3 (epoch 0)\n'
} > "$d/timm.log"

# --- fairseq progress bars (fairseq/logging/progress_bar.py) ---------------------
# format_stat: Number -> "{:g}" (so 1234567.0 prints 1.23457e+06), AverageMeter ->
#   "{:.3f}" of avg, TimeMeter -> "{:g}" of round(avg), StopwatchMeter -> "{:g}" of round(sum).
# SimpleProgressBar.log: "{}:  {:5d} / {:d} {}".format(prefix, i + 1, size, postfix) with
#   _str_commas: ", ".join(key + "=" + value); .print (end of epoch, also the tqdm format):
#   "{} | {}".format(prefix, postfix) with _str_pipes: " | ".join(key + " " + value).
#   prefix "epoch {:03d}" (+ " | " + prefix, e.g. "valid on 'valid' subset"); before 0.10
#   (fairseq/progress_bar.py) "| epoch {:03d}" and print() instead of the logger.
# JsonProgressBar.log: json.dumps of {"epoch": epoch, "update": round(update, 3), key:
#   format_stat(value)...} (numbers as quoted strings); .print: keys renamed tag + "_" + key
#   (tag "train": "train_wps", "train_train_wall", and "train_wall" is the wall clock).
# trainer: log_speed("ups", 1.0, round=2); train.py: log_speed("wps", ...), train_wall
#   (StopwatchMeter, seconds training), wall (seconds since start); the train_inner
#   meters are reset at each log, so wps and ups are the interval's; before 0.10 wps and
#   ups were TimeMeters (averages since the epoch start, rounded: "ups=3").
{
	printf "2021-01-01 00:00:00 | INFO | train_inner | epoch 001:    100 / 1000 loss=9.8, nll_loss=9.1, ppl=550.1, wps=12345.6, ups=3.4, wpb=3631.2, bsz=128, num_updates=100, lr=1.25e-05, gnorm=2.1, train_wall=45, gb_free=10.2, wall=60\n"
	printf "2021-01-01 00:05:00 | INFO | valid | epoch 001 | valid on 'valid' subset | loss 8.5 | nll_loss 8.3 | ppl 315.2 | wps 57640.1 | wpb 2846.5 | bsz 107.6 | num_updates 1000\n"
	printf "2021-01-01 00:05:01 | INFO | train | epoch 001 | loss 9.1 | nll_loss 8.9 | ppl 477.5 | wps 12001.3 | ups 3.31 | wpb 3630.9 | bsz 128 | num_updates 1000 | lr 0.000125 | gnorm 1.9 | train_wall 290 | gb_free 10.1 | wall 305\n"
	printf '2021-01-01 00:00:00 | INFO | train_inner | {"epoch": 1, "update": 0.1, "loss": "9.8", "nll_loss": "9.1", "ppl": "550.1", "wps": "12345.6", "ups": "3.4", "wpb": "3631.2", "bsz": "128", "num_updates": "100", "lr": "1.25e-05", "gnorm": "2.1", "train_wall": "45", "gb_free": "10.2", "wall": "60"}\n'
	printf '2021-01-01 00:05:00 | INFO | valid | {"epoch": 1, "valid_loss": "8.5", "valid_nll_loss": "8.3", "valid_ppl": "315.2", "valid_wps": "57640.1", "valid_wpb": "2846.5", "valid_bsz": "107.6", "valid_num_updates": "1000"}\n'
	printf '2021-01-01 00:05:01 | INFO | train | {"epoch": 1, "train_loss": "9.1", "train_nll_loss": "8.9", "train_ppl": "477.5", "train_wps": "12001.3", "train_ups": "3.31", "train_wpb": "3630.9", "train_bsz": "128", "train_num_updates": "1000", "train_lr": "0.000125", "train_gnorm": "1.9", "train_train_wall": "290", "train_gb_free": "10.1", "train_wall": "305"}\n'
	printf '| epoch 001:    100 / 1101 loss=12.104, nll_loss=12.023, ppl=4161.28, wps=23163, ups=3, wpb=7462.4, bsz=256, num_updates=100, lr=1.25e-05, gnorm=2.534, clip=0.000, oom=0.000, loss_scale=128.000, wall=34, train_wall=28\n'
	printf '| epoch 001 | loss 10.123 | nll_loss 9.987 | ppl 1014.63 | wps 23010 | ups 3 | wpb 7462.1 | bsz 256 | num_updates 1101 | lr 0.000137625 | gnorm 1.612 | clip 0.000 | oom 0.000 | loss_scale 128.000 | wall 372 | train_wall 318\n'
	printf "| epoch 001 | valid on 'valid' subset | loss 9.012 | nll_loss 8.876 | ppl 469.77 | num_updates 1101\n"
	printf "2021-01-20 00:00:00 | INFO | train_inner | epoch 090:    300 / 1000 loss=3.1, nll_loss=2.9, ppl=7.46, wps=1.23457e+06, ups=10.2, wpb=121035, bsz=4096, num_updates=89300, lr=0.0001, gnorm=0.4, train_wall=9, gb_free=10, wall=1.23457e+06\n"
	printf '2020-04-22 07:41:47 | INFO | test | {"epoch": 1, "test_loss": "1.596", "test_nll_loss": "0.041", "test_wps": "15479.1", "test_wpb": "3330.6", "test_bsz": "85.7"}\n'
	printf "2021-01-01 00:05:00 | INFO | valid | epoch 001 | valid on 'test' subset | loss 8.6 | nll_loss 8.4 | ppl 337.8 | wps 56001.2 | wpb 2846.5 | bsz 107.6 | num_updates 1000\n"
	printf "2021-01-01 00:00:00 | INFO | fairseq_cli.train | Namespace(log_format='simple', log_interval=100, max_tokens=4096, save_interval_updates=0, wps_limit=None)\n"
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
	# self time below zero happens (a child's time rounded past its parent's)
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::batch_norm -0.05% -31.000us 21.39% 3.655ms 182.750us 20
	printf '%s\n' "$sep6"
	printf 'Self CPU time total: 17.087ms\n'
	printf '\n'
	# the same profile again, sorted by self CPU time: its rows replace the first table's
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
	# with_function("model_inference") also records the range on the GPU: a row of the
	# same name whose CPU cells are zero; its Self CUDA % passes 100 (the total counts
	# kernels only, which the range holds)
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' model_inference 0.00% 0.000us 0.00% 0.000us 0.000us 12.519ms 107.31% 12.519ms 12.519ms 1
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' model_inference 2.41% 1.152ms 100.00% 47.812ms 47.812ms 0.000us 0.00% 11.666ms 11.666ms 1
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::conv2d 0.09% 43.000us 11.45% 5.475ms 273.750us 0.000us 0.00% 8.235ms 411.750us 20
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' cudaLaunchKernel 21.58% 10.318ms 21.58% 10.318ms 17.163us 0.000us 0.00% 0.000us 0.000us 601
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f3... 0.00% 0.000us 0.00% 0.000us 0.000us 6.245ms 53.53% 6.245ms 312.250us 20
	printf '%s\n' "$sep10"
	printf 'Self CPU time total: 47.812ms\n'
	printf 'Self CUDA time total: 11.666ms\n'
	printf '\n'
	# another profile (profile_memory=True): its total is added to the first's
	printf '%s\n' "$sep8"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' Name "Self CPU %" "Self CPU" "CPU total %" "CPU total" "CPU time avg" "CPU Mem" "Self CPU Mem" "# of Calls"
	printf '%s\n' "$sep8"
	printf '%55s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  %12s  \n' aten::empty 3.95% 160.000us 3.95% 160.000us 1.739us "94.79 Mb" "94.79 Mb" 92
	printf '%s\n' "$sep8"
	printf 'Self CPU time total: 4.050ms\n'
} > "$d/torch-profiler.log"

# PyTorch 1.0-1.7 (torch/autograd/profiler.py build_table, also torch.utils.bottleneck):
# row_format "{: <W}  " for the name (W the longest name) and "{: <15}  " for the others,
# headers "Name", "Self CPU total %", "Self CPU total", "CPU total %", "CPU total",
# "CPU time avg", ["CUDA total %", "CUDA total", "CUDA time avg"], "Number of Calls",
# ["Input Shapes"]; after the table "Self CPU time total: %s" and "CUDA time total: %s"
{
	row1='%-10s  %-15s  %-15s  %-15s  %-15s  %-15s  %-15s  %-15s  %-15s  %-15s  \n'
	dash1='----------  ---------------  ---------------  ---------------  ---------------  ---------------  ---------------  ---------------  ---------------  ---------------  '
	printf '%s\n' "$dash1"
	printf "$row1" Name "Self CPU total %" "Self CPU total" "CPU total %" "CPU total" "CPU time avg" "CUDA total %" "CUDA total" "CUDA time avg" "Number of Calls"
	printf '%s\n' "$dash1"
	printf "$row1" matmul 7.60% 3.024ms 7.60% 3.024ms 3.024ms 19.20% 1.912ms 1.912ms 1
	printf "$row1" to 7.61% 3.029ms 7.61% 3.029ms 3.029ms 5.46% 544.000us 544.000us 1
	printf "$row1" to 7.43% 2.958ms 7.43% 2.958ms 2.958ms 5.16% 514.000us 514.000us 1
	printf '%s\n' "$dash1"
	printf 'Self CPU time total: 39.803ms\n'
	printf 'CUDA time total: 9.958ms\n'
} > "$d/torch-profiler-1.x.log"

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
	# Timer(label="naive_allpole", description="Naive All-Pole Filter", num_threads=4):
	# the title is the label; the description (a size, often) is the case
	printf '<torch.utils.benchmark.utils.common.Measurement object at 0x7f5b4423b260>\n'
	printf 'naive_allpole\n'
	printf 'Naive All-Pole Filter\n'
	printf '  Median: 168.93 ms\n'
	printf '  IQR:    0.54 ms (168.57 to 169.11)\n'
	printf '  6 measurements, 1 runs per measurement, 4 threads\n'
	# Compare (utils/compare.py Table.render): f"[{(' ' + label + ' ').center(w - 2, '-')}]",
	# the heading "  |  ".join of the descriptions centered (the row names' blank),
	# f"{n} threads: ".ljust(w, '-') before a group, rows "  " + (sub_label or stmt)
	# then the cells "{:>L.Df}" centered (blank when not measured; with
	# highlight_warnings f" (! {iqr/median*100:.0f}%)" after), then a blank line,
	# f"Times are in {unit_to_english(unit)}s ({unit})." and the warnings' legend
	printf '[-------------------- matmul --------------------]\n'
	printf '                |     256      |       1024      \n'
	printf '1 threads: ---------------------------------------\n'
	printf '      mm        |    12.3      |      610.5      \n'
	printf '      bmm       |    15.1      |                 \n'
	printf '      einsum    |    20.0      |  880.2 (! 14%%)  \n'
	printf '\n'
	printf 'Times are in microseconds (us).\n'
	printf '(! XX%%) Measurement has high variance, where XX is the IQR / median * 100.\n'
	printf '\n'
} > "$d/torch-benchmark.log"

# --- YOLOX (yolox/core/trainer.py, after_iter, through loguru) -------------------
# progress_str = "epoch: {}/{}, iter: {}/{}"; time_str = ", ".join("{}: {:.3f}s"
# .format(k, v.avg)) over iter_time and data_time (means of the logging
# interval); log_str = "{}, mem: {:.0f}Mb, {}, {}, lr: {:.3e}"; logger.info(
# "{}, size: {:d}, {}".format(log_str, input_size, "ETA: {}".format(timedelta)))
{
	p='2021-09-03 20:17:51.976 | INFO     | yolox.core.trainer:after_iter:246 - '
	printf '%sepoch: 1/300, iter: 10/47, mem: 1491Mb, iter_time: %.3fs, data_time: %.3fs, total_loss: %.1f, iou_loss: 1.9, l1_loss: 0.0, conf_loss: 4.9, cls_loss: 4.0, lr: %.3e, size: 640, ETA: 1 day, 2:03:04\n' "$p" 0.487 0.002 10.7 7.073e-06
	printf '%sepoch: 1/300, iter: 20/47, mem: 1491Mb, iter_time: %.3fs, data_time: %.3fs, total_loss: %.1f, iou_loss: 2.4, l1_loss: 0.0, conf_loss: 6.2, cls_loss: 1.5, lr: %.3e, size: 640, ETA: 1 day, 2:02:11\n' "$p" 0.191 0.000 10.0 2.829e-05
	printf '2021-09-03 20:17:55.001 | INFO     | yolox.core.trainer:after_epoch:300 - Save weights to ./YOLOX_outputs/yolox_s\n'
} > "$d/yolox.log"

# --- OLMo (olmo/train.py, Trainer.log_metrics_to_console) ------------------------
# log.info(f"{prefix}\n" + "\n".join(f"    {name}={format_float(value)}" ...)),
# prefix f"[step={self.global_step}/{self.max_steps},epoch={self.epoch}]";
# format_float: f"{int(value):,d}" above 1000, f"{value:.1f}" above 100,
# .2f above 10, .3f above 1, else .4f; the log format (olmo/util.py)
# "%(asctime)s\t%(hostname)s:%(local_rank)s\t%(name)s:%(lineno)s\t%(levelname)s\t%(message)s"
# with msecs after '.'. The speed monitor's rates appear from the second step.
{
	p='quick-rain-shines-fin-03:0\tolmo.train:979\tINFO\t'
	printf "2025-12-12 11:05:02.009\t${p}[step=1/15000,epoch=0]\n"
	printf '    train/CrossEntropyLoss=%.3f\n' 2.998
	printf '    throughput/total_tokens=%s\n' 2,097,152
	printf "2025-12-12 11:05:05.850\t${p}[step=2/15000,epoch=0]\n"
	printf '    train/CrossEntropyLoss=%.3f\n' 2.919
	printf '    throughput/total_tokens=%s\n' 4,194,304
	printf '    throughput/device/tokens_per_second=%s\n' 68,289
	printf '    throughput/device/batches_per_second=%.4f\n' 0.2605
	printf "2025-12-12 11:05:09.701\t${p}[step=3/15000,epoch=0]\n"
	printf '    throughput/device/tokens_per_second=%s\n' 1,068,170
	printf '    throughput/device/batches_per_second=%.3f\n' 4.075
} > "$d/olmo.log"

# --- MXNet (python/mxnet/callback.py Speedometer, module/base_module.py fit) ------
# Speedometer: 'Epoch[%d] Batch [%d]\tSpeed: %.2f samples/sec' + '\t%s=%f' per
# metric (1.x: 'Batch [%d-%d]'); fit: 'Epoch[%d] Train-%s=%f', 'Epoch[%d] Time
# cost=%.3f', 'Epoch[%d] Validation-%s=%f'; example/image-classification/common/
# fit.py: logging.info('start with arguments %s', args); basicConfig's
# "%(levelname)s:%(name)s:%(message)s".
{
	printf 'INFO:root:start with arguments Namespace(batch_size=%d, disp_batches=20, gpus=%s, lr=0.01)\n' 32 "'0'"
	printf 'INFO:root:Epoch[%d] Batch [%d]\tSpeed: %.2f samples/sec\taccuracy=%f\n' 0 20 142.33 0.5625
	printf 'INFO:root:Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\taccuracy=%f\n' 0 20 40 160.00 0.510938
	printf 'INFO:root:Epoch[%d] Train-accuracy=%f\n' 0 0.671875
	printf 'INFO:root:Epoch[%d] Time cost=%.3f\n' 0 140.990
	printf 'INFO:root:Epoch[%d] Validation-accuracy=%f\n' 0 0.710788
} > "$d/mxnet.log"

# --- batch time (home-grown loops) ----------------------------------------------
# a CSRA trainer on PaddlePaddle: "Epoch {}[{}/{}]: loss:{:.5f}, lr:{:.5f},
# batch time:{:.4f}, data time:{:.4f}"; a loop printing "batch_time={:.2f}s";
# a Megatron argument that only holds the words.
{
	printf 'Epoch %d[%d/%d]: loss:%.5f, lr:%.5f, batch time:%.4f, data time:%.4f\n' 1 16 5011 0.71410 0.0 0.4156 1.6631
	printf 'Epoch %d[%d/%d]: loss:%.5f, lr:%.5f, batch time:%.4f, data time:%.4f\n' 1 1616 5011 0.20306 0.00159 0.3074 0.0003
	printf 'step %d | batch_time=%.2fs | loss %.3f\n' 40 0.31 2.5
	printf '  inference_batch_times_seqlen_threshold .......... %d\n' 512
} > "$d/batch-time.log"

# --- MetricLogger (torchvision references/classification/utils.py) -------------
# log_every: self.delimiter.join([header, "[{0" + space_fmt + "}/{1}]", "eta:
# {eta}", "{meters}", "time: {time}", "data: {data}", "max mem: {memory:.0f}"])
# with delimiter "  ", time and data SmoothedValue(fmt="{avg:.4f}"); after the
# loop print(f"{header} Total time: {total_time_str}") (DETR, DeiT and MAE add
# " ({:.4f} s / it)"); train.py: header f"Epoch: [{epoch}]", evaluate's
# f"Test: {log_suffix}", and at the end print(f"Training time {total_time_str}").
# Two epochs of 100 steps (0.50 s, data 0.02 s) and two evaluations of 50
# (0.20 s): training 100 s, evaluation 20 s.
{
	for e in 0 1; do
		for i in 0 50 99; do
			printf 'Epoch: [%d]  [%3d/100]  eta: 0:00:%02d  lr: %.6f  loss: %.4f (%.4f)  time: %.4f  data: %.4f  max mem: %.0f\n' \
				"$e" "$i" $((50 - i / 2)) 0.1 2.5 2.6 0.5 0.02 1928
		done
		printf 'Epoch: [%d] Total time: 0:00:50 (%.4f s / it)\n' "$e" 0.5
		printf 'Test:   [%2d/50]  eta: 0:00:%02d  loss: %.4f (%.4f)  time: %.4f  data: %.4f  max mem: %.0f\n' \
			0 10 0.8 0.8 0.2 0.01 1928 49 0 0.7 0.75 0.2 0.01 1928
		printf 'Test:  Total time: 0:00:10\n'
	done
	printf 'Training time 0:02:00\n'
} > "$d/metriclogger.log"

# --- fastai (fastprogress's ConsoleMasterBar.write(line, table=True)) ------------
# names padded to 8 and '  '.join(self.names); each row's values
# t + ' ' * (2 + len(name) - len(t)); ProgressCallback._write_stats: floats
# f'{l:.6f}', the time format_time(t): f'{m:02d}:{s:02d}', or
# f'{h}:{m:02d}:{s:02d}' from an hour; fastai v1 (no time column) and
# total_time: print(f'Total time: {total_time}') after the table.
# fastai 2: three epochs of 95, 90 and 3,725 s, a SaveModelCallback line
# between two rows; fastai v1: two epochs, then a total of 2:58.
{
	printf '%-8s  %-8s  %-8s  %-8s  %-8s\n' epoch train_loss valid_loss accuracy time
	printf '%s%*s%s%*s%s%*s%s%*s%s%*s\n' 0 9 '' 0.571278 4 '' 1.090870 4 '' 0.916667 2 '' 01:35 5 ''
	printf 'Better model found at epoch 0 with valid_loss value: 1.0908700227737427.\n'
	printf '%s%*s%s%*s%s%*s%s%*s%s%*s\n' 1 9 '' 0.377181 4 '' 0.590721 4 '' 0.937500 2 '' 01:30 5 ''
	printf '%s%*s%s%*s%s%*s%s%*s%s%*s\n' 2 9 '' 0.322664 4 '' 0.500471 4 '' 0.958333 2 '' 1:02:05 3 ''
	printf '%-8s  %-8s  %-8s  %-8s\n' epoch train_loss valid_loss accuracy
	printf '%s%*s%s%*s%s%*s%s%*s\n' 1 9 '' 3.966292 4 '' 3.450758 4 '' 0.527065 2 ''
	printf '%s%*s%s%*s%s%*s%s%*s\n' 2 9 '' 3.495761 4 '' 3.276329 4 '' 0.560047 2 ''
	printf 'Total time: 02:58\n'
} > "$d/fastai.log"

# --- Sockeye (sockeye/training.py) -------------------------------------------------
# its logger: '[%(asctime)s:%(levelname)s:%(name)s:%(funcName)s] %(message)s' with
# datefmt "%Y-%m-%d:%H:%M:%S"; 1.x's Speedometer: "Epoch[%d] Batch [%d]\tSpeed:
# %.2f samples/sec %.2f tokens/sec %.2f updates/sec\t%s"; 2.x and 3.x: self.msg =
# 'E=%d B=%d\ts/sec=%.2f tok/sec=%.2f u/sec=%.2f\t'; _create_checkpoint:
# "Checkpoint [%d]\tUpdates=%d Epoch=%d Samples=%d Time-cost=%.3f Updates/sec=%.3f".
# Two reports at 2 updates/s, a checkpoint of 4000 updates in 2000 s, then 3.x's.
{
	for b in 50 100; do
		printf '[2018-08-28:13:%02d:00:INFO:sockeye.training:__call__] Epoch[%d] Batch [%d]\tSpeed: %.2f samples/sec %.2f tokens/sec %.2f updates/sec\tperplexity=%f\n' \
			$((b / 50)) 0 "$b" 256.0 5120.5 2.0 12.5
	done
	printf '[2018-08-28:14:00:00:INFO:sockeye.training:fit] Checkpoint [%d]\tUpdates=%d Epoch=%d Samples=%d Time-cost=%.3f Updates/sec=%.3f\n' \
		1 4000 0 512000 2000.0 2.0
	printf '[2022-03-01:10:00:00:INFO:sockeye.training:__call__] E=%d B=%d\ts/sec=%.2f tok/sec=%.2f u/sec=%.2f\tppl=%f\n' \
		1 200 310.25 9870.11 1.21 12.345
} > "$d/sockeye.log"
