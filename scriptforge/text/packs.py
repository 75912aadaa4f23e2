"""What the pack commands say: a pack made (`pack import`, `pack update`), the installed packs
(`pack list`), what changed between two versions of the official data (`pack diff`, and `pack
update`'s summary), and the official translations an update made stale."""

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scriptforge.model.findings import short
from scriptforge.model.markup import to_text
from scriptforge.db.pack_store import InstalledPack, Manifest

if TYPE_CHECKING:  # `pack list` loads neither the diff nor the installer
    from scriptforge.packs.diff import PackDiff
    from scriptforge.packs.install import UpdateResult


def pack_line(manifest: Manifest, path: Path) -> str:
    """One line for a pack just written."""
    return (f"pack '{manifest.name}': {manifest.characters} characters, {manifest.jinxes} jinxes, "
            f"languages {', '.join(manifest.languages) or '-'} -> {path}")


def update_lines(result: "UpdateResult") -> list[str]:
    """What `pack update` prints after its warnings: the pack, its icons, the languages added or
    removed, what changed and the official translations made stale."""
    lines = [pack_line(result.build.manifest, result.path)]
    if result.icons is not None:
        lines.append(result.icons.summary())
    if result.languages.added:
        lines.append(f"languages added: {', '.join(result.languages.added)}")
    if result.languages.removed:
        lines.append(f"languages removed: {', '.join(result.languages.removed)}")
    if result.diff is not None:
        lines.append(diff_text(result.diff))
    return lines + stale_lines(result.build.stale)


def stale_lines(stale: dict[str, list[str]]) -> list[str]:
    """One line per stale official translation, for `pack update`."""
    return [f"stale official translation: {lang} {key} (its English changed since it was translated; "
            f"see 'scriptforge l10n diff --to {lang}')" for lang, keys in stale.items() for key in keys]


def pack_rows(packs: list[InstalledPack]) -> list[dict[str, Any]]:
    """`pack list --format json`."""
    return [{"name": p.manifest.name, "path": str(p.path), "characters": p.manifest.characters,
             "jinxes": p.manifest.jinxes, "languages": list(p.manifest.languages),
             "sources": [s.file for s in p.manifest.sources]} for p in packs]


def pack_list_text(packs: list[InstalledPack], folder: Path) -> str:
    """`pack list`: one line per installed pack."""
    if not packs:
        return f"no packs in {folder}"
    return "\n".join(f"{p.manifest.name:<16} {p.manifest.characters or 0:>4} characters  "
                     f"{p.manifest.jinxes or 0:>4} jinxes  {','.join(p.manifest.languages) or '-':<6} {p.path}"
                     for p in packs)


def diff_text(report: "PackDiff") -> str:
    """`pack diff`: one line per change."""
    # deferred: start-up time
    from scriptforge.packs.diff import ADDED, MOVED  # here, not at the top: `pack list` never loads the diff

    if report.is_empty:
        return "no changes"
    lines = []
    for entries, label in ((report.added, "new character"), (report.removed, "removed character")):
        for c in entries:
            lines.append(f"{label}: {c.id} ({c.name}, {c.team})")
    for change in report.changed:
        lines.append(f"changed {change.id}.{change.field}: {_short(change.old)} -> {_short(change.new)}")
    for night, moves in report.night.items():
        label = night.replace("_", " ")
        for m in moves:
            if m.change == MOVED:
                lines.append(f"{label}: {m.id} moved from {m.old} to {m.new}")
            elif m.change == ADDED:
                lines.append(f"{label}: {m.id} now wakes at {m.new}")
            else:
                lines.append(f"{label}: {m.id} no longer wakes (was {m.old})")
    for jinxes, label in ((report.jinxes.added, "new jinx"), (report.jinxes.removed, "retired jinx"),
                          (report.jinxes.changed, "changed jinx")):
        for j in jinxes:
            lines.append(f"{label}: {' & '.join(j.characters)}")
    for s in report.stale:
        lines.append(f"stale translation: {s.lang} {s.unit} ({s.reason})")
    return "\n".join(lines)


def _short(value: Any, limit: int = 70) -> str:
    return short(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else to_text(value) or "", limit)


def icon_failure_lines(failed: list[str], limit: int = 10) -> list[str]:
    """One line per icon `pack update` could not install, at most `limit` (then how many more)."""
    lines = [f"icon not installed: {line}" for line in failed[:limit]]
    if len(failed) > limit:
        lines.append(f"{len(failed) - limit} more icons not installed")
    return lines
