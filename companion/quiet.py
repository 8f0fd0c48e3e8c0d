"""Kivy's start-up without alarming lines: a missing multitouch library (MTDev) or cut-buffer tool
(xclip, xsel) is normal on a desktop or phone, so those ERROR/CRITICAL lines become debug lines.
Imported by the app before Kivy opens its window."""

from __future__ import annotations

import logging
import os

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.logger import Logger  # noqa: E402

HARMLESS = ("MTDev is not supported", "Cutbuffer provider", "CutBuffer", "xclip", "xsel")


class HarmlessProviders(logging.Filter):
    """Lets a provider's absence through only as a debug line (and only when debug logging is on)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR or not any(h in str(record.msg) for h in HARMLESS):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info, record.exc_text = None, None
        return Logger.isEnabledFor(logging.DEBUG)


def install() -> None:
    """Add the filter to Kivy's logger (once)."""
    if not any(isinstance(f, HarmlessProviders) for f in Logger.filters):
        Logger.addFilter(HarmlessProviders())
