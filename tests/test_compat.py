"""compat="sacrebleu" against the published Moses and MultEval p-values on WMT17 en-de (sample_data/README.md)."""

import math
from pathlib import Path

import pytest

import sigcore
from sigcore.io.inputs import read_lines

WMT17 = Path(__file__).resolve().parents[1] / "sample_data" / "wmt17_en_de"  # gzipped, in the project
RESAMPLES = 10_000  # as many as MultEval's trials: the tolerance is 4 standard errors of both

# system: (Moses bootstrap p, mean of 3 runs of 2,000; MultEval AR p, 10,000 trials)
PUBLISHED = {
    "C-3MA.4959": (0.00000, 0.0001), "FBK.4870": (0.01267, 0.0218), "KIT.4950": (0.02233, 0.0410),
    "LMU-nmt-reranked.4934": (0.04383, 0.09029), "LMU-nmt-single.4893": (0.20783, 0.58494),
    "online-A.0": (0.00000, 0.0001), "online-B.0": (0.38100, 0.94111), "online-F.0": (0.00000, 0.0001),
    "online-G.0": (0.00000, 0.0001), "PROMT-Rule-based.4735": (0.00000, 0.0001),
    "RWTH-nmt-ensemble.4921": (0.01167, 0.0207), "SYSTRAN.4847": (0.20983, 0.59914),
    "TALP-UPC.4834": (0.00000, 0.0001), "uedin-nmt.4722": (0.00000, 0.0001), "xmu.4910": (0.25483, 0.71073),
}


def standard_error(p, trials):
    return math.sqrt(max(p * (1 - p), 1 / trials) / trials)  # a p of 0 still has the error of one count


@pytest.fixture(scope="module")
def references():
    return read_lines(WMT17 / "newstest2017.ref.de.gz"), read_lines(WMT17 / "LIUM-NMT.4900.de.gz")


@pytest.mark.slow
@pytest.mark.parametrize("system", PUBLISHED)
@pytest.mark.parametrize("test, column, reference_trials", [("bootstrap", 0, 3 * 2_000), ("permutation", 1, 10_000)])
def test_sacrebleu_compat_reproduces_moses_and_multeval(references, system, test, column, reference_trials):
    refs, baseline = references
    res = sigcore.compare(refs, read_lines(WMT17 / f"{system}.de.gz"), baseline, metric="bleu", tokenize="none",
                          test=test, alternative="two-sided", compat="sacrebleu", n_resamples=RESAMPLES, seed=0)
    published = PUBLISHED[system][column]
    tolerance = 4 * math.hypot(standard_error(res.p_value, RESAMPLES), standard_error(published, reference_trials))
    assert abs(res.p_value - published) <= tolerance, (res.p_value, published, tolerance)
    assert "compat:sacrebleu" in res.signature and not res.exact


def test_identical_systems_are_not_significant_even_in_compat_mode(references):
    refs, baseline = references
    for test in ("bootstrap", "permutation"):
        res = sigcore.compare(refs[:200], baseline[:200], baseline[:200], metric="bleu", tokenize="none",
                              test=test, alternative="two-sided", compat="sacrebleu", n_resamples=999)
        assert res.p_value == 1 / 1000  # sacrebleu's strict '>' with +1: never significant, never exactly 1
