# A tiny real Hugging Face Trainer run: GPT-2 built from a config (no download), random tokens, logging
# every 20 steps, an evaluation every 100. The expected values (trainer.state.log_history) go to argv[1].
import json, sys, torch, transformers
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

class Tokens(torch.utils.data.Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(0, 1000, (n, 64), generator=g)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return dict(input_ids=self.x[i], labels=self.x[i])

model = GPT2LMHeadModel(GPT2Config(vocab_size=1000, n_positions=64, n_embd=128, n_layer=2, n_head=2))
args = TrainingArguments(output_dir="/tmp/hf-dev", max_steps=300, per_device_train_batch_size=16,
                         per_device_eval_batch_size=32, logging_steps=20, eval_strategy="steps",
                         eval_steps=100, save_strategy="no", report_to="none", learning_rate=5e-4)
trainer = Trainer(model=model, args=args, train_dataset=Tokens(4800, 0), eval_dataset=Tokens(640, 1))
trainer.train()
print(trainer.evaluate())
json.dump(dict(transformers=transformers.__version__, log_history=trainer.state.log_history),
          open(sys.argv[1], "w"), indent=1)
