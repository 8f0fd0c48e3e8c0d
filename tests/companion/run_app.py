"""Start the real app at phone size (360 x 640) for a GUI test; the script comes from CASEBOOK_SCRIPT."""

import os
import sys

os.environ.setdefault("KIVY_NO_ARGS", "1")
from kivy.config import Config  # noqa: E402

Config.set("graphics", "width", os.environ.get("CASEBOOK_WIDTH", "360"))
Config.set("graphics", "height", os.environ.get("CASEBOOK_HEIGHT", "640"))
Config.set("input", "mouse", "mouse")

from casebook.companion.app import main  # noqa: E402

sys.exit(main())
