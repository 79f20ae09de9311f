"""Planning on the Compare page: with these data as a pilot, the power of the chosen test, the test-set size
that reaches a target power, and the smallest difference this size detects (:func:`sigcore.power.plan`)."""

from __future__ import annotations

import streamlit as st

import sigcore
from sigcore import power
from sigcore.effects import item_values
from sigcore.errors import SettingsError
from sigcore.io.aligned import Aligned
from sigcore.metrics import METRICS, direction
from sigcore.result import refuse_lower
from sigcore.teaching.lesson_figures import power_curve

from . import figure
from .run import Settings, inputs
from .safe import md


def show(data: Aligned, s: Settings, source: str) -> None:
    with st.expander("Planning: power and the test-set size"):
        gold, a, b, metric = inputs(data, s.metric)
        values = item_values(gold, a, b, metric=metric, **dict(s.options))
        if values is None or data.groups is not None:
            st.caption(f"Planning draws test sets of other sizes from these items, so it needs a metric that is a "
                       f"mean of per-item values (accuracy, exact match, per-item scores) and items that are not "
                       f"grouped; {s.metric} " + ("is not one." if values is None else "items come in groups."))
            return
        if s.alternative != "two-sided" and not direction(metric, s.higher_is_better):  # its sides read δ > 0
            try:
                refuse_lower("a one-sided power plan", False, s.metric, hint=power.ONE_SIDED_HINT)
            except SettingsError as refused:  # the plan's own refusal, in its words
                st.caption(md(str(refused)))
            return
        test = s.test if s.test in power.SUPPORTED else "bootstrap"
        st.caption(f"These {len(values[0]):,} items as a pilot: test sets of any size are drawn from them, their δ "
                   f"the assumed true difference; the {sigcore.TESTS[test].title} at α = {s.alpha:g}, "
                   f"H1 as chosen above." + ("" if test == s.test else " (Planning covers the bootstrap, "
                                                                      "permutation, t and McNemar tests.)"))
        target = st.select_slider("Target power", [0.8, 0.9, 0.95], key="planning-target",
                                  format_func=lambda x: f"{x:.0%}")
        if not st.toggle("Plan", key="planning-on", help="A few seconds: simulated where it cannot be exact."):
            return
        plan = _plan(source, s, test, target, values[0], values[1], METRICS[metric].binary)
        st.markdown("  \n".join(plan.text().splitlines()))
        points = plan.curve
        fig = power_curve([p.n for p in points], [p.power for p in points], target=target, needed=plan.n_needed,
                          bounds=None if plan.current.exact else ([p.low for p in points], [p.high for p in points]),
                          title=f"Power of the {sigcore.TESTS[test].title} on test sets drawn from these items",
                          name="exact" if plan.current.exact else "simulated (95% Monte-Carlo interval)")
        figure.show(fig, f"power_{test}")


@st.cache_data(max_entries=16, show_spinner="Planning…")
def _plan(source: str, s: Settings, test: str, target: float, _a, _b, binary: bool) -> power.Plan:
    """Cached on the data's key and the settings, not on the long score lists."""
    return power.plan(_a, _b, test=test, binary=binary, alpha=s.alpha, alternative=s.alternative, target=target,
                      seed=s.seed)
