# A tiny real profile on the GPU: torch.profiler's key_averages() tables, sorted by device time and by
# CPU time, with a user's record_function("step") range. Prints what a user prints; the expected values
# (key_averages()' own fields) go to the JSON file named by argv[1].
import json, sys, torch
from torch.profiler import profile, record_function, ProfilerActivity

dev = "cuda"
model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(256, 512, device=dev)
y = torch.randint(0, 10, (256,), device=dev)
for _ in range(3):
    opt.zero_grad(); torch.nn.functional.cross_entropy(model(x), y).backward(); opt.step()
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(5):
        with record_function("step"):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
    torch.cuda.synchronize()
ka = prof.key_averages()
print(ka.table(sort_by="cuda_time_total", row_limit=15))
print(ka.table(sort_by="cpu_time_total", row_limit=15))
def g(e, *names):
    for n in names:
        v = getattr(e, n, None)
        if v is not None:
            return float(v)
    return None
rows = [dict(key=e.key, count=e.count, device_type=str(getattr(e, "device_type", "")),
             self_cpu_us=g(e, "self_cpu_time_total"), cpu_total_us=g(e, "cpu_time_total"),
             self_device_us=g(e, "self_device_time_total", "self_cuda_time_total"),
             device_total_us=g(e, "device_time_total", "cuda_time_total"))
        for e in ka]
json.dump(dict(torch=torch.__version__, rows=rows), open(sys.argv[1], "w"), indent=1)
