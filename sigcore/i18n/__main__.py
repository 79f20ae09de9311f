"""python -m sigcore.i18n [--check]: update and compile the catalogues, or check them (see catalogues.py)."""

import sys

from . import LANGUAGES
from .catalogues import problems, update

if "--check" in sys.argv[1:]:
    found = [line for language in LANGUAGES if language != "en" for line in problems(language)]
    print("\n".join(found) or "every catalogue is complete and compiled")
    sys.exit(1 if found else 0)
update()
