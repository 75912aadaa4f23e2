"""Making and changing script files: the library behind `new`, `add`, `remove` and `meta`.

A script file is read whole and checked before anything is touched (a file that is not a script
raises InputError); every name is resolved before the first change, so a bad name changes
nothing; the result keeps the file's entry style (plain ids or `{"id"}` objects), key order and
indent, and is written atomically (through a symlink, keeping the file's permissions). The whole
read-change-write holds the script's lock, so edits made at once wait for each other and none is
lost. Each change returns a `Change`: what changed and how the script's analysis moved (team
counts, jinxes, Djinn, validate findings that appeared or went).
"""

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
import functools
import json
import os
from pathlib import Path
import re
from typing import Any

from scriptforge.db.database import Database
from scriptforge.model.records import NIGHT_TABLE
from scriptforge.model.languages import official
from scriptforge.io.errors import InputError, NotFoundError, ScriptforgeError
from scriptforge.io.fileio import atomic_write_text, locked
from scriptforge.io.userfiles import assert_writable, check_option, read_text
from scriptforge.scripts.analysis import Analysis, analyse
from scriptforge.model.findings import Selection, count
from scriptforge.scripts.script import SOURCES_KEY, Script, parse_script, script_from_data

META_KEYS = ("name", "author", "logo", "almanac", "bootlegger")
_QUIET_CODES = {"team-counts"}
MAX_SHOWN = 8  # findings that came or went, listed one a line  # shown as the state line, not as a finding that came or went


@dataclass
class ScriptFile:
    """A script file as read: its JSON (in its own key order) and how it is written."""

    path: Path
    data: list
    indent: int | str | None = 2
    ascii_only: bool = False

    @property
    def object_style(self) -> bool:
        """True when the file lists official characters as {"id": …} objects, not plain strings."""
        plain = [e for e in self.data if isinstance(e, str)]
        short = [e for e in self.data if isinstance(e, dict) and set(e) == {"id"} and e["id"] != "_meta"]
        return bool(short) and not plain

    def meta(self) -> dict | None:
        return next((e for e in self.data if isinstance(e, dict) and e.get("id") == "_meta"), None)

    def text(self) -> str:
        assert_writable(self.data)
        return json.dumps(self.data, ensure_ascii=self.ascii_only, indent=self.indent, allow_nan=False) + "\n"

    def save(self) -> None:
        try:
            atomic_write_text(self.path, self.text())
        except OSError as exc:
            raise ScriptforgeError(f"cannot write the script: {exc.strerror or exc}; the file is unchanged",
                                   where=str(self.path)) from None


@dataclass(frozen=True)
class Change:
    """What one command changed and how the script's analysis moved."""

    path: Path
    done: tuple[str, ...]  # "added Fang Gu (fanggu)", "name: 'a' -> 'b'", …
    notes: tuple[str, ...]  # nothing to do for these ("imp is already on the script")
    before: Analysis | None
    after: Analysis
    jinxes_before: frozenset = frozenset()
    jinxes_after: dict = field(default_factory=dict)  # frozenset pair -> "a × b"
    djinn_needed: bool = False

    @property
    def new_jinxes(self) -> list[str]:
        return [label for key, label in self.jinxes_after.items() if key not in self.jinxes_before]

    def findings_diff(self, chosen: Selection = Selection()) -> tuple[list, list]:
        """(appeared, went away): validate findings compared by code and message."""
        def keyed(analysis: Analysis | None) -> dict:
            if analysis is None:
                return {}
            return {_key(f): f for f in chosen.apply(analysis.findings) if f.code not in _QUIET_CODES}

        old, new = keyed(self.before), keyed(self.after)
        return [f for k, f in new.items() if k not in old], [f for k, f in old.items() if k not in new]

    def lines(self, chosen: Selection = Selection()) -> list[str]:
        out = [f"{self.path}: {line}" for line in self.done] or [f"{self.path}: unchanged"]
        out += [f"  {note}" for note in self.notes]
        counts = next((f.message for f in self.after.findings if f.code == "team-counts"), "")
        out.append(f"  teams: {counts}")
        for label in self.new_jinxes:
            out.append(f"  new jinx: {label}")
        if self.jinxes_after:
            djinn = "not on the script (the jinxes are its rules all the same)" if self.djinn_needed \
                else "on the script"
            out.append(f"  jinxes: {len(self.jinxes_after)}; the Djinn is {djinn}")
        appeared, gone = self.findings_diff(chosen)
        shown = [f"  + {f.severity} [{f.code}] {f.message}" for f in appeared]
        shown += [f"  - gone: [{f.code}] {f.message}" for f in gone]
        if len(shown) > MAX_SHOWN:
            shown[MAX_SHOWN - 1:] = [f"  … and {len(shown) - MAX_SHOWN + 1} more changes in the findings"]
        out += shown
        now = chosen.apply(self.after.findings)
        errors, warnings = count(now, "error"), count(now, "warning")
        out.append(f"  now: {errors} error(s), {warnings} warning(s) (scriptforge validate {self.path})")
        return out


def _key(finding) -> tuple:
    """A finding's identity across a change: its code and figures, not the counts that moved."""
    data = {k: v for k, v in finding.data.items() if k != "available"}
    return (finding.code, json.dumps(data, sort_keys=True, ensure_ascii=False) if data else finding.message)


# -- reading and writing -------------------------------------------------------------------------


def _indent(text: str) -> int | str | None:
    """The file's indent: the leading white space of its first indented line; None if on one line."""
    match = re.search(r"\n([ \t]+)\S", text)
    if match:
        space = match.group(1)
        return len(space) if set(space) == {" "} else space
    return None if text.strip() and "\n" not in text.strip() else 2


def open_script(path, db: Database) -> tuple[ScriptFile, Script]:
    """Read a script file for editing; InputError (exit 2) before anything is touched."""
    text = read_text(path)
    script = parse_script(text, db, str(path))
    ascii_only = text.isascii() and "\\u" in text
    return ScriptFile(Path(path), script.document, _indent(text), ascii_only), script


def _analyse(sf: ScriptFile, db: Database) -> Analysis:
    return analyse(script_from_data(sf.data, db, str(sf.path)), db)


def _jinx_labels(analysis: Analysis) -> tuple[dict, bool]:
    script = analysis.script
    return {frozenset(j.characters): " × ".join(_name(script, c) for c in j.characters)
            for j in analysis.jinxes.jinxes}, analysis.jinxes.djinn_needed


def _name(script: Script, char_id: str) -> str:
    ch = script.get(char_id)
    return ch.name(official()) if ch else char_id


def _label(ch) -> str:
    return f"{ch.name(official())} ({ch.id})"


def _finish(sf: ScriptFile, db: Database, before: Script | None, done: list, notes: list) -> Change:
    """Analyse the new state, write the file if anything changed, and describe the change."""
    after = _analyse(sf, db)
    if done:
        sf.save()
    return change_between(sf.path, analyse(before, db) if before is not None else None, after, done, notes)


def change_between(path: Path, before: Analysis | None, after: Analysis, done=(), notes=()) -> Change:
    """How a script's analysis moved from `before` (None: it did not exist) to `after`."""
    old_jinxes = frozenset(_jinx_labels(before)[0]) if before is not None else frozenset()
    new_jinxes, djinn = _jinx_labels(after)
    return Change(Path(path), tuple(done), tuple(notes), before, after, old_jinxes, new_jinxes, djinn)


# -- the four commands ---------------------------------------------------------------------------


def _holding_the_lock(edit: Callable[..., Change]) -> Callable[..., Change]:
    """Run a whole read-change-write with the script file's lock held (see fileio.locked)."""

    @functools.wraps(edit)
    def run(path, *args, **kwargs) -> Change:
        with ExitStack() as stack:
            try:
                stack.enter_context(locked(path))
            except OSError as exc:
                raise ScriptforgeError(f"cannot lock the script for writing: {exc.strerror or exc}; "
                                       "the file is unchanged", where=str(path)) from None
            return edit(path, *args, **kwargs)

    return run


@_holding_the_lock
def new_script(path, db: Database, name: str, author: str | None = None, characters=(), *,
               lang: str | None = None, force: bool = False) -> Change:
    """Create a script file: `_meta` first, then the characters as plain id strings."""
    path = Path(path)
    if path.exists() and not force:
        raise ScriptforgeError("the file already exists; use --force to overwrite it or `add` to change it",
                         where=str(path))
    check_option("--name", name)
    check_option("--author", author)
    meta = {"id": "_meta", "name": name}
    if author:
        meta["author"] = author
    sf = ScriptFile(path, [meta])
    entries, done, notes = _resolve_additions(sf, script_from_data(sf.data, db, str(path)), db, characters, lang)
    sf.data.extend(entry for _, entry in entries)
    return _finish(sf, db, None, [f"created '{name}'"] + done, notes)


@_holding_the_lock
def add_characters(path, db: Database, names, *, lang: str | None = None) -> Change:
    """Add characters (names in any spelling or language, or homebrew YAML files) to a script."""
    sf, script = open_script(path, db)
    entries, done, notes = _resolve_additions(sf, script, db, names, lang)
    for index, entry in entries:
        if index is None:
            sf.data.append(entry)
        else:
            sf.data[index] = entry
    return _finish(sf, db, script, done, notes)


@_holding_the_lock
def remove_characters(path, db: Database, names) -> Change:
    """Remove characters from a script (and from its _meta night lists)."""
    sf, script = open_script(path, db)
    drop: dict[int, str] = {}
    done, notes = [], []
    for name in names:
        ch = script.find(name) or script.get(db.resolve(name).id)
        if ch is None:
            raise NotFoundError(f"'{name}' is not on the script; nothing was changed", where=str(sf.path))
        if ch.id in drop.values():
            notes.append(f"{_label(ch)} was named twice")
            continue
        copies = _entry_indexes(script, ch.id)
        drop.update(dict.fromkeys(copies, ch.id))
        done.append(f"removed {_label(ch)}" + (f" ({len(copies)} copies)" if len(copies) > 1 else ""))
    sf.data = [e for i, e in enumerate(sf.data) if i not in drop]
    meta = sf.meta()
    gone = set(drop.values())
    for key in (n.official for n in NIGHT_TABLE):
        if meta is not None and isinstance(meta.get(key), list):
            meta[key] = [e for e in meta[key] if not (isinstance(e, str) and getattr(script.find(e), "id", None) in gone)]
    return _finish(sf, db, script, done, notes)


def _entry_indexes(script: Script, char_id: str) -> list[int]:
    """Where a character is listed: its entry and every duplicate of it (one finding lists them)."""
    pointers = [script.paths[char_id]] + [path for f in script.problems
                                          if f.code == "duplicate-character" and f.data.get("id") == char_id
                                          for path in f.data.get("copies", ())]
    return [int(pointer.lstrip("/")) for pointer in pointers]


@_holding_the_lock
def set_meta(path, db: Database, **values) -> Change:
    """Set `_meta` keys (name, author, logo, almanac, bootlegger); an empty value removes the key."""
    sf, script = open_script(path, db)
    meta = sf.meta()
    if meta is None:
        meta = {"id": "_meta"}
        sf.data.insert(0, meta)
    done = []
    for key in META_KEYS:
        value = values.get(key)
        if value is None:
            continue
        if key == "bootlegger":
            value = [rule for rule in value if rule]
        check_option(f"--{key}", value)
        old = meta.get(key)
        if value in ("", []):
            if key in meta:
                del meta[key]
                done.append(f"removed _meta.{key}")
        elif value != old:
            meta[key] = value
            done.append(f"_meta.{key}: {json.dumps(old, ensure_ascii=False)} -> {json.dumps(value, ensure_ascii=False)}"
                        if old is not None else f"_meta.{key} = {json.dumps(value, ensure_ascii=False)}")
    if "name" not in meta and done:
        raise ScriptforgeError("the script has no name; give one with --name (the official schema needs it)",
                         where=str(sf.path))
    return _finish(sf, db, script, done, [])


# -- resolving names -----------------------------------------------------------------------------


def record_source(sf: ScriptFile, char_id: str, yaml_path: Path) -> list[str]:
    """Note in `_meta` (SOURCES_KEY) the YAML file a homebrew character was embedded from, as a
    path from the script's folder, so that reading the script uses the YAML while it differs."""
    meta = sf.meta()
    if meta is None:
        return [f"the script has no _meta, so where '{char_id}' came from is not recorded "
                f"(`scriptforge meta --name` adds one)"]
    try:
        where = os.path.relpath(yaml_path.resolve(), sf.path.resolve().parent)
    except ValueError:  # another drive (Windows)
        where = str(yaml_path.resolve())
    sources = meta.get(SOURCES_KEY)
    meta[SOURCES_KEY] = {**(sources if isinstance(sources, dict) else {}), char_id: Path(where).as_posix()}
    return []


def _resolve_additions(sf: ScriptFile, script: Script, db: Database, names, lang):
    """[(index to replace or None to append, entry)], done and notes; raises before any change."""
    # deferred: start-up time
    from scriptforge.scripts.homebrew import is_homebrew_file, read_homebrew, script_object

    entries: list[tuple[int | None, dict[str, Any] | str]] = []
    done: list[str] = []
    notes: list[str] = []
    seen: set[str] = set()
    for name in names:
        if is_homebrew_file(name):
            if lang is None:
                raise InputError("a homebrew file is embedded in one language: add --lang ko or --lang en",
                                 where=str(name))
            hb = read_homebrew(name, db)
            ch = hb.character
            entry: dict[str, Any] | str = script_object(hb, lang)
            notes += record_source(sf, ch.id, Path(name))
        else:
            ch = db.resolve(name)
            entry = {"id": ch.id} if sf.object_style else ch.id
        if ch.id in seen:
            notes.append(f"{_label(ch)} was named twice")
            continue
        seen.add(ch.id)
        where = script.paths.get(ch.id)
        if where is not None and isinstance(entry, dict) and len(entry) > 1:
            entries.append((int(where.lstrip("/")), entry))
            done.append(f"updated {_label(ch)} from {name}")
        elif where is not None:
            notes.append(f"{_label(ch)} is already on the script")
        else:
            entries.append((None, entry))
            done.append(f"added {_label(ch)}")
    return entries, done, notes
