"""Tabletop Simulator: deck sheets and one saved-object file that lays every deck on the table.

A sheet holds at most 10 x 7 cards and 4096 px a side. Its last slot is the image TTS
shows for a card hidden in another player's hand: we put the deck's back there (and set
BackIsHidden, so either reading shows the back). Identical cards share one slot; every
printed copy is its own card in the deck. Cards are drawn to their trim, no bleed.

Every printed sheet is there too, as a tile lying on the table: a board (a sheet with a
size of its own, such as the P.I. city) whole at its size, and the aid, scoresheet,
notebook or tracker at its page size (TTS's drawing tools write on it).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.generator.exports import (
    Design,
    atomic_dir,
    backs_alike,
    card_name,
    designs,
    run_parallel,
)
from casebook.generator.scene import Scene

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed
    from casebook.rules.cards import Sheet

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
MIN_GRID = 2  # TTS's deck importer takes 2 to 10 across and 2 to 7 down
TARGET_DPI = 200.0  # sharp on screen; sheets larger than MAX_PX are drawn coarser
COARSE_DPI = 150.0  # a sheet drawn coarser than this is said: cards of that size look soft when zoomed in
POKER_HEIGHT = 88.0  # mm: a TTS card at scale 1 is a poker card
CARD_TYPE = {"rectangle": 0, "round": 4}  # TTS: RectangleRounded, Circle
UNIT_MM = POKER_HEIGHT / 3.0  # a TTS unit on the table, about an inch: a poker card is about 3 long
TILE_UNITS = 2.0  # a custom tile at scale 1 is about 2 units along its longer side


@dataclass
class SheetPlan:
    """One deck sheet: which designs, on what grid, at what cell size."""

    name: str
    designs: list[Design]
    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return (self.cols * self.cell[0], self.rows * self.cell[1])


def grid_for(count: int, card_w: float, card_h: float) -> tuple[int, int]:
    """The smallest grid with a slot for each of `count` designs plus the hidden card; squarest on a tie."""
    best: tuple[int, float, int, int] | None = None
    for cols in range(MIN_GRID, MAX_COLS + 1):
        for rows in range(MIN_GRID, MAX_ROWS + 1):
            if cols * rows < count + 1:
                continue
            key = (cols * rows, abs(math.log(cols * card_w / (rows * card_h))), cols, rows)
            if best is None or key < best:
                best = key
    if best is None:
        raise ValueError(f"{count} designs do not fit one sheet of {MAX_COLS} x {MAX_ROWS}")
    return best[2], best[3]


def plan_sheets(cid: str, found: list[Design], card_w: float, card_h: float) -> list[SheetPlan]:
    """The component's designs on as few sheets as TTS allows."""
    per_sheet = MAX_COLS * MAX_ROWS - 1
    plans = []
    for n, start in enumerate(range(0, len(found), per_sheet), 1):
        batch = found[start:start + per_sheet]
        cols, rows = grid_for(len(batch), card_w, card_h)
        k = min(TARGET_DPI / 25.4, MAX_PX / (cols * card_w), MAX_PX / (rows * card_h))
        plans.append(SheetPlan(f"{cid}-{n}", batch, cols, rows, (math.floor(card_w * k), math.floor(card_h * k))))
    return plans


def _sheet_job(job: tuple[list[Scene], int, int, tuple[int, int], Scene, str]) -> tuple[int, int]:
    from casebook.generator.backends import raster

    scenes, cols, rows, cell, hidden, path = job
    images = [raster.render_trimmed(s, cell) for s in scenes]
    sheet = raster.grid_sheet(images, cols, rows, cell, last=raster.render_trimmed(hidden, cell))
    raster.save(sheet, Path(path))
    return sheet.size


def _single_job(job: tuple[Scene, tuple[int, int], str]) -> tuple[int, int]:
    from casebook.generator.backends import raster

    scene, cell, path = job
    img = raster.render_trimmed(scene, cell)
    raster.save(img, Path(path))
    return img.size


def _guid(*parts: object) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, scale: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _object(name: str, guid: str, x: float, scale: float, nickname: str, description: str) -> dict[str, Any]:
    return {"GUID": guid, "Name": name, "Transform": _transform(x, scale), "Nickname": nickname,
            "Description": description, "GMNotes": "", "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "HideWhenFaceDown": True, "Hands": name == "Card", "SidewaysCard": False,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def write_tts(composed: Composed, out: Path, opts: BuildOptions, base_url: str | None = None,
              notes: list[str] | None = None) -> dict[str, Any]:
    """Sheets and <game>.json (plus its thumbnail <game>.png) under `out`; returns the saved object.

    A sheet drawn coarser than COARSE_DPI to stay within MAX_PX is said in `notes`.
    """
    db = composed.db
    base = base_url if base_url is not None else out.resolve().as_uri() + "/"
    if base and not base.endswith("/"):
        base += "/"
    sheet_jobs: list[tuple[list[Scene], int, int, tuple[int, int], Scene, str]] = []
    single_jobs: list[tuple[Scene, tuple[int, int], str]] = []
    objects: list[dict[str, Any]] = []
    deck_key = 0
    x = 0.0
    with atomic_dir(out) as tmp:
        for cid, faces in composed.faces.items():
            if not faces:
                continue
            comp = db.components[cid]
            size = composed.lib.sizes[comp.size]
            card_type = CARD_TYPE["round" if size.round else "rectangle"]
            scale = round(size.height / POKER_HEIGHT, 3)
            found = designs(faces)
            plans = plan_sheets(cid, found, size.width, size.height)
            dpi = min(plan.cell[0] / size.width for plan in plans) * 25.4
            if notes is not None and dpi < COARSE_DPI:  # a full sheet of 69 cards is drawn at about 165 dpi: normal
                notes.append(f"{db.id}: Tabletop Simulator, {cid}: sheets drawn at {dpi:.0f} dpi instead of "
                             f"{TARGET_DPI:g}, as TTS takes sheets of at most {MAX_PX} px")
            one_back = backs_alike(faces)
            custom: dict[str, dict[str, Any]] = {}
            card_ids: dict[int, int] = {}  # id(design) -> CardID
            for plan in plans:
                deck_key += 1
                face_file = f"{plan.name}.png"
                back_file = f"{cid}-back.png" if one_back else f"{plan.name}-backs.png"
                sheet_jobs.append(([d.face for d in plan.designs], plan.cols, plan.rows, plan.cell,
                                   faces[0].back, str(tmp / face_file)))
                if one_back:
                    if plan is plans[0]:
                        single_jobs.append((faces[0].back, plan.cell, str(tmp / back_file)))
                else:
                    sheet_jobs.append(([d.back for d in plan.designs], plan.cols, plan.rows, plan.cell,
                                       faces[0].back, str(tmp / back_file)))
                custom[str(deck_key)] = {"FaceURL": base + face_file, "BackURL": base + back_file,
                                         "NumWidth": plan.cols, "NumHeight": plan.rows, "BackIsHidden": True,
                                         "UniqueBack": not one_back, "Type": card_type}
                for slot, design in enumerate(plan.designs):
                    card_ids[id(design)] = deck_key * 100 + slot
            id_of = {id(face): card_ids[id(design)] for design in found for face in design.copies}
            cards = []
            for face in faces:  # in print order
                card_id = id_of[id(face)]
                card = _object("Card", _guid(db.id, cid, face.number), x, scale, card_name(face),
                               f"{comp.name} · {comp.code} {face.number}/{len(faces)}")
                card.update(CardID=card_id, CustomDeck={str(card_id // 100): custom[str(card_id // 100)]})
                cards.append(card)
            if len(cards) == 1:
                objects.append(cards[0])
            else:
                deck = _object("Deck", _guid(db.id, cid), x, scale, comp.name, f"{db.title}: {len(cards)} cards")
                deck.update(DeckIDs=[c["CardID"] for c in cards], CustomDeck=custom, ContainedObjects=cards)
                objects.append(deck)
            x += size.width / POKER_HEIGHT * 3.0 + 1.0
        for sheet, scene in _sheets(composed, opts):  # laid in a row beyond the decks, none over another
            half = scene.width / UNIT_MM / 2
            objects.append(_sheet_tile(composed, sheet, scene, x + half, base, single_jobs, tmp))
            x += 2 * half + 1.0
        run_parallel(_sheet_job, sheet_jobs, opts.workers)
        run_parallel(_single_job, single_jobs, opts.workers)
        saved = {"SaveName": db.title, "GameMode": db.title, "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
                 "Table": "", "Sky": "", "Note": f"{db.title} — made by Casebook. {db.credit}".strip(),
                 "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
                 "VersionNumber": "", "ObjectStates": objects}
        (tmp / f"{db.id}.json").write_text(json.dumps(saved, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        _thumbnail(composed, tmp / f"{db.id}.png")
    return saved


def _sheets(composed: Composed, opts: BuildOptions) -> list[tuple[Sheet, Scene]]:
    """Every printed sheet whole: a board at its own size, any other sheet as composed for the first paper."""
    from casebook.generator.board import board_size, compose_board

    pages = dict(composed.pages.get(opts.papers[0], [])) if opts.papers else {}
    found = []
    for sheet in composed.db.sheets:
        size = board_size(composed.lib, composed.composer, sheet)
        scene = compose_board(composed.composer, sheet, size) if size is not None else pages.get(sheet.name)
        if scene is not None:
            found.append((sheet, scene))
    return found


def _sheet_tile(composed: Composed, sheet: Sheet, scene: Scene, x: float, base: str,
                jobs: list[tuple[Scene, tuple[int, int], str]], tmp: Path) -> dict[str, Any]:
    """A sheet as a TTS custom tile at its size, its picture queued in `jobs`."""
    w, h = scene.width - 2 * scene.bleed, scene.height - 2 * scene.bleed
    k = min(TARGET_DPI / 25.4, MAX_PX / max(w, h))
    file = f"sheet-{sheet.id}.png"
    jobs.append((scene, (round(w * k), round(h * k)), str(tmp / file)))
    scale = round(max(w, h) / UNIT_MM / TILE_UNITS, 3)
    tile = _object("Custom_Tile", _guid(composed.db.id, "sheet", sheet.id), x, scale, sheet.name,
                   f"{composed.db.title}: {sheet.name} ({w:g} x {h:g} mm)")
    tile["Transform"]["rotZ"] = 0.0  # face up
    tile["HideWhenFaceDown"] = False
    tile["CustomImage"] = {"ImageURL": base + file, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                           "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False,
                                          "Stretch": False}}  # not stretched square: the sheet keeps its shape
    return tile


def _thumbnail(composed: Composed, path: Path) -> None:
    """The picture TTS shows for the saved object: the first component's first card."""
    from casebook.generator.backends import raster

    faces = next(f for f in composed.faces.values() if f)
    scene = faces[0].face
    height = 256
    width = round(height * (scene.width - 2 * scene.bleed) / (scene.height - 2 * scene.bleed))
    raster.save(raster.render_trimmed(scene, (width, height)), path)
