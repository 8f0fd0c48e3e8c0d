"""Per-card PDFs: one file per component, one card side a page, TrimBox and BleedBox exact.

A print service that takes a PDF counts its pages as cards: each printed copy has its
face page followed by its back page, so a component of 45 cards gives 90 pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from casebook.generator.exports import atomic_dir

if TYPE_CHECKING:
    from casebook.generator.build import Composed


def write_card_pdfs(composed: Composed, out: Path, backs: bool = True) -> list[Path]:
    """output/<game>/cards/<component>.pdf for every component (faces alone without `backs`); the files written."""
    from casebook.generator.backends.pdf import scenes_to_pdf

    written = []
    with atomic_dir(out) as tmp:
        for cid, faces in composed.faces.items():
            if not faces:
                continue
            scenes = [scene for face in faces for scene in ((face.face, face.back) if backs else (face.face,))]
            name = composed.db.components[cid].name
            scenes_to_pdf(scenes, tmp / f"{cid}.pdf", title=f"{composed.db.title} — {name}, one card a page")
            written.append(out / f"{cid}.pdf")
    return written
