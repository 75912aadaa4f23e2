"""What the cache commands say: the cache's place and every kind of entry (`cache info`), what
`cache clear` removed."""

from pathlib import Path


def size(count: int) -> str:
    """Bytes for people: 0 B, 12.3 KiB, 4.5 MiB."""
    amount = float(count)
    for unit in ("B", "KiB", "MiB"):
        if amount < 1024 or unit == "MiB":
            return f"{int(amount)} {unit}" if unit == "B" else f"{amount:.1f} {unit}"
        amount /= 1024
    raise AssertionError("unreachable")


def info_lines(root: Path | None, kinds: dict[str, tuple[int, int]], about: dict[str, str]) -> list[str]:
    """The place, then one line per kind (entries, size, what it holds), then the total."""
    if root is None:
        return ["no cache: there is no home folder to keep one in"]
    lines = [f"cache: {root}" + ("" if root.is_dir() else " (empty: not made yet)")]
    width = max(map(len, kinds))
    for kind, (count, held) in kinds.items():
        lines.append(f"  {kind:<{width}}  {count:>5} {'entry' if count == 1 else 'entries'}  {size(held):>10}  "
                     f"{about.get(kind, 'not used by this version: swept when unused for 30 days')}")
    total = sum(held for _, held in kinds.values())
    lines.append(f"  {'total':<{width}}  {sum(count for count, _ in kinds.values()):>5} entries  {size(total):>10}")
    return lines


def info_json(root: Path | None, kinds: dict[str, tuple[int, int]], about: dict[str, str]) -> dict:
    return {"path": None if root is None else str(root),
            "kinds": [{"kind": kind, "entries": count, "bytes": held, "holds": about.get(kind)}
                      for kind, (count, held) in kinds.items()]}


def cleared_line(root: Path | None, files: int, held: int) -> str:
    if root is None or not files:
        return "the cache is empty"
    return f"removed {files} {'file' if files == 1 else 'files'} ({size(held)}) from {root}"
