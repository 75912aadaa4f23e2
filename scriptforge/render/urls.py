"""Which URLs a render may read, and reading them (the URL policy of every sheet).

- ``data:`` URLs, and ``file:`` URLs inside the package fonts folder, the script's folder and the
  ``--icons`` folder; nothing else on disk;
- ``http(s)`` only through the user cache of remote images (``imagecache``), and fetched only with
  ``allow_network``, each picture within ``FETCH_SECONDS`` and all of one command within
  ``FETCH_TOTAL_TIMES`` × that and ``FETCH_TOTAL_BYTES`` (``fetch.Budget``);
- anything else is refused (``FetchRefused``, with the reason): the caller records a warning and
  the character gets its generated icon instead.

The budget is the one thing a render changes here: it belongs to the command, not to a render (a
batch of 100 scripts shares its 20 s), so it lives on the `UrlPolicy` the command makes.
"""

import base64
import mimetypes
import os
from pathlib import Path
import urllib.parse

from scriptforge.render.images import MAX_IMAGE_BYTES, image_problem
from scriptforge.io.paths import FONTS_DIR
from scriptforge.render.choices import FETCH_SECONDS
from scriptforge.render.weasy import import_weasyprint

FETCH_TOTAL_TIMES = 4  # all remote pictures of one command: 4 × that (20 s by default)
FETCH_TOTAL_BYTES = 32 * 1024 * 1024  # and 32 MiB in all (each at most images.MAX_IMAGE_BYTES)


class FetchRefused(Exception):
    pass


class NotFetched(FetchRefused):
    """A remote image not in the cache while the network is off: counted, one warning per script."""


def not_fetched_warning(count: int) -> str:
    return f"{count} image{'s' if count != 1 else ''} not fetched: use --allow-network"


class UrlPolicy:
    """What one command's renders may read: `read` for the icons, `fetcher` for WeasyPrint."""

    def __init__(self, *, allow_network: bool = False, icons_dir: Path | None = None,
                 fetch_seconds: float = FETCH_SECONDS):
        # deferred: start-up time
        from scriptforge.io.fetch import Budget

        self.allow_network = allow_network
        self.icons_dir = Path(icons_dir).resolve() if icons_dir else None
        self.fetch_seconds = fetch_seconds  # per remote picture; the whole command gets FETCH_TOTAL_TIMES that
        self.budget = Budget(seconds=FETCH_TOTAL_TIMES * fetch_seconds, bytes=FETCH_TOTAL_BYTES)

    def allowed_roots(self, base_dir: Path | None) -> list[Path]:
        roots = [FONTS_DIR.resolve()]
        if base_dir is not None:
            roots.append(Path(base_dir).resolve())
        if self.icons_dir is not None:
            roots.append(self.icons_dir)
        return roots

    def read(self, url: str, base_dir: Path | None) -> tuple[bytes, str]:
        """(bytes, mime type) of an allowed URL; FetchRefused with the reason otherwise."""
        parsed = urllib.parse.urlsplit(url)
        scheme = parsed.scheme.lower()
        if scheme == "data":
            header, _, payload = url[5:].partition(",")
            mime = header.split(";")[0] or "text/plain"
            data = base64.b64decode(payload) if header.endswith(";base64") else urllib.parse.unquote_to_bytes(payload)
            return data, mime
        if scheme == "file":
            path = Path(os.fsdecode(urllib.parse.unquote_to_bytes(parsed.path))).resolve()  # a name's bytes as they are
            if not any(path.is_relative_to(root) for root in self.allowed_roots(base_dir)):
                raise FetchRefused(f"{url}: outside the script's folder, the icons folder and the fonts")
            if not path.is_file():
                raise FetchRefused(f"{url}: no such file")
            if path.stat().st_size > MAX_IMAGE_BYTES:
                raise FetchRefused(f"{url}: larger than the limit of {MAX_IMAGE_BYTES // (1024 * 1024)} MiB")
            return path.read_bytes(), mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if scheme in ("http", "https"):
            return self._remote(url)
        raise FetchRefused(f"{url}: unsupported URL scheme")

    def _remote(self, url: str) -> tuple[bytes, str]:
        """A remote image from the user cache, else (with --allow-network) fetched and cached."""
        # deferred: start-up time
        from scriptforge.io import imagecache
        cached = imagecache.lookup(url)
        if cached is not None and not (self.allow_network and cached.stale):
            return cached.data, cached.mime
        if not self.allow_network:
            raise NotFetched(f"{url}: network access is off (use --allow-network)")
        # deferred: start-up time
        from scriptforge.io.fetch import FetchFailed, fetch_url

        try:
            data, mime = fetch_url(url, max_bytes=MAX_IMAGE_BYTES, timeout=self.fetch_seconds, budget=self.budget)
        except FetchFailed as exc:
            if cached is not None:
                return cached.data, cached.mime
            raise FetchRefused(f"{url}: {exc}") from None
        problem = image_problem(data, mime) if mime.startswith("image/") else f"not an image ({mime})"
        if problem:
            raise FetchRefused(f"{url}: {problem}")
        imagecache.store(url, data, mime)
        return data, mime

    def fetcher(self, base_dir: Path | None, warnings: list[str]):
        """A WeasyPrint URL fetcher that only reads what `read` allows; a refusal is a warning."""
        import_weasyprint()
        # deferred: start-up time
        from weasyprint.urls import URLFetcher, URLFetcherResponse

        policy = self

        class SafeFetcher(URLFetcher):
            def fetch(self, url, headers=None):
                try:
                    data, mime = policy.read(url, base_dir)
                    problem = image_problem(data, mime) if (mime or "").startswith("image/") else None
                    if problem:  # e.g. a picture an SVG refers to
                        raise FetchRefused(f"{url[:60]}: {problem}")
                except FetchRefused as exc:
                    warnings.append(f"not loaded: {exc}")
                    raise ValueError(str(exc)) from None
                return URLFetcherResponse(url, data, {"Content-Type": mime})

        return SafeFetcher()
