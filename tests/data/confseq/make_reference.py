"""Writes reference.json.gz: the predictable-mixture empirical-Bernstein confidence sequences of confseq 0.0.11
(Waudby-Smith & Howard's package, the paper's authors'), two-sided, λ truncated at 1/2, running intersection, for
a few sequences in [0, 1] drawn from a fixed seed. confseq is not a dependency: its pure-Python modules suffice
(predmix.py, betting_strategies.py, misc.py, types.py from the sdist, with `np.float_` as `np.float64` for NumPy 2
and without `multiprocess`):

    pip download confseq==0.0.11 --no-deps && tar xzf confseq-0.0.11.tar.gz
    PYTHONPATH=<those modules' parent> python tests/data/confseq/make_reference.py
"""

import gzip
import json
from pathlib import Path

import numpy as np
from confseq.predmix import predmix_empbern_twosided_cs


def sequences():
    rng = np.random.default_rng(2024)
    yield "uniform", rng.random(400)
    yield "right/wrong, mean 0.3", (rng.random(400) < 0.3).astype(float)
    yield "differences of right/wrong items, as (d + 1) / 2", rng.choice([0, 0.5, 1], 400, p=[0.15, 0.6, 0.25])


def main() -> None:
    out = []
    for name, x in sequences():
        for alpha in (0.05, 0.1):
            low, high = predmix_empbern_twosided_cs(x, alpha=alpha, truncation=0.5, running_intersection=True)
            out.append({"name": name, "alpha": alpha, "x": x.tolist(), "lower": low.tolist(), "upper": high.tolist()})
    with gzip.open(Path(__file__).with_name("reference.json.gz"), "wt") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
