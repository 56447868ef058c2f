# torch.utils.benchmark as its tutorial uses it: a Measurement printed per (statement, size), then a
# Compare table. The expected values (each Measurement's median, IQR and quartiles) go to argv[1].
import json, sys, torch
import torch.utils.benchmark as benchmark

results, expect = [], []
for n in (64, 256, 1024):
    x = torch.randn(n, n, device="cuda"); y = torch.randn(n, n, device="cuda")
    for stmt in ("x @ y", "torch.mm(x, y)"):
        t = benchmark.Timer(stmt=stmt, globals=dict(x=x, y=y, torch=torch), label="matmul",
                            sub_label=stmt, description=str(n))
        m = t.blocked_autorange(min_run_time=0.3)
        print(m)
        results.append(m)
        expect.append(dict(stmt=stmt, description=str(n), median=m.median, mean=m.mean, iqr=m.iqr,
                           p25=m._p25, p75=m._p75, runs=len(m.times), number_per_run=m.number_per_run))
benchmark.Compare(results).print()
json.dump(dict(torch=torch.__version__, measurements=expect), open(sys.argv[1], "w"), indent=1)
