# A tiny real Lightning 2.x run with its default progress bar (Rich where rich is installed) and the
# SimpleProfiler; stdout is a file, as in a batch job. The expected values (the profiler's recorded
# durations per action) go to argv[1].
import json, sys, torch, lightning as L

class Net(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(32, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1))
    def training_step(self, batch, i):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_loss", torch.nn.functional.mse_loss(self.net(x), y), prog_bar=True)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

def loader(n, seed, shuffle):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, x.sum(1, keepdim=True)),
                                       batch_size=64, shuffle=shuffle)

L.seed_everything(0)
trainer = L.Trainer(max_epochs=3, accelerator="gpu", devices=1, profiler="simple", log_every_n_steps=10)
trainer.fit(Net(), loader(6400, 0, True), loader(1280, 1, False))
prof = trainer.profiler
json.dump(dict(lightning=L.__version__, bar=type(trainer.progress_bar_callback).__name__,
               recorded={k: list(v) for k, v in getattr(prof, "recorded_durations", {}).items()}),
          open(sys.argv[1], "w"), indent=1)
