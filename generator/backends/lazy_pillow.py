"""Pillow's Image module made when first used, not when ReportLab is imported.

ReportLab's lib/utils.py imports PIL.Image at once (for its ImageReader), though a build
whose cards show no picture never reads an image: importing it costs ~20 ms of every run.
Importing this module first puts a lazy PIL.Image in its place (importlib.util.LazyLoader):
the module runs when one of its attributes is first read, as a picture is drawn or a
PNG written, and is then Pillow's own. Nothing changes when Pillow is already imported.
"""

from __future__ import annotations

import importlib.util
import sys


def _lazy(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)


_lazy("PIL.Image")
