"""Character art made up for the tests, the benchmark and the README picture: the project ships no
official art, so these stand in for the official icons, in their layout on the official host
(`{edition}/{id}_g.webp`, `{id}_e.webp`, `{id}.webp` for characters of one alignment).

Each picture is a painted-looking figure (a head and shoulders with a few shapes and a grain, so it
compresses like artwork, not like a flat logo) on a transparent square canvas with uneven margins
of its own, different per character, as the hosted icons have: the pack's normalising crop must
make them sit alike on the page.
"""

import hashlib
import io
from pathlib import Path
import random

ALIGNMENTS = {"g": ((38, 92, 170), (120, 170, 230)), "e": ((150, 24, 30), (230, 110, 90))}
UNALIGNED = ((150, 120, 30), (235, 200, 110))
CANVAS = 400  # px: a square canvas, the figure drawn in a box inside it with its own margins


def icon_art(character_id: str, alignment: str | None, size: int = CANVAS) -> bytes:
    """A WebP of a made-up figure for `character_id` ('g', 'e' or None for one alignment)."""
    from PIL import Image, ImageDraw, ImageFilter

    seed = int(hashlib.sha256(f"{character_id}/{alignment}".encode()).hexdigest()[:8], 16)
    rng = random.Random(seed)
    dark, light = ALIGNMENTS.get(alignment or "", UNALIGNED)
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    # The figure's box: margins of 9-22 % on each side, not the same on all four.
    left, top = (round(size * rng.uniform(0.09, 0.22)) for _ in range(2))
    right, bottom = (size - round(size * rng.uniform(0.09, 0.22)) for _ in range(2))
    width, height = right - left, bottom - top
    draw.ellipse((left, top + height * 0.45, right, bottom), fill=dark + (255,))  # shoulders
    draw.ellipse((left + width * 0.28, top, right - width * 0.28, top + height * 0.5),
                 fill=light + (255,), outline=(20, 16, 12, 255), width=max(2, size // 90))  # head
    for _ in range(6):  # a few painted strokes
        x, y = rng.uniform(left, right), rng.uniform(top + height * 0.5, bottom)
        r = rng.uniform(width * 0.03, width * 0.09)
        shade = tuple(min(255, max(0, c + rng.randint(-50, 50))) for c in dark)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=shade + (255,))
    grain = Image.effect_noise((size, size), 28).convert("L")
    alpha = image.getchannel("A")
    rgb = Image.merge("RGB", [Image.blend(band, grain, 0.08) for band in image.convert("RGB").split()])
    image = Image.merge("RGBA", (*rgb.split(), alpha.filter(ImageFilter.GaussianBlur(1.2))))
    out = io.BytesIO()
    image.save(out, format="WEBP", quality=85, method=4)
    return out.getvalue()


#: Player teams have a good and an evil picture; Fabled and Loric one.
TWO_ALIGNMENTS = ("townsfolk", "outsider", "minion", "demon", "traveller")


def write_official_icons(folder: Path, roles: list[dict], only: set[str] | None = None) -> list[Path]:
    """Made-up pictures for `roles` (roles.json records) under `folder/icons/` in the official
    host's layout; `only` limits them to those ids. Returns the files written."""
    written = []
    for role in roles:
        if only is not None and role["id"] not in only:
            continue
        edition = folder / "icons" / role["edition"]
        edition.mkdir(parents=True, exist_ok=True)
        alignments = ("g", "e") if role["team"] in TWO_ALIGNMENTS else (None,)
        for alignment in alignments:
            path = edition / (f"{role['id']}_{alignment}.webp" if alignment else f"{role['id']}.webp")
            path.write_bytes(icon_art(role["id"], alignment))
            written.append(path)
    return written
