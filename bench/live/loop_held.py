# Held out (measured first): a home-grown loop under torchrun (two ranks, gloo) that prints with
# print(), rank 0 only, an epoch bar and a batch bar from tqdm with a postfix, and a line per epoch.
import json, os, sys, time, torch, torch.distributed as dist
from tqdm import tqdm

dist.init_process_group("gloo")
rank = dist.get_rank()
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(256, 256))
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
epochs = []
for epoch in tqdm(range(3), desc="epochs", disable=rank != 0):
    t0 = time.time()
    bar = tqdm(range(40), desc=f"epoch {epoch}", leave=False, disable=rank != 0)
    for i in bar:
        s = time.perf_counter()
        loss = model(torch.randn(32, 256)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        bar.set_postfix(loss=f"{loss.item():.3f}", step_ms=f"{(time.perf_counter() - s) * 1e3:.2f}")
    dt = time.time() - t0
    epochs.append(dt)
    if rank == 0:
        print(f"epoch {epoch} done in {dt:.2f}s ({40 / dt:.1f} it/s)", flush=True)
if rank == 0:
    json.dump(dict(epochs=epochs), open(sys.argv[1], "w"))
dist.destroy_process_group()
