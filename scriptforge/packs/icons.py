"""The official character icons in the pack: `pack update --icons` brings them in, `icon_for` finds them.

TPI hosts the art of every official character next to the toolmaker data, at
`https://release.botc.app/resources/characters/{edition}/{id}_g.webp` (good), `…/{id}_e.webp`
(evil), or `…/{id}.webp` for characters of one alignment (Fabled, Loric); `--from DIR` reads
`DIR/icons/` in the same layout. The pack keeps one picture per character, the way a sheet shows it:

- Townsfolk and Outsiders the good picture, Minions and Demons the evil one (their own alignment,
  the first of a script's `image` list in the official format: TPI's own World Cup script lists the
  Witch's `_e` picture first); Fabled and Loric their one picture;
- Travellers both halves side by side (good on the left, evil on the right), as the official sheet
  shows a character that can be on either team.

Every file is checked before it is used: a real WebP/PNG/JPEG (Pillow), at most MAX_BYTES, at most
MAX_PIXELS counted from the header before a pixel is decoded (no decompression bombs). Then it is
normalised, so that every icon sits alike on the page whatever margins its artist left: cropped
to its visible pixels (alpha above ALPHA_CUT), centred on a transparent square with MARGIN on each
side and scaled to SIZE px (sharp at 300 dpi on the almanac's largest icon, 4 rem = 0.5 in = 150 px),
stored as PNG with its transparency (see the README's Benchmarks for PNG against JPEG and WebP).

`icons/manifest.json` records, per character, the stored file and its sha256 and each source's URL,
sha256 and HTTP validators (ETag, Last-Modified): a re-run asks the server only whether a file
changed (a conditional GET, answered 304) and reads a `--from` file again only to compare its
sha256, so only changed or missing icons are fetched and converted. A failed icon is one line and
the pack is installed without it (the sheet shows the monogram); nothing else depends on icons.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Sequence
import urllib.parse
import warnings

from scriptforge import __version__
from scriptforge.io.errors import InputError
from scriptforge.io.userfiles import read_bytes

ICONS_URL = "https://release.botc.app/resources/characters/"
FOLDER = "icons"  # inside the pack
MANIFEST = f"{FOLDER}/manifest.json"
FORMAT = 1
SIZE = 160  # px, the stored square
MARGIN = 0.04  # of SIZE, transparent on each side of the visible picture
ALPHA_CUT = 16  # alpha at or below this is margin, not picture (soft edges, stray pixels)
MAX_BYTES = 4 * 1024 * 1024  # a hosted icon is tens of kB
MAX_SIDE = 4096
MAX_PIXELS = 4096 * 4096
FORMATS = {"WEBP", "PNG", "JPEG"}
TIMEOUT = 20.0
WORKERS = 6  # icons fetched at a time
GIVE_UP = 12  # network failures in a row after which the other icons are not tried

#: Which picture a team's character is shown with: its own alignment; Travellers both halves.
OWN_ALIGNMENT = {"townsfolk": "g", "outsider": "g", "minion": "e", "demon": "e"}
SPLIT = ("g", "e")  # Travellers: left half good, right half evil


@dataclass
class IconUpdate:
    """What `update_icons` did: the pack's icon files (path inside the pack -> bytes) and counts."""

    files: dict[str, bytes] = field(default_factory=dict)
    fetched: int = 0  # fetched (or read) and converted
    kept: int = 0  # unchanged since the installed pack
    failed: list[str] = field(default_factory=list)  # one line each

    @property
    def count(self) -> int:
        return len(self.files) - (MANIFEST in self.files)

    def summary(self) -> str:
        return (f"icons: {self.count} in the pack ({self.fetched} fetched, {self.kept} unchanged"
                f"{f', {len(self.failed)} failed' if self.failed else ''})")


class IconError(Exception):
    """One icon that cannot be had (the message names the URL or file); `network`: the server did
    not answer (as opposed to answering 404 or with a file that is not an icon)."""

    def __init__(self, message: str, network: bool = False):
        super().__init__(message)
        self.network = network


# -- which files ----------------------------------------------------------------------------------


def wanted(records: Iterable[dict[str, Any]]) -> dict[str, list[list[str]]]:
    """Character id -> its parts (one, or the two halves of a Traveller), each a list of paths
    under the icons base to try in order (the first that exists is the one)."""
    out = {}
    for record in records:
        char_id, team, edition = record.get("id"), record.get("team"), record.get("edition")
        if not (isinstance(char_id, str) and isinstance(team, str) and isinstance(edition, str)) \
                or not char_id.isalnum() or not edition.replace("_", "").isalnum():
            continue
        one = f"{edition}/{char_id}.webp"
        if team == "traveller":
            out[char_id] = [[f"{edition}/{char_id}_{a}.webp"] for a in SPLIT]
        elif team in OWN_ALIGNMENT:
            out[char_id] = [[f"{edition}/{char_id}_{OWN_ALIGNMENT[team]}.webp", one]]
        else:
            out[char_id] = [[one, f"{edition}/{char_id}_g.webp"]]
    return out


# -- getting one file -----------------------------------------------------------------------------


@dataclass
class Got:
    """One icon file as fetched or read: where from (a URL, or a file URI), its bytes (None: not
    modified since the copy we had) and its HTTP validators."""

    location: str
    body: bytes | None  # None: not modified since `before`
    etag: str | None = None
    last_modified: str | None = None


def _fetch(url: str, before: dict[str, Any] | None, timeout: float) -> Got | None:
    """The file at `url` (None on 404/410); a conditional GET when `before` has validators."""
    # deferred: start-up time
    import socket
    import urllib.error
    import urllib.request


    headers = {"User-Agent": f"scriptforge/{__version__}"}
    if before and before.get("etag"):
        headers["If-None-Match"] = before["etag"]
    if before and before.get("last_modified"):
        headers["If-Modified-Since"] = before["last_modified"]
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body: bytes = response.read(MAX_BYTES + 1)
            etag, modified = response.headers.get("ETag"), response.headers.get("Last-Modified")
    except urllib.error.HTTPError as exc:
        if exc.code == 304 and before:
            return Got(url, None, before.get("etag"), before.get("last_modified"))
        if exc.code in (404, 410):
            return None
        raise IconError(f"{url}: HTTP {exc.code} {exc.reason}", network=exc.code >= 500) from None
    except (TimeoutError, socket.timeout):
        raise IconError(f"{url}: no answer within {timeout:g} s", network=True) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise IconError(f"{url}: no answer within {timeout:g} s", network=True) from None
        raise IconError(f"{url}: {getattr(reason, 'strerror', None) or reason}", network=True) from None
    except (OSError, ValueError) as exc:
        raise IconError(f"{url}: {exc}", network=True) from None
    if len(body) > MAX_BYTES:
        raise IconError(f"{url}: larger than {MAX_BYTES // (1024 * 1024)} MB")
    return Got(url, body, etag, modified)


def _read(path: Path) -> Got | None:
    """An icon file of a --from folder: a regular file only (a FIFO named like an icon is refused
    at once, not waited on), at most MAX_BYTES; None when there is none."""
    if not os.path.lexists(path):
        return None
    try:
        body = read_bytes(path, MAX_BYTES)
    except InputError as exc:
        raise IconError(str(exc)) from None
    return Got(path.resolve().as_uri(), body)


# -- checking and normalising ---------------------------------------------------------------------


def checked_image(raw: bytes, where: str) -> Any:
    """The decoded RGBA picture of `raw`; IconError unless it is a WebP, PNG or JPEG within the
    limits (the size is read from the header, before any pixel is decoded)."""
    # deferred: start-up time
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw), formats=sorted(FORMATS))
            width, height = image.size
            if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS or not width or not height:
                raise IconError(f"{where}: {width}x{height} pixels, more than an icon has (at most {MAX_SIDE} a side)")
            image.load()
    except IconError:
        raise
    except UnidentifiedImageError:
        raise IconError(f"{where}: not a WebP, PNG or JPEG image") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise IconError(f"{where}: too many pixels to decode safely") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise IconError(f"{where}: damaged image ({str(exc)[:80] or 'cannot be decoded'})") from None
    return image.convert("RGBA")


def visible_box(image: Any) -> tuple[int, int, int, int]:
    """The box of `image`'s visible pixels (alpha above ALPHA_CUT)."""
    box = image.getchannel("A").point(lambda a: 255 if a > ALPHA_CUT else 0).getbbox()
    if box is None:
        raise ValueError("the picture is fully transparent")
    return box


def normalised(image: Any, box: tuple[int, int, int, int] | None = None) -> Any:
    """`image` cropped to its visible pixels (or `box`), centred on a transparent square with MARGIN
    each side, scaled to SIZE x SIZE."""
    # deferred: start-up time
    from PIL import Image

    visible = image.crop(box or visible_box(image))
    side = max(visible.size)
    square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    square.paste(visible, ((side - visible.width) // 2, (side - visible.height) // 2))
    inner = SIZE - 2 * round(SIZE * MARGIN)
    out = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    out.paste(square.resize((inner, inner), Image.Resampling.LANCZOS), ((SIZE - inner) // 2,) * 2)
    return out


def split(good: Any, evil: Any) -> Any:
    """A Traveller's icon: the left half of the good picture beside the right half of the evil one."""
    out = good.copy()
    half = SIZE // 2
    out.paste(evil.crop((half, 0, SIZE, SIZE)), (half, 0))
    return out


def png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def icon_bytes(parts: list[bytes], where: str) -> bytes:
    """The stored PNG of a character from its source files (one, or a Traveller's two halves)."""
    images = [checked_image(raw, where) for raw in parts]
    try:
        boxes = [visible_box(image) for image in images]
        if len(images) == 2 and images[0].size == images[1].size:  # the two halves cropped alike
            union = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                     max(b[3] for b in boxes))
            boxes = [union, union]
        pictures = [normalised(image, box) for image, box in zip(images, boxes)]
    except ValueError as exc:
        raise IconError(f"{where}: {exc}") from None
    return png(split(*pictures) if len(pictures) == 2 else pictures[0])


# -- the update -----------------------------------------------------------------------------------


def installed_icons(pack: Path | None) -> tuple[dict[str, Any], dict[str, bytes]]:
    """(manifest entries, files by path inside the pack) of the icons of an installed pack."""
    if pack is None:
        return {}, {}
    manifest = _manifest(Path(pack))
    files = {}
    for char_id, entry in manifest.items():
        try:
            data = (Path(pack) / FOLDER / entry["file"]).read_bytes()
        except (OSError, KeyError, TypeError):
            continue
        if hashlib.sha256(data).hexdigest() == entry.get("sha256"):
            files[f"{FOLDER}/{entry['file']}"] = data
    return manifest, files


def carried_over(pack: Path | None, ids: Iterable[str]) -> IconUpdate:
    """The installed pack's icons of the characters `ids`, unchanged (a `pack update` without --icons)."""
    manifest, files = installed_icons(pack)
    out = IconUpdate()
    entries = {}
    for char_id in ids:
        entry = manifest.get(char_id)
        if entry and f"{FOLDER}/{entry['file']}" in files:
            entries[char_id] = entry
            out.files[f"{FOLDER}/{entry['file']}"] = files[f"{FOLDER}/{entry['file']}"]
            out.kept += 1
    if entries:
        out.files[MANIFEST] = manifest_bytes(entries)
    return out


def update_icons(records: Iterable[dict[str, Any]], *, installed: Path | None = None, from_dir: Path | None = None,
                 url: str = ICONS_URL, timeout: float = TIMEOUT,
                 bar: Callable[[int], ContextManager[Any]] | None = None) -> IconUpdate:
    """The icon of every official character in `records` (roles.json), fetched from `url` or read
    from `from_dir/icons/`, checked and normalised; what the `installed` pack already has is kept
    when its sources did not change. `bar(total)` makes the one progress bar."""
    # deferred: start-up time
    from concurrent.futures import ThreadPoolExecutor

    if from_dir is not None and not (Path(from_dir) / FOLDER).is_dir():
        kept = carried_over(installed, (str(r.get("id")) for r in records))
        kept.failed.append(f"{Path(from_dir) / FOLDER}: no such folder (with --from DIR, --icons reads "
                           f"DIR/{FOLDER}/<edition>/<id>_g.webp, _e.webp or <id>.webp)")
        return kept
    plan = wanted(records)
    manifest, files = installed_icons(installed)
    out = IconUpdate()
    entries: dict[str, Any] = {}
    base = url if url.endswith("/") else url + "/"

    def one(char_id: str) -> tuple[dict[str, Any], bytes | None, bool]:
        before = manifest.get(char_id)
        have = files.get(f"{FOLDER}/{before['file']}") if before else None
        return _one(char_id, plan[char_id], before if have else None, from_dir, base, timeout)

    # A few at a time: the time goes into waiting for the server (and Pillow, which lets go of the GIL).
    with (bar(len(plan)) if bar else nullcontext(None)) as progress, ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = [(char_id, pool.submit(one, char_id)) for char_id in plan]
        in_a_row = 0  # network failures: a server that does not answer is not asked 181 times
        for done, (char_id, future) in enumerate(futures):
            if in_a_row >= GIVE_UP:
                for _, rest in futures[done:]:
                    rest.cancel()
                out.failed.append(f"{len(futures) - done} icons not tried: the server failed {GIVE_UP} times in a row")
                break
            try:
                entry, data, changed = future.result()
            except IconError as exc:
                out.failed.append(str(exc))
                in_a_row = in_a_row + 1 if exc.network else 0
            except (OSError, ValueError) as exc:  # a picture Pillow cannot convert: this icon only
                out.failed.append(f"{char_id}: {exc}")
                in_a_row = 0
            else:
                in_a_row = 0
                stored = data if changed else files.get(f"{FOLDER}/{entry['file']}")
                assert stored is not None
                entries[char_id] = entry
                out.files[f"{FOLDER}/{entry['file']}"] = stored
                if changed:
                    out.fetched += 1
                else:
                    out.kept += 1
            if progress is not None:
                progress.update(1)
    if entries:
        out.files[MANIFEST] = manifest_bytes(entries)
    return out


def _one(char_id: str, parts: list[list[str]], before: dict[str, Any] | None, from_dir: Path | None, base: str,
         timeout: float) -> tuple[dict[str, Any], bytes | None, bool]:
    """(manifest entry, stored PNG or None when unchanged, whether it changed) of one character."""
    old_sources = {s.get("url"): s for s in (before or {}).get("sources", []) if isinstance(s, dict)}
    sources: list[dict[str, Any]] = []
    bodies: list[bytes | None] = []  # None: the server said "not modified"
    same = []
    for candidates in parts:
        got = None
        for rel in candidates:
            if from_dir:
                got = _read(Path(from_dir) / FOLDER / rel)
            else:
                location = urllib.parse.urljoin(base, rel)
                got = _fetch(location, old_sources.get(location), timeout)
            if got is not None:
                break
        if got is None:
            tried = [str(Path(from_dir) / FOLDER / r) if from_dir else urllib.parse.urljoin(base, r) for r in candidates]
            raise IconError(f"{char_id}: no icon at {' or '.join(tried)}")
        old = old_sources.get(got.location)
        if got.body is None:  # 304: as it was
            assert old is not None
            sources.append(dict(old))
            bodies.append(None)
            same.append(True)
            continue
        digest = hashlib.sha256(got.body).hexdigest()
        sources.append({"url": got.location, "sha256": digest,
                        **({"etag": got.etag} if got.etag else {}),
                        **({"last_modified": got.last_modified} if got.last_modified else {})})
        bodies.append(got.body)
        same.append(old is not None and old.get("sha256") == digest)
    if before is not None and all(same) and len(sources) == len(before.get("sources", [])):
        return {**before, "sources": sources}, None, False
    raw = []
    for source, body in zip(sources, bodies):
        if body is None:  # this half did not change but the other did: the whole file again
            got = _fetch(source["url"], None, timeout)
            if got is None or got.body is None:
                raise IconError(f"{char_id}: {source['url']}: gone")
            body = got.body
        raw.append(body)
    where = sources[0]["url"] if len(sources) == 1 else f"{char_id} ({', '.join(s['url'] for s in sources)})"
    data = icon_bytes(raw, where)
    entry = {"file": f"{char_id}.png", "sha256": hashlib.sha256(data).hexdigest(), "sources": sources}
    return entry, data, True


def manifest_bytes(entries: dict[str, Any]) -> bytes:
    document = {"format": FORMAT, "size": SIZE, "icons": dict(sorted(entries.items()))}
    return (json.dumps(document, indent=1, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")


# -- finding an icon ------------------------------------------------------------------------------

_manifests: dict[tuple[str, int], dict[str, Any]] = {}


def _manifest(pack: Path) -> dict[str, Any]:
    """The icons of a pack (id -> manifest entry); {} for a pack without icons or a damaged manifest."""
    path = pack / MANIFEST
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    key = (str(path.resolve()), stamp)
    if key not in _manifests:
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
            icons = document.get("icons") if isinstance(document, dict) and document.get("format") == FORMAT else None
        except (OSError, ValueError):
            icons = None
        _manifests[key] = {k: v for k, v in (icons or {}).items()
                           if isinstance(v, dict) and isinstance(v.get("file"), str)
                           and os.sep not in v["file"] and "/" not in v["file"]}
    return _manifests[key]


def icon_for(character_id: str, packs: Sequence[Path]) -> Path | None:
    """The pack icon of an official character: the file of the last of `packs` that has one, or None
    (the sheet shows the monogram). The one lookup every view that shows a character goes through."""
    for pack in reversed(packs):
        entry = _manifest(Path(pack)).get(character_id)
        if entry:
            path = Path(pack) / FOLDER / entry["file"]
            if path.is_file():
                return path
    return None
