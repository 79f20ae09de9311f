"""BLEU and chrF as per-segment sufficient statistics with a vectorised corpus score.

BLEU (Papineni, Roukos, Ward & Zhu 2002) and chrF (Popović 2015; chrF++, Popović 2017) are corpus-level
metrics: they are not means of segment scores, but both are functions of *summed* per-segment counts.
The counts are sacreBLEU's (Post 2018, "A Call for Clarity in Reporting BLEU Scores"): with one reference
per segment they are counted with numpy (:mod:`.tokens`, :mod:`.ngrams`; tested equal to sacreBLEU's own on
every WMT17 system and on random text), with several by sacreBLEU's own loops; :func:`bleu_score` / :func:`chrf_score`
re-implement sacreBLEU 2.x's ``BLEU.compute_bleu`` and ``CHRF._compute_f_score`` on arrays of shape
``(..., s)``, so thousands of resamples are scored in one numpy call. Smoothing follows Chen & Cherry
(2014), as in sacreBLEU.

Statistic rows, as sacreBLEU lays them out:

* BLEU, ``s = 2 + 2N`` (N = ``max_ngram_order``): ``[hyp_len, ref_len, correct_1..N, total_1..N]``.
* chrF, ``s = 3 (char_order + word_order)``: ``[n_hyp, n_ref, n_match]`` per order, characters first.

References (``gold``) are either one reference per segment (a sequence of n strings; told apart by
``gold[0]`` being a string) or several reference streams as sacreBLEU's ``refs`` argument (a sequence of
sequences, each of n strings; in streams after the first a segment may be ``None`` for "no reference
here", sacreBLEU's variable-reference convention). Segments are used exactly as given: reading files,
BOMs and line endings are the caller's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from numbers import Real
from typing import Any

import numpy as np

from ..contract import unknown_option
from ..errors import GOLD, SYSTEM, InputError, SettingsError
from . import ngrams, tokens

__all__ = ["prepare_bleu", "prepare_chrf", "bleu_score", "chrf_score"]

# sacrebleu.utils.my_log(0): a floor, not -inf, so exp() of the mean log precision is exactly 0.
_LOG_ZERO = -9999999999.0
_SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

# name -> (default, kind); the kinds are checked by _check_option.
_BLEU_OPTIONS = {"tokenize": ("13a", "tokenizer"), "lowercase": (False, "bool"),
                 "smooth_method": ("exp", "smooth"), "smooth_value": (None, "value"),
                 "max_ngram_order": (4, "order"), "effective_order": (False, "bool")}
_CHRF_OPTIONS = {"char_order": (6, "order"), "word_order": (0, "order0"), "beta": (2, "positive"),
                 "lowercase": (False, "bool"), "whitespace": (False, "bool"),
                 "eps_smoothing": (False, "bool")}


def bleu_score(totals: np.ndarray, *, max_ngram_order: int = 4, smooth_method: str = "exp",
               smooth_value: float | None = None, effective_order: bool = False) -> np.ndarray:
    """sacreBLEU's corpus BLEU (``BLEU.compute_bleu``, 0-100) from summed statistics of shape ``(..., s)``.

    Reproduces the brevity penalty, the early 0 when no n-gram of any order matches, the stop at the first
    order with no hypothesis n-grams, the smoothing methods and ``effective_order``. Lengths are used as
    given (sacreBLEU truncates them with ``int()``, which changes nothing for count-weighted sums).
    """
    t = _as_totals(totals, 2 + 2 * max_ngram_order, "BLEU")
    k = _SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
    sys_len, ref_len = t[..., 0], t[..., 1]
    correct, total = t[..., 2:2 + max_ngram_order], t[..., 2 + max_ngram_order:]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)
        alive = np.ones(sys_len.shape, dtype=bool)  # sacreBLEU breaks at the first order with total 0
        n_alive = np.zeros(sys_len.shape, dtype=np.int64)
        halvings = np.ones(sys_len.shape)  # 'exp' halves the pseudo-count at each order with no match
        logs = []
        for n in range(max_ngram_order):
            c, tot = correct[..., n], total[..., n]
            if smooth_method == "add-k" and n > 0:
                c, tot = c + k, tot + k
            alive &= tot != 0
            n_alive += alive
            zero = c == 0
            if smooth_method == "exp":
                halvings = np.where(alive & zero, halvings * 2, halvings)
                p_zero = 100. / (halvings * tot)
            elif smooth_method == "floor":
                p_zero = 100. * k / tot
            else:
                p_zero = 0.0
            p = np.where(alive, np.where(zero, p_zero, 100. * c / tot), 0.0)
            logs.append(np.where(p == 0, _LOG_ZERO, np.log(p)))
        # effective_order keeps the orders up to the break; sacreBLEU's loop leaves N if order 1 is empty.
        eff = np.where(n_alive > 0, n_alive, max_ngram_order) if effective_order else max_ngram_order
        log_sum = 0.0
        for n, log_p in enumerate(logs):  # summed in sacreBLEU's order, so floats agree to the last bit
            log_sum = log_sum + np.where(n < eff, log_p, 0.0)
        score = bp * np.exp(log_sum / eff)
    return np.where((correct != 0).any(axis=-1), score, 0.0)


def chrf_score(totals: np.ndarray, *, char_order: int = 6, word_order: int = 0, beta: float = 2,
               eps_smoothing: bool = False) -> np.ndarray:
    """sacreBLEU's corpus chrF / chrF++ (``CHRF._compute_f_score``, 0-100) from summed statistics.

    Default: F-beta of the precision and recall averaged over the orders that have both hypothesis and
    reference n-grams (sacreBLEU's effective order). ``eps_smoothing``: mean of per-order F-beta with
    1e-16 for undefined terms, as chrF++.py, Moses and NLTK do.
    """
    order = char_order + word_order
    t = _as_totals(totals, 3 * order, "chrF")
    eps, factor = 1e-16, beta ** 2
    f_sum, avg_prec, avg_rec = 0.0, 0.0, 0.0
    effective = np.zeros(t.shape[:-1], dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = t[..., 3 * i], t[..., 3 * i + 1], t[..., 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, eps)
            rec = np.where(n_ref > 0, n_match / n_ref, eps)
            denom = factor * prec + rec
            f_sum = f_sum + np.where(denom > 0, (1 + factor) * prec * rec / denom, eps)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = avg_prec + np.where(both, prec, 0.0)
            avg_rec = avg_rec + np.where(both, rec, 0.0)
            effective += both
        if eps_smoothing:
            return np.asarray(100 * f_sum / order, dtype=np.float64)
        avg_prec = np.where(effective == 0, 0.0, avg_prec / effective)
        avg_rec = np.where(effective == 0, 0.0, avg_rec / effective)
        f = (1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec)
    return np.where(avg_prec + avg_rec != 0, 100 * f, 0.0)


def prepare_bleu(gold: Sequence, systems: Sequence[Sequence[str]], **options: Any):
    """Per-segment BLEU statistics of each system, the vectorised score and the resolved options.

    ``options`` are sacreBLEU's ``BLEU`` arguments: ``tokenize`` ('13a'), ``lowercase`` (False),
    ``smooth_method`` ('exp'), ``smooth_value`` (None = the method's default), ``max_ngram_order`` (4),
    ``effective_order`` (False). Returns ``(stats, score, resolved_options)`` as ``Metric.prepare``.
    """
    from sacrebleu.metrics.bleu import BLEU  # imported late: `import sigcore` stays fast

    opts = _resolve("BLEU", options, _BLEU_OPTIONS)
    if opts["smooth_method"] in ("exp", "none"):
        opts["smooth_value"] = None  # unused by these methods, so kept out of the signature
    elif opts["smooth_value"] is None:
        opts["smooth_value"] = _SMOOTH_DEFAULTS[opts["smooth_method"]]
    refs, hyps = _check_segments(gold, systems)
    try:
        metric = BLEU(**opts, references=refs if len(refs) > 1 else None)
    except (ImportError, OSError, RuntimeError) as exc:  # mecab / sentencepiece tokenizers need extras
        raise SettingsError(f"the {opts['tokenize']!r} tokenizer cannot be loaded ({exc})",
                            hint="Install its extra (pip install 'sacrebleu[ja]' or 'sacrebleu[ko]') "
                                 "or choose tokenize='13a'.") from None
    score = partial(bleu_score, max_ngram_order=opts["max_ngram_order"],
                    smooth_method=opts["smooth_method"], smooth_value=opts["smooth_value"],
                    effective_order=opts["effective_order"])
    if len(refs) > 1:  # several references (the longest match, the closest length): sacreBLEU's own loops
        return _extract(metric, hyps), score, opts
    split = partial(tokens.words, preprocess=metric._preprocess_segment, tokenize=opts["tokenize"],
                    lowercase=opts["lowercase"])
    order = opts["max_ngram_order"]
    ref, hypotheses, size = tokens.encode(split(refs[0]), [split(h) for h in hyps])
    stats = []
    for system, matches in zip(hypotheses, ngrams.clipped_matches(ref, hypotheses, order, size)):
        stats.append(np.column_stack([system.lengths, ref.lengths, matches,
                                      ngrams.ngram_totals(system.lengths, order)]).astype(np.float64))
    return stats, score, opts


def prepare_chrf(gold: Sequence, systems: Sequence[Sequence[str]], **options: Any):
    """Per-segment chrF statistics of each system, the vectorised score and the resolved options.

    ``options`` are sacreBLEU's ``CHRF`` arguments: ``char_order`` (6), ``word_order`` (0; 2 = chrF++),
    ``beta`` (2), ``lowercase``, ``whitespace``, ``eps_smoothing`` (all False).
    """
    from sacrebleu.metrics.chrf import CHRF

    opts = _resolve("chrF", options, _CHRF_OPTIONS)
    refs, hyps = _check_segments(gold, systems)
    score = partial(chrf_score, char_order=opts["char_order"], word_order=opts["word_order"],
                    beta=opts["beta"], eps_smoothing=opts["eps_smoothing"])
    if len(refs) > 1 or opts["word_order"] > 0:  # several references, or chrF++'s words: sacreBLEU's loops
        return _extract(CHRF(**opts, references=refs), hyps), score, opts
    split = partial(tokens.characters, lowercase=opts["lowercase"], whitespace=opts["whitespace"])
    order = opts["char_order"]
    ref, hypotheses, size = tokens.encode(split(refs[0]), [split(h) for h in hyps])
    ref_total = ngrams.ngram_totals(ref.lengths, order)
    stats = []
    for system, matches in zip(hypotheses, ngrams.clipped_matches(ref, hypotheses, order, size)):
        out = np.empty((len(ref.lengths), 3 * order))
        # as sacreBLEU: no hypothesis n-grams are counted where the reference has none of that order
        out[:, 0::3] = np.where(ref_total > 0, ngrams.ngram_totals(system.lengths, order), 0)
        out[:, 1::3], out[:, 2::3] = ref_total, matches
        stats.append(out)
    return stats, score, opts


def _extract(metric, hyps: list[list[str]]) -> list[np.ndarray]:
    """sacreBLEU's own segment statistics; references were cached once by the constructor."""
    # A private sacreBLEU method, but the one its own significance tests use; pinned by the tests.
    return [np.asarray(metric._extract_corpus_statistics(h, None), dtype=np.float64) for h in hyps]


def _as_totals(totals: np.ndarray, s: int, name: str) -> np.ndarray:
    t = np.asarray(totals, dtype=np.float64)
    if t.ndim == 0 or t.shape[-1] != s:
        raise ValueError(f"{name} totals must have shape (..., {s}) for these options, got {t.shape}")
    return t


def _resolve(metric: str, options: dict[str, Any], spec: dict[str, tuple[Any, str]]) -> dict[str, Any]:
    """Defaults filled in, unknown names and bad values refused, values made plain (JSON-safe) Python."""
    for name in options:
        if name not in spec:
            raise unknown_option(metric, name, spec)
    resolved = {name: options.get(name, default) for name, (default, _) in spec.items()}
    if metric == "BLEU" and resolved["tokenize"] is None:
        resolved["tokenize"] = "13a"  # sacreBLEU's own default when no target language is known
    return {name: _check_option(metric, name, value, spec[name][1]) for name, value in resolved.items()}


def _check_option(metric: str, name: str, value: Any, kind: str) -> Any:
    is_int = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    is_num = isinstance(value, Real) and not isinstance(value, (bool, np.bool_)) and np.isfinite(value)
    if kind == "bool" and isinstance(value, (bool, np.bool_)):
        return bool(value)
    if (kind == "order" and is_int and value >= 1) or (kind == "order0" and is_int and value >= 0):
        return int(value)
    if kind in ("positive", "value") and is_num and value > 0 or kind == "value" and value is None:
        return None if value is None else int(value) if is_int else float(value)
    if kind == "tokenizer" or kind == "smooth":
        from sacrebleu.metrics.bleu import BLEU
        choices = list(BLEU.TOKENIZERS) if kind == "tokenizer" else list(_SMOOTH_DEFAULTS)
        if value in choices:
            return value
        raise SettingsError(f"{metric} {name}={value!r} is not known",
                            hint=f"Valid values: {', '.join(choices)}.")
    wanted = {"bool": "True or False", "order": "an integer >= 1", "order0": "an integer >= 0",
              "positive": "a number > 0", "value": "a number > 0 or None"}[kind]
    raise SettingsError(f"{metric} option {name} must be {wanted}, not {value!r}")


def _check_segments(gold: Sequence, systems: Sequence) -> tuple[list[list], list[list[str]]]:
    """Reference streams and hypothesis lists, all strings and all as long as the references."""
    if isinstance(gold, str) or not hasattr(gold, "__len__") or len(gold) == 0:
        raise InputError("the references must be a non-empty list of segments",
                         hint="Pass one string per segment, or a list of reference streams.")
    first = gold[0]
    multi = hasattr(first, "__len__") and not isinstance(first, (str, bytes))
    streams = [list(stream) for stream in gold] if multi else [list(gold)]
    n = len(streams[0])
    for r, stream in enumerate(streams):
        where = f"reference stream {r + 1}" if multi else "the references"
        if len(stream) != n:
            raise InputError(f"{where} has {len(stream)} segments but reference stream 1 has {n}",
                             hint="Every reference stream needs one line per segment.")
        _check_strings(stream, where, GOLD, allow_none=r > 0)
    if isinstance(systems, str) or not hasattr(systems, "__len__") or len(systems) == 0 \
            or isinstance(systems[0], str):
        raise InputError("`systems` must be a list of systems, each a list of hypothesis strings",
                         hint="For one system pass [hypotheses], for two [hypotheses_a, hypotheses_b].")
    # a missing hypothesis (None, NaN: an empty table cell) is an empty output, as a blank line is
    hyps = [["" if _missing(h) else h for h in system] for system in systems]
    for i, hyp in enumerate(hyps):
        if len(hyp) != n:
            raise InputError(f"{SYSTEM} has {len(hyp)} segments but the references have {n}", system=i + 1,
                             hint="Each system needs exactly one line per reference segment; "
                                  "look for a missing, extra or blank trailing line.")
        _check_strings(hyp, SYSTEM, i + 1, allow_none=False)
    return streams, hyps


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _check_strings(segments: list, where: str, system: int, *, allow_none: bool) -> None:
    """Every segment is text; ``where`` names them in the message (:data:`~sigcore.errors.SYSTEM` for ``system``)."""
    for line, segment in enumerate(segments, start=1):
        if not isinstance(segment, str) and not (allow_none and segment is None):
            raise InputError(f"a segment of {where} is {segment!r} ({type(segment).__name__}), not a string",
                             line=line, system=system, hint="Every segment must be text; an empty output is ''. "
                                             "Empty table cells often arrive as NaN: use .fillna('').")
