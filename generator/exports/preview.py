"""One picture per component for the README and for sharing: its back and a few faces as a fan."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from casebook.generator.exports import atomic_dir, designs, run_parallel
from casebook.generator.scene import Scene

if TYPE_CHECKING:
    from casebook.generator.build import BuildOptions, Composed

CARD_HEIGHT = 300  # px of each card in the fan: the whole picture stays small
MAX_FACES = 6


def _fan_job(job: tuple[list[Scene], tuple[int, int], bool, str]) -> tuple[int, int]:
    from casebook.generator.backends import raster

    scenes, cell, round_shape, path = job
    img = raster.fan([raster.render_trimmed(s, cell) for s in scenes], round_shape=round_shape)
    raster.save(img, Path(path))
    return img.size


def picks(count: int, most: int = MAX_FACES) -> list[int]:
    """Indices of up to `most` items spread evenly over `count`, first and last included."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def write_previews(composed: Composed, out: Path, opts: BuildOptions) -> list[Path]:
    """output/<game>/preview/<component>.png: the back, then faces spread over the component."""
    jobs = []
    with atomic_dir(out) as tmp:
        for cid, faces in composed.faces.items():
            if not faces:
                continue
            found = designs(faces)
            chosen = [found[i].face for i in picks(len(found))]
            size = composed.lib.sizes[composed.db.components[cid].size]
            cell = (round(CARD_HEIGHT * size.width / size.height), CARD_HEIGHT)
            jobs.append(([faces[0].back, *chosen], cell, size.round, str(tmp / f"{cid}.png")))
        run_parallel(_fan_job, jobs, opts.workers)
    return [out / Path(job[3]).name for job in jobs]
