"""Writes this folder's Inspect AI logs with Inspect itself (inspect-ai, requirements-dev.txt), offline: two models
(mockllm/alpha, mockllm/beta) on a 40-item arithmetic task in memory, 3 epochs, scored by match() and includes();
alpha.eval and beta.eval (zstd-compressed members, as Inspect writes them now) and beta.json.gz, the same run as JSON (gzipped).

Each model's answer to an item in an epoch is fixed by a seeded table (a solver sets it, so the logs do not depend
on the order Inspect runs samples in). Run: python tests/data/inspect/make_logs.py
"""

import gzip
import random
import shutil
import tempfile
from pathlib import Path

import tiktoken

from inspect_ai import Task, eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import includes, match
from inspect_ai.solver import solver


class _Words:  # tiktoken's encoding file cannot be downloaded here; Inspect only counts tokens with it
    def encode(self, text, **options):
        return text.split()


tiktoken.get_encoding = lambda name: _Words()

HERE = Path(__file__).resolve().parent
ITEMS = 40
SAMPLES = [Sample(id=i, input=f"What is {i} + {i + 3}?", target=str(2 * i + 3),
                  metadata={"passage": f"p{(i - 1) // 4}"}) for i in range(1, ITEMS + 1)]


def answers(right: float, seed: int) -> dict:
    rng = random.Random(seed)
    return {(s.id, epoch): (s.target if rng.random() < right else
                            rng.choice([f"{int(s.target) + 1}", f"The answer is {s.target}"]))
            for s in SAMPLES for epoch in (1, 2, 3)}  # "The answer is 7": includes() right, match() wrong


@solver
def fixed(table: dict):
    async def solve(state, generate):
        state.output = ModelOutput.from_content(model=str(state.model), content=table[(state.sample_id, state.epoch)])
        state.messages.append(state.output.message)
        return state
    return solve


def write(model: str, right: float, seed: int, fmt: str, out: str) -> None:
    task = Task(dataset=MemoryDataset(SAMPLES, name="arith"), solver=fixed(answers(right, seed)),
                scorer=[match(), includes()], name="arith")
    with tempfile.TemporaryDirectory() as folder:
        [log] = inspect_eval(task, model=model, epochs=3, log_dir=folder, log_format=fmt, display="none")
        assert log.status == "success", log.error
        shutil.copy(log.location, HERE / out)


if __name__ == "__main__":
    write("mockllm/alpha", 0.8, 1, "eval", "alpha.eval")
    write("mockllm/beta", 0.6, 2, "eval", "beta.eval")
    write("mockllm/beta", 0.6, 2, "json", "beta.json")
    with open(HERE / "beta.json", "rb") as f, gzip.GzipFile(HERE / "beta.json.gz", "wb", 9, mtime=0) as out:
        out.write(f.read())  # gzipped: a megabyte of events as text
    (HERE / "beta.json").unlink()
