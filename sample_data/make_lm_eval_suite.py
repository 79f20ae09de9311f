"""Write ``lm_eval_suite/``, lm-evaluation-harness output folders, with the harness itself, offline.

    pip install lm-eval==0.4.13        # the harness's core: no torch, no network
    python sample_data/make_lm_eval_suite.py

Runs ``lm_eval run --output_path lm_eval_suite --log_samples`` over local JSON tasks for four models, each
lm-eval's dummy model made to answer right with a chance of its own (``skilled``, a subclass of the harness's
``DummyLM``; which answers are right is fixed by a hash of the model and the request, so a rerun gives the same
scores, though the harness's dates, timings and environment in the results files differ). The tasks:

- ``arith`` (multiple choice, 120 documents: acc, acc_norm)
- ``quiz``, a group of ``quiz_history`` (48) and ``quiz_science`` (96), aggregated as MMLU is, weighted by size
- ``echo`` (generation, 60 documents, ``repeats: 3``, filters ``maj@3`` and ``first``: exact_match)

The gold choice of a multiple-choice item is marked by a star in its text, which is how the simulated model
knows it. The samples files are gzipped afterwards (sigcore reads .jsonl.gz as .jsonl).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "lm_eval_suite"
MODELS = {"alpha": 0.55, "beta": 0.70, "gamma": 0.73, "delta": 0.57}  # each one's chance of answering right


def _right(model: str, text: str, skill: float) -> bool:
    digest = hashlib.sha256(f"{model}\n{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < skill


def _register() -> None:
    from lm_eval.api.registry import register_model
    from lm_eval.models.dummy import DummyLM

    @register_model("skilled")
    class Skilled(DummyLM):
        """lm-eval's dummy model, right with the chance ``skill``: when it is, the starred (gold) continuation
        gets the highest log-likelihood, or the generation repeats the word."""

        def __init__(self, model: str, skill: str, **kwargs) -> None:
            super().__init__()
            self.model, self.skill = model, float(skill)

        @classmethod
        def create_from_arg_string(cls, arg_string, additional_config=None):
            return cls(**dict(kv.split("=", 1) for kv in arg_string.split(",")))

        def loglikelihood(self, requests, disable_tqdm: bool = False):
            out = []
            for r in requests:
                context, continuation = r.arguments
                gold = continuation.strip().startswith("*")
                right = _right(self.model, context, self.skill)
                noise = int(hashlib.sha256(f"{self.model}{context}{continuation}".encode()).hexdigest()[:6], 16)
                out.append((0.0 if gold == right else -1.0 - (noise % 1000) / 1000, False))
            return out

        def generate_until(self, requests, disable_tqdm: bool = False):
            out = []
            for i, r in enumerate(requests):  # a document's repeats are consecutive requests
                word = r.arguments[0].rsplit("Repeat:", 1)[1].strip()
                out.append(word if _right(self.model, f"{r.arguments[0]}#{i}", self.skill) else word[::-1] + "x")
            return out


def _tasks(folder: Path) -> list[str]:
    import numpy as np

    rng = np.random.default_rng(2025)

    def multiple_choice(name: str, n: int) -> None:
        rows = []
        for i in range(n):
            a, b = (int(v) for v in rng.integers(2, 40, size=2))
            wrong = sorted({a + b + int(d) for d in rng.choice([-3, -2, -1, 1, 2, 3], 3, replace=False)})
            order = rng.permutation(4)
            choices = [[f"*{a + b}", *map(str, wrong)][k] for k in order]
            rows.append({"id": f"{name}-{i:03d}", "question": f"{name}: {a} + {b}?", "choices": choices,
                         "gold": int(np.flatnonzero(order == 0)[0])})
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        (folder / f"{name}.yaml").write_text(f"""task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {folder / f'{name}.jsonl'}
test_split: test
output_type: multiple_choice
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: "{{{{gold}}}}"
metric_list:
  - metric: acc
  - metric: acc_norm
metadata:
  version: 1.0
""")

    multiple_choice("arith", 120)
    multiple_choice("quiz_history", 48)
    multiple_choice("quiz_science", 96)
    (folder / "quiz.yaml").write_text("""group: quiz
task:
  - quiz_history
  - quiz_science
aggregate_metric_list:
  - metric: acc
    weight_by_size: true
  - metric: acc_norm
    weight_by_size: true
metadata:
  version: 1.0
""")
    words = ["".join(chr(97 + int(c)) for c in rng.integers(0, 26, size=5)) for _ in range(60)]
    (folder / "echo.jsonl").write_text("".join(json.dumps({"word": w}) + "\n" for w in words))
    (folder / "echo.yaml").write_text(f"""task: echo
dataset_path: json
dataset_kwargs:
  data_files:
    test: {folder / 'echo.jsonl'}
test_split: test
output_type: generate_until
doc_to_text: "Repeat: {{{{word}}}}"
doc_to_target: "{{{{word}}}}"
generation_kwargs:
  until: ["\\n"]
  do_sample: true
repeats: 3
filter_list:
  - name: maj@3
    filter:
      - function: majority_vote
      - function: take_first
  - name: first
    filter:
      - function: take_first
metric_list:
  - metric: exact_match
metadata:
  version: 1.0
""")
    return ["arith", "quiz", "echo"]


def main() -> None:
    _register()
    from lm_eval._cli import HarnessCLI

    shutil.rmtree(OUT, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        tasks = _tasks(Path(tmp))
        for model, skill in MODELS.items():
            sys.argv = ["lm_eval", "run", "--model", "skilled", "--model_args", f"model={model},skill={skill}",
                        "--tasks", ",".join(tasks), "--include_path", tmp, "--output_path", str(OUT),
                        "--log_samples", "--seed", "0"]
            cli = HarnessCLI()
            cli.execute(cli.parse_args())
    for f in OUT.rglob("samples_*.jsonl"):
        f.with_name(f.name + ".gz").write_bytes(gzip.compress(f.read_bytes(), mtime=0))
        f.unlink()


if __name__ == "__main__":
    main()
