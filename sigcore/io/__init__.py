"""Reading system outputs: bytes to text (:mod:`.decoding`), the formats (:mod:`.inputs`, :mod:`.conll`,
:mod:`.lmeval`, :mod:`.inspect_log`), and pairing them item by item: :func:`load` (:mod:`.loading`) over the columns'
roles (:mod:`.columns`), the gold file and the baseline (:mod:`.systems`), the pairing of files (:mod:`.pairing`,
by the id rule of :mod:`.ids`) and of logs (:mod:`.log_pairs`), to paired data (:mod:`.aligned`); which metrics fit
them (:mod:`.metric_fit`)."""

from .inputs import read, read_lines
from .loading import load, load_many

__all__ = ["load", "load_many", "read", "read_lines"]
