"""The driver's one measure of small text (its dump's `small_texts`): each label's smallest size in sp, its own
font and every [size=] in its text (Kivy's units, a bare number pixels), to a hundredth of an sp; a [size=] is
read with markup off too (Kivy then shows the tag as text: reported, marked markup_off)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("kivy")

from tests.companion.test_app_gui import ROOT, env_for  # noqa: E402

PROBE = """
import json
from kivy.metrics import sp
from kivy.uix.label import Label
from casebook.companion.driver import Driver
cases = {
    "12sp": Label(text="plain", font_size=sp(12)),
    "11.6px": Label(text="plain", font_size=sp(12) - 0.4),
    "size 11 markup": Label(text="big [size=11]small[/size]", font_size=sp(14), markup=True),
    "size 11 no markup": Label(text="big [size=11]small[/size]", font_size=sp(14)),
    "size 10sp": Label(text="[size=10sp]small[/size]", font_size=sp(14), markup=True),
    "size 16": Label(text="[size=16]big[/size]", font_size=sp(14), markup=True),
}
print(json.dumps({k: Driver.small_text(w, w.text) for k, w in cases.items()}))
"""


def test_small_texts_are_measured_in_sp_with_markup_on_or_off(tmp_path):
    env = env_for(tmp_path, tmp_path / "none.json")
    proc = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["12sp"] is None and got["size 16"] is None
    assert got["11.6px"] is not None and got["11.6px"]["sp"] == 11.6  # half a pixel of slack once let it pass
    assert got["size 11 markup"]["sp"] == 11 and "markup_off" not in got["size 11 markup"]
    assert got["size 11 no markup"]["sp"] == 11 and got["size 11 no markup"]["markup_off"] is True
    assert got["size 10sp"]["sp"] == 10 and got["size 10sp"]["text"] == "small"
