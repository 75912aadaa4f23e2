"""Side-by-side texts of two languages, and comparison with an official-layout translation file."""

from pathlib import Path

from scriptforge.errors import InputError, NotFoundError
from scriptforge.userfiles import read_json
from scriptforge.l10n.provenance import state
from scriptforge.l10n.units import character_units, game_units, selected_units
from scriptforge.names import normalize_id


def diff_rows(db, source: str, target: str, ids=(), games=None) -> list[dict]:
    """One row per unit: key, game, character, field, both texts and the target's state.

    `db` is the BotC database (None: left out), `games` the other games (id -> GameDatabase).
    IDS are looked up in BotC first, then in each game (id, Korean or English name)."""
    games = games or {}
    if ids:
        units = []
        for name in ids:
            game, item_id = _resolve(db, games, name)
            if game == "botc":
                units += character_units(db, item_id)
            else:
                units += [u for u in game_units(games[game]) if u.character == item_id]
    else:
        units = selected_units(db, games)
    rows = []
    for unit in units:
        rows.append({"key": unit.key, "game": unit.game, "character": unit.character, "field": unit.field,
                     source: unit.text(source), target: unit.text(target),
                     "state": state(db, unit, target)})
    for row in rows:
        for lang in (source, target):
            if isinstance(row[lang], tuple):
                row[lang] = list(row[lang])
    return rows


def _resolve(db, games: dict, name: str) -> tuple[str, str]:
    """(game, id) of the character, role, card or step `name` denotes, in the first game (BotC,
    then the others) where it names something; an ambiguous name there is an error."""
    sources = ([("botc", db)] if db is not None else []) + list(games.items())
    for game, where in sources:
        if where.find(name):
            return game, where.resolve(name).id
    if not sources:
        raise NotFoundError(f"no character named '{name}'")
    sources[0][1].resolve(name)  # raises, with suggestions
    raise NotFoundError(f"no character named '{name}'")  # pragma: no cover


def diff_text(rows: list[dict], source: str, target: str) -> str:
    lines, current = [], object()
    for row in rows:
        game = row.get("game", "botc")
        here = (game, row["character"])
        if here != current:
            current = here
            if game == "botc":
                lines.append(f"== {row['character']}" if row["character"] else
                             "== (night steps, labels, jinxes, UI)")
            else:
                lines.append(f"== {game}.{row['character']}" if row["character"] else
                             f"== {game} ({'shared sheet words' if game == 'games' else 'game texts'})")
        mark = {"missing": "  [MISSING]", "stale": "  [STALE]"}.get(row["state"], "")
        lines.append(f"  {row['field'] if row['character'] else row['key']}{mark}")
        for lang in (source, target):
            value = row[lang]
            if isinstance(value, list):
                value = " | ".join(value)
            lines.append(f"    {lang}: {value if value is not None else '—'}")
    return "\n".join(lines)


def read_official(path: Path) -> dict:
    """An official-layout translation file: {"roles": {id: {name, ability, ...}}, "reminders", "jinxes"}."""
    from scriptforge.packs import check_source

    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("roles"), dict):
        raise InputError("not a translation file: expected an object with a \"roles\" object", where=str(path))
    check_source(data, "translation", path)
    return data


def against(db, path: Path, lang: str) -> list[dict]:
    """Every difference in names, abilities and jinx texts between our `lang` texts and the file."""
    data = read_official(path)
    out = []
    for raw_id, role in data.get("roles", {}).items():
        char_id = normalize_id(raw_id)
        ch = db.characters.get(char_id)
        if ch is None:
            out.append({"id": raw_id, "field": None, "ours": None, "theirs": None, "kind": "unknown-character"})
            continue
        ours = ch.text(lang)
        for field in ("name", "ability"):
            theirs = role.get(field) if isinstance(role, dict) else None
            mine = getattr(ours, field) if ours else None
            if theirs is not None and theirs != mine:
                out.append({"id": char_id, "field": field, "ours": mine, "theirs": theirs,
                            "kind": "missing" if mine is None else "different"})
    jinxes = {j.key: j for j in db.jinxes}
    for key, theirs in (data.get("jinxes") or {}).items():
        jinx = jinxes.get(key) or jinxes.get("-".join(reversed(key.split("-"))))
        if jinx is None:
            continue
        mine = jinx.texts.get(lang)
        if isinstance(theirs, str) and theirs != mine:
            out.append({"id": jinx.key, "field": "jinx", "ours": mine, "theirs": theirs,
                        "kind": "missing" if mine is None else "different"})
    return out


def against_text(rows: list[dict], path, lang: str) -> str:
    if not rows:
        return f"no differences in names and abilities ({lang}) with {path}"
    lines = []
    for row in rows:
        if row["kind"] == "unknown-character":
            lines.append(f"{row['id']}: not in our database")
            continue
        lines.append(f"{row['id']}.{row['field']}" + (" [MISSING in ours]" if row["kind"] == "missing" else ""))
        lines.append(f"  ours:   {row['ours'] if row['ours'] is not None else '—'}")
        lines.append(f"  theirs: {row['theirs']}")
    lines.append(f"{len(rows)} difference(s)")
    return "\n".join(lines)
