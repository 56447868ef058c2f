# Held out (measured first): a scheduled profile whose on_trace_ready prints a table per cycle, grouped
# by input shape and with memory columns; a small conv net. Expected fields go to argv[1].
import json, sys, torch
from torch.profiler import profile, schedule, record_function, ProfilerActivity

dev = "cuda"
model = torch.nn.Sequential(torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
                            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(32, 10)).to(dev)
opt = torch.optim.Adam(model.parameters())
x = torch.randn(64, 3, 64, 64, device=dev); y = torch.randint(0, 10, (64,), device=dev)
cycles = []
def ready(p):
    ka = p.key_averages(group_by_input_shape=True)
    print(ka.table(sort_by="self_cuda_time_total", row_limit=12))
    cycles.append([dict(key=e.key, count=e.count, shapes=str(e.input_shapes),
                        self_cpu_us=float(e.self_cpu_time_total), cpu_total_us=float(e.cpu_time_total),
                        self_device_us=float(getattr(e, "self_device_time_total", 0.0)),
                        device_total_us=float(getattr(e, "device_time_total", 0.0))) for e in ka])
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, profile_memory=True,
             schedule=schedule(wait=1, warmup=1, active=2, repeat=2), on_trace_ready=ready) as prof:
    for i in range(8):
        with record_function("train_step"):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        torch.cuda.synchronize()
        prof.step()
json.dump(dict(torch=torch.__version__, cycles=cycles), open(sys.argv[1], "w"), indent=1)
