"""Print-service presets: each service's sizes are data (layouts/services.yaml), not code.

A card is fitted to the service's trim: it is scaled about its centre by the one factor
that makes our trim cover theirs (63 x 88 mm onto 2.5 x 3.5 in is x1.0102; the 0.07 mm
our trim is narrower in proportion goes into their bleed), and recomposed first with a
bleed wide enough that, scaled, it fills theirs with the card's own design. Cards of a
size the service has no product for are left out, and the build says which.
"""

from __future__ import annotations

import csv
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casebook.generator.compose import Composer, Face
from casebook.generator.exports import (
    atomic_dir,
    backs_alike,
    card_name,
    count,
    designs,
    run_parallel,
)
from casebook.generator.exports.transform import scale_scene
from casebook.generator.scene import Scene
from casebook.rules.problems import Place, Problems
from casebook.rules.yamlsource import Node, load_yaml, place_of

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed

SERVICES_FILE = "services.yaml"
FILE_KINDS = ("png", "pdf")


@dataclass(frozen=True)
class Product:
    """What a service prints for one of our card sizes: the whole upload and its cut, in px."""

    name: str
    image: tuple[int, int]
    trim: tuple[int, int]


@dataclass(frozen=True)
class Service:
    """A print service: its name, the files it takes (PNG or PDF) at what dpi, its products by size."""
    id: str
    name: str
    files: str  # "png" or "pdf"
    dpi: float
    products: dict[str, Product]  # by our size id

    def mm(self, px: float) -> float:
        return px * 25.4 / self.dpi


def load_services(layouts_dir: Path, problems: Problems) -> dict[str, Service]:
    """Every service in layouts/services.yaml; problems name the file and line."""
    path = layouts_dir / SERVICES_FILE
    raw = load_yaml(path, problems)
    if raw is None:
        return {}
    table = raw.get("services") if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        problems.add(place_of(raw, fallback=Place(str(path))), "no 'services:' table",
                     "services: {tgc: {name: ..., files: png, dpi: 300, sizes: {...}}}")
        return {}
    out = {}
    for sid, spec in table.items():
        service = _service(str(sid), spec, place_of(table, sid), problems)
        if service is not None:
            out[str(sid)] = service
    return out


def _service(sid: str, spec: Any, place: Place, problems: Problems) -> Service | None:
    if not isinstance(spec, dict):
        problems.add(place, f"service '{sid}' is not a mapping", "name, files, dpi and sizes")
        return None
    files = spec.get("files")
    dpi = spec.get("dpi")
    sizes = spec.get("sizes")
    ok = True
    if files not in FILE_KINDS:
        problems.add(place_of(spec, "files", place), f"service '{sid}': files is {files!r}", " or ".join(FILE_KINDS))
        ok = False
    if not isinstance(dpi, int | float) or isinstance(dpi, bool) or dpi <= 0:
        problems.add(place_of(spec, "dpi", place), f"service '{sid}': dpi is {dpi!r}", "a number, e.g. 300")
        ok = False
    if not isinstance(sizes, dict) or not sizes:
        problems.add(place_of(spec, "sizes", place), f"service '{sid}' has no sizes",
                     "sizes: {poker: {product: ..., image: [825, 1125], trim: [750, 1050]}}")
        return None
    products = {}
    for size_id, p in sizes.items():
        pplace = place_of(sizes, size_id, place)
        image = _pair(p.get("image") if isinstance(p, dict) else None)
        trim = _pair(p.get("trim") if isinstance(p, dict) else None)
        if image is None or trim is None or trim[0] > image[0] or trim[1] > image[1]:
            problems.add(pplace, f"service '{sid}', size '{size_id}': image and trim are not two [w, h] "
                         "pixel pairs with the trim inside the image", "{product: Poker Deck, image: [825, 1125], trim: [750, 1050]}")
            ok = False
            continue
        products[str(size_id)] = Product(str(p.get("product") or size_id), image, trim)
    if not ok:
        return None
    return Service(sid, str(spec.get("name") or sid), str(files), float(dpi), products)  # type: ignore[arg-type]


def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                                          for v in value):
        return (value[0], value[1])
    return None


# --- fitting ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """How our card maps onto a product: pixels per mm of ours, and the bleed we must compose."""

    px_per_mm: float
    bleed: float  # mm of our own bleed that, scaled, covers the product's bleed

    @staticmethod
    def of(trim_mm: tuple[float, float], product: Product) -> Fit:
        k = max(product.trim[0] / trim_mm[0], product.trim[1] / trim_mm[1])
        reach_x = (product.image[0] / k - trim_mm[0]) / 2  # from our trim to the image edge, in our mm
        reach_y = (product.image[1] / k - trim_mm[1]) / 2
        return Fit(k, math.ceil(max(reach_x, reach_y) * 10 + 1) / 10)  # a tenth of a mm to spare, at least


# --- writing ----------------------------------------------------------------------------


class _Abandoned(Exception):
    """An export stopped on a problem (already reported); its folder is left as it was."""


def _render_job(job: tuple[Scene, float, tuple[int, int], float, str]) -> int:
    from casebook.generator.backends import raster

    scene, px_per_mm, canvas, dpi, path = job
    img, padded = raster.render_on_canvas(scene, px_per_mm, canvas)
    raster.save(img, Path(path), dpi)
    return padded


@dataclass(frozen=True)
class Written:
    """What one service's folder holds: printed cards, and the files (PNG) or pages (PDF) that show them."""

    cards: int
    files: int
    pages: int = 0  # a PDF service: one card side a page

    def describe(self) -> str:
        """'53 cards: 53 front images, one a printed card, + 1 back image', '53 cards: 7 PDFs of 106 pages, ...'."""
        if self.pages:
            return f"{count(self.cards, 'card')}: {count(self.files, 'PDF')} of {count(self.pages, 'page')}, a face and a back each"
        backs = self.files - self.cards
        return f"{count(self.cards, 'card')}: {count(self.cards, 'front image')}, one a printed card, + {count(backs, 'back image')}"


def write_service(composed: Composed, service: Service, out: Path, opts: BuildOptions, problems: Problems,
                  notes: list[str]) -> Written:
    """One service's upload files under `out`; returns what they hold."""
    skipped = [cid for cid, comp in composed.db.components.items()
               if comp.size not in service.products and composed.faces.get(cid)]
    if skipped:
        notes.append(f"{composed.db.id}: {service.name} has no product for "
                     + ", ".join(f"{cid} ({composed.db.components[cid].size})" for cid in skipped)
                     + f": left out (add the size to layouts/{SERVICES_FILE})")
    jobs: list[tuple[Scene, float, tuple[int, int], float, str]] = []
    copies: list[tuple[str, str]] = []  # (rendered file, copy of it)
    rows: list[list[str]] = []
    composers: dict[float, Composer] = {}
    cards = files = pages = 0
    with atomic_dir(out) as tmp:
        pdf_parts: list[tuple[str, Product, Fit, list[Face]]] = []
        for cid, comp in composed.db.components.items():
            product = service.products.get(comp.size)
            if product is None or not composed.faces.get(cid):
                continue
            size = composed.lib.sizes[comp.size]
            fit = Fit.of((size.width, size.height), product)
            said = f"{service.name}, {comp.size} cards: "
            if fit.bleed != composed.composer.bleed and opts.bleed is not None \
                    and not any(n.startswith(said) for n in notes):  # the default bleed: the service's normal way
                notes.append(f"{said}composed with a {fit.bleed:g} mm bleed instead of {composed.composer.bleed:g} mm, "
                             f"so that scaled onto the {product.name} trim it fills the service's bleed")
            faces = _recomposed(composed, cid, fit.bleed, opts, composers, problems)
            if problems:  # a card that composed at our bleed did not at theirs: keep the previous files
                raise _Abandoned
            if service.files == "pdf":
                pdf_parts.append((cid, product, fit, faces))
                cards, files, pages = cards + len(faces), files + 1, pages + 2 * len(faces)
                rows += [[cid, product.name, f"{cid}.pdf page {2 * i + 1}", f"page {2 * i + 2}", f.card.id,
                          card_name(f)] for i, f in enumerate(faces)]
                continue
            folder = tmp / cid
            folder.mkdir()
            one_back = backs_alike(faces)
            number = 0
            for design in designs(faces):
                first = ""
                back_first = ""
                for face in design.copies:
                    number += 1
                    front = f"front-{number:03d}.png"
                    back = "back.png" if one_back else f"back-{number:03d}.png"
                    if not first:
                        first, back_first = front, back
                        jobs.append((design.face, fit.px_per_mm, product.image, service.dpi, str(folder / front)))
                        if not one_back:
                            jobs.append((design.back, fit.px_per_mm, product.image, service.dpi, str(folder / back)))
                    else:
                        copies.append((str(folder / first), str(folder / front)))
                        if not one_back:
                            copies.append((str(folder / back_first), str(folder / back)))
                    rows.append([cid, product.name, f"{cid}/{front}", f"{cid}/{back}", face.card.id,
                                 card_name(face)])
            if one_back:
                jobs.append((faces[0].back, fit.px_per_mm, product.image, service.dpi, str(folder / "back.png")))
            cards, files = cards + number, files + number + (1 if one_back else number)
        padded = max(run_parallel(_render_job, jobs, opts.workers), default=0)
        for src, dst in copies:
            shutil.copyfile(src, dst)
        for cid, product, fit, faces in pdf_parts:
            _write_service_pdf(composed, service, product, fit, faces, tmp / f"{cid}.pdf")
        if padded > 1:
            notes.append(f"{service.name}: the bleed was {padded} px short and its edge was repeated")
        with (tmp / "manifest.csv").open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(["component", "product", "front", "back", "card", "name"])
            writer.writerows(rows)
    return Written(cards, files, pages)


def _recomposed(composed: Composed, cid: str, bleed: float, opts: BuildOptions,
                composers: dict[float, Composer], problems: Problems) -> list[Face]:
    """The component's cards composed again with `bleed` mm of bleed (when ours is less)."""
    if composed.composer.bleed >= bleed:
        return composed.faces[cid]
    composer = composers.get(bleed)
    if composer is None:
        composer = Composer(composed.lib, composed.db, problems, bleed=bleed, ink_saver=opts.ink_saver)
        composers[bleed] = composer
    return composer.faces(composed.db.components[cid])


def _write_service_pdf(composed: Composed, service: Service, product: Product, fit: Fit, faces: list[Face],
                       path: Path) -> None:
    """One card side a page of the product's full size, vector, TrimBox on the product's cut."""
    from casebook.generator.backends.pdf import PdfDocument

    page_w, page_h = service.mm(product.image[0]), service.mm(product.image[1])
    trim_w, trim_h = service.mm(product.trim[0]), service.mm(product.trim[1])
    trim = ((page_w - trim_w) / 2, (page_h - trim_h) / 2, trim_w, trim_h)
    k = fit.px_per_mm * 25.4 / service.dpi  # our mm -> their mm
    doc = PdfDocument(path, title=f"{composed.db.title} — {product.name} for {service.name}")
    cache: dict[tuple[object, ...], Scene] = {}
    for face in faces:
        for scene in (face.face, face.back):
            key = (scene.width, scene.height, tuple(scene.items))
            big = cache.get(key)
            if big is None:
                big = cache[key] = scale_scene(scene, k)
            doc.begin_page(page_w, page_h, trim=trim, bleed=(0, 0, page_w, page_h))
            doc.draw(big, (page_w - big.width) / 2, (page_h - big.height) / 2, clip=(0, 0, page_w, page_h))
            doc.end_page()
    doc.save()


def write_services(composed: Composed, names: tuple[str, ...], out_dir: Path, opts: BuildOptions,
                   problems: Problems, notes: list[str]) -> list[tuple[Path, Written]]:
    """Every requested service's files under out_dir/<service>/; problems if a name is unknown."""
    services = load_services(opts.layouts_dir, problems)
    unknown = [n for n in names if n not in services]
    if unknown:
        problems.add(Place(str(opts.layouts_dir / SERVICES_FILE)), f"unknown print service {', '.join(unknown)}",
                     "one of: " + ", ".join(services))
    if problems:
        return []
    written = []
    for name in names:
        try:
            written.append((out_dir / name, write_service(composed, services[name], out_dir / name, opts, problems,
                                                          notes)))
        except _Abandoned:
            break
    return written


def service_ids(layouts_dir: Path) -> list[str]:
    """The service ids layouts/services.yaml names (for the command's help); [] if unreadable."""
    raw = load_yaml(layouts_dir / SERVICES_FILE, Problems())
    table = raw.get("services") if isinstance(raw, Node) else None
    return [str(k) for k in table] if isinstance(table, dict) else []
