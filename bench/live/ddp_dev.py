# A torchrun DDP job (gloo, CPU tensors: four ranks share no GPU) logging through Python's logging every
# 5 steps, as the issue's run did: '... - INFO - train - step    5 | loss 0.0262 | step_time 18.1 ms |
# data 0.16 ms | samples/s 3536'. The expected values (each logged step's own figures) go to
# argv[1].RANK.json.
import json, logging, os, sys, time, torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - %(name)s - %(message)s")
log = logging.getLogger("train")
dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(rank)
model = torch.nn.parallel.DistributedDataParallel(
    torch.nn.Sequential(torch.nn.Linear(128, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1)))
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
logged = []
for step in range(1, 61):
    t0 = time.perf_counter()
    x = torch.randn(64, 128); y = x[:, :1] * 0.5
    t1 = time.perf_counter()
    loss = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    t2 = time.perf_counter()
    if step % 5 == 0:
        st, dt = (t2 - t0) * 1e3, (t1 - t0) * 1e3
        log.info(f"step {step:4d} | loss {loss.item():.4f} | step_time {st:.1f} ms | data {dt:.2f} ms | "
                 f"samples/s {64 / (t2 - t0):.0f}")
        logged.append(dict(step=step, step_time_ms=round(st, 1), data_ms=round(dt, 2)))
json.dump(logged, open(f"{sys.argv[1]}.{rank}.json", "w"))
dist.destroy_process_group()
