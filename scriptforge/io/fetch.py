"""The one network fetch: http(s) bodies read in bounded pieces, under a byte cap and a deadline.

Used by `pack update` (the official files) and by the renderer for homebrew `image` URLs with
`--allow-network`. A server that floods (no Content-Length, or a false one) is cut off after
`max_bytes`; a server that trickles is cut off at `deadline` seconds after the request began,
whatever it sends in between, since each read waits at most for what is left of that time. Any
failure is a `FetchFailed` with one line saying why (never a traceback, never unbounded memory).

`Budget` carries limits across several fetches (the images of one `build`, however many
scripts): bytes and seconds in all.
"""

from dataclasses import dataclass
import time

CHUNK = 64 * 1024


class FetchFailed(Exception):
    """A download that failed or was cut off; the message is the reason, without the URL."""


@dataclass
class Budget:
    """What several fetches may use together: `seconds` of wall time and `bytes` in all."""

    seconds: float
    bytes: int
    used_seconds: float = 0.0
    used_bytes: int = 0

    def left(self) -> tuple[float, int]:
        return self.seconds - self.used_seconds, self.bytes - self.used_bytes


def fetch_url(url: str, *, max_bytes: int, timeout: float, budget: Budget | None = None) -> tuple[bytes, str]:
    """(body, content type) of an http(s) `url`, at most `max_bytes` and `timeout` seconds in all
    (less when `budget` has less left); FetchFailed otherwise."""
    if budget is not None:
        seconds, left = budget.left()
        if seconds <= 0 or left <= 0:
            raise FetchFailed(f"not fetched: this command's download budget ({budget.seconds:g} s, "
                              f"{_mib(budget.bytes)}) is used up")
        timeout, cap = min(timeout, seconds), min(max_bytes, left)
    else:
        cap = max_bytes
    start = time.monotonic()
    try:
        body, kind = _read(url, cap, start + timeout, timeout)
    finally:
        if budget is not None:
            budget.used_seconds += time.monotonic() - start
    if budget is not None:
        budget.used_bytes += len(body)
    return body, kind


def _read(url: str, cap: int, deadline: float, timeout: float) -> tuple[bytes, str]:
    # deferred: start-up time (a render imports this module, and fetches nothing unless asked)
    import socket
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": f"scriptforge/{_version()}"})
    try:
        with urllib.request.urlopen(request, timeout=max(0.05, min(timeout, deadline - time.monotonic()))) as response:
            length = response.headers.get("Content-Length")
            if length and length.strip().isdigit() and int(length) > cap:
                raise FetchFailed(f"refused: {_mib(int(length))} announced, more than the limit of {_mib(cap)}")
            pieces: list[bytes] = []
            size = 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise FetchFailed(f"no complete answer within {timeout:g} s")
                _set_timeout(response, left)
                piece = response.read1(CHUNK)
                if not piece:
                    break
                size += len(piece)
                if size > cap:
                    raise FetchFailed(f"refused: larger than the limit of {_mib(cap)}")
                pieces.append(piece)
            return b"".join(pieces), response.headers.get_content_type()
    except FetchFailed:
        raise
    except urllib.error.HTTPError as exc:
        raise FetchFailed(f"HTTP {exc.code} {exc.reason}") from None
    except (TimeoutError, socket.timeout):
        raise FetchFailed(f"no answer within {timeout:g} s") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise FetchFailed(f"no answer within {timeout:g} s") from None
        raise FetchFailed(str(getattr(reason, "strerror", None) or reason)) from None
    except (OSError, ValueError, EOFError) as exc:  # also http.client's errors (IncompleteRead, bad headers)
        raise FetchFailed(str(exc) or type(exc).__name__) from None
    except Exception as exc:  # http.client.HTTPException and the like: a broken answer
        raise FetchFailed(f"a broken answer ({type(exc).__name__})") from None


def _version() -> str:
    """The installed version (read from the package metadata: this base module imports no layer above)."""
    # deferred: start-up time
    from importlib import metadata

    try:
        return metadata.version("scriptforge")
    except metadata.PackageNotFoundError:
        return "0"


def _set_timeout(response, seconds: float) -> None:
    """Let the next read wait at most `seconds` (http.client keeps the socket in fp.raw._sock)."""
    # deferred: start-up time
    import socket

    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if isinstance(sock, socket.socket):
        sock.settimeout(max(0.01, seconds))


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MiB" if size >= 1024 * 1024 else f"{size:,} bytes"
