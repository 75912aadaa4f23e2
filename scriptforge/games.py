"""Rule sets other than Blood on the Clocktower: Salem 1692, Werewolf and its Mafia mode.

Each game lives in ``data/games/<game>/``: ``game.yaml`` holds the language-neutral facts (teams,
kinds of card or role, each role's team, kind, count and ability conditions such as
``from_night: 2``, the setup tables and the night and day sequences as ordered step ids), and
``<lang>/roles.yaml``, ``<lang>/steps.yaml`` and ``<lang>/game.yaml`` hold the texts per
language, keyed by the same ids. ``data/games/<lang>/ui.yaml`` holds the words the sheets share.
Every file is checked against its JSON Schema (``scriptforge/schemas/game*.schema.json``) on
load, then the references between files are checked; a problem names the file and the line.

A number a seed does not give is stored as ``null`` with a ``missing`` note, never invented:
Salem's table of tryal cards by player count was an image the seed lost.
"""

from dataclasses import dataclass, field
from pathlib import Path

from scriptforge.database import load_cached
from scriptforge.datafiles import ProblemCollector
from scriptforge.errors import DataError, InputError, NotFoundError
from scriptforge.languages import detect, fallback_chain, official, present, translation_source
from scriptforge.ids import NameIndex, name_key
from scriptforge.paths import DATA_DIR

@dataclass(frozen=True)
class RuleSet:
    """A rule set the database holds. BotC is played from scripts of characters (the character
    database of scriptforge.database: sheets, night sheets and almanacs of a script); each other
    game is its whole rule set at once (data/games/<id>, loaded here: one sheet, one night sheet)."""

    id: str
    from_scripts: bool


RULE_SETS = {r.id: r for r in (RuleSet("botc", True), RuleSet("salem", False), RuleSet("werewolf", False),
                               RuleSet("mafia", False))}
GAMES = tuple(RULE_SETS)
OTHER_GAMES = tuple(g for g, r in RULE_SETS.items() if not r.from_scripts)


#: The rule set played from scripts (the character database): the default --game.
SCRIPTED_GAME = next(g for g, r in RULE_SETS.items() if r.from_scripts)


def rule_set(game: str) -> RuleSet:
    """The rule set `game` names (a --game choice)."""
    return RULE_SETS[game]


def scripted(game: str) -> bool:
    """Whether `game` (a rule set, or a translation unit's game: also the shared sheet words) is
    the rule set played from scripts, whose texts are the character database's."""
    found = RULE_SETS.get(game)
    return found is not None and found.from_scripts
GAMES_DIR = DATA_DIR / "games"


# -- records ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """A condition on one of a role's abilities (``from_night``, ``on_night``, ``uses`` per game/wolf)."""

    id: str
    from_night: int | None = None
    on_night: int | None = None
    uses: int | None = None
    per: str | None = None

    def as_dict(self) -> dict:
        return {k: v for k, v in (("id", self.id), ("from_night", self.from_night), ("on_night", self.on_night),
                                  ("uses", self.uses), ("per", self.per)) if v is not None}


@dataclass(frozen=True)
class RoleTexts:
    name: str
    aliases: tuple[str, ...] = ()
    text: str | None = None
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        out: dict = {"name": self.name}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.text:
            out["text"] = self.text
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class Role:
    """A role, job, card, token or piece of equipment of a game."""

    id: str
    kind: str
    texts: dict[str, RoleTexts]
    team: str | None = None
    count: int | None = None  # how many players have it, where the source says
    abilities: tuple[Ability, ...] = ()
    missing: tuple[str, ...] = ()  # text fields the source does not give

    def name(self, lang: str) -> str:
        texts = self.texts.get(lang) or next(iter(self.texts.values()), None)
        return texts.name if texts else self.id

    @property
    def first_night(self) -> int:
        """The first night on which any of the role's abilities can be used (1 without conditions)."""
        nights = [a.on_night or a.from_night or 1 for a in self.abilities]
        return min(nights) if nights else 1


@dataclass(frozen=True)
class StepTexts:
    name: str
    say: str | None = None  # read aloud by the moderator
    do: str | None = None  # what the moderator does
    text: str | None = None  # a description
    items: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        out: dict = {"name": self.name}
        for key in ("say", "do", "text"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.items:
            out["items"] = list(self.items)
        return out


@dataclass(frozen=True)
class Step:
    id: str
    texts: dict[str, StepTexts]

    def name(self, lang: str) -> str:
        texts = self.texts.get(lang) or next(iter(self.texts.values()), None)
        return texts.name if texts else self.id


@dataclass(frozen=True)
class Sequence:
    """An ordered list of step or role ids: setup, a day, a first or later night."""

    id: str
    kind: str  # setup | day | night
    steps: tuple[str, ...]
    night: str | None = None  # first | other
    script: str | None = None  # moderator | crier (Salem)
    order_given: bool = True  # False: the source gives no order (the steps are listed, not ordered)


@dataclass(frozen=True)
class SetupRow:
    players: tuple[int, int]
    count: int
    keep: int | None = None


@dataclass(frozen=True)
class SetupTable:
    id: str
    rows: tuple[SetupRow, ...] | None  # None: the source does not give the table
    missing: str | None = None
    rule: str | None = None  # "upgrade": an optional rule of the source

    def as_dict(self) -> dict:
        out: dict = {"id": self.id}
        if self.rule:
            out["rule"] = self.rule
        out["rows"] = None if self.rows is None else [
            {"players": list(r.players), "count": r.count, **({"keep": r.keep} if r.keep else {})} for r in self.rows]
        if self.missing:
            out["missing"] = self.missing
        return out


@dataclass(frozen=True)
class GameDatabase:
    id: str
    source: str
    players: tuple[int, int] | None  # None: the source gives no player range
    group_by: str  # kind | team: how lists and sheets group the roles
    kinds: tuple[str, ...]
    teams: tuple[str, ...]
    roles: dict[str, Role]  # in the data's order
    steps: dict[str, Step]
    sequences: tuple[Sequence, ...]
    setup: tuple[SetupTable, ...]
    sections: tuple[str, ...]
    texts: dict[str, dict]  # lang -> <lang>/game.yaml
    ui: dict[str, dict]  # lang -> data/games/<lang>/ui.yaml
    data_dir: Path
    missing: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()  # the languages with texts, in registry order
    # lang -> terms of data/games/<lang>/glossary.yaml, shared by the games (as data/<lang>/glossary.yaml)
    glossary: dict[str, list[dict]] = field(default_factory=dict)
    _index: NameIndex = field(default_factory=NameIndex, repr=False, compare=False)

    def __post_init__(self) -> None:
        items: list[Role | Step] = [*self.roles.values(), *self.steps.values()]
        for item in items:
            keys = {name_key(item.id), name_key(item.id.replace("_", " "))}
            for texts in item.texts.values():
                keys.add(name_key(texts.name))
                keys.update(name_key(a) for a in getattr(texts, "aliases", ()))
            for key in keys:
                self._index.add(key, item.id)

    # -- names ------------------------------------------------------------------------------

    def name(self, lang: str) -> str:
        return self.texts[lang]["name"]

    def team_name(self, team: str | None, lang: str) -> str | None:
        return self.texts[lang]["teams"][team] if team else None

    def kind_name(self, kind: str, lang: str) -> str:
        return self.texts[lang]["kinds"][kind]

    def item(self, item_id: str) -> Role | Step:
        return self.roles.get(item_id) or self.steps[item_id]

    # -- lookup -----------------------------------------------------------------------------

    def find(self, name: str) -> list[Role | Step]:
        """Every role or step `name` (id, Korean or English name, alias) denotes; roles first."""
        if name in self.roles or name in self.steps:
            return [self.item(name)]
        ids = self._index.ids(name_key(name))
        return sorted((self.item(i) for i in ids), key=lambda x: not isinstance(x, Role))

    def text_language(self, lang: str) -> str:
        """The language the game's texts are taken from for `lang`: `lang` itself, else the first of
        its fallbacks the game has (a German page of Salem is printed from its English texts)."""
        return next((code for code in fallback_chain(lang) if code in self.languages), self.languages[0])

    def resolve(self, name: str) -> Role | Step:
        found = self.find(name)
        if found and (len(found) == 1 or isinstance(found[0], Role) and not isinstance(found[1], Role)):
            return found[0]
        label = self.name(official())
        if found:
            names = ", ".join(f"{x.id} ({x.name(official())})" for x in found)
            raise NotFoundError(f"'{name}' is ambiguous in {label}: it names {names}")
        hint = self.suggest(name)
        raise NotFoundError(f"no role, card or step named '{name}' in {label}"
                            + (f"; did you mean {', '.join(hint)}?" if hint else ""))

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        lang = detect(name, self.languages)
        return self._index.suggest(name, lambda item_id: self.item(item_id).name(lang), limit)

    # -- setup --------------------------------------------------------------------------------

    def setup_table(self, table_id: str) -> SetupTable:
        for table in self.setup:
            if table.id == table_id:
                return table
        raise NotFoundError(f"{self.name(official())} has no setup table '{table_id}'")

    def setup_count(self, table_id: str, players: int) -> int | None:
        """The count a setup table gives for `players`; None where the source gives no table.

        A player count outside the game's range is an InputError.
        """
        if self.players and not self.players[0] <= players <= self.players[1]:
            raise InputError(f"{self.name(official())} is for {self.players[0]}-{self.players[1]} players, not {players}")
        table = self.setup_table(table_id)
        if table.rows is None:
            return None
        for row in table.rows:
            if row.players[0] <= players <= row.players[1]:
                return row.count
        return None

    def witch_count(self, players: int) -> int | None:
        """Salem: witches for `players` under the seed's upgrade rule (2 at 4-6, 3 at 7-12)."""
        return self.setup_count("witches", players)

    # -- sequences --------------------------------------------------------------------------

    def sequence(self, sequence_id: str) -> Sequence:
        for seq in self.sequences:
            if seq.id == sequence_id:
                return seq
        raise NotFoundError(f"{self.name(official())} has no sequence '{sequence_id}'")

    def roles_by_group(self) -> list[tuple[str, list[Role]]]:
        """(group id, roles) in the data's order of kinds or teams; roles without a team last."""
        key = self.group_by
        groups = self.kinds if key == "kind" else self.teams
        out = [(g, [r for r in self.roles.values() if getattr(r, key) == g]) for g in groups]
        return [(g, roles) for g, roles in out if roles]


# -- loading --------------------------------------------------------------------------------


def load_game(game: str, data_dir: Path | None = None) -> GameDatabase:
    """Load and check one game from `data_dir` (a games folder; default `games_dir()`) through the
    database's loader cache (`database.load_cached`); the first problem is raised as a DataError."""
    if game not in OTHER_GAMES:
        raise NotFoundError(f"no game named '{game}'; games: {', '.join(GAMES)}")
    root = Path(data_dir) if data_dir else games_dir()
    return load_cached(f"game-{game}", Path(__file__), [root], GameDatabase, lambda: check_game(game, data_dir))


def check_game(game: str, data_dir: Path | None = None) -> tuple[GameDatabase | None, list[DataError]]:
    """Load everything of one game that can be loaded; return it and every problem found."""
    if game not in OTHER_GAMES:
        raise NotFoundError(f"no game named '{game}'; games: {', '.join(GAMES)}")
    return _GameLoader(Path(data_dir) if data_dir else games_dir(), game).load()


def games_dir() -> Path:
    """``games/`` of the data folder: $SCRIPTFORGE_DATA's when set (as every command), else the shipped one."""
    import os

    root = os.environ.get("SCRIPTFORGE_DATA")
    return Path(root) / "games" if root else GAMES_DIR


class _GameLoader(ProblemCollector):
    def __init__(self, root: Path, game: str):
        super().__init__()
        self.root = root
        self.dir = root / game
        self.game = game
        self.languages = present(root)

    def load(self):
        facts_path = self.dir / "game.yaml"
        facts = self._read(facts_path, "game")
        if facts is None:
            return None, self.problems
        if facts["id"] != self.game:
            self._problem(facts_path, f"field 'id': '{facts['id']}' in the folder of '{self.game}'", ["id"])
        roles_data = self._texts("roles", "game_roles")
        steps_data = self._texts("steps", "game_steps")
        game_texts = {lang: self._read(self.dir / lang / "game.yaml", "game_texts") for lang in self.languages}
        ui = {lang: self._read(self.root / lang / "ui.yaml", "game_ui") for lang in self.languages}
        glossary = {lang: (self._read(path, "glossary") or {"terms": []})["terms"]
                    for lang in self.languages if (path := self.root / lang / "glossary.yaml").exists()}
        self._check_facts(facts_path, facts)

        roles = {}
        for i, rec in enumerate(facts["roles"]):
            if rec["id"] in roles:
                self._problem(facts_path, f"record '{rec['id']}': duplicate id", ["roles", i, "id"])
            texts = {}
            for lang in self.languages:
                t = roles_data[lang].get(rec["id"])
                if t is None:
                    self._problem(self.dir / lang / "roles.yaml",
                                  f"record '{rec['id']}': no '{lang}' text for this role")
                    continue
                if "text" in rec.get("missing", ()) and "text" in t:
                    self._problem(self.dir / lang / "roles.yaml", f"record '{rec['id']}', field 'text': "
                                  f"game.yaml says the source does not give it", [rec["id"], "text"])
                texts[lang] = RoleTexts(name=t["name"], aliases=tuple(t.get("aliases", ())), text=t.get("text"),
                                        notes=tuple(t.get("notes", ())))
            roles[rec["id"]] = Role(
                id=rec["id"], kind=rec["kind"], team=rec.get("team"), count=rec.get("count"), texts=texts,
                abilities=tuple(Ability(**a) for a in rec.get("abilities", ())),
                missing=tuple(rec.get("missing", ())))
        for lang in self.languages:
            for role_id in roles_data[lang]:
                if role_id not in roles:
                    self._problem(self.dir / lang / "roles.yaml",
                                  f"record '{role_id}': no role with this id in game.yaml", [role_id])

        sequences = tuple(Sequence(id=s["id"], kind=s["kind"], steps=tuple(s["steps"]), night=s.get("night"),
                                   script=s.get("script"), order_given=s.get("order_given", True))
                          for s in facts["sequences"])
        step_ids = [sid for seq in sequences for sid in seq.steps if sid not in roles]
        steps = {}
        for sid in dict.fromkeys(step_ids):
            texts = {}
            for lang in self.languages:
                t = steps_data[lang].get(sid)
                if t is None:
                    self._problem(self.dir / lang / "steps.yaml", f"record '{sid}': no '{lang}' text for this "
                                                                   f"step (and no role has this id)")
                    continue
                texts[lang] = StepTexts(name=t["name"], say=t.get("say"), do=t.get("do"), text=t.get("text"),
                                        items=tuple(t.get("items", ())))
            steps[sid] = Step(id=sid, texts=texts)
        for lang in self.languages:
            for sid in steps_data[lang]:
                if sid not in steps:
                    self._problem(self.dir / lang / "steps.yaml", f"record '{sid}': no sequence uses this step", [sid])
                if sid in roles:
                    self._problem(self.dir / lang / "steps.yaml", f"record '{sid}': a role has this id", [sid])
        for i, seq in enumerate(sequences):
            for j, sid in enumerate(seq.steps):
                role = roles.get(sid)
                if role and seq.night == "first" and role.first_night > 1:
                    self._problem(facts_path, f"record '{seq.id}', field 'steps': '{sid}' cannot act before "
                                              f"night {role.first_night}", ["sequences", i, "steps", j])

        for lang, texts in game_texts.items():
            if texts:
                self._check_game_texts(lang, texts, facts, sequences)
        setup = tuple(
            SetupTable(id=t["id"], rule=t.get("rule"), missing=t.get("missing"),
                       rows=None if t["rows"] is None else tuple(
                           SetupRow(players=tuple(r["players"]), count=r["count"], keep=r.get("keep"))
                           for r in t["rows"]))
            for t in facts["setup"])
        if any(t is None for t in (*game_texts.values(), *ui.values())):
            return None, self.problems
        players = facts["players"]
        gdb = GameDatabase(
            id=facts["id"], source=facts["source"],
            players=(players["min"], players["max"]) if players else None,
            group_by=facts["group_by"], kinds=tuple(facts["kinds"]), teams=tuple(facts["teams"]),
            roles=roles, steps=steps, sequences=sequences, setup=setup,
            sections=tuple(facts.get("sections", ())), texts=game_texts, ui=ui, data_dir=self.dir,
            missing=tuple(facts.get("missing", ())), glossary=glossary, languages=self.languages)
        return gdb, self.problems

    def _texts(self, stem: str, schema: str) -> dict[str, dict]:
        out = {}
        for lang in self.languages:
            path = self.dir / lang / f"{stem}.yaml"
            out[lang] = self._read(path, schema) or {}
        return out

    def _check_facts(self, path: Path, facts: dict):
        for i, rec in enumerate(facts["roles"]):
            if rec["kind"] not in facts["kinds"]:
                self._problem(path, f"record '{rec['id']}', field 'roles.kind': unknown kind '{rec['kind']}'",
                              ["roles", i, "kind"])
            if rec.get("team") and rec["team"] not in facts["teams"]:
                self._problem(path, f"record '{rec['id']}', field 'roles.team': unknown team '{rec['team']}'",
                              ["roles", i, "team"])
        if facts["players"] is None and "players" not in facts.get("missing", ()):
            self._problem(path, "field 'players': null without 'missing: [players]'", ["players"])
        if facts["players"] and facts["players"]["min"] > facts["players"]["max"]:
            self._problem(path, "field 'players': min is above max", ["players"])
        ids = [s["id"] for s in facts["sequences"]]
        for i, sid in enumerate(ids):
            if ids.index(sid) != i:
                self._problem(path, f"record '{sid}': duplicate sequence id", ["sequences", i, "id"])

    def _check_game_texts(self, lang: str, texts: dict, facts: dict, sequences):
        path = self.dir / lang / "game.yaml"
        wanted = {
            "teams": facts["teams"],
            "kinds": facts["kinds"],
            "sequences": [s.id for s in sequences],
            "setup": [t["id"] for t in facts["setup"]],
            "setup_notes": [t["id"] for t in facts["setup"] if t["rows"] is None],
            "sections": facts.get("sections", []),
        }
        if any(a for r in facts["roles"] for a in r.get("abilities", ())):
            wanted["abilities"] = sorted({a["id"] for r in facts["roles"] for a in r.get("abilities", ())})
        for key, ids in wanted.items():
            table = texts.get(key, {})
            for item_id in ids:
                if item_id not in table:
                    self._problem(path, f"field '{key}': no text for '{item_id}'", [key])
            for item_id in table:
                if item_id not in ids and key != "setup_notes":
                    self._problem(path, f"field '{key}': '{item_id}' is not in game.yaml", [key, item_id])


def load_games(data_dir: Path | None = None) -> dict[str, GameDatabase]:
    return {game: load_game(game, data_dir) for game in OTHER_GAMES}


# -- what the reference commands show -------------------------------------------------------


def _conditions(role: Role, lang: str, ui: dict) -> list[str]:
    """A role's conditions as short phrases: 'from night 2', '1× per game', '2 players'."""
    words = ui[lang]["conditions"]
    out = []
    if role.count:
        out.append(words["count"].format(n=role.count))
    for a in role.abilities:
        if a.from_night and a.from_night > 1:
            out.append(words["from_night"].format(n=a.from_night))
        if a.on_night:
            out.append(words["on_night"].format(n=a.on_night))
        if a.uses:
            out.append(words[f"uses_{a.per}"].format(n=a.uses))
    return list(dict.fromkeys(out))


def ability_conditions(gdb: GameDatabase, role: Role, lang: str) -> list[str]:
    """Each conditioned ability as 'name: condition, condition' (e.g. 'investigation: from night 2')."""
    words = gdb.ui[lang]["conditions"]
    names = gdb.texts[lang].get("abilities", {})
    out = []
    for a in role.abilities:
        parts = []
        if a.from_night:
            parts.append(words["from_night"].format(n=a.from_night))
        if a.on_night:
            parts.append(words["on_night"].format(n=a.on_night))
        if a.uses:
            parts.append(words[f"uses_{a.per}"].format(n=a.uses))
        if parts:
            out.append(f"{names.get(a.id, a.id)}: {', '.join(parts)}")
    if role.count:
        out.insert(0, words["count"].format(n=role.count))
    return out


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
            role = gdb.roles[r["id"]]
            conds = _conditions(role, lang, gdb.ui)
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
    first = langs[0]
    if isinstance(item, Role):
        facts = [gdb.kind_name(item.kind, first)]
        if item.team:
            facts.append(gdb.team_name(item.team, first) or item.team)
        head = [f"{item.name(first)} ({item.id}) · {gdb.name(first)} · {' · '.join(facts)}"]
        head += [f"  {c}" for c in ability_conditions(gdb, item, first)]
    else:
        seqs = [gdb.texts[first]["sequences"][s.id] for s in gdb.sequences if item.id in s.steps]
        head = [f"{item.name(first)} ({item.id}) · {gdb.name(first)} · {' / '.join(seqs)}"]
    out = ["\n".join(head)]
    for lang in langs:
        t = item.texts.get(lang)
        lab = gdb.ui[lang]["labels"]
        if t is None:
            continue
        block = [f"[{lang}] {t.name}"]
        if isinstance(t, RoleTexts):
            block.append(t.text or f"({lab['text_not_given']})")
            if t.notes:
                block += ["", f"{lab['notes']}:"] + [f"  - {n}" for n in t.notes]
        else:
            if t.say:
                block.append(f"{lab['say']}: “{t.say}”")
            if t.do:
                block.append(f"{lab['do']}: {t.do}")
            if t.text:
                block.append(t.text)
            block += [f"  - {i}" for i in t.items]
        out.append("\n".join(block))
    return "\n\n".join(out)


def list_output(game: str, lang: str, fmt: str, *, team: str | None = None, edition: str | None = None) -> str:
    """What `scriptforge list --game GAME` prints (text or JSON)."""
    import json

    if team or edition:
        raise InputError(f"--{'team' if team else 'edition'} is for Blood on the Clocktower, not --game {game}")
    gdb = load_game(game)
    lang = gdb.text_language(lang)
    rows = list_rows(gdb, lang)
    return json.dumps(rows, ensure_ascii=False, indent=2) if fmt == "json" else list_text(gdb, rows, lang)


def show_output(game: str, name: str, langs, fmt: str) -> str:
    """What `scriptforge show NAME --game GAME` prints (text or JSON)."""
    import json

    gdb = load_game(game)
    langs = tuple(dict.fromkeys(gdb.text_language(code) for code in langs))
    item = gdb.resolve(name)
    if fmt == "json":
        return json.dumps(item_record(gdb, item, langs), ensure_ascii=False, indent=2)
    return item_text(gdb, item, langs)
