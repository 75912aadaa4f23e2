"""The picture each icon of a view gets, as a ``data:`` URL, or none (the generated badge).

Precedence (``icons.icon_for`` holds the pack's part): the character's file in the ``--icons``
folder (``<id>.svg``, ``.png``, ``.webp``, ``.jpg``), else the view's own URL (a homebrew image, the
script's logo) read through the `UrlPolicy` and checked by ``images.checked_image`` (every SVG of
one document together within ``SVG_TOTAL_ELEMENTS``), else the official icon in the packs, else
none. Each URL is read once per document; each pack icon once per `Pictures`.
"""

import base64
from pathlib import Path
from typing import Sequence

from scriptforge.render.images import SVG_TOTAL_ELEMENTS, checked_image
from scriptforge.render.urls import FetchRefused, NotFetched, UrlPolicy, not_fetched_warning

ICON_SUFFIXES = (".svg", ".png", ".webp", ".jpg", ".jpeg")  # pictures in an --icons folder, by id


class Pictures:
    def __init__(self, urls: UrlPolicy, packs: Sequence[Path] = ()):
        self.urls = urls
        self.packs = tuple(packs)  # data packs whose character icons are used (scriptforge.packs.icons)
        self._pack_icon_urls: dict[str, str | None] = {}  # a cache: the same answer every time

    def icon_file(self, character_id: str) -> Path | None:
        """The picture of a character in the --icons folder (<id>.svg, .png, .webp, .jpg)."""
        if self.urls.icons_dir is None:
            return None
        for suffix in ICON_SUFFIXES:
            candidate = self.urls.icons_dir / f"{character_id}{suffix}"
            if candidate.is_file():
                return candidate
        return None

    def pack_icon_url(self, character_id: str) -> str | None:
        """The data: URL of a character's icon in the packs (``icons.icon_for``), read once."""
        if character_id not in self._pack_icon_urls:
            # deferred: start-up time
            from scriptforge.packs.icons import icon_for

            path = icon_for(character_id, self.packs) if self.packs else None
            try:
                data = path.read_bytes() if path else None
            except OSError:
                data = None
            self._pack_icon_urls[character_id] = \
                f"data:image/png;base64,{base64.b64encode(data).decode('ascii')}" if data else None
        return self._pack_icon_urls[character_id]

    def resolve(self, icons, base_dir: Path | None, warnings: list[str]) -> None:
        """Give each icon its picture (see the module's docstring). The icons are changed in place:
        call it on the renderer's own copy of a view, never on the caller's."""
        seen: dict[str, str | None] = {}
        not_fetched: set[str] = set()
        svg_left = SVG_TOTAL_ELEMENTS
        for icon in icons:
            found = self.icon_file(icon.character) if icon.character else None
            if found is not None:
                icon.url = found.resolve().as_uri()
            if not icon.url:
                continue
            if icon.url not in seen:
                shown = icon.url[:60] + "…" if icon.url.startswith("data:") and len(icon.url) > 80 else icon.url
                try:
                    data, mime = self.urls.read(icon.url, base_dir)
                    if not (mime or "").startswith("image/"):
                        raise FetchRefused(f"{shown}: not an image ({mime})")
                    problem, cost = checked_image(data, mime)
                    if problem is None and cost > svg_left:
                        problem = (f"the SVG pictures of this document would have more than "
                                   f"{SVG_TOTAL_ELEMENTS:,} elements together; too costly to draw")
                    if problem:
                        raise FetchRefused(f"{shown}: {problem}")
                    svg_left -= cost
                    seen[icon.url] = icon.url if icon.url.startswith("data:") else \
                        f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
                except NotFetched:
                    not_fetched.add(icon.url)
                    seen[icon.url] = None
                except (FetchRefused, OSError, ValueError) as exc:
                    instead = "the title is printed instead" if icon.key == "logo" else "generated icon instead"
                    warnings.append(f"{'logo' if icon.key == 'logo' else 'image'} not used, {instead}: {exc}")
                    seen[icon.url] = None
            icon.url = seen[icon.url]
        for icon in icons:
            if not icon.url and icon.character:
                icon.url = self.pack_icon_url(icon.character)
                icon.official = icon.url is not None
        if not_fetched:
            warnings.append(not_fetched_warning(len(not_fetched)))
