"""sigcore: paired significance tests for comparing NLP/ML systems.

>>> import sigcore
>>> res = sigcore.compare(gold, sys_a, sys_b, metric="accuracy", test="bootstrap", seed=0)
>>> res.p_value, (res.ci_low, res.ci_high), res.signature
"""

__version__ = "0.1.0"

from . import report  # noqa: E402
from .compare import ALTERNATIVES, TESTS, compare, stream, tests_for  # noqa: E402
from .errors import InputError, SettingsError, SigcoreError  # noqa: E402
from .metrics import METRICS  # noqa: E402
from .result import Result  # noqa: E402

__all__ = ["ALTERNATIVES", "METRICS", "TESTS", "InputError", "Result", "SettingsError", "SigcoreError", "report",
           "compare", "stream", "tests_for"]
