"""Remote images of scripts (homebrew icons, logos, backgrounds), fetched once and kept in the user cache.

With `--allow-network` an `http(s)` image is fetched (by the renderer, through `fetch.fetch_url`
and its byte and time caps), and what was fetched is kept in `<user cache>/scriptforge/images/`, keyed by the sha256
of its URL: `<key>.img` (the bytes) beside `<key>.json` (URL, content type, when fetched). Later
builds read the cache and need no network, with or without `--allow-network`; with it, an entry
older than MAX_AGE is fetched again (and kept if that fails: an old picture beats none). The
folder is kept under MAX_TOTAL bytes: after each write the entries used longest ago go first.
Only images are kept (the renderer checks each before it is cached or used).
"""

from __future__ import annotations

from dataclasses import dataclass
import hashlib
import json
import os
from pathlib import Path
import time

from scriptforge.io.fileio import atomic_write_bytes
from scriptforge.io.paths import cache_dir

MAX_AGE = 30 * 24 * 3600  # seconds: an entry older than this is fetched again when the network is allowed
MAX_TOTAL = 200 * 1024 * 1024  # the whole cache folder


@dataclass
class Cached:
    """An image kept in the cache: its bytes, its content type and when it was fetched."""

    data: bytes
    mime: str
    fetched: float  # seconds since the epoch

    @property
    def stale(self) -> bool:
        return time.time() - self.fetched > MAX_AGE


def folder() -> Path:
    return cache_dir("images")


def _key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()


def lookup(url: str) -> Cached | None:
    """The cached image of `url`, or None."""
    key = _key(url)
    try:
        meta = json.loads((folder() / f"{key}.json").read_text(encoding="utf-8"))
        data = (folder() / f"{key}.img").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("url") != url or meta.get("sha256") != hashlib.sha256(data).hexdigest():
        return None  # damaged, or (never seen) a key collision
    try:
        os.utime(folder() / f"{key}.img")  # used now: pruned last
    except OSError:
        pass
    return Cached(data, str(meta.get("mime") or "application/octet-stream"), float(meta.get("fetched") or 0))


def store(url: str, data: bytes, mime: str) -> None:
    """Keep `data` as the image of `url` (a read-only or full cache only costs the next build time)."""
    key = _key(url)
    meta = {"url": url, "mime": mime, "fetched": time.time(), "sha256": hashlib.sha256(data).hexdigest()}
    try:
        atomic_write_bytes(folder() / f"{key}.img", data, durable=False)
        atomic_write_bytes(folder() / f"{key}.json", json.dumps(meta).encode("utf-8"), durable=False)
    except OSError:
        return
    prune()


def prune(limit: int = MAX_TOTAL) -> None:
    """Delete the entries used longest ago until the folder holds at most `limit` bytes."""
    try:
        entries = [(p.stat().st_mtime, p.stat().st_size, p) for p in folder().glob("*.img")]
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        for victim in (path, path.with_suffix(".json")):
            try:
                victim.unlink()
            except OSError:
                pass
        total -= size
