"""Regenerate the sample data in this folder, deterministically, from data that ships with installed packages.

    python sample_data/make_samples.py            # from the project root; needs numpy, scikit-learn, sacrebleu

Writes (every random choice comes from a fixed seed, so a rerun gives the same bytes):

- ``classification.csv``   real predictions of four scikit-learn classifiers on the digits data set
- ``ner.conll``            a synthetic NER set (template grammar + gazetteers) with two simulated taggers
- ``mt/``                  the first 500 segments of three WMT17 en-de files (reference + two submissions)
- ``lm_eval/``             two simulated lm-evaluation-harness 0.4.x ``--log_samples`` files (ARC-Easy layout)
- ``per_item_scores.csv``  sentence-level chrF of the two MT systems in ``mt/``, scaled to [0, 1]
- ``datasets/``            four scikit-learn classifiers on four bundled data sets (one folder each), and the
                           one-sided p-values of svm_rbf over tree on each (for the replicability analysis)
- ``seeds/``               three classifiers trained with five seeds each on the digits split: every run's
                           predictions, and each run's accuracy (for Almost Stochastic Order)

``slp3_fig4_11.csv`` is written by hand and is not touched here.
The WMT17 files are read from ``wmt17_en_de/`` beside this script (gzipped; override with ``--wmt DIR``).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WMT = HERE / "wmt17_en_de"
N_MT = 500


# --------------------------------------------------------------------------------------------------------------
# 1. classification.csv: real classifiers on sklearn's bundled digits data (no download)
# --------------------------------------------------------------------------------------------------------------

def make_classification(out: Path) -> None:
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    x, y = load_digits(return_X_y=True)
    ids = np.arange(len(y))
    x_tr, x_te, y_tr, y_te, _, id_te = train_test_split(x, y, ids, test_size=400, stratify=y, random_state=0)
    systems = {
        "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=0)),
        "svm_rbf": make_pipeline(StandardScaler(), SVC(kernel="rbf", random_state=0)),
        "naive_bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(random_state=0),
    }
    preds = {name: model.fit(x_tr, y_tr).predict(x_te) for name, model in systems.items()}
    order = np.argsort(id_te)  # rows in the data set's own order; id = index in load_digits()
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "gold", *systems])
        for k in order:
            w.writerow([f"digit-{id_te[k]:04d}", int(y_te[k]), *(int(preds[s][k]) for s in systems)])


# --------------------------------------------------------------------------------------------------------------
# 2. ner.conll: template grammar + gazetteers; gold from the generator; two taggers with different error habits
# --------------------------------------------------------------------------------------------------------------

PER = ["Angela Merkel", "Emmanuel Macron", "Maria Santos", "John Smith", "Li Wei", "Fatima Al-Sayed",
       "Jean-Claude Juncker", "Olaf Scholz", "Priya Raman", "Tom Becker", "Ana Lucia de la Cruz", "Kenji Watanabe",
       "Sarah O'Neill", "Ivan Petrov", "Grace Mensah", "Hans Peter Müller", "Elena Rossi", "David Cohen",
       "Amara Okafor", "Lucas Martin"]
LOC = ["Berlin", "Paris", "New York", "Rio de Janeiro", "Lagos", "Tokyo", "Hamburg", "São Paulo", "Nairobi",
       "Lyon", "Buenos Aires", "Munich", "Kuala Lumpur", "Oslo", "Cape Town", "Madrid", "Chicago", "Hanoi",
       "Germany", "France", "Brazil", "Kenya", "Japan", "the United States"]
ORG = ["Siemens", "Deutsche Bank", "the United Nations", "Bank of England", "Volkswagen",
       "the World Health Organization",
       "Toyota", "Amnesty International", "the European Central Bank", "Reuters", "Paris Saint-Germain",
       "Bayern Munich", "the University of Tokyo", "Nairobi Stock Exchange", "Airbus", "the Red Cross", "Petrobras",
       "Chicago Tribune", "Lufthansa", "Oxford University Press"]
MISC = ["the World Cup", "the Winter Olympics", "the Paris Agreement", "Brexit", "the Venice Biennale",
        "the Nobel Prize", "Ramadan", "the Tour de France", "the Champions League final", "the G20 summit"]
ENTITIES = {"PER": PER, "LOC": LOC, "ORG": ORG, "MISC": MISC}
# The article in "the United Nations" is not part of the entity (CoNLL-2003 convention).
TEMPLATES = [
    "{PER} visited {LOC} on Monday .",
    "{ORG} opened a new office in {LOC} .",
    "{PER} , chief executive of {ORG} , said the deal was done .",
    "{PER} joined {ORG} in 2015 after ten years in {LOC} .",
    "Shares of {ORG} fell 3 percent in {LOC} trading .",
    "{PER} and {PER} met in {LOC} to discuss {MISC} .",
    "{LOC} will host {MISC} next year , officials said .",
    "A spokesman for {ORG} declined to comment .",
    "Police in {LOC} arrested two men on Tuesday .",
    "{PER} won the race ahead of {PER} .",
    "{ORG} and {ORG} signed a supply agreement worth 2 billion euros .",
    "After {MISC} , {PER} returned to {LOC} .",
    "The report by {ORG} criticised the government of {LOC} .",
    "{PER} told {ORG} that prices in {LOC} were rising .",
    "Fans of {ORG} celebrated in {LOC} until midnight .",
    "Thousands protested in {LOC} against {MISC} .",
    "{PER} , who was born in {LOC} , now works for {ORG} .",
    "Officials from {LOC} and {LOC} will meet in {LOC} next week .",
]


def _fill(rng: np.random.Generator, template: str) -> tuple[list[str], list[str]]:
    tokens, tags = [], []
    for part in template.split():
        if part.startswith("{") and part.endswith("}"):
            typ = part[1:-1]
            name = ENTITIES[typ][rng.integers(len(ENTITIES[typ]))].split()
            if name[0] == "the":
                tokens.append("The" if not tokens else "the")
                tags.append("O")
                name = name[1:]
            tokens.extend(name)
            tags.extend(["B-" + typ] + ["I-" + typ] * (len(name) - 1))
        else:
            tokens.append(part)
            tags.append("O")
    return tokens, tags


def _spans(tags: list[str]) -> list[tuple[str, int, int]]:
    """Entities of a clean BIO sequence as (type, start, end exclusive)."""
    out, i = [], 0
    while i < len(tags):
        if tags[i].startswith("B-"):
            typ, j = tags[i][2:], i + 1
            while j < len(tags) and tags[j] == "I-" + typ:
                j += 1
            out.append((typ, i, j))
            i = j
        else:
            i += 1
    return out


def _paint(tags: list[str], start: int, end: int, typ: str | None) -> None:
    for k in range(start, end):
        tags[k] = "O" if typ is None else ("B-" if k == start else "I-") + typ


_LOCATION_WORDS = {w for name in LOC for w in name.split()} - {"the", "de"}


def _tagger_a(rng: np.random.Generator, tokens: list[str], gold: list[str]) -> list[str]:
    """A: a gazetteer-heavy tagger. Misses the rare MISC type, splits long entities, takes a leading "the" into
    the entity, sometimes drops a name."""
    tags = list(gold)
    for typ, s, e in _spans(gold):
        u = rng.random()
        if typ == "MISC" and u < 0.6:
            _paint(tags, s, e, None)                      # rare type: not in its lexicon
        elif e - s >= 3 and u < 0.5:
            cut = s + 1 + int(rng.integers(e - s - 1))    # "Ana Lucia | de la Cruz"
            _paint(tags, s, cut, typ)
            _paint(tags, cut, e, typ)
        elif s > 0 and tokens[s - 1].lower() == "the" and u < 0.35:
            _paint(tags, s - 1, e, typ)                   # takes the article in: "the United Nations"
        elif u < 0.06:
            _paint(tags, s, e, None)
    return tags


def _tagger_b(rng: np.random.Generator, tokens: list[str], gold: list[str]) -> list[str]:
    """B: a context-heavy tagger. Finds the spans but confuses ORG and LOC, most of all for ORG names
    that contain a place ("Bank of England", "Bayern Munich"); occasionally cuts a person's surname."""
    tags = list(gold)
    for typ, s, e in _spans(gold):
        u = rng.random()
        placey = any(t in _LOCATION_WORDS for t in tokens[s:e])
        if typ == "ORG" and u < (0.6 if placey else 0.12):
            _paint(tags, s, e, "LOC")
        elif typ == "LOC" and u < 0.07:
            _paint(tags, s, e, "ORG")
        elif typ == "PER" and e - s >= 2 and u < 0.05:
            _paint(tags, s, e - 1, "PER")
            tags[e - 1] = "O"
        elif typ == "MISC" and u < 0.15:
            _paint(tags, s, e, None)
    return tags


def make_ner(out: Path, n_sentences: int = 150, seed: int = 2017) -> None:
    rng = np.random.default_rng(seed)
    lines = ["# tokens gold A B"]
    for _ in range(n_sentences):
        tokens, gold = _fill(rng, TEMPLATES[rng.integers(len(TEMPLATES))])
        a = _tagger_a(rng, tokens, gold)
        b = _tagger_b(rng, tokens, gold)
        lines.extend(" ".join(row) for row in zip(tokens, gold, a, b))
        lines.append("")
    out.write_text("\n".join(lines), encoding="utf-8")


# --------------------------------------------------------------------------------------------------------------
# 3. mt/: the first 500 segments of WMT17 en-de newstest2017 (reference and two submissions)
# --------------------------------------------------------------------------------------------------------------

MT_FILES = {"newstest2017.ref.de": "newstest2017.ref.de", "uedin-nmt.4722.de": "uedin-nmt.de",
            "LIUM-NMT.4900.de": "LIUM-NMT.de"}


def make_mt(out_dir: Path, wmt: Path) -> None:
    out_dir.mkdir(exist_ok=True)
    for src, dst in MT_FILES.items():
        path = wmt / src if (wmt / src).exists() else wmt / f"{src}.gz"
        text = (gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()).decode(
            "utf-8-sig")  # drops a BOM if there is one
        segments = text.split("\n")[:N_MT]
        assert len(segments) == N_MT and all(s == s.rstrip("\r") for s in segments)
        (out_dir / dst).write_text("\n".join(segments) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------------------------------------------
# 4. lm_eval/: simulated lm-evaluation-harness 0.4.x --log_samples records (ARC-Easy layout, template questions)
# --------------------------------------------------------------------------------------------------------------

CAPITALS = {"France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Spain": "Madrid", "Portugal": "Lisbon",
            "Japan": "Tokyo", "Kenya": "Nairobi", "Nigeria": "Abuja", "Brazil": "Brasília", "Canada": "Ottawa",
            "Australia": "Canberra", "Egypt": "Cairo", "India": "New Delhi", "China": "Beijing",
            "Mexico": "Mexico City", "Argentina": "Buenos Aires", "Peru": "Lima", "Chile": "Santiago",
            "Norway": "Oslo", "Sweden": "Stockholm", "Finland": "Helsinki", "Poland": "Warsaw", "Greece": "Athens",
            "Turkey": "Ankara", "Russia": "Moscow", "South Korea": "Seoul", "Thailand": "Bangkok",
            "Vietnam": "Hanoi", "Indonesia": "Jakarta", "Morocco": "Rabat", "Ghana": "Accra", "Ethiopia": "Addis Ababa",
            "Switzerland": "Bern", "Austria": "Vienna", "Hungary": "Budapest", "Ireland": "Dublin",
            "New Zealand": "Wellington", "Colombia": "Bogotá", "Pakistan": "Islamabad", "Iran": "Tehran",
            "Netherlands": "Amsterdam", "Belgium": "Brussels", "Denmark": "Copenhagen", "Czechia": "Prague",
            "Cuba": "Havana", "Senegal": "Dakar", "Malaysia": "Kuala Lumpur", "Philippines": "Manila",
            "Sri Lanka": "Sri Jayawardenepura Kotte", "South Africa": "Pretoria", "Tanzania": "Dodoma",
            "Myanmar": "Naypyidaw", "Kazakhstan": "Astana", "Bolivia": "Sucre", "Ivory Coast": "Yamoussoukro"}
# Capitals a weak model tends to confuse with the biggest city (distractor first).
BIG_CITY = {"Nigeria": "Lagos", "Brazil": "Rio de Janeiro", "Canada": "Toronto", "Australia": "Sydney",
            "Turkey": "Istanbul", "Switzerland": "Zurich", "New Zealand": "Auckland", "Pakistan": "Karachi",
            "Morocco": "Casablanca", "Sri Lanka": "Colombo", "South Africa": "Cape Town", "Tanzania": "Dar es Salaam",
            "Myanmar": "Yangon", "Kazakhstan": "Almaty", "Bolivia": "La Paz", "Ivory Coast": "Abidjan",
            "India": "Mumbai", "Vietnam": "Ho Chi Minh City", "China": "Shanghai", "Netherlands": "Rotterdam"}
LABELS = ["A", "B", "C", "D"]


def _hash(s: str) -> str:  # lm_eval.utils.hash_string
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def _questions(rng: np.random.Generator, n: int) -> list[dict]:
    docs, countries, cities = [], list(CAPITALS), sorted(set(CAPITALS.values()) | set(BIG_CITY.values()))
    for i in range(n):
        if i % 2 == 0:  # capital cities
            country = countries[rng.integers(len(countries))]
            answer = CAPITALS[country]
            wrong = [BIG_CITY[country]] if country in BIG_CITY else []
            pool = [c for c in cities if c != answer and c not in wrong]
            wrong += [pool[k] for k in rng.choice(len(pool), 3 - len(wrong), replace=False)]
            question, kind, hard = f"What is the capital city of {country}?", "capital", country in BIG_CITY
        else:  # two-step arithmetic with words
            a, b, c = (int(v) for v in rng.integers(2, 30, size=3))
            answer_n = a * b - c
            question = f"A box holds {a} rows of {b} apples. {c} apples are eaten. How many apples are left?"
            offsets = rng.choice([-10, -2, -1, 1, 2, 10, c, -c, b, -b], size=3, replace=False)
            wrong_n = []
            for off in offsets:
                v = answer_n + int(off)
                while v == answer_n or v in wrong_n or v < 0:
                    v += 3
                wrong_n.append(v)
            answer, wrong, kind, hard = str(answer_n), [str(v) for v in wrong_n], "arithmetic", a * b > 200
        choices = [answer, *wrong]
        perm = rng.permutation(4)
        texts = [choices[k] for k in perm]
        gold = int(np.flatnonzero(perm == 0)[0])
        doc = {"id": f"Synth-{kind}-{i:04d}", "question": question,
               "choices": {"text": texts, "label": LABELS}, "answerKey": LABELS[gold]}
        docs.append({"doc": doc, "gold": gold, "hard": hard, "kind": kind})
    return docs


def _loglikelihoods(rng: np.random.Generator, item: dict, skill: float, hard_penalty: float) -> np.ndarray:
    """Per-choice log-likelihoods of a simulated model: longer continuations are less likely (about -0.9 nats
    per character plus a per-choice offset), the right answer gets a bonus that grows with skill, and the
    noise decides the rest."""
    texts = item["doc"]["choices"]["text"]
    n_chars = np.array([len(t) for t in texts], float)
    ll = -(0.9 * n_chars + 1.5) + rng.normal(0.0, 1.8, size=4)
    bonus = skill - (hard_penalty if item["hard"] else 0.0)
    ll[item["gold"]] += bonus
    return np.round(ll, 4)


def _record(doc_id: int, item: dict, ll: np.ndarray) -> dict:
    doc = item["doc"]
    texts = doc["choices"]["text"]
    context = f"Question: {doc['question']}\nAnswer:"
    target = item["gold"]  # arc_easy: doc_to_target = "{{choices.label.index(answerKey)}}"
    lls = [float(v) for v in ll]
    best = max(lls)
    greedy = [v == best and v / max(len(t), 1) > -1.2 for v, t in zip(lls, texts)]
    resps = [[(v, g)] for v, g in zip(lls, greedy)]           # one (loglikelihood, is_greedy) per request
    filtered = [r[0] for r in resps]                           # filter "none" = take_first
    completion_len = np.array([float(len(t)) for t in texts])  # ConfigurableTask.process_results
    acc = 1.0 if int(np.argmax(lls)) == target else 0.0
    acc_norm = 1.0 if int(np.argmax(np.array(lls) / completion_len)) == target else 0.0

    def sanitize(x):  # lm_eval.loggers.utils.sanitize_list
        if isinstance(x, list):
            return [sanitize(v) for v in x]
        if isinstance(x, tuple):
            return tuple(sanitize(v) for v in x)
        return str(x)

    return {
        "doc_id": doc_id,
        "doc": doc,
        "target": str(target),
        "arguments": {f"gen_args_{i}": {"arg_0": context, "arg_1": " " + t} for i, t in enumerate(texts)},
        "resps": sanitize(resps),
        "filtered_resps": sanitize(filtered),
        "filter": "none",
        "metrics": ["acc", "acc_norm"],
        "doc_hash": _hash(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": _hash(context),
        "target_hash": _hash(str(target)),
        "acc": acc,
        "acc_norm": acc_norm,
    }


def make_lm_eval(out_dir: Path, n_docs: int = 300) -> None:
    out_dir.mkdir(exist_ok=True)
    items = _questions(np.random.default_rng(11), n_docs)
    models = {"model-a": (4.2, 2.5, 101), "model-b": (3.4, 3.5, 202)}  # skill, penalty on hard items, seed
    for name, (skill, penalty, seed) in models.items():
        rng = np.random.default_rng(seed)
        with open(out_dir / f"samples_arc_easy_{name}.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for doc_id, item in enumerate(items):
                rec = _record(doc_id, item, _loglikelihoods(rng, item, skill, penalty))
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------------------------------------------
# 5. per_item_scores.csv: sentence-level chrF of the two MT systems, in [0, 1]
# --------------------------------------------------------------------------------------------------------------

def make_per_item(out: Path, mt_dir: Path) -> None:
    import sacrebleu

    def lines(name: str) -> list[str]:
        return (mt_dir / name).read_text(encoding="utf-8").split("\n")[:N_MT]

    ref, a, b = lines("newstest2017.ref.de"), lines("uedin-nmt.de"), lines("LIUM-NMT.de")
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "system_a", "system_b"])
        for i, (r, ha, hb) in enumerate(zip(ref, a, b), start=1):
            sa = sacrebleu.sentence_chrf(ha, [r]).score / 100
            sb = sacrebleu.sentence_chrf(hb, [r]).score / 100
            w.writerow([f"seg-{i:03d}", f"{sa:.6f}", f"{sb:.6f}"])


# --------------------------------------------------------------------------------------------------------------
# 6. datasets/: the same four classifiers on scikit-learn's four bundled classification data sets
# --------------------------------------------------------------------------------------------------------------

DATASETS = {"iris": 1 / 3, "wine": 1 / 3, "breast_cancer": 1 / 3, "digits": 400}  # name -> test size
DATASETS_A, DATASETS_B = "svm_rbf", "tree"  # the pair of datasets/p_values.csv


def _classifiers() -> dict:
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    return {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=0)),
            "svm_rbf": make_pipeline(StandardScaler(), SVC(kernel="rbf", random_state=0)),
            "naive_bayes": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}


def _split(name: str, test_size):
    """The data set's stratified held-out split (random_state 0), test items in the data set's own order."""
    from sklearn import datasets
    from sklearn.model_selection import train_test_split

    x, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    x_tr, x_te, y_tr, y_te, _, id_te = train_test_split(x, y, np.arange(len(y)), test_size=test_size, stratify=y,
                                                        random_state=0)
    order = np.argsort(id_te)
    return x_tr, y_tr, x_te[order], y_te[order], id_te[order]


def make_datasets(out_dir: Path) -> None:
    """One folder per data set: gold.txt and one file per classifier, a label per line (what `sigcore datasets
    FOLDER ...` and the Many systems page read); p_values.csv: svm_rbf over tree on each, one-sided, with the test
    recommended for the data (McNemar's exact test), as the page and `sigcore datasets` run by default."""
    sys.path.insert(0, str(HERE.parent))  # the p-values are the engine's, as the README's are
    import sigcore

    out_dir.mkdir(exist_ok=True)
    rows = []
    for name, test_size in DATASETS.items():
        x_tr, y_tr, x_te, y_te, _ = _split(name, test_size)
        folder = out_dir / name
        folder.mkdir(exist_ok=True)
        preds = {system: model.fit(x_tr, y_tr).predict(x_te) for system, model in _classifiers().items()}
        for file, labels in [("gold", y_te), *preds.items()]:
            (folder / f"{file}.txt").write_text("".join(f"{int(v)}\n" for v in labels), encoding="utf-8")
        res = sigcore.compare([int(v) for v in y_te], [int(v) for v in preds[DATASETS_A]],  # the recommended test
                              [int(v) for v in preds[DATASETS_B]], metric="accuracy", n_resamples=10_000,
                              alternative="greater", seed=0)
        rows.append((name, f"{res.p_value:.4g}"))
    with open(out_dir / "p_values.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["dataset", "p"])
        w.writerows(rows)


# --------------------------------------------------------------------------------------------------------------
# 7. seeds/: three classifiers, each trained with five seeds, on the digits split of classification.csv
# --------------------------------------------------------------------------------------------------------------

SEEDS = range(5)


def _seeded(name: str, seed: int):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import SGDClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {"mlp": lambda: make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(32,), max_iter=1000,
                                                                         random_state=seed)),
            "forest": lambda: RandomForestClassifier(n_estimators=30, random_state=seed),
            "sgd": lambda: make_pipeline(StandardScaler(), SGDClassifier(random_state=seed))}[name]()


def make_seeds(out_dir: Path) -> None:
    """digits_runs.csv: id, gold and one column per run (<system>_seed<k>); digits_seed_scores.csv: seed and
    one column per system, each run's accuracy on the 400 test images."""
    out_dir.mkdir(exist_ok=True)
    x_tr, y_tr, x_te, y_te, ids = _split("digits", 400)  # classification.csv's split and ids
    systems = ["mlp", "forest", "sgd"]
    runs = {(s, k): _seeded(s, k).fit(x_tr, y_tr).predict(x_te) for s in systems for k in SEEDS}
    with open(out_dir / "digits_runs.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "gold", *(f"{s}_seed{k}" for s, k in runs)])
        for i in range(len(y_te)):
            w.writerow([f"digit-{ids[i]:04d}", int(y_te[i]), *(int(p[i]) for p in runs.values())])
    with open(out_dir / "digits_seed_scores.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["seed", *systems])
        for k in SEEDS:
            w.writerow([k, *(f"{np.mean(runs[s, k] == y_te):.4f}" for s in systems)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wmt", type=Path, default=WMT, help="folder with the WMT17 en-de files")
    args = parser.parse_args()
    make_classification(HERE / "classification.csv")
    make_ner(HERE / "ner.conll")
    make_mt(HERE / "mt", args.wmt)
    make_lm_eval(HERE / "lm_eval")
    make_per_item(HERE / "per_item_scores.csv", HERE / "mt")
    make_datasets(HERE / "datasets")
    make_seeds(HERE / "seeds")


if __name__ == "__main__":
    main()
