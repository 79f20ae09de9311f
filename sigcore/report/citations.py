"""What a result relies on, as a paper cites it: BibTeX for every method used, keys for ``\\citep``, and
author-year text for Markdown.

The keys are the ACL Anthology's where the paper is there (``koehn-2004-statistical``), so that an author's
own ``anthology.bib`` resolves them too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._version import __version__
from ..result import Result

__all__ = ["Work", "TOOL", "WORKS", "REPLICABILITY", "ASO", "method_keys", "keys_for_test", "metric_keys", "keys_of",
           "pair_keys", "claim_keys", "SEQUENTIAL", "family_keys", "preference_keys", "bibtex", "cite_text",
           "cite_latex"]


@dataclass(frozen=True)
class Work:
    key: str
    cite: str  # author-year, as a sentence cites it: "Berg-Kirkpatrick et al., 2012"
    bibtex: str


def _work(key: str, cite: str, kind: str, **fields: str) -> Work:
    body = ",\n".join(f"    {name} = {{{value}}}" for name, value in fields.items())
    return Work(key, cite, f"@{kind}{{{key},\n{body}\n}}")


TOOL = "sigcore"  # the tool's own entry (CITATION.cff says the same), in every .bib it writes
WORKS = {w.key: w for w in [
    _work("berg-kirkpatrick-etal-2012-empirical", "Berg-Kirkpatrick et al., 2012", "inproceedings",
          title="An Empirical Investigation of Statistical Significance in {NLP}",
          author="Berg-Kirkpatrick, Taylor and Burkett, David and Klein, Dan",
          booktitle="Proceedings of the 2012 Joint Conference on Empirical Methods in Natural Language Processing "
                    "and Computational Natural Language Learning",
          year="2012", address="Jeju Island, Korea", publisher="Association for Computational Linguistics",
          pages="995--1005", url="https://aclanthology.org/D12-1091/"),
    _work("efron1993introduction", "Efron and Tibshirani, 1993", "book",
          title="An Introduction to the Bootstrap", author="Efron, Bradley and Tibshirani, Robert J.",
          publisher="Chapman \\& Hall", address="New York", year="1993"),
    _work("noreen1989computer", "Noreen, 1989", "book",
          title="Computer-Intensive Methods for Testing Hypotheses: An Introduction", author="Noreen, Eric W.",
          publisher="Wiley", address="New York", year="1989"),
    _work("koehn-2004-statistical", "Koehn, 2004", "inproceedings",
          title="Statistical Significance Tests for Machine Translation Evaluation", author="Koehn, Philipp",
          booktitle="Proceedings of the 2004 Conference on Empirical Methods in Natural Language Processing",
          year="2004", address="Barcelona, Spain", publisher="Association for Computational Linguistics",
          pages="388--395", url="https://aclanthology.org/W04-3250/"),
    _work("dror-etal-2018-hitchhikers", "Dror et al., 2018", "inproceedings",
          title="The Hitchhiker{'}s Guide to Testing Statistical Significance in Natural Language Processing",
          author="Dror, Rotem and Baumer, Gili and Shlomov, Segev and Reichart, Roi",
          booktitle="Proceedings of the 56th Annual Meeting of the Association for Computational Linguistics "
                    "(Volume 1: Long Papers)",
          year="2018", address="Melbourne, Australia", publisher="Association for Computational Linguistics",
          pages="1383--1392", url="https://aclanthology.org/P18-1128/"),
    _work("dror-etal-2017-replicability", "Dror et al., 2017", "article",
          title="Replicability Analysis for Natural Language Processing: Testing Significance with Multiple "
                "Datasets",
          author="Dror, Rotem and Baumer, Gili and Bogomolov, Marina and Reichart, Roi",
          journal="Transactions of the Association for Computational Linguistics", volume="5", year="2017",
          pages="471--486", url="https://aclanthology.org/Q17-1033/"),
    _work("dror-etal-2019-deep", "Dror et al., 2019", "inproceedings",
          title="Deep Dominance - How to Properly Compare Deep Neural Models",
          author="Dror, Rotem and Shlomov, Segev and Reichart, Roi",
          booktitle="Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics",
          year="2019", address="Florence, Italy", publisher="Association for Computational Linguistics",
          pages="2773--2785", url="https://aclanthology.org/P19-1266/"),
    _work("delbarrio2018optimal", "del Barrio et al., 2018", "incollection",
          title="An Optimal Transportation Approach for Assessing Almost Stochastic Order",
          author="del Barrio, Eustasio and Cuesta-Albertos, Juan A. and Matr{\\'a}n, Carlos",
          booktitle="The Mathematics of the Uncertain", publisher="Springer", year="2018", pages="33--44"),
    _work("ulmer2022deep", "Ulmer et al., 2022", "article",
          title="deep-significance: Easy and Meaningful Statistical Significance Testing in the Age of Neural "
                "Networks",
          author="Ulmer, Dennis and Hardmeier, Christian and Frellsen, Jes",
          journal="arXiv preprint arXiv:2204.06815", year="2022"),
    _work("post-2018-call", "Post, 2018", "inproceedings",
          title="A Call for Clarity in Reporting {BLEU} Scores", author="Post, Matt",
          booktitle="Proceedings of the Third Conference on Machine Translation: Research Papers",
          year="2018", address="Brussels, Belgium", publisher="Association for Computational Linguistics",
          pages="186--191", url="https://aclanthology.org/W18-6319/"),
    _work("papineni-etal-2002-bleu", "Papineni et al., 2002", "inproceedings",
          title="{B}leu: a Method for Automatic Evaluation of Machine Translation",
          author="Papineni, Kishore and Roukos, Salim and Ward, Todd and Zhu, Wei-Jing",
          booktitle="Proceedings of the 40th Annual Meeting of the Association for Computational Linguistics",
          year="2002", address="Philadelphia, Pennsylvania, USA", publisher="Association for Computational "
                                                                             "Linguistics",
          pages="311--318", url="https://aclanthology.org/P02-1040/"),
    _work("popovic-2015-chrf", "Popović, 2015", "inproceedings",
          title="chr{F}: character n-gram {F}-score for automatic {MT} evaluation",
          author="Popovi{\\'c}, Maja", booktitle="Proceedings of the Tenth Workshop on Statistical Machine Translation",
          year="2015", address="Lisbon, Portugal", publisher="Association for Computational Linguistics",
          pages="392--395", url="https://aclanthology.org/W15-3049/"),
    _work("mcnemar1947note", "McNemar, 1947", "article",
          title="Note on the Sampling Error of the Difference between Correlated Proportions or Percentages",
          author="McNemar, Quinn", journal="Psychometrika", volume="12", number="2", pages="153--157", year="1947"),
    _work("wilcoxon1945individual", "Wilcoxon, 1945", "article",
          title="Individual Comparisons by Ranking Methods", author="Wilcoxon, Frank",
          journal="Biometrics Bulletin", volume="1", number="6", pages="80--83", year="1945"),
    _work("student1908probable", "Student, 1908", "article",
          title="The Probable Error of a Mean", author="Student", journal="Biometrika", volume="6", number="1",
          pages="1--25", year="1908"),
    _work("dixon1946statistical", "Dixon and Mood, 1946", "article",
          title="The Statistical Sign Test", author="Dixon, Wilfrid J. and Mood, Alexander M.",
          journal="Journal of the American Statistical Association", volume="41", number="236",
          pages="557--566", year="1946"),
    _work("holm1979simple", "Holm, 1979", "article",
          title="A Simple Sequentially Rejective Multiple Test Procedure", author="Holm, Sture",
          journal="Scandinavian Journal of Statistics", volume="6", number="2", pages="65--70", year="1979"),
    _work("westfall1993resampling", "Westfall and Young, 1993", "book",
          title="Resampling-Based Multiple Testing: Examples and Methods for p-Value Adjustment",
          author="Westfall, Peter H. and Young, S. Stanley", publisher="Wiley", address="New York", year="1993"),
    _work("romano2005stepwise", "Romano and Wolf, 2005", "article",
          title="Stepwise Multiple Testing as Formalized Data Snooping", author="Romano, Joseph P. and Wolf, Michael",
          journal="Econometrica", volume="73", number="4", pages="1237--1282", year="2005"),
    _work("benjamini1995controlling", "Benjamini and Hochberg, 1995", "article",
          title="Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing",
          author="Benjamini, Yoav and Hochberg, Yosef",
          journal="Journal of the Royal Statistical Society: Series B (Methodological)", volume="57",
          number="1", pages="289--300", year="1995"),
    _work("dunn1961multiple", "Dunn, 1961", "article",
          title="Multiple Comparisons Among Means", author="Dunn, Olive Jean",
          journal="Journal of the American Statistical Association", volume="56", number="293", pages="52--64",
          year="1961"),
    _work("hochberg1988sharper", "Hochberg, 1988", "article",
          title="A Sharper {B}onferroni Procedure for Multiple Tests of Significance", author="Hochberg, Yosef",
          journal="Biometrika", volume="75", number="4", pages="800--802", year="1988"),
    _work(TOOL, "sigcore contributors, 2026", "misc", author="{sigcore contributors}",
          title="sigcore: Paired Significance Tests for Comparing {NLP}/{ML} Systems", version=__version__,
          year="2026", note=f"Version {__version__}"),
    _work("schuirmann1987comparison", "Schuirmann, 1987", "article",
          title="A Comparison of the Two One-Sided Tests Procedure and the Power Approach for Assessing the "
                "Equivalence of Average Bioavailability",
          author="Schuirmann, Donald J.", journal="Journal of Pharmacokinetics and Biopharmaceutics", volume="15",
          number="6", pages="657--680", year="1987"),
    _work("waudbysmith2024estimating", "Waudby-Smith and Ramdas, 2024", "article",
          title="Estimating Means of Bounded Random Variables by Betting",
          author="Waudby-Smith, Ian and Ramdas, Aaditya",
          journal="Journal of the Royal Statistical Society Series B: Statistical Methodology", volume="86",
          number="1", pages="1--27", year="2024"),
    _work("benjamini2001control", "Benjamini and Yekutieli, 2001", "article",
          title="The Control of the False Discovery Rate in Multiple Testing under Dependency",
          author="Benjamini, Yoav and Yekutieli, Daniel", journal="The Annals of Statistics", volume="29",
          number="4", pages="1165--1188", year="2001"),
    _work("bradley1952rank", "Bradley and Terry, 1952", "article",
          title="Rank Analysis of Incomplete Block Designs: {I}. The Method of Paired Comparisons",
          author="Bradley, Ralph Allan and Terry, Milton E.", journal="Biometrika", volume="39",
          number="3/4", pages="324--345", year="1952"),
    _work("davidson1970extending", "Davidson, 1970", "article",
          title="On Extending the {Bradley-Terry} Model to Accommodate Ties in Paired Comparison Experiments",
          author="Davidson, Roger R.", journal="Journal of the American Statistical Association", volume="65",
          number="329", pages="317--328", year="1970"),
    _work("chiang2024chatbot", "Chiang et al., 2024", "inproceedings",
          title="Chatbot Arena: An Open Platform for Evaluating {LLMs} by Human Preference",
          author="Chiang, Wei-Lin and Zheng, Lianmin and Sheng, Ying and Angelopoulos, Anastasios Nikolas and Li, "
                 "Tianle and Li, Dacheng and Zhu, Banghua and Zhang, Hao and Jordan, Michael I. and Gonzalez, "
                 "Joseph E. and Stoica, Ion",
          booktitle="Proceedings of the 41st International Conference on Machine Learning", series="PMLR",
          volume="235", pages="8359--8388", year="2024"),
]}

_TEST = {"bootstrap": ["berg-kirkpatrick-etal-2012-empirical", "efron1993introduction"],
         "permutation": ["noreen1989computer"], "t": ["student1908probable"], "z": [],
         "wilcoxon": ["wilcoxon1945individual"], "sign": ["dixon1946statistical"], "mcnemar": ["mcnemar1947note"]}
_METRIC = {"bleu": ["papineni-etal-2002-bleu", "post-2018-call"], "chrf": ["popovic-2015-chrf", "post-2018-call"]}
_CORRECTION = {"holm": ["holm1979simple"], "bh": ["benjamini1995controlling"], "bonferroni": ["dunn1961multiple"],
               "hochberg": ["hochberg1988sharper"], "by": ["benjamini2001control"],
               "maxt": ["westfall1993resampling", "romano2005stepwise"]}
REPLICABILITY, ASO = ["dror-etal-2017-replicability"], ["dror-etal-2019-deep", "delbarrio2018optimal",
                                                        "ulmer2022deep"]


def method_keys(res: Result) -> list[str]:
    """The works the test relies on: its method, Koehn (2004) for the bootstrap on MT metrics, and the
    bootstrap's interval (Efron and Tibshirani 1993) where another test reports one."""
    return keys_for_test(res.test, res.metric, res.ci_method)


def keys_for_test(test: str, metric: str, ci_method: str = "bootstrap-basic") -> list[str]:
    keys = list(_TEST[test])
    if test == "bootstrap" and metric in _METRIC:
        keys.append("koehn-2004-statistical")
    if ci_method.startswith("bootstrap") and "efron1993introduction" not in keys:
        keys.append("efron1993introduction")
    return keys


def metric_keys(metric: str) -> list[str]:
    return list(_METRIC.get(metric, []))


def keys_of(res: Result) -> list[str]:
    """Every work a paper reporting ``res`` cites: the test, the metric, and Dror et al. (2018) for the choice."""
    return pair_keys(res.test, res.metric, res.ci_method)


def pair_keys(test: str, metric: str, ci_method: str = "bootstrap-basic") -> list[str]:
    """:func:`keys_of` before the run: from the test, the metric and the interval's method alone."""
    return list(dict.fromkeys([*keys_for_test(test, metric, ci_method), *metric_keys(metric),
                               "dror-etal-2018-hitchhikers"]))


def claim_keys(test: str, metric: str) -> list[str]:
    """What a non-inferiority or equivalence claim relies on: its test (whose bound is the claim's), the one-sided
    tests against a margin (Schuirmann 1987), the metric, and Dror et al. (2018)."""
    return list(dict.fromkeys([*keys_for_test(test, metric, "none"), "schuirmann1987comparison",
                               *metric_keys(metric), "dror-etal-2018-hitchhikers"]))


SEQUENTIAL = ["waudbysmith2024estimating"]  # the confidence sequence of sigcore.sequential


def family_keys(test: str, metrics: list[str], correction: str) -> list[str]:
    """What a family of comparisons relies on: the test, the metrics, the correction."""
    keys = [k for m in metrics for k in keys_for_test(test, m)] + [k for m in metrics for k in metric_keys(m)]
    return list(dict.fromkeys([*keys, *_CORRECTION.get(correction, []), "dror-etal-2018-hitchhikers"]))


def preference_keys(ties: str, correction: str) -> list[str]:
    """What ratings from pairwise judgments rely on: Bradley and Terry (1952), Davidson (1970) for his ties, the
    bootstrap over items and its percentile intervals as Chatbot Arena gives them (Chiang et al. 2024; Efron and
    Tibshirani 1993), the correction over the pairs."""
    return list(dict.fromkeys(["bradley1952rank", *(["davidson1970extending"] if ties == "davidson" else []),
                               "chiang2024chatbot", "efron1993introduction", *_CORRECTION.get(correction, [])]))


def bibtex(keys: list[str]) -> str:
    """The BibTeX entries of ``keys``, in order, each once, and sigcore's own last, for a paper to cite too."""
    return "\n\n".join(WORKS[k].bibtex for k in dict.fromkeys([*keys, TOOL])) + "\n"


def cite_text(keys: list[str]) -> str:
    """"(Berg-Kirkpatrick et al., 2012; Efron and Tibshirani, 1993)"."""
    return f"({'; '.join(WORKS[k].cite for k in keys)})" if keys else ""


def cite_latex(keys: list[str]) -> str:
    r"""``\citep{key1,key2}`` (natbib, as the ACL style loads it)."""
    return f"\\citep{{{','.join(keys)}}}" if keys else ""
