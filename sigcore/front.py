"""The front door: from files read to what the engine is asked, one sequence for the command line and the app.

:func:`prepare` loads and pairs the files (:func:`sigcore.io.load`), says what was taken for what (the roles), picks
the metric that fits the data and says why, turns the data into the engine's inputs, and leaves open, as questions,
what the data cannot settle (are numbers without gold scores or labels? which of a log's scorers?). The test comes
from the advisor on those inputs (:meth:`Prepared.advice`), the one ``test="auto"`` runs. ``sigcore compare`` and
``sigcore advise`` print what it returns and refuse with its first question; the app's Compare page shows the same
roles and starts its boxes from the same metric and test, and asks the questions in them. :func:`prepare_many` does
the same for several systems (``sigcore many``, the Many systems page).

So the same data get the same metric, roles and defaults whatever the entry point: a log's own scorer first (what
the log reports), span F1 for tags, BLEU for translations, MAE for regression outputs, accuracy for labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .advisor import Advice, advise_outputs
from .contract import DEFAULT_ALPHA
from .errors import InputError, SettingsError
from .io.aligned import Aligned, AlignedMany
from .io.loading import load, load_many
from .io.metric_fit import (
    REGRESSION_METRICS,
    engine_inputs,
    many_inputs,
    metric_question,
    reading,
    right_wrong,
    suggest_many_metrics,
    suggest_metrics,
)
from .io.roles import Ambiguous, Role
from .metrics import METRICS

__all__ = ["THESE_DATA", "Inputs", "MetricChoice", "choose_metric", "Prepared", "roles_of", "prepare", "PreparedMany",
           "prepare_many"]

THESE_DATA = "these data"  # what a metric's reason says it fits, unless the caller names the data otherwise


class Inputs(NamedTuple):
    """Gold, A and B as ``sigcore.compare`` takes them, under the engine's metric (a log's 0/1 scorer is accuracy, a
    real-valued one the mean), with the metric's options and the items' groups."""

    gold: list | None
    a: list
    b: list
    metric: str
    options: dict[str, Any]
    groups: list | None


@dataclass(frozen=True)
class MetricChoice:
    """The metric for some data, and why: ``metric`` (None while a question is open), ``metrics`` the ones that fit,
    the most natural first, ``reason`` why this one (None when it was given, and for accuracy without gold, whose
    refusal says that gold is missing), ``questions`` what the data leave open."""

    metric: str | None
    metrics: tuple[str, ...]
    reason: str | None = None
    questions: tuple[Ambiguous, ...] = ()
    regression: bool = False  # the numbers read as regression outputs (the reason offers the other errors)

    def note(self, others: str) -> str | None:
        """The reason as one sentence, with ``others`` saying how to choose another (``choose another with --metric``
        on the command line); None where there is nothing to say."""
        if self.reason is None:
            return None
        sep = ": " if self.reason.startswith("the outputs are") else ", "
        rest = f" ({', '.join(m for m in REGRESSION_METRICS if m != self.metric)})" if self.regression else ""
        name = f"{self.metric} ({self.metric.upper()}, lower is better)" if self.regression else self.metric
        return f"the metric is {name}{sep}{self.reason}; {others}{rest}"


def choose_metric(data: Aligned | AlignedMany, metric: str | None = None, *, about: str = THESE_DATA) -> MetricChoice:
    """The metric for ``data``: ``metric`` where given (refused where unknown), else the first that fits
    (:func:`sigcore.io.metric_fit.suggest_metrics`), or a question where the data leave it open: several per-sample
    scores in the logs (which one?), or numbers without gold that look like class labels (scores or labels?).
    ``about`` names the data in the reason (the pilot, the first folder's data)."""
    many = isinstance(data, AlignedMany)
    metrics = tuple(suggest_many_metrics(data) if many else suggest_metrics(data))
    scores = {} if many else data.scores
    if metric is not None:
        if metric not in METRICS and metric not in scores:
            fields = f" or the per-item scores in these files: {', '.join(scores)}" if scores else ""
            raise SettingsError(f"unknown metric {metric!r}", hint=f"Choose one of: {', '.join(METRICS)}{fields}.")
        return MetricChoice(metric, metrics)
    questions = []
    if len(scores) > 1:  # a log's scorers: which one is the user's to say
        questions.append(Ambiguous(f"the logs hold {len(scores)} per-sample scores ({', '.join(scores)})",
                                   question="Which one?", choices=list(scores), flag="--metric"))
    question = metric_question(data)
    if question:
        questions.append(Ambiguous(question, question="Are they per-item scores to average, or labels that need "
                                   "their gold?", choices=["mean"], flag="--metric",
                                   hint="Give the gold (a gold file, or the gold column with --gold), or --metric mean "
                                        "if the numbers are per-item scores."))
    if questions:
        return MetricChoice(None, metrics, questions=tuple(questions))
    chosen, numbers = metrics[0], reading(data)  # numbers: regression outputs or answers (the roles' line)
    if right_wrong(data):
        return MetricChoice(chosen, metrics, "the outputs are right (1) or wrong (0) per item, as their names say "
                                             f"({', '.join(data.outputs[:2])}), compared against a gold of 1s")
    if chosen in REGRESSION_METRICS and numbers is not None:
        return MetricChoice(chosen, metrics, f"the first that fits {about}, whose numbers read as regression outputs",
                            regression=True)
    if numbers is not None:
        return MetricChoice(chosen, metrics, f"the first that fits {about}, whose numbers read as answers")
    if chosen == "accuracy" and data.gold is None:
        return MetricChoice(chosen, metrics)
    return MetricChoice(chosen, metrics, f"the first that fits {about} (as the app suggests)")


class _Answer:
    """What the front door's answers share: the questions the data leave open, the roles, and settling them."""

    @property
    def questions(self) -> tuple[Ambiguous, ...]:
        return self.choice.questions

    @property
    def roles(self) -> tuple[Role, ...]:
        """What was taken for what, and why: the files' and columns' roles, and how numbers read."""
        return roles_of(self.data)

    def settled(self):
        """This, once no question is open; else the first question, raised (what the command line does)."""
        if self.questions:
            raise self.questions[0]
        return self


@dataclass(frozen=True)
class Prepared(_Answer):
    """What the front door made of two systems' data: the paired ``data``, the metric and why (``choice``), and the
    engine's ``inputs`` (None while a question is open)."""

    data: Aligned
    choice: MetricChoice
    inputs: Inputs | None
    about: str = THESE_DATA

    @property
    def metric(self) -> str | None:
        """The metric as the user names it: a registry metric, or a per-sample score field of the logs."""
        return self.choice.metric

    def choose(self, metric: str, **options: Any) -> Prepared:
        """The same data under another metric (the app's Metric box), with the metric's ``options``."""
        return prepare(self.data, metric=metric, options=options, about=self.about)

    def advice(self, alpha: float = DEFAULT_ALPHA) -> Advice:
        """The advisor on these inputs: its recommended test is the one ``sigcore.compare(..., test="auto")`` runs."""
        i = self.settled().inputs
        return advise_outputs(i.gold, i.a, i.b, metric=i.metric, groups=i.groups, alpha=alpha, **i.options)

    def locate(self, error: InputError) -> InputError:
        """An engine error at the file, line and system it concerns (:meth:`sigcore.io.aligned.Aligned.locate`)."""
        return self.data.locate(error)


def roles_of(data: Aligned | AlignedMany) -> tuple[Role, ...]:
    """The roles every entry point shows: the files' and columns', and how numeric data read (regression outputs or
    answers, and why)."""
    numbers = reading(data)
    return (*data.roles, *([numbers] if numbers else []))


def prepare(source: Sequence | Aligned, *, metric: str | None = None, options: dict[str, Any] | None = None,
            about: str = THESE_DATA, **load_options: Any) -> Prepared:
    """Read files to what the engine is asked. ``source``: the tables :func:`sigcore.io.read` returns, paired by
    :func:`sigcore.io.load` with ``load_options`` (``gold``, ``a``, ``b``, ``id``, ``group``, ``on_unmatched``,
    ``gold_file``, ``baseline``, ``filter``), or data already paired (a HELM run, the app's boxes for one table).
    ``metric`` as given, else :func:`choose_metric`'s; ``options`` the metric's (``tokenize``, ``positive_label``).
    A metric that does not fit the data (the mean of predictions with gold, accuracy on regression outputs) is
    refused here, before anything runs; a load that the names cannot settle raises :class:`Ambiguous`."""
    data = source if isinstance(source, Aligned) else load(source, **load_options)
    choice = choose_metric(data, metric, about=about)
    inputs = None
    if choice.metric is not None:
        gold, a, b, name = engine_inputs(data, choice.metric)
        inputs = Inputs(gold, a, b, name, dict(options or {}), data.groups)
    return Prepared(data, choice, inputs, about)


@dataclass(frozen=True)
class PreparedMany(_Answer):
    """What the front door made of several systems' data: the paired ``data``, the metrics and why (``choice``: the
    first metric's, where none was given); :meth:`inputs` gives each metric's engine inputs."""

    data: AlignedMany
    metrics: tuple[str, ...]
    choice: MetricChoice

    def inputs(self, metric: str) -> tuple[list | None, dict[str, list]]:
        """(gold, systems) as ``sigcore.compare_many`` takes them under ``metric`` (right/wrong outputs without gold
        against a gold of 1s); a metric that does not fit the data is refused."""
        return many_inputs(self.data, metric)

    def locate(self, error: InputError, shown: Sequence[str] | None = None) -> InputError:
        """An engine error at the file and line it came from (:meth:`sigcore.io.aligned.AlignedMany.locate`)."""
        return self.data.locate(error, shown)


def prepare_many(source: Sequence | AlignedMany, *, metrics: Sequence[str] | None = None, about: str = THESE_DATA,
                 **load_options: Any) -> PreparedMany:
    """:func:`prepare` for several systems: ``source`` the tables :func:`sigcore.io.load_many` pairs with
    ``load_options`` (or data already paired), ``metrics`` those to compare on (none: the first that fits, as for a
    pair). Systems without gold are read as such when every metric given needs none."""
    if isinstance(source, AlignedMany):
        data = source
    else:
        for m in metrics or []:
            if m not in METRICS:
                raise SettingsError(f"unknown metric {m!r}", hint=f"Choose from: {', '.join(METRICS)}.")
        has_gold = all(METRICS[m].needs_gold for m in metrics or [])
        data = load_many(source, has_gold=has_gold, **load_options)
    choice = MetricChoice(metrics[0], tuple(suggest_many_metrics(data))) if metrics else \
        choose_metric(data, about=about)
    chosen = tuple(metrics) if metrics else (() if choice.metric is None else (choice.metric,))
    return PreparedMany(data, chosen, choice)
