"""Remote images of scripts (homebrew icons, logos, backgrounds), fetched once and kept in the user cache.

With `--allow-network` an `http(s)` image is fetched (by the renderer, through `fetch.fetch_url`
and its byte and time caps), and what was fetched is kept in the user cache (`io.cache`, kind
"images"), named by the sha256 of its URL: one entry holding a line of JSON (URL, content type,
when fetched) and the bytes. Later builds read the cache and need no network, with or without
`--allow-network`; with it, an entry older than MAX_AGE is fetched again (and kept if that fails:
an old picture beats none). The cache's own sweep keeps it within its size cap, the entries used
longest ago going first. Only images are kept (the renderer checks each before it is cached or used).
"""

from __future__ import annotations

from dataclasses import dataclass
import hashlib
import json
import time

from scriptforge.io import cache

MAX_AGE = 30 * 24 * 3600  # seconds: an entry older than this is fetched again when the network is allowed


@dataclass
class Cached:
    """An image kept in the cache: its bytes, its content type and when it was fetched."""

    data: bytes
    mime: str
    fetched: float  # seconds since the epoch

    @property
    def stale(self) -> bool:
        return time.time() - self.fetched > MAX_AGE


def _key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()


def lookup(url: str) -> Cached | None:
    """The cached image of `url`, or None."""
    entry = cache.read("images", _key(url))
    if entry is None:
        return None
    line, _, data = entry.partition(b"\n")
    try:
        meta = json.loads(line)
    except ValueError:
        return None
    if not isinstance(meta, dict) or meta.get("url") != url:
        return None  # (never seen) a key collision
    return Cached(data, str(meta.get("mime") or "application/octet-stream"), float(meta.get("fetched") or 0))


def store(url: str, data: bytes, mime: str) -> None:
    """Keep `data` as the image of `url` (a read-only or full cache only costs the next build time)."""
    meta = {"url": url, "mime": mime, "fetched": time.time()}
    cache.write("images", _key(url), json.dumps(meta).encode("utf-8") + b"\n" + data)
