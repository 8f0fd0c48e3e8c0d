"""Entry point of the phone package (buildozer runs main.py).

The package holds the repository's folders as they are (companion/, rules/, cards/), with no
installer to put them into the casebook package as pyproject.toml does for a wheel: here they
are made its subpackages, so casebook.companion, casebook.rules and casebook.cards import as
they do when installed.
"""

import sys
import types
from pathlib import Path

if "casebook" not in sys.modules:
    casebook = types.ModuleType("casebook", "Casebook's table companion, as the phone package holds it")
    casebook.__path__ = [str(Path(__file__).resolve().parent)]
    sys.modules["casebook"] = casebook

from casebook.companion.app import main  # noqa: E402

main()
