"""Export a finished game: a text summary and its log, shared through Android's share sheet or,
on a desktop, written to a folder the player is told about.

Android is reached through pyjnius only when Kivy says it runs there; nothing else is needed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from casebook.rules.log import GameLog


def result_text(title: str, log: GameLog, progress: str, report: list[str], history: list[str]) -> str:
    """The summary a player sends: game, players, date, result, how it ended, then the game event by event."""
    lines = [f"{title}: {' v '.join(log.players)}"]
    if log.created:
        lines.append(f"Played {log.created.replace('T', ' ')[:16]}")
    lines.append(progress[0].upper() + progress[1:])
    if log.variants:
        lines.append("Variants: " + ", ".join(log.variants))
    lines += ["", *report, "", "The game, event by event:", *history, "", "Recorded with Casebook."]
    return "\n".join(lines) + "\n"


def export_folder(data_dir: Path) -> Path:
    """Where a desktop export goes: ~/Documents/Casebook if there is a Documents folder, else beside the saves."""
    documents = Path.home() / "Documents"
    if documents.is_dir() and not os.environ.get("CASEBOOK_DATA"):
        return documents / "Casebook"
    return data_dir / "exports"


def write_export(folder: Path, game_id: str, text: str, log_path: Path) -> list[Path]:
    """The summary and a copy of the log, written into `folder`; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    summary = folder / f"{game_id}-result.txt"
    tmp = summary.with_name(summary.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, summary)
    log_copy = folder / f"{game_id}.yaml"
    shutil.copyfile(log_path, log_copy)
    return [summary, log_copy]


def share_on_android(subject: str, text: str, log_path: Path) -> bool:  # pragma: no cover - needs a phone
    """Open Android's share sheet with the summary as text and the log attached; False if not on Android."""
    from kivy.utils import platform

    if platform != "android":
        return False
    try:
        from jnius import autoclass, cast
    except ImportError:
        return False
    activity: Any = autoclass("org.kivy.android.PythonActivity").mActivity
    intent_cls = autoclass("android.content.Intent")
    string = autoclass("java.lang.String")
    # a file:// address is refused from Android 7 on unless the VM policy allows it (no FileProvider here)
    strict = autoclass("android.os.StrictMode")
    strict.setVmPolicy(autoclass("android.os.StrictMode$VmPolicy$Builder")().build())
    shared = Path(activity.getExternalCacheDir().getPath()) / log_path.name
    shutil.copyfile(log_path, shared)
    uri = autoclass("android.net.Uri").fromFile(autoclass("java.io.File")(str(shared)))
    intent = intent_cls(intent_cls.ACTION_SEND)
    intent.setType("text/plain")
    intent.putExtra(intent_cls.EXTRA_SUBJECT, cast("java.lang.CharSequence", string(subject)))
    intent.putExtra(intent_cls.EXTRA_TEXT, cast("java.lang.CharSequence", string(text)))
    intent.putExtra(intent_cls.EXTRA_STREAM, cast("android.os.Parcelable", uri))
    intent.addFlags(intent_cls.FLAG_GRANT_READ_URI_PERMISSION)
    chooser = intent_cls.createChooser(intent, cast("java.lang.CharSequence", string(subject)))
    activity.startActivity(chooser)
    return True
