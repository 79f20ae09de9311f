"""What a result says to a reader: the verdict sentence and the CLI's summary (:mod:`.sentence`), exports to
Markdown, LaTeX, CSV and JSON (:mod:`.export`, imported on demand) and Plotly figures (:mod:`.figures`, the same).

The numbers every view prints come from one formatter (:func:`number`) and p from one rule (:func:`p_text`,
:func:`p_cell`: "p < 1/b" where no resample was as extreme, never 0), which the engine's results use too."""

from ..metrics import METRIC_NAMES
from ..result import p_cell, p_number, p_text
from .sentence import (
                       CI_NAMES,
                       TEST_NAMES,
                       level,
                       mc_text,
                       method,
                       metric_name,
                       number,
                       resolution_lead,
                       scale_of,
                       summary,
                       test_name,
                       verdict,
)

__all__ = ["CI_NAMES", "METRIC_NAMES", "TEST_NAMES", "level", "mc_text", "method", "metric_name", "number",
           "p_cell", "p_number", "p_text", "resolution_lead", "scale_of", "summary", "test_name", "verdict"]
