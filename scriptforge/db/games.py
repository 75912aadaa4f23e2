"""Rule sets other than Blood on the Clocktower: Salem 1692, Werewolf and its Mafia mode.

Each game lives in ``data/games/<game>/``: ``game.yaml`` holds the language-neutral facts (teams,
kinds of card or role, each role's team, kind, count and ability conditions such as
``from_night: 2``, the setup tables and the night and day sequences as ordered step ids), and
``<lang>/roles.yaml``, ``<lang>/steps.yaml`` and ``<lang>/game.yaml`` hold the texts per
language, keyed by the same ids. ``data/games/<lang>/ui.yaml`` holds the words the sheets share.
Every file is checked against its JSON Schema (``scriptforge/schemas/game*.schema.json``) on
load, then the references between files are checked; a problem names the file and the line.
A game loads as the character database does (`cached.open_roots`, then the `load_cached`
pickle cache) and looks its names up through the same `ids.NameIndex` (find, resolve, suggest,
complete). What the commands print of a game is in `text/games.py`.

A number a seed does not give is stored as ``null`` with a ``missing`` note, never invented:
Salem's table of tryal cards by player count was an image the seed lost.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
import os

from scriptforge.db.cached import load_cached, open_roots
from scriptforge.io.datafiles import ProblemCollector
from scriptforge.io.errors import DataError, InputError, NotFoundError
from scriptforge.model.languages import detect, fallback_chain, official, present
from scriptforge.model.ids import NameIndex, name_key
from scriptforge.io.paths import DATA_DIR
from scriptforge.model.rule_sets import GAMES, OTHER_GAMES


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
    """A role's texts in one language: its name, aliases, text and notes."""

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
    """A step's texts in one language: its name, what the moderator says and
    does, a description and its list items."""

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
    """A step of a game's sequences (setup, a turn, a night or a day), with its texts per language."""

    id: str
    texts: dict[str, StepTexts]

    def name(self, lang: str) -> str:
        texts = self.texts.get(lang) or next(iter(self.texts.values()), None)
        return texts.name if texts else self.id


@dataclass(frozen=True)
class Phase:
    """A phase of the game as its ordered step or role ids (game.yaml's `sequences`): setup, a
    player's turn or a day, the first night or the later ones."""

    id: str
    kind: str  # setup | day | night
    steps: tuple[str, ...]
    night: str | None = None  # first | other
    script: str | None = None  # moderator | crier (Salem)
    order_given: bool = True  # False: the source gives no order (the steps are listed, not ordered)


@dataclass(frozen=True)
class CountRow:
    """A row of a setup table: `count` cards (of which players keep `keep`) for `players` (lo, hi);
    `cards`: how many of each card (a role id) make up the count, where the source says."""

    players: tuple[int, int]
    count: int
    keep: int | None = None
    cards: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class SetupTable:
    """One of a game's setup tables: its rows by player count, or None with a note
    (`missing`) where the source does not give them."""

    id: str
    rows: tuple[CountRow, ...] | None  # None: the source does not give the table
    missing: str | None = None
    rule: str | None = None  # "upgrade": an optional rule of the source
    source: str | None = None  # where the table comes from, where it is not the game's seed

    def as_dict(self) -> dict:
        out: dict = {"id": self.id}
        if self.rule:
            out["rule"] = self.rule
        if self.source:
            out["source"] = self.source
        out["rows"] = None if self.rows is None else [
            {"players": list(r.players), "count": r.count, **({"keep": r.keep} if r.keep else {}),
             **({"cards": dict(r.cards)} if r.cards else {})} for r in self.rows]
        if self.missing:
            out["missing"] = self.missing
        return out


@dataclass(frozen=True)
class GameDatabase:
    """One of the other games as loaded (data/games/<game>): its facts, roles, steps,
    sequences and setup tables, and its texts per language."""

    id: str
    source: str
    players: tuple[int, int] | None  # None: the source gives no player range
    group_by: str  # kind | team: how lists and sheets group the roles
    kinds: tuple[str, ...]
    teams: tuple[str, ...]
    roles: dict[str, Role]  # in the data's order
    steps: dict[str, Step]
    sequences: tuple[Phase, ...]  # game.yaml's `sequences`
    setup: tuple[SetupTable, ...]
    sections: tuple[str, ...]
    texts: dict[str, dict]  # lang -> <lang>/game.yaml
    ui: dict[str, dict]  # lang -> data/games/<lang>/ui.yaml
    data_dir: Path
    missing: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()  # the languages with texts, in registry order
    # lang -> terms of data/games/<lang>/glossary.yaml, shared by the games (as data/<lang>/glossary.yaml)
    glossary: dict[str, list[dict]] = field(default_factory=dict)
    role_cards: tuple[str, ...] = ()  # the kinds of role a player holds a card of (`scriptforge cards`)
    # name key (id, name or alias in any language) -> role and step ids; made by __post_init__
    _index: NameIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = NameIndex()
        items: list[Role | Step] = [*self.roles.values(), *self.steps.values()]
        for item in items:
            keys = {name_key(item.id), name_key(item.id.replace("_", " "))}
            for texts in item.texts.values():
                keys.add(name_key(texts.name))
                keys.update(name_key(a) for a in getattr(texts, "aliases", ()))
            for key in keys:
                index.add(key, item.id)
            for word in (item.id, *(t.name for t in item.texts.values())):
                index.add_word(word)
        object.__setattr__(self, "_index", index)

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
        ids = self._index.find([name_key(name)])
        return sorted((self.item(i) for i in ids), key=lambda x: not isinstance(x, Role))

    def text_language(self, lang: str) -> str:
        """The language the game's texts are taken from for `lang`: `lang` itself, else the first of
        its fallbacks the game has (a German page of Salem is printed from its English texts)."""
        return next((code for code in fallback_chain(lang) if code in self.languages), self.languages[0])

    def resolve(self, name: str) -> Role | Step:
        """The one role or step `name` denotes (the role where it names one role and some steps);
        a NotFoundError with suggestions otherwise."""
        found = [x.id for x in self.find(name)]
        roles = [i for i in found if i in self.roles]
        item_id = self._index.resolve(name, roles if len(roles) == 1 else found,
                                      lambda i: self.item(i).name(official()), self.suggest,
                                      "role, card or step", within=self.name(official()))
        return self.item(item_id)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        lang = detect(name, self.languages)
        return self._index.suggest(name, lambda item_id: self.item(item_id).name(lang), limit)

    def complete(self, prefix: str) -> list[str]:
        """Ids and names of every role and step, in every language the game has, that start with
        `prefix` (case-insensitive): shell completion of a name."""
        return self._index.complete(prefix)

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

    def sequence(self, sequence_id: str) -> Phase:
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
    database's loader machinery: its data folder protected and an interrupted change finished
    (`cached.open_roots`), then the cache (`cached.load_cached`); the first problem is raised
    as a DataError."""
    root = _game_root(game, data_dir)
    open_roots([root])
    return load_cached(f"game-{game}", Path(__file__), [root], GameDatabase, lambda: check_game(game, data_dir),
                       f"; run 'scriptforge db check --game {game}'")


def check_game(game: str, data_dir: Path | None = None) -> tuple[GameDatabase | None, list[DataError]]:
    """Load everything of one game that can be loaded; return it and every problem found."""
    return _GameLoader(_game_root(game, data_dir), game).load()


def load_games(games: Sequence[str] = OTHER_GAMES, data_dir: Path | None = None) -> dict[str, GameDatabase]:
    """Each of `games` (other games' ids; default all of them), loaded by `load_game`."""
    return {game: load_game(game, data_dir) for game in games}


def _game_root(game: str, data_dir: Path | None) -> Path:
    if game not in OTHER_GAMES:
        raise NotFoundError(f"no game named '{game}'; games: {', '.join(GAMES)}")
    return Path(data_dir) if data_dir else games_dir()


def games_dir() -> Path:
    """``games/`` of the data folder: $SCRIPTFORGE_DATA's when set (as every command), else the shipped one."""
    root = os.environ.get("SCRIPTFORGE_DATA")
    return Path(root) / "games" if root else GAMES_DIR


@dataclass
class _Files:
    """What one game's files hold, each read and checked against its schema (None: unreadable)."""

    facts: dict
    roles: dict[str, dict]  # lang -> <lang>/roles.yaml
    steps: dict[str, dict]  # lang -> <lang>/steps.yaml
    texts: dict[str, dict | None]  # lang -> <lang>/game.yaml
    ui: dict[str, dict | None]  # lang -> ../<lang>/ui.yaml
    glossary: dict[str, list[dict]]  # lang -> ../<lang>/glossary.yaml terms


class _GameLoader(ProblemCollector):
    """Reads one game's files, checks each against its schema and the references between them,
    and builds its GameDatabase; every problem is collected, in the files' order."""

    def __init__(self, root: Path, game: str):
        super().__init__()
        self.root = root
        self.dir = root / game
        self.game = game
        self.languages = present(root)
        self.facts_path = self.dir / "game.yaml"

    def load(self) -> tuple[GameDatabase | None, list[DataError]]:
        files = self._read_files()
        if files is None:
            return None, self.problems
        roles = self._roles(files)
        phases = _phases(files.facts)
        steps = self._steps(files, roles, phases)
        self._check_first_nights(roles, phases)
        for lang, texts in files.texts.items():
            if texts:
                self._check_game_texts(lang, texts, files.facts, phases)
        if any(t is None for t in (*files.texts.values(), *files.ui.values())):
            return None, self.problems
        return _database(files, roles, steps, phases, self.dir, self.languages), self.problems

    # -- reading --------------------------------------------------------------------------------

    def _read_files(self) -> _Files | None:
        facts = self._read(self.facts_path, "game")
        if facts is None:
            return None
        if facts["id"] != self.game:
            self._problem(self.facts_path, f"field 'id': '{facts['id']}' in the folder of '{self.game}'", ["id"])
        files = _Files(
            facts=facts, roles=self._per_language("roles", "game_roles"), steps=self._per_language("steps", "game_steps"),
            texts={lang: self._read(self.dir / lang / "game.yaml", "game_texts") for lang in self.languages},
            ui={lang: self._read(self.root / lang / "ui.yaml", "game_ui") for lang in self.languages},
            glossary={lang: (self._read(path, "glossary") or {"terms": []})["terms"]
                      for lang in self.languages if (path := self.root / lang / "glossary.yaml").exists()})
        self._check_facts(facts)
        return files

    def _per_language(self, stem: str, schema: str) -> dict[str, dict]:
        return {lang: self._read(self.dir / lang / f"{stem}.yaml", schema) or {} for lang in self.languages}

    # -- roles and steps ------------------------------------------------------------------------

    def _roles(self, files: _Files) -> dict[str, Role]:
        roles: dict[str, Role] = {}
        for i, rec in enumerate(files.facts["roles"]):
            if rec["id"] in roles:
                self._problem(self.facts_path, f"record '{rec['id']}': duplicate id", ["roles", i, "id"])
            roles[rec["id"]] = Role(
                id=rec["id"], kind=rec["kind"], team=rec.get("team"), count=rec.get("count"),
                texts=self._role_texts(rec, files.roles), abilities=tuple(Ability(**a) for a in rec.get("abilities", ())),
                missing=tuple(rec.get("missing", ())))
        for lang in self.languages:
            for role_id in files.roles[lang]:
                if role_id not in roles:
                    self._problem(self.dir / lang / "roles.yaml",
                                  f"record '{role_id}': no role with this id in game.yaml", [role_id])
        return roles

    def _role_texts(self, rec: dict, roles_data: dict[str, dict]) -> dict[str, RoleTexts]:
        texts = {}
        for lang in self.languages:
            t = roles_data[lang].get(rec["id"])
            if t is None:
                self._problem(self.dir / lang / "roles.yaml", f"record '{rec['id']}': no '{lang}' text for this role")
                continue
            if "text" in rec.get("missing", ()) and "text" in t:
                self._problem(self.dir / lang / "roles.yaml", f"record '{rec['id']}', field 'text': game.yaml says "
                              f"the source does not give it", [rec["id"], "text"])
            texts[lang] = RoleTexts(name=t["name"], aliases=tuple(t.get("aliases", ())), text=t.get("text"),
                                    notes=tuple(t.get("notes", ())))
        return texts

    def _steps(self, files: _Files, roles: dict[str, Role], phases: tuple[Phase, ...]) -> dict[str, Step]:
        """Every step a phase lists that is not a role, with its texts per language."""
        step_ids = dict.fromkeys(sid for phase in phases for sid in phase.steps if sid not in roles)
        steps = {sid: Step(id=sid, texts=self._step_texts(sid, files.steps)) for sid in step_ids}
        for lang in self.languages:
            for sid in files.steps[lang]:
                if sid not in steps:
                    self._problem(self.dir / lang / "steps.yaml", f"record '{sid}': no sequence uses this step", [sid])
                if sid in roles:
                    self._problem(self.dir / lang / "steps.yaml", f"record '{sid}': a role has this id", [sid])
        return steps

    def _step_texts(self, sid: str, steps_data: dict[str, dict]) -> dict[str, StepTexts]:
        texts = {}
        for lang in self.languages:
            t = steps_data[lang].get(sid)
            if t is None:
                self._problem(self.dir / lang / "steps.yaml",
                              f"record '{sid}': no '{lang}' text for this step (and no role has this id)")
                continue
            texts[lang] = StepTexts(name=t["name"], say=t.get("say"), do=t.get("do"), text=t.get("text"),
                                    items=tuple(t.get("items", ())))
        return texts


    # -- references -----------------------------------------------------------------------------

    def _check_facts(self, facts: dict) -> None:
        path = self.facts_path
        for i, rec in enumerate(facts["roles"]):
            for key, known in (("kind", facts["kinds"]), ("team", facts["teams"])):
                if rec.get(key) and rec[key] not in known:
                    self._problem(path, f"record '{rec['id']}', field 'roles.{key}': unknown {key} '{rec[key]}'",
                                  ["roles", i, key])
        players = facts["players"]
        if players is None and "players" not in facts.get("missing", ()):
            self._problem(path, "field 'players': null without 'missing: [players]'", ["players"])
        if players and players["min"] > players["max"]:
            self._problem(path, "field 'players': min is above max", ["players"])
        for i, kind in enumerate(facts.get("role_cards", ())):
            if kind not in facts["kinds"]:
                self._problem(path, f"field 'role_cards': unknown kind '{kind}'", ["role_cards", i])
        roles = {rec["id"] for rec in facts["roles"]}
        for i, table in enumerate(facts["setup"]):
            for j, row in enumerate(table["rows"] or ()):
                cards = row.get("cards") or {}
                for card in cards:
                    if card not in roles:
                        self._problem(path, f"record '{table['id']}', field 'cards': unknown card '{card}'",
                                      ["setup", i, "rows", j, "cards", card])
                if cards and sum(cards.values()) != row["count"]:
                    self._problem(path, f"record '{table['id']}', field 'cards': {sum(cards.values())} cards for a "
                                        f"count of {row['count']}", ["setup", i, "rows", j, "cards"])
        ids = [s["id"] for s in facts["sequences"]]
        for i, sid in enumerate(ids):
            if ids.index(sid) != i:
                self._problem(path, f"record '{sid}': duplicate sequence id", ["sequences", i, "id"])

    def _check_first_nights(self, roles: dict[str, Role], phases: tuple[Phase, ...]) -> None:
        """A role on a first night's list whose abilities start later."""
        for i, phase in enumerate(phases):
            for j, sid in enumerate(phase.steps):
                role = roles.get(sid)
                if role and phase.night == "first" and role.first_night > 1:
                    self._problem(self.facts_path, f"record '{phase.id}', field 'steps': '{sid}' cannot act before "
                                                   f"night {role.first_night}", ["sequences", i, "steps", j])

    def _check_game_texts(self, lang: str, texts: dict, facts: dict, phases: tuple[Phase, ...]) -> None:
        """<lang>/game.yaml has a text for every team, kind, sequence, setup table, section and
        ability of game.yaml, and none for anything else."""
        path = self.dir / lang / "game.yaml"
        for key, ids in _text_tables(facts, phases).items():
            table = texts.get(key, {})
            for item_id in ids:
                if item_id not in table:
                    self._problem(path, f"field '{key}': no text for '{item_id}'", [key])
            for item_id in table:
                if item_id not in ids and key != "setup_notes":
                    self._problem(path, f"field '{key}': '{item_id}' is not in game.yaml", [key, item_id])


def _phases(facts: dict) -> tuple[Phase, ...]:
    return tuple(Phase(id=s["id"], kind=s["kind"], steps=tuple(s["steps"]), night=s.get("night"),
                       script=s.get("script"), order_given=s.get("order_given", True)) for s in facts["sequences"])


def _text_tables(facts: dict, phases: tuple[Phase, ...]) -> dict[str, list[str]]:
    """The tables of <lang>/game.yaml and the ids each must have a text for."""
    wanted = {
        "teams": facts["teams"],
        "kinds": facts["kinds"],
        "sequences": [p.id for p in phases],
        "setup": [t["id"] for t in facts["setup"]],
        "setup_notes": [t["id"] for t in facts["setup"] if t["rows"] is None],
        "sections": facts.get("sections", []),
    }
    abilities = sorted({a["id"] for r in facts["roles"] for a in r.get("abilities", ())})
    if abilities:
        wanted["abilities"] = abilities
    return wanted


def _setup_tables(facts: dict) -> tuple[SetupTable, ...]:
    return tuple(
        SetupTable(id=t["id"], rule=t.get("rule"), missing=t.get("missing"), source=t.get("source"),
                   rows=None if t["rows"] is None else tuple(
                       CountRow(players=(r["players"][0], r["players"][1]), count=r["count"], keep=r.get("keep"),
                                cards=tuple(r.get("cards", {}).items()))
                       for r in t["rows"]))
        for t in facts["setup"])


def _database(files: _Files, roles: dict[str, Role], steps: dict[str, Step], phases: tuple[Phase, ...],
              folder: Path, languages: tuple[str, ...]) -> GameDatabase:
    facts, players = files.facts, files.facts["players"]
    return GameDatabase(
        id=facts["id"], source=facts["source"], players=(players["min"], players["max"]) if players else None,
        group_by=facts["group_by"], kinds=tuple(facts["kinds"]), teams=tuple(facts["teams"]),
        roles=roles, steps=steps, sequences=phases, setup=_setup_tables(facts),
        sections=tuple(facts.get("sections", ())), texts={k: v for k, v in files.texts.items() if v is not None},
        ui={k: v for k, v in files.ui.items() if v is not None}, data_dir=folder,
        missing=tuple(facts.get("missing", ())), glossary=files.glossary, languages=languages,
        role_cards=tuple(facts.get("role_cards", facts["kinds"])))
