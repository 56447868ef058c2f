# Held out (measured first): a BERT classifier built from a config, two epochs, an evaluation each
# epoch, logging every 10 steps with the first step logged, then predict(). Expected: log_history.
import json, sys, torch, transformers
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

class Pairs(torch.utils.data.Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randint(0, 2000, (n, 48), generator=g)
        self.y = torch.randint(0, 3, (n,), generator=g)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return dict(input_ids=self.x[i], attention_mask=torch.ones(48, dtype=torch.long), labels=self.y[i])

cfg = BertConfig(vocab_size=2000, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                 intermediate_size=256, max_position_embeddings=64, num_labels=3)
args = TrainingArguments(output_dir="/tmp/hf-held", num_train_epochs=2, per_device_train_batch_size=32,
                         logging_steps=10, logging_first_step=True, eval_strategy="epoch",
                         save_strategy="no", report_to="none")
trainer = Trainer(model=BertForSequenceClassification(cfg), args=args, train_dataset=Pairs(3200, 0),
                  eval_dataset=Pairs(800, 1))
out = trainer.train()
print(out)
p = trainer.predict(Pairs(400, 2))
print(p.metrics)
json.dump(dict(transformers=transformers.__version__, log_history=trainer.state.log_history,
               predict=p.metrics), open(sys.argv[1], "w"), indent=1)
