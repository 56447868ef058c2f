# Held out (measured first): Lightning 2.x with an explicit TQDM bar refreshed every 5 steps, a model
# summary, validation every epoch, the SimpleProfiler written at the end. Expected: the profiler's durations.
import json, sys, torch, lightning as L
from lightning.pytorch.callbacks import TQDMProgressBar

class Net(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.Sequential(torch.nn.Linear(64, 512), torch.nn.GELU(), torch.nn.Linear(512, 64))
        self.head = torch.nn.Linear(64, 4)
    def forward(self, x):
        return self.head(self.enc(x))
    def training_step(self, batch, i):
        x, y = batch
        loss = torch.nn.functional.cross_entropy(self(x), y)
        self.log("loss", loss, prog_bar=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_acc", (self(x).argmax(1) == y).float().mean(), prog_bar=True)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)

def loader(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 64, generator=g)
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, (x[:, 0] > 0).long() + (x[:, 1] > 0).long()),
                                       batch_size=50)

trainer = L.Trainer(max_epochs=4, accelerator="gpu", devices=1, profiler="simple",
                    callbacks=[TQDMProgressBar(refresh_rate=5)])
trainer.fit(Net(), loader(5000, 0), loader(1000, 1))
json.dump(dict(lightning=L.__version__,
               recorded={k: list(v) for k, v in getattr(trainer.profiler, "recorded_durations", {}).items()}),
          open(sys.argv[1], "w"), indent=1)
