"""Write the sample pairwise judgments (issue 42 §5), simulated, deterministically:

    python sample_data/make_judgments.py        # from the project root; needs numpy only

- ``judgments/arena.csv``: six models answered 80 prompts in four categories; on each prompt three pairs of models
  were judged by two LLM judges, each pair in both orders (each answer shown first once): 960 battles, arena-style
  (``model_a, model_b, winner, question_id, judge, order, category``; ``order`` names the model shown first);
- ``judgments/mt_bench_pair.jsonl``: the first judge's judgments again, as FastChat's MT-Bench pairwise files hold
  them (``question_id, model_1, model_2, g1_winner, g2_winner, judge, turn``; g1 with model_1's answer shown first,
  g2 with the answers swapped, both winners named for model_1 and model_2): 240 records. The same judgments as
  judge-a's half of the CSV: read one of the two, not both.

The model behind them: each model has a strength (natural-log odds), a strength per category and an effect on each
prompt (normal, sd 0.5); a judge sees the difference of the two answers' merits plus its own reading of that pair on
that prompt (normal, sd 0.4, the same in both orders) and of that presentation (sd 0.2), and says "tie" when what it
sees is within 0.3 of even. judge-a (a position-biased judge) adds 0.45 to whichever answer it read first; judge-b
(the careful one) adds 0.05. Every draw comes from ``SEED``, so a rerun writes the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np

__all__ = ["MODELS", "CATEGORIES", "JUDGES", "SEED", "simulate", "arena_csv", "mt_bench_jsonl", "write"]

HERE = Path(__file__).resolve().parent
SEED = 42
MODELS = {"atlas": 0.6, "borealis": 0.35, "cirrus": 0.15, "dune": 0.0, "ember": -0.3, "fjord": -0.8}
CATEGORIES = ("coding", "math", "writing", "reasoning")
JUDGES = {"judge-a": 0.45, "judge-b": 0.05}  # the push towards the answer shown first, in log odds
PROMPTS, PAIRS_PER_PROMPT, TIE_ZONE = 80, 3, 0.3


def simulate(seed: int = SEED) -> list[dict]:
    """The battles, one dict per judgment: prompt, category, the pair (model_1, model_2), the judge, the model shown
    first, and the winner ("model_1", "model_2" or "tie")."""
    rng = np.random.default_rng(seed)
    names = list(MODELS)
    strength = np.array(list(MODELS.values()))
    by_category = rng.normal(0, 0.3, (len(CATEGORIES), len(names)))
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    battles = []
    for prompt in range(PROMPTS):
        category = prompt % len(CATEGORIES)
        merit = strength + by_category[category] + rng.normal(0, 0.5, len(names))
        for k in rng.choice(len(pairs), PAIRS_PER_PROMPT, replace=False):
            i, j = pairs[k]
            if rng.random() < 0.5:  # which of the two the file calls model_1
                i, j = j, i
            for judge, bias in JUDGES.items():
                reading = merit[i] - merit[j] + rng.normal(0, 0.4)
                for first in (i, j):
                    seen = reading + rng.normal(0, 0.2) + (bias if first == i else -bias)
                    winner = "tie" if abs(seen) < TIE_ZONE else "model_1" if seen > 0 else "model_2"
                    battles.append({"question_id": prompt + 1, "category": CATEGORIES[category],
                                    "model_1": names[i], "model_2": names[j], "judge": judge,
                                    "first": names[first], "winner": winner})
    return battles


def arena_csv(battles: list[dict]) -> str:
    """The battles as an arena-style CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["model_a", "model_b", "winner", "question_id", "judge", "order", "category"])
    words = {"model_1": "model_a", "model_2": "model_b", "tie": "tie"}
    for b in battles:
        writer.writerow([b["model_1"], b["model_2"], words[b["winner"]], f"q{b['question_id']:02d}", b["judge"],
                         b["first"], b["category"]])
    return out.getvalue()


def mt_bench_jsonl(battles: list[dict], judge: str = "judge-a") -> str:
    """One judge's battles as FastChat's MT-Bench pairwise judgments: one record per pair and prompt, g1 with
    model_1 shown first, g2 swapped."""
    lines = []
    mine = [b for b in battles if b["judge"] == judge]
    for g1, g2 in zip(mine[0::2], mine[1::2]):  # simulate() writes model_1 first, then swapped
        assert g1["first"] == g1["model_1"] and g2["first"] == g2["model_2"]
        lines.append(json.dumps({"question_id": g1["question_id"], "model_1": g1["model_1"],
                                 "model_2": g1["model_2"], "g1_winner": g1["winner"], "g2_winner": g2["winner"],
                                 "judge": [judge, "pair-v2"], "turn": 1}))
    return "\n".join(lines) + "\n"


def write(folder: Path = HERE / "judgments") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    battles = simulate()
    written = []
    for name, text in (("arena.csv", arena_csv(battles)), ("mt_bench_pair.jsonl", mt_bench_jsonl(battles))):
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
