"""The data section of the Compare page: a sample or uploads, the column roles, and a preview.

Uploads stay in memory (Streamlit's ``UploadedFile`` bytes, parsed by ``sigcore.io.inputs.read``) and are never
written to disk, not even by the web server while they arrive (see :func:`keep_uploads_in_memory`). Parsing is cached
on the bytes, so changing a setting does not parse again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import streamlit as st
from starlette.formparsers import MultiPartParser
from streamlit import config

from sigcore import SigcoreError, front
from sigcore.io.aligned import Aligned
from sigcore.io.columns import Mapping, guess_mapping, own_gold, shared_id
from sigcore.io.inputs import LOGS, read
from sigcore.io.log_pairs import lm_eval_filters
from sigcore.io.pairing import ROW_ORDER, from_table
from sigcore.io.roles import GOLD_NAMES, Ambiguous
from sigcore.io.systems import NO_GOLD_FILE, order_systems, pick_gold_file, pick_pair
from sigcore.words import told_apart

from .safe import md

SAMPLE_DIR = Path(__file__).resolve().parents[1] / "sample_data"


def keep_uploads_in_memory() -> None:
    """Starlette, Streamlit's web server, spools an upload of over 1 MB to a temporary file while it arrives;
    raised to the upload limit, its threshold keeps every upload in memory (the limit bounds that memory)."""
    limit = (config.get_option("server.maxUploadSize") + 1) * 1024**2  # + the multipart overhead
    MultiPartParser.spool_max_size = max(MultiPartParser.spool_max_size, limit)


keep_uploads_in_memory()
# name shown -> (files, column roles, and the metric where the data leave it open)
SAMPLES = {  # the first opens the page: a real case where the bootstrap is the recommended test
    "WMT17 en-de, 500 segments: BLEU": (["mt/newstest2017.ref.de", "mt/uedin-nmt.de", "mt/LIUM-NMT.de"], {}),
    "SLP3 Figure 4.11: 10 documents, A .70 vs B .50": (["slp3_fig4_11.csv"], {}),
    "Digit classifiers (scikit-learn): SVM vs logistic regression": (["classification.csv"],
                                                                    {"a": "svm_rbf", "b": "logreg"}),
    "Digit classifiers (scikit-learn): decision tree vs naive Bayes": (["classification.csv"],
                                                                      {"a": "tree", "b": "naive_bayes"}),
    "Named entities (CoNLL, synthetic): span F1": (["ner.conll"], {}),
    "lm-evaluation-harness logs (simulated ARC-Easy)": (["lm_eval/samples_arc_easy_model-a.jsonl",
                                                         "lm_eval/samples_arc_easy_model-b.jsonl"],
                                                        {"metric": "acc"}),  # of its two scorers, as --metric acc
    "Per-item scores (sentence chrF)": (["per_item_scores.csv"], {}),
}
NONE = "(none)"
GROUP_HELP = ("The group (document) of each item: the bootstrap and permutation tests then resample, or swap A and "
              "B for, whole groups, and the tests that take items as independent are not offered.")


ENCODINGS = {"UTF-8 (or UTF-16 with a byte-order mark)": None, "UTF-16 little-endian": "utf-16-le",
             "UTF-16 big-endian": "utf-16-be", "Latin-1": "latin-1", "Windows-1252": "cp1252"}
BY_ROW = "(row order)"


# an upload's parsed table outlives it by 10 minutes at most
@st.cache_data(max_entries=32, ttl=600, show_spinner=False)
def parsed(data: bytes, name: str, encoding: str | None):
    """An uploaded file's table, parsed once for the same bytes."""
    return read(data, name=name, encoding=encoding)


def digest(files: list[tuple[str, bytes]], *more: bytes) -> str:
    """A hash of uploaded files (names and bytes) and ``more``: what a cached computation on them depends on."""
    h = hashlib.sha256()
    for name, content in files:
        h.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
    for part in more:
        h.update(part)
    return h.hexdigest()


def fits(*options) -> str:
    """A short key for a form's widgets that depends on ``options``: other data, other options, fresh boxes."""
    return hashlib.sha256(repr(options).encode()).hexdigest()[:8]


def parsed_tables(files: list[tuple[str, bytes]], encoding: str | None = None):
    """The tables of uploaded files (name, bytes), in their order."""
    return [parsed(data, name, encoding) for name, data in files]


def choose_files() -> tuple[list[tuple[str, bytes]], dict]:
    """A sample (the default, so the page works at once) or the user's uploads, as (name, bytes) pairs."""
    which, box = st.columns([1, 3], vertical_alignment="center")
    source = which.radio("Data", ["Sample", "Upload"], label_visibility="collapsed")
    if source == "Sample":
        name = box.selectbox("Sample", list(SAMPLES), help="Small real-looking cases; see sample_data/README.md.")
        files, roles = SAMPLES[name]  # named by their path from the project root: the reproduce line runs there
        return [(f"{SAMPLE_DIR.name}/{f}", (SAMPLE_DIR / f).read_bytes()) for f in files], roles
    uploads = box.file_uploader(
        "System outputs", accept_multiple_files=True,
        help="One table (CSV, TSV, JSON lines, JSON, CoNLL) with gold and system columns; or a gold file (found by "
             "its name: gold, ref, reference, target, labels, answers) and one file per system; or two files that "
             "each carry a gold column (id, gold, pred), or two CoNLL files with gold; or two lm-evaluation-harness "
             "samples_*.jsonl logs, or two Inspect AI logs (.eval or .json). Gzip is fine. Nothing is stored.")
    files = [(u.name, u.getvalue()) for u in uploads or []]
    encoding = ENCODINGS[st.selectbox("Encoding", list(ENCODINGS), help="How the uploaded text was saved.")]
    return files, {"encoding": encoding} if encoding else {}


def load(files: list[tuple[str, bytes]], roles: dict, mapping_area) -> front.Prepared | None:
    """Parse and pair the files through the front door (:func:`sigcore.front.prepare`: the roles chosen in
    ``mapping_area``, the metric it suggests), show problems and open questions, and return None until the files'
    roles are settled (the metric's questions are asked in the Settings)."""
    if not files:
        st.info("Upload files to compare, or choose a sample.")
        return None
    roles = dict(roles)
    metric = roles.pop("metric", None)  # a sample's answer to the metric's question
    try:
        tables = parsed_tables(files, roles.pop("encoding", None))
        with mapping_area:
            if len(tables) == 1:
                roles = {**roles, **_mapping_widgets(tables[0], roles)}
            else:
                files_box, pairing_box = st.columns(2), st.columns(2, vertical_alignment="bottom")
                chosen, settled = _file_widgets(tables, files_box)
                roles.update(chosen)
                with pairing_box[0]:
                    roles["id"] = pairing_widget(tables)
                roles["on_unmatched"] = "drop" if pairing_box[1].checkbox(
                    "Drop unmatched items", key="drop_" + "_".join(t.name for t in tables),
                    help="Compare only the items whose ids are in every file (a note says how many were dropped). "
                         "Off: an id missing from a file stops the comparison, naming the file and line.") else "stop"
                if not settled:
                    st.info("Say which file is the gold (in the Gold file box) to compare the others.")
                    return None
                if len(tables) == 2 and all(t.format in LOGS for t in tables) \
                        and len(filters := lm_eval_filters(*tables)) > 1:  # a document once per filter
                    roles["filter"] = st.selectbox(
                        "lm-eval filter", filters, index=None, placeholder="Which filter?",
                        key="filter_" + "_".join(t.name for t in tables),
                        help="The logs hold each document once per filter (gsm8k: strict-match, flexible-extract); "
                             "the same documents twice are not two items, so one filter is compared.")
                    if roles["filter"] is None:
                        st.info(md(f"The logs hold {len(filters)} filters: say which one to compare."))
                        return None
        source, given = (_from_roles(tables[0], roles), {}) if len(tables) == 1 else (tables, roles)
        prepared = front.prepare(source, metric=metric, **given)
    except SigcoreError as e:
        st.error(md(str(e)), icon="⚠️")
        return None
    _preview(prepared, tables)
    return prepared


NO_GOLD = "(no gold file)"  # per-item scores need none
OWN_GOLD = "(gold in each file)"  # each file's own gold column, as the caption's roles line says


def _file_widgets(tables, boxes) -> tuple[dict, bool]:
    """Which file is the gold (by its name; asked when the names do not say) and which system is the baseline
    (B: the one named like one, else the second), in the two ``boxes``, by position, as two files may share a
    name. Returns what the user changed from the names' answer (``sigcore.io.load`` takes the rest from the names, and
    says so), and whether the gold is settled."""
    names = [t.name for t in tables]
    key, shown = "_".join(names), told_apart(Path(n).name for n in names)
    out, gold = {}, None
    if not all(t.format in LOGS for t in tables):  # a log holds its targets
        try:
            index, _ = pick_gold_file(tables)
            start = 0 if index is None else index + 1
        except Ambiguous:
            start = None  # the names do not say: the user must
        options = [NO_GOLD_FILE, *range(len(tables))]
        none = OWN_GOLD if all(own_gold(t) for t in tables) else NO_GOLD
        gold = boxes[0].selectbox(
            "Gold file", options, index=start, key=f"gold_file_{key}", placeholder="Which file is the gold?",
            format_func=lambda k: none if k == NO_GOLD_FILE else f"{k + 1}. {shown[k]}",
            help=f"The file of gold labels or references, found by its name ({GOLD_NAMES}); none when each file "
                 "carries its own gold column, or for per-item scores.")
        if gold is None:
            return out, False
        if start is None or gold != options[start]:
            out["gold_file"] = gold
    systems = [i for i in range(len(tables)) if i != gold]
    if len(systems) == 2:
        order, _ = order_systems([names[i] for i in systems])
        baseline = boxes[1].selectbox("Baseline (B)", systems, index=order[-1], key=f"baseline_{key}",
                                      format_func=lambda k: f"{k + 1}. {shown[k]}",
                                      help="The system yours (A, the other file) is compared with: δ = A − B. "
                                           "Prefilled from the names (baseline, base, ref-system), else the second.")
        if baseline != systems[order[-1]]:
            out["baseline"] = baseline
    return out, True


def _mapping_widgets(table, roles: dict) -> dict:
    """Select boxes for the column roles of a single table, starting from the guess."""
    guess = guess_mapping(table.frame)
    columns = [str(c) for c in table.frame.columns]
    systems = [s for s in guess.systems if s != guess.gold]
    a, b, _ = pick_pair(systems)
    start = {"gold": guess.gold, "a": roles.get("a") or a, "b": roles.get("b") or b, "id": guess.id,
             "group": guess.group}
    chosen = {}
    cols = st.columns(3) + st.columns(3)[:2]
    for col, (role, label) in zip(cols, [("gold", "Gold"), ("a", "Your system (A)"), ("b", "Baseline (B)"),
                                         ("id", "Id"), ("group", "Group")]):
        options = [NONE] + columns
        value = col.selectbox(label, options, index=options.index(start[role]) if start[role] in options else 0,
                              key=f"role_{role}_{table.name}_{start[role]}",  # two samples share one file
                              help=GROUP_HELP if role == "group" else None)
        chosen[role] = None if value == NONE else value
    return chosen


def pairing_widget(tables) -> str:
    """How several files are paired: by an id column they all have (their shared id first), or by row."""
    common = [str(c) for c in tables[0].frame.columns if all(c in t.frame.columns for t in tables[1:])]
    shared = shared_id(tables)
    options = ([shared] if shared else []) + [BY_ROW] + [c for c in common if c != shared]
    key = "pair_by_" + "_".join(t.name for t in tables)
    chosen = st.selectbox("Pair items by", options, key=key,
                          help="An id column every file has pairs the items whatever their order; by row, the "
                               "files must list the same items in the same order.")
    return ROW_ORDER if chosen == BY_ROW else chosen


def _from_roles(table, roles: dict) -> Aligned:
    """The table as the select boxes map it, where "(none)" means none: sigcore.io.load would take its guess instead."""
    guess = guess_mapping(table.frame)
    mapping = Mapping(gold=roles["gold"], systems=guess.systems, id=roles["id"], group=roles["group"])
    a, b, _ = pick_pair([s for s in guess.systems if s != guess.gold])
    start = {"gold": guess.gold, "A": a, "B": b, "id": guess.id, "group": guess.group}
    given = [r for r in start if roles[r.lower() if r in "AB" else r] != start[r]]  # the boxes moved from the guess
    return from_table(table, mapping, a=roles["a"], b=roles["b"], given=given)


def n_groups(data: Aligned) -> int | None:
    """How many distinct groups the items come in (None without a group column)."""
    return None if data.groups is None else int(pd.Series(data.groups, dtype=object).nunique())


def _preview(prepared: front.Prepared, tables) -> None:
    data = prepared.data
    groups = "" if data.groups is None else f" in {n_groups(data):,} groups ({md(data.columns.get('group', ''))})"
    formats = {t.format for t in tables}
    read = (f"{'one' if len(tables) == 1 else len(tables)} {formats.pop()} file{'s' * (len(tables) > 1)}"
            if len(formats) == 1 else ", ".join(f"{md(t.name)} ({t.format})" for t in tables))
    st.caption(f"{data.n:,} items{groups} from {read} · "  # what was taken for what, and why (as the command line)
               + " · ".join(md(str(role)) for role in prepared.roles))
    for note in data.notes:
        st.warning(md(note))
    a, b = data.display_names
    head = pd.DataFrame({"gold": first_rows(data.gold), f"A: {a}": first_rows(data.a), f"B: {b}": first_rows(data.b)}) \
        if data.gold is not None else pd.DataFrame({f"A: {a}": first_rows(data.a), f"B: {b}": first_rows(data.b)})
    st.dataframe(head, hide_index=True, height=143)  # cells are text, never HTML


def first_rows(values, rows: int = 3) -> list[str]:
    """The first values of a column as text, for a preview (a list of tokens joined by spaces)."""
    return [" ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v) for v in list(values)[:rows]]
