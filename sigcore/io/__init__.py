"""Reading system outputs: bytes to text (:mod:`.decoding`), the formats (:mod:`.inputs`, :mod:`.conll`,
:mod:`.lmeval`, :mod:`.inspect_log`), and pairing them item by item (:mod:`.align`)."""

from .align import load
from .inputs import read, read_lines

__all__ = ["load", "read", "read_lines"]
