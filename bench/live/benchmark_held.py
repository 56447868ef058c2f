# Held out (measured first): torch.utils.benchmark with timeit(), adaptive_autorange() and two thread
# counts, then a Compare with trimmed figures and colour. Expected values go to argv[1].
import json, sys, torch
import torch.utils.benchmark as benchmark

results, expect = [], []
for n in (128, 512):
    a = torch.randn(n, n); b = torch.randn(n, n)
    for threads in (1, 4):
        for stmt in ("a.matmul(b)", "(a * b).sum()"):
            t = benchmark.Timer(stmt=stmt, globals=dict(a=a, b=b), num_threads=threads, label="cpu ops",
                                sub_label=f"n={n}", description=stmt)
            m = t.timeit(50) if stmt.startswith("(") else t.adaptive_autorange(min_run_time=0.1)
            print(m)
            results.append(m)
            expect.append(dict(stmt=stmt, n=n, threads=threads, median=m.median, mean=m.mean,
                               iqr=m.iqr, runs=len(m.times)))
c = benchmark.Compare(results)
c.trim_significant_figures(); c.colorize(); c.print()
json.dump(dict(torch=torch.__version__, measurements=expect), open(sys.argv[1], "w"), indent=1)
