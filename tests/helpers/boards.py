"""A synthetic leaderboard for the tests: five models of known accuracy on four tasks of different sizes, each item
as hard for every model (paired), in any row order."""

import numpy as np
import pandas as pd

SIZES = {"arc": 30, "gsm8k": 80, "mmlu": 200, "boolq": 500}
RIGHT = {"m0": 0.55, "m1": 0.6, "m2": 0.62, "m3": 0.7, "m4": 0.9}


def table(seed=0, runs=2) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for task, n in SIZES.items():
        hard = rng.uniform(-0.15, 0.15, n)  # items differ in difficulty, the same for every model: paired
        for model, p in RIGHT.items():
            for run in range(1, runs + 1):
                right = rng.random(n) < np.clip(p + hard, 0, 1)
                rows.append(pd.DataFrame({"model": model, "task": task, "item": [f"{task}-{i}" for i in range(n)],
                                          "run": run, "metric": "acc", "score": right.astype(float)}))
    return pd.concat(rows, ignore_index=True).sample(frac=1, random_state=seed)  # any row order
