"""The Many systems page's "Many datasets" mode: on how many of several datasets is A better than B?

Dror, Baumer, Bogomolov & Reichart (2017)'s replicability analysis (:func:`sigcore.statistics.replicability`),
from a table of one one-sided p-value per dataset (the columns dataset and p), or from each dataset's outputs
(a gold file and one file per system, or one table), where A and B are compared on each dataset with
:func:`sigcore.compare` (H1: A better), as ``python -m sigcore datasets`` does. It shows k̂ with Bonferroni's and
Fisher's partial conjunctions, the datasets Holm's procedure names, and p^{u/N} for u = 1..N.

Uploads are parsed by :mod:`ui.data` (cached on the bytes, never on disk). Dataset and system names are user text:
cells in tables (never HTML), escaped in Markdown (:mod:`ui.safe`) and in LaTeX.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace

import pandas as pd
import streamlit as st

import sigcore
from sigcore import SigcoreError
from sigcore.comparison import AUTO
from sigcore.contract import DEFAULT_ALPHA, DEFAULT_RESAMPLES, DEFAULT_SEED
from sigcore.errors import InputError
from sigcore.io import results
from sigcore.io.aligned import AlignedMany
from sigcore.io.loading import load_many
from sigcore.io.roles import GOLD_NAMES, gold_files
from sigcore.report import citations, export
from sigcore.report.sentence import decimals, test_name, the
from sigcore.result import p_number
from sigcore.statistics.replicability import Replicability

from . import data as data_ui
from . import work
from .data import ENCODINGS
from .many import ALPHAS, metric_label_of, metrics_for
from .safe import md

SAMPLE_DIR = data_ui.SAMPLE_DIR / "datasets"
SAMPLE_TABLE = "p_values.csv"
SAMPLE_DATASETS = ("iris", "wine", "breast_cancer", "digits")
SAMPLE_A, SAMPLE_B = "svm_rbf", "tree"  # the pair whose p-values SAMPLE_TABLE holds
P_TABLE, OUTPUTS = "One p-value per dataset", "Outputs per dataset"
TESTS = ("bootstrap", "permutation", "t", "wilcoxon", "sign", "mcnemar", "z")
ABOUT = ("On how many datasets is A better than B? Dror et al. (2017)'s replicability analysis takes one one-sided "
         "p-value per dataset (H1: A better than B) and estimates k̂, the number of datasets where A is better, "
         "with probability at least 1 − α, and names them (Holm): more honest than counting the datasets with "
         "p ≤ α, which ignores that N tests were made.")


@dataclass(frozen=True)
class Datasets:
    """What was read: one p-value per dataset (``p_values``), or each dataset's aligned outputs (``outputs``)."""

    names: tuple[str, ...]
    source: str  # a hash of the bytes read: what the cached comparisons depend on
    sample: bool
    p_values: tuple[float, ...] | None = None
    outputs: tuple[AlignedMany, ...] | None = None
    file: str = ""


@dataclass(frozen=True)
class Settings:
    alpha: float = DEFAULT_ALPHA
    a: str = "A"
    b: str = "B"
    metric: str = "accuracy"
    test: str = "bootstrap"
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class Analysis:
    replicability: Replicability
    settings: Settings
    results: tuple | None = None  # per dataset, with outputs: sigcore.Result, H1 "A better"


# ---------------------------------------------------------------- data


def choose() -> tuple[str, list, str | None, bool]:
    """What kind of input, and the input: (kind, files, encoding, sample). For a p-value table, ``files`` is
    [(name, bytes)]; for outputs, [(dataset, [(name, bytes), ...]), ...]."""
    kind = st.radio("Input", [P_TABLE, OUTPUTS], horizontal=True, key="datasets-input",
                    help="A table with the columns dataset and p (one one-sided p-value per dataset, H1: A better "
                         "than B), or each dataset's gold file and system files, compared here.")
    source = st.radio("Data", ["Sample", "Upload"], horizontal=True, label_visibility="collapsed",
                      key=f"datasets-source-{kind == P_TABLE}")
    if source == "Sample":
        if kind == P_TABLE:
            st.caption("svm_rbf (A) against a decision tree (B), scikit-learn, on its four bundled data sets "
                       "(iris, wine, breast cancer, digits): each one-sided p from McNemar's exact test, the "
                       "one recommended for these right/wrong items; see sample_data/README.md.")
            return kind, [(SAMPLE_TABLE, (SAMPLE_DIR / SAMPLE_TABLE).read_bytes())], None, True
        st.caption("Four scikit-learn classifiers on its four bundled data sets (iris, wine, breast cancer, "
                   "digits): per data set a gold file and a file per classifier; see sample_data/README.md.")
        return kind, [(name, [(f.name, f.read_bytes()) for f in sorted((SAMPLE_DIR / name).glob("*.txt"))])
                      for name in SAMPLE_DATASETS], None, True
    encoding = None
    if kind == P_TABLE:
        upload = st.file_uploader("Table of p-values", key="datasets-upload-table",
                                  help="CSV, TSV, JSON lines or JSON with the columns dataset and p (or p_value): "
                                       "one row per dataset, p one-sided for H1 \"A better than B\". Nothing is "
                                       "stored.")
        files = [] if upload is None else [(upload.name, upload.getvalue())]
    else:
        count = st.number_input("Datasets", 2, 30, 3, key="datasets-count",
                                help="How many datasets: each gets its own name and uploader.")
        files = []
        for k in range(1, int(count) + 1):
            with st.container(border=True):
                name = st.text_input(f"Name of dataset {k}", f"dataset {k}", key=f"datasets-name-{k}").strip()
                uploads = st.file_uploader(
                    f"Files of dataset {k}", accept_multiple_files=True, key=f"datasets-upload-{k}",
                    help=f"A gold file (named {GOLD_NAMES}) and one file per system "
                         "(named after the system), or one table with a gold column and a column per system. "
                         "Nothing is stored.")
                if uploads:
                    files.append((name or f"dataset {k}", [(u.name, u.getvalue()) for u in uploads]))
    encoding = ENCODINGS[st.selectbox("Encoding", list(ENCODINGS), key="datasets-encoding",
                                      help="How the uploaded text was saved.")]
    return kind, files, encoding, False


def load(kind: str, files: list, encoding: str | None, sample: bool) -> Datasets | None:
    """Read the p-values or each dataset's outputs; a problem is shown here, beside the uploader, with where it is
    and how to fix it. None when there is nothing (yet) to analyse."""
    if not files:
        st.info("Upload a table with the columns dataset and p." if kind == P_TABLE else
                "Upload each dataset's files (at least two datasets), or choose the sample.")
        return None
    try:
        if kind == P_TABLE:
            name, content = files[0]
            names, p = _p_values(content, name, encoding)
            return Datasets(names, data_ui.digest([(name, content)]), sample, p_values=p, file=name)
        if len(files) < 2:  # more are on their way: not an error yet
            st.info("Upload the files of at least two datasets: a replicability analysis counts datasets.")
            return None
        return _outputs(files, encoding, sample)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None


@st.cache_data(max_entries=32, ttl=600, show_spinner=False)
def _p_values(content: bytes, name: str, encoding: str | None) -> tuple[tuple[str, ...], tuple[float, ...]]:
    return results.p_values(data_ui.parsed(content, name, encoding))


def _outputs(files: list, encoding: str | None, sample: bool) -> Datasets:
    """Each dataset's files aligned: one table (gold and a column per system), or a gold file named as such and
    one file per system (paired by a shared id column, else by row)."""
    names = [name for name, _ in files]
    for name in names:
        if names.count(name) > 1:
            raise InputError(f"two datasets are named {name!r}", hint="Give each dataset its own name.")
    outputs = []
    for name, dataset_files in files:
        try:
            outputs.append(_one_dataset(data_ui.parsed_tables(dataset_files, encoding)))
        except SigcoreError as e:
            raise type(e)(f"dataset {name!r}: {e.what}", hint=e.hint, file=e.file, line=e.line,
                          column=e.column) from None
    source = data_ui.digest([f for _, fs in files for f in fs] + [(n, b"") for n in names])
    return Datasets(tuple(names), source, sample, outputs=tuple(outputs))


def _one_dataset(tables) -> AlignedMany:
    if len(tables) == 1:
        return load_many(tables)
    gold = gold_files([t.name for t in tables])
    if len(gold) != 1:
        raise InputError(f"needs exactly one gold file among {len(tables)} files, found {len(gold)}",
                         file=", ".join(t.name for t in tables),
                         hint=f"Name the gold file {GOLD_NAMES} (gold.txt), and each "
                              "system's file after the system (tree.txt), or upload one table.")
    ordered = [tables[gold[0]]] + [t for i, t in enumerate(tables) if i != gold[0]]
    return load_many(ordered, has_gold=True)


def systems(data: Datasets) -> list[str]:
    """The systems every dataset has, in the first dataset's order."""
    first, *rest = data.outputs
    return [s for s in first.systems if all(s in other.systems for other in rest)]


def preview(data: Datasets) -> None:
    """The p-values as read, or each dataset's items and systems."""
    if data.p_values is not None:
        st.caption(f"{len(data.names)} datasets · {md(data.file)}")
        st.dataframe(pd.DataFrame({"dataset": data.names, "p (one-sided)": data.p_values}), hide_index=True,
                     column_config={"p (one-sided)": st.column_config.NumberColumn(format="%.4g")})
        return
    rows = [{"dataset": name, "items": len(next(iter(d.systems.values()))), "gold": d.gold is not None,
             "systems": ", ".join(d.systems)} for name, d in zip(data.names, data.outputs)]
    st.caption(f"{len(data.names)} datasets")
    st.dataframe(pd.DataFrame(rows), hide_index=True,  # names are cells: text, never HTML
                 column_config={"systems": st.column_config.TextColumn(width="large")})
    for name, d in zip(data.names, data.outputs):
        for note in d.notes:
            st.warning(md(f"{name}: {note}"))


# ---------------------------------------------------------------- settings


def settings(data: Datasets) -> Settings | None:
    """α (and for a p-value table, the names of A and B for the sentence); with outputs, A, B, the metric and the
    test in one form, computed on Run (the defaults when the page opens). None while A and B cannot be compared."""
    if data.p_values is not None:
        c1, c2, c3 = st.columns([1, 2, 2])
        alpha = c1.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="datasets-alpha",
                             format_func=lambda x: f"{x:g}",
                             help="k̂ counts the u whose partial conjunction p^{u/N} ≤ α.")
        a = c2.text_input("Name of A", SAMPLE_A if data.sample else "A", key=f"datasets-a-name-{data.sample}",
                          help="For the sentence only: the system the p-values say is better.")
        b = c3.text_input("Name of B", SAMPLE_B if data.sample else "B", key=f"datasets-b-name-{data.sample}")
        return Settings(float(alpha), a.strip() or "A", b.strip() or "B")
    names = systems(data)
    if len(names) < 2:
        st.error(md("The datasets share fewer than two systems, so A and B cannot be compared on every one. "
                    + " · ".join(f"{n}: {', '.join(d.systems)}" for n, d in zip(data.names, data.outputs))
                    + ". Name each system's file (or column) the same way in every dataset."), icon="⚠️")
        return None
    metrics = metrics_for(data.outputs[0])
    fits = data_ui.fits(names, metrics)
    with st.form("datasets-settings", border=False):
        c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
        a_start = names.index(SAMPLE_A) if data.sample and SAMPLE_A in names else 0
        b_start = names.index(SAMPLE_B) if data.sample and SAMPLE_B in names else 1
        a = c1.selectbox("System A", names, index=a_start, key=f"datasets-a-{fits}",
                         help="H1 on every dataset: A is better than B (one-sided).")
        b = c2.selectbox("System B", names, index=b_start, key=f"datasets-b-{fits}")
        metric = c3.selectbox("Metric", metrics, key=f"datasets-metric-{fits}", format_func=metric_label_of)
        tests = [AUTO, *(t for t in TESTS if any(t in sigcore.tests_for(m) for m in metrics))]
        test = c4.selectbox("Test", tests, key=f"datasets-test-{fits}",
                            format_func=lambda t: "recommended (per dataset)" if t == AUTO else t,
                            help="Recommended: on each dataset the test the advisor recommends for its data (the "
                                 "table says which). One-sided (H1: A better) on each dataset, as the replicability "
                                 "analysis needs; a test that does not fit the metric is refused with the reason.")
        c5, c6, c7, _ = st.columns([2, 2, 2, 2])
        n = c5.number_input("Resamples b", 100, 100_000, DEFAULT_RESAMPLES, step=1_000, key="datasets-b-resamples",
                            help="Bootstrap resamples or permutations on each dataset.")
        alpha = c6.selectbox("Level α", ALPHAS, index=ALPHAS.index(DEFAULT_ALPHA), key="datasets-alpha-outputs",
                             format_func=lambda x: f"{x:g}")
        seed = c7.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="datasets-seed")
        st.form_submit_button("Run", type="primary")
    if a == b:
        st.error("System A and system B are the same: choose two different systems.", icon="⚠️")
        return None
    return Settings(float(alpha), a, b, metric, test, int(n), int(seed))


# ---------------------------------------------------------------- computing


def _compare(d: AlignedMany, s: Settings, progress) -> sigcore.Result:
    res = sigcore.compare(d.gold, d.systems[s.a], d.systems[s.b], metric=s.metric, test=s.test,
                          n_resamples=s.n_resamples, alternative="greater", alpha=s.alpha, seed=s.seed,
                          groups=d.groups, budget=work.BUDGET, progress=progress)
    return replace(res, distribution=None)  # b values per dataset are not needed here: keep the store small


def compute(data: Datasets, s: Settings) -> Analysis | None:
    """The replicability analysis (and with outputs, each dataset's comparison first); a problem is shown."""
    try:
        if data.p_values is not None:
            return Analysis(sigcore.statistics.replicability(list(data.p_values), alpha=s.alpha,
                                                             datasets=data.names), s)
        results, area = [], st.empty()
        for name, d in zip(data.names, data.outputs):  # each in its turn, kept for every session
            what = md(f"{name}: {s.a} against {s.b}, b = {s.n_resamples:,}")
            try:
                results.append(work.kept(repr(("dataset", data.source, name, asdict(s))), area, what,
                                         lambda progress, d=d: _compare(d, s, progress)))
            except SigcoreError as e:
                raise type(e)(f"dataset {name!r}: {e.what}", hint=e.hint, file=e.file, line=e.line,
                              column=e.column) from None
        return Analysis(sigcore.statistics.replicability(results, alpha=s.alpha, datasets=data.names), s,
                        tuple(results))
    except SigcoreError as e:
        st.error(md(work.explain(e)), icon="⚠️")
        return None


# ---------------------------------------------------------------- showing


def sentence(analysis: Analysis) -> str:
    """``Replicability.sentence()``, with A and B named when they are."""
    s = analysis.settings
    text = analysis.replicability.sentence()
    if (s.a, s.b) == ("A", "B"):
        return text
    return text.replace("A is better than B", f"{s.a} (A) is better than {s.b} (B)", 1)


def sentence_latex(analysis: Analysis) -> str:
    """The sentence for a paper's text: names escaped, k̂ and α in math mode, the method cited (natbib)."""
    res, s = analysis.replicability, analysis.settings
    slots = [f"\x00{i}\x00" for i in range(len(res.identified))]  # names stand aside while the text is converted
    text = replace(res, identified=tuple(slots)).sentence()
    if (s.a, s.b) != ("A", "B"):
        text = text.replace("A is better than B", "\x00a\x00 (A) is better than \x00b\x00 (B)", 1)
    text = export.latex_escape(text, placeholders=True).replace("(Dror et al., 2017)",
                                             citations.cite_latex(citations.REPLICABILITY), 1)
    text = re.sub(r"k̂ = (\d+)", r"$\\hat{k} = \1$", text)
    text = re.sub(r"α = ([\d.]+)(?=:)", r"$\\alpha = \1$", text)
    for slot, name in [*zip(slots, res.identified), ("\x00a\x00", s.a), ("\x00b\x00", s.b)]:
        text = text.replace(slot, export.latex_escape(name))
    return text


def per_dataset_frame(analysis: Analysis) -> pd.DataFrame:
    """One row per dataset, in the order given: its p (and with outputs, the scores and δ), and whether Holm's
    procedure names it."""
    res = analysis.replicability
    frame = pd.DataFrame({"dataset": res.datasets})
    if analysis.results is not None:
        frame["score_a"] = [r.score_a for r in analysis.results]
        frame["score_b"] = [r.score_b for r in analysis.results]
        frame["delta"] = [r.delta for r in analysis.results]
        frame["n_items"] = [r.n_items for r in analysis.results]
        frame["test"] = [r.test for r in analysis.results]
    frame["p"] = res.p_values
    frame["identified"] = [name in res.identified for name in res.datasets]
    return frame


def conjunction_frame(analysis: Analysis) -> pd.DataFrame:
    """p^{u/N} for u = 1..N (Bonferroni's and Fisher's), and whether each rejects "A better on fewer than u"."""
    res = analysis.replicability
    u = range(1, len(res.datasets) + 1)
    return pd.DataFrame({"u": list(u), "bonferroni": res.bonferroni, "fisher": res.fisher,
                         "rejected_bonferroni": [p <= res.alpha for p in res.bonferroni],
                         "rejected_fisher": [p <= res.alpha for p in res.fisher]})


def show(analysis: Analysis) -> None:
    """The sentence, k̂ both ways and the datasets named, each dataset's p, and the partial conjunctions."""
    res, s = analysis.replicability, analysis.settings
    n = len(res.datasets)
    st.markdown(md(sentence(analysis)))
    c1, c2, c3 = st.columns([1, 1, 2])
    c1.metric("k̂ (Bonferroni)", f"{res.k_bonferroni} of {n}", border=True,
              help="Valid whatever the dependence between the datasets.")
    c2.metric("k̂ (Fisher)", f"{res.k_fisher} of {n}", border=True,
              help="Valid for independent datasets (different test sets); more powerful.")
    c3.metric("Identified (Holm)", md(", ".join(res.identified)) if res.identified else "none", border=True,
              help=f"The k̂ = {res.k_bonferroni} datasets with the smallest p, which Holm's procedure rejects.")
    naive = sum(p <= res.alpha for p in res.p_values)
    st.caption(f"Counting the datasets with p ≤ α one by one gives {naive} of {n}; that count ignores that {n} "
               f"tests were made. k̂ holds with probability at least {1 - res.alpha:.0%}: A is better than B on at "
               "least k̂ datasets.")
    left, right = st.columns(2, gap="large")
    if analysis.results is not None:  # the scores need the width: the partial conjunctions go below
        left, right = st.container(), st.columns(2, gap="large")[0]
    with left:
        st.markdown("**Each dataset**")
        frame = per_dataset_frame(analysis)
        scale = max([abs(v) for v in [*frame.get("score_a", []), *frame.get("score_b", [])]] or [1.0]) or 1.0
        score = f"%.{decimals(scale)}f"
        number = st.column_config.NumberColumn
        st.dataframe(frame, hide_index=True, key="datasets-table", column_config={
            "score_a": number("A", format=score, help="A's score on the dataset", width="small"),
            "score_b": number("B", format=score, help="B's score on the dataset", width="small"),
            "delta": number("δ", format=score, help="score(A) − score(B)", width="small"),
            "n_items": number("items", width="small"),
            "p": number("p", format="%.4g", help="one-sided, H1: A better than B on this dataset", width="small"),
            "identified": st.column_config.CheckboxColumn("identified", help="named by Holm's procedure")})
        if analysis.results is not None:
            st.caption(md(f"A: {s.a} · B: {s.b} · {metric_label_of(s.metric)}, {' and '.join(tests_run(analysis))} "
                          f"test{'s' * (len(tests_run(analysis)) > 1)}, H1: A better, b = {s.n_resamples:,}, "
                          f"seed {s.seed}" + (" (recommended for each dataset's data)" if s.test == AUTO else "")))
            _cautions(analysis)
    with right:
        st.markdown("**Is A better on at least u datasets?**")
        st.dataframe(conjunction_frame(analysis), hide_index=True, key="datasets-conjunctions", column_config={
            "u": number("u", help="H0^{u/N}: A is better on fewer than u of the N datasets", width="small"),
            "bonferroni": number("Bonferroni", format="%.4g", help="(N − u + 1) · p₍ᵤ₎, made monotone in u"),
            "fisher": number("Fisher", format="%.4g",
                             help="Fisher's combination of the N − u + 1 largest p-values, made monotone in u"),
            "rejected_bonferroni": st.column_config.CheckboxColumn("≤ α (B)", help="p^{u/N} ≤ α, Bonferroni"),
            "rejected_fisher": st.column_config.CheckboxColumn("≤ α (F)", help="p^{u/N} ≤ α, Fisher")})
        st.caption(f"The partial-conjunction p of \"A is better on fewer than u of the {n} datasets\", for each u: "
                   f"where it is ≤ α = {res.alpha:g}, A is better on at least u, and k̂ is the number of such u. "
                   "Bonferroni's holds under any dependence between the datasets; Fisher's needs them independent.")


def tests_run(analysis: Analysis) -> list[str]:
    """The tests the datasets were compared with (one, unless each took the one recommended for its data)."""
    return list(dict.fromkeys(r.test for r in analysis.results))


def _cautions(analysis: Analysis) -> None:
    """Each dataset's cautions about its test (few discordant pairs, a p that cannot reach α), in one box."""
    res, s = analysis.replicability, analysis.settings
    notes = [(name, w) for name, r in zip(res.datasets, analysis.results) for w in r.warnings]
    notes += [(name, f"with b = {s.n_resamples:,} the p cannot reach α; raise b" if r.resampled else
               f"the smallest p {the(test_name(r))} can give on these items is {p_number(r.p_floor)} > α")
              for name, r in zip(res.datasets, analysis.results) if not r.reachable]
    if notes:
        st.warning("Cautions about the tests:\n" + "\n".join(f"- {md(name)}: {md(w)}" for name, w in notes),
                   icon="⚠️")


def downloads(analysis: Analysis) -> None:
    """The tables as CSV (protected against spreadsheet formulas), the sentence as text and LaTeX, and BibTeX."""
    s = analysis.settings
    stem = "sigcore_datasets" + ("" if analysis.results is None else f"_{s.metric}")
    keys = citations.REPLICABILITY + ([] if analysis.results is None else
                                      [k for t in tests_run(analysis) for k in citations.keys_for_test(t, s.metric)])
    cols = st.columns([1, 1, 1, 1, 1])
    buttons = [("Datasets CSV", export.table_csv(per_dataset_frame(analysis)), f"{stem}.csv", "text/csv"),
               ("Conjunctions CSV", export.table_csv(conjunction_frame(analysis)),
                f"{stem}_conjunctions.csv", "text/csv"),
               ("Sentence (text)", sentence(analysis) + "\n", f"{stem}.txt", "text/plain"),
               ("Sentence (LaTeX)", sentence_latex(analysis) + "\n", f"{stem}.tex", "text/x-tex"),
               ("BibTeX", citations.bibtex(keys), f"{stem}.bib", "text/x-bibtex")]
    for col, (label, content, file_name, mime) in zip(cols, buttons):
        col.download_button(label, content, file_name=file_name, mime=mime, on_click="ignore", width="stretch",
                            key=f"datasets-download-{file_name}")
    with st.expander("The sentence in LaTeX (natbib's \\citep)"):
        st.code(sentence_latex(analysis), language="latex")
