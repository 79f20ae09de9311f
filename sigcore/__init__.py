"""sigcore: paired significance tests for comparing NLP/ML systems.

>>> import sigcore
>>> res = sigcore.compare(gold, sys_a, sys_b, metric="accuracy", test="bootstrap", seed=0)
>>> res.p_value, (res.ci_low, res.ci_high), res.signature
>>> print(sigcore.report.verdict(res))
>>> many = sigcore.compare_many(refs, {"A": a, "B": b, "C": c}, metric="bleu", all_pairs=True)
>>> many.table(), many.ranking()
>>> sigcore.compare(y_true, pred_a, pred_b, metric="mae")  # regression: lower is better, "A beats B" if A's is lower
>>> sigcore.preferences(["battles.csv"]).ratings.table()  # pairwise judgments: Bradley–Terry with intervals

Subpackages by concept: ``statistics`` (resampling, closed-form tests, intervals, corrections), ``metrics``,
``io`` (reading and aligning system outputs), ``report`` (sentences, exports, figures), ``teaching`` (the
Classroom's numbers and figures).
"""

import sys
import types
import warnings

from . import comparison, report
from ._version import __version__
from .comparison import TESTS, compare, stream, tests_for
from .contract import ALTERNATIVES
from .errors import InputError, SettingsError, SigcoreError
from .judgments import Preferences, preferences
from .many import Many, compare_many
from .metrics import METRICS, Metric
from .result import Result
from .seeds import SeedsResult, compare_seeds

__all__ = ["ALTERNATIVES", "METRICS", "TESTS", "InputError", "Many", "Metric", "Preferences", "Result", "SeedsResult",
           "SettingsError", "SigcoreError", "__version__", "compare", "compare_many", "compare_seeds", "preferences",
           "report", "stream", "tests_for"]


class _Moved(types.ModuleType):
    """``sigcore.compare``, the module the function of that name hid, is ``sigcore.comparison``; its old path answers
    ``from sigcore.compare import ...`` until 0.4.0, with a DeprecationWarning."""

    def __getattr__(self, name: str):
        if name.startswith("__"):  # what tools ask of every module they find (hypothesis: __file__): not an import
            raise AttributeError(name)
        warnings.warn(f"sigcore.compare (the module) is sigcore.comparison: import {name} from there; the old path "
                      "goes in 0.4.0", DeprecationWarning, stacklevel=2)
        return getattr(comparison, name)


sys.modules.setdefault(f"{__name__}.compare", _Moved(f"{__name__}.compare"))
