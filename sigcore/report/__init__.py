"""What a result says to a reader: the verdict sentence and the CLI's summary (:mod:`.sentence`), exports to
Markdown, LaTeX, CSV and JSON (:mod:`.export`, imported on demand) and Plotly figures (:mod:`.figures`, the same)."""

from .sentence import (CI_NAMES, METRIC_NAMES, TEST_NAMES, level, mc_text, method, metric_name, number,
                       resolution_lead, scale_of, summary, test_name, verdict)

__all__ = ["CI_NAMES", "METRIC_NAMES", "TEST_NAMES", "level", "mc_text", "method", "metric_name", "number",
           "resolution_lead", "scale_of", "summary", "test_name", "verdict"]
