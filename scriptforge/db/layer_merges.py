"""How a layer's data files go on top of the earlier layers' (the built-in data, then each data pack,
then the user's translation layer), by each file's schema (`LAYER_MERGES`): character records merged
per id in sheet order, night lists replaced, jinx pairs added, glossary entries per entry, texts and
tables per key with their translation records (`_merge_texts`)."""

from collections.abc import Callable
from typing import Any

from scriptforge.model.records import TEAMS
from scriptforge.db.official import official_facts


def _merge_layer_texts(loader: Any, old: Any, new: Any) -> Any:
    """Texts and tables: per key, recursively (`_merge_texts`); anything else: the later one."""
    return _merge_texts(old, new) if isinstance(old, dict) and isinstance(new, dict) else new


#: How a layer's file (by its schema) goes on top of the earlier layers' (built-in data, then each
#: pack): character records merged per id in sheet order, night lists replaced, jinx pairs added;
#: every other file (texts, labels, setup, glossary) merged per key.
LAYER_MERGES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "characters": lambda loader, old, new: {"characters": _merge_records(old["characters"], new["characters"])},
    "night": lambda loader, old, new: new,
    "jinxes": lambda loader, old, new: loader._merge_jinxes(old, new),
    "glossary": lambda loader, old, new: {"terms": _merge_terms(old["terms"], new["terms"])},
}


def _term_key(term: dict[str, Any]) -> tuple[str, str]:
    """What a glossary entry is about: its character, else its English, else its own spelling."""
    for key in ("character", "en", "term"):
        if term.get(key):
            return key, str(term[key])
    return "term", ""


def _merge_terms(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Glossary entries per entry: a later layer's entry about the same thing changes its fields;
    the earlier layers' other entries stay, in their order."""
    merged = [dict(term) for term in old]
    first: dict[tuple[str, str], int] = {}
    for i, term in enumerate(merged):
        first.setdefault(_term_key(term), i)
    for term in new:
        at = first.get(_term_key(term))
        if at is None:
            first[_term_key(term)] = len(merged)
            merged.append(dict(term))
        else:
            merged[at] = {**merged[at], **term}
    return merged


def _merge_records(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {rec["id"]: rec for rec in old}
    merged = {}
    for rec in new:
        base = by_id.get(rec["id"], {})
        out = {**base, **rec}
        if "setup" in base and "setup" in rec:
            out["setup"] = {**base["setup"], **rec["setup"]}
        if base.get("aliases") or rec.get("aliases"):
            out["aliases"] = list(dict.fromkeys([*base.get("aliases", ()), *rec.get("aliases", ())]))
        merged[rec["id"]] = out
    order = [rec["id"] for rec in new]
    previous = None
    for rec in old:  # older-only characters keep their place after the one they followed
        if rec["id"] not in merged:
            merged[rec["id"]] = rec
            at = order.index(previous) + 1 if previous in order else len(order)
            order.insert(at, rec["id"])
        previous = rec["id"]
    teams = {t: i for i, t in enumerate(TEAMS)}
    records = sorted((merged[i] for i in order), key=lambda rec: teams.get(rec["team"], len(teams)))
    # official characters in the official sheet order, whichever layers brought them; the others
    # (homebrew, characters newer than data/official.yaml) keep their places
    positions = official_facts().positions
    slots = [i for i, rec in enumerate(records) if rec["id"] in positions]
    ranked = sorted((records[i] for i in slots), key=lambda rec: (teams.get(rec["team"], len(teams)), positions[rec["id"]]))
    for i, rec in zip(slots, ranked):
        records[i] = rec
    return records


def _leaves(data: dict[str, Any], prefix: str = "") -> set[str]:
    out = set()
    for key, value in data.items():
        if key == "translated_from":
            continue
        if isinstance(value, dict):
            out |= _leaves(value, f"{prefix}{key}.")
        else:
            out.add(f"{prefix}{key}")
    return out


def _merge_texts(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Per key, recursively; a later text drops the earlier one's translation record."""
    out = dict(old)
    for key, value in new.items():
        if key != "translated_from":
            out[key] = _merge_texts(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) \
                else value
    if "translated_from" in old or "translated_from" in new:
        given = _leaves(new)
        block = old.get("translated_from") or {}
        hashes = {k: v for k, v in block.get("hashes", {}).items() if k not in given}
        newer = new.get("translated_from") or {}
        hashes.update(newer.get("hashes", {}))
        out.pop("translated_from", None)
        if hashes:
            out["translated_from"] = {"lang": newer.get("lang") or block.get("lang"), "hashes": hashes}
    return out
