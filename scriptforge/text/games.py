"""What `list --game`, `show --game` and `db check --game` print for the other games (Salem 1692,
Werewolf, Mafia): the records of `--format json` and the text for people."""

import json

from scriptforge.model.describe import ability_conditions, role_conditions
from scriptforge.io.errors import DataError, InputError
from scriptforge.model.findings import finding
from scriptforge.db.games import GameDatabase, Role, RoleTexts, Step, StepTexts, load_game
from scriptforge.model.languages import shown, translation_source


def list_rows(gdb: GameDatabase, lang: str) -> list[dict]:
    """Every role and card of a game, grouped in the data's order, for `list --game`."""
    rows = []
    for group, roles in gdb.roles_by_group():
        for r in roles:
            rows.append({"id": r.id, "kind": r.kind, "team": r.team, "group": group, "name": r.name(lang),
                         "names": {l: t.name for l, t in r.texts.items()}, "count": r.count,
                         "abilities": [a.as_dict() for a in r.abilities]})
    return rows


def list_text(gdb: GameDatabase, rows: list[dict], lang: str) -> str:
    lines = [f"{gdb.name(lang)} ({len(rows)})"]
    other = translation_source(lang, gdb.languages)
    for group, _ in gdb.roles_by_group():
        members = [r for r in rows if r["group"] == group]
        title = gdb.kind_name(group, lang) if gdb.group_by == "kind" else gdb.team_name(group, lang)
        lines.append(f"{title} ({len(members)})")
        width = max(len(r["id"]) for r in members)
        for r in members:
            conds = role_conditions(gdb, gdb.roles[r["id"]], lang)
            extra = f"  [{', '.join(conds)}]" if conds else ""
            lines.append(f"  {r['id']:<{width}}  {r['name']} / {r['names'].get(other, '')}{extra}")
    return "\n".join(lines)


def item_record(gdb: GameDatabase, item: Role | Step, langs: tuple[str, ...] = ()) -> dict:
    """Everything about one role or step, for `show --game … --format json`."""
    langs = langs or gdb.languages
    if isinstance(item, Role):
        return {"game": gdb.id, "type": "role", "id": item.id, "kind": item.kind, "team": item.team,
                "count": item.count, "abilities": [a.as_dict() for a in item.abilities],
                "missing": list(item.missing),
                "texts": {l: item.texts[l].as_dict() for l in langs if l in item.texts}}
    return {"game": gdb.id, "type": "step", "id": item.id,
            "sequences": [s.id for s in gdb.sequences if item.id in s.steps],
            "texts": {l: item.texts[l].as_dict() for l in langs if l in item.texts}}


def item_text(gdb: GameDatabase, item: Role | Step, langs: tuple[str, ...] = ()) -> str:
    """A readable card for one role or step: facts once, then the texts per language."""
    langs = langs or gdb.languages
    out = ["\n".join(_head(gdb, item, langs[0]))]
    for lang in langs:
        texts = item.texts.get(lang)
        if texts is not None:
            out.append("\n".join([f"[{lang}] {texts.name}", *_body(texts, gdb.ui[lang]["labels"])]))
    return "\n\n".join(out)


def _head(gdb: GameDatabase, item: Role | Step, lang: str) -> list[str]:
    """The facts of a role (kind, team, conditions) or a step (the phases it is in), in `lang`."""
    if isinstance(item, Role):
        facts = [gdb.kind_name(item.kind, lang)]
        if item.team:
            facts.append(gdb.team_name(item.team, lang) or item.team)
        head = [f"{item.name(lang)} ({item.id}) · {gdb.name(lang)} · {' · '.join(facts)}"]
        return head + [f"  {c}" for c in ability_conditions(gdb, item, lang)]
    phases = [gdb.texts[lang]["sequences"][s.id] for s in gdb.sequences if item.id in s.steps]
    return [f"{item.name(lang)} ({item.id}) · {gdb.name(lang)} · {' / '.join(phases)}"]


def _body(texts: RoleTexts | StepTexts, labels: dict) -> list[str]:
    """A role's text and notes, or a step's words to say, what to do, its text and items."""
    if isinstance(texts, RoleTexts):
        block = [texts.text or f"({labels['text_not_given']})"]
        if texts.notes:
            block += ["", f"{labels['notes']}:"] + [f"  - {n}" for n in texts.notes]
        return block
    block = []
    if texts.say:
        block.append(f"{labels['say']}: “{texts.say}”")
    if texts.do:
        block.append(f"{labels['do']}: {texts.do}")
    if texts.text:
        block.append(texts.text)
    return block + [f"  - {i}" for i in texts.items]


def list_output(game: str, lang: str, fmt: str, *, team: str | None = None, edition: str | None = None) -> str:
    """What `scriptforge list --game GAME` prints (text or JSON)."""
    if team or edition:
        raise InputError(f"--{'team' if team else 'edition'} is for Blood on the Clocktower, not --game {game}")
    gdb = load_game(game)
    lang = gdb.text_language(lang)
    rows = list_rows(gdb, lang)
    return json.dumps(rows, ensure_ascii=False, indent=2) if fmt == "json" else list_text(gdb, rows, lang)


def show_output(game: str, name: str, lang: str, fmt: str) -> str:
    """What `scriptforge show NAME --game GAME --lang LANG` prints (text or JSON): `lang` one
    language or two joined by `+`, each the game's own or the one it falls back to."""
    gdb = load_game(game)
    langs = tuple(dict.fromkeys(gdb.text_language(code) for code in shown(lang)))
    item = gdb.resolve(name)
    if fmt == "json":
        return json.dumps(item_record(gdb, item, langs), ensure_ascii=False, indent=2)
    return item_text(gdb, item, langs)


def check_summary(gdb: GameDatabase | None, problems: list[DataError]) -> dict:
    """Every problem of a game's files, and what loaded (roles, steps, texts per language), for
    `db check --game`."""
    summary: dict = {"ok": not problems, "problems": [str(p) for p in problems],
                     "findings": [finding(p.code, str(p)).as_dict() for p in problems]}
    if gdb is not None:
        items: list[Role | Step] = [*gdb.roles.values(), *gdb.steps.values()]
        summary.update(game=gdb.id, roles=len(gdb.roles), steps=len(gdb.steps),
                       languages={lang: sum(lang in item.texts for item in items) for lang in gdb.languages})
    return summary


def check_text(summary: dict) -> str:
    """`db check --game` for people (its problems go to stderr, one line each): the counts, then
    the verdict."""
    lines = []
    if "game" in summary:
        langs = ", ".join(f"{lang} {n}" for lang, n in summary["languages"].items())
        lines.append(f"{summary['game']}: {summary['roles']} roles and cards, {summary['steps']} steps; texts: {langs}")
    lines.append("ok" if summary["ok"] else f"{len(summary['problems'])} problem(s)")
    return "\n".join(lines)
