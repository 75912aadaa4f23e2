"""A way back upstream and no noise about the official texts: `l10n export --format official`
writes only the user's corrections in the official layout; `l10n check --include-official` and
`l10n terms --official` say nothing about official texts that are right; labels that are marks
(?, 1, X) need no translation; a translation entry with an ability and no name keeps its ability;
the per-language check rules are chosen by language code."""

import json
from pathlib import Path

from click.testing import CliRunner
import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.l10n.checks import run_checks
from scriptforge.l10n.lang import rules_for
from scriptforge.l10n.lang.en import English
from scriptforge.l10n.lang.ko import Korean
from scriptforge.l10n.units import all_units
from scriptforge.model.ids import neutral_label, token_id
from scriptforge.packs.install import update_pack
from scriptforge.render.tokens import reminder_label
from tests.conftest import official_english_copy, official_json


def _po(edits) -> str:
    head = 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    return head + "".join(f"msgctxt {json.dumps(k)}\nmsgid \"x\"\nmsgstr {json.dumps(v, ensure_ascii=False)}\n\n"
                          for k, v in edits.items())


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def english_pack(tmp_path_factory):
    """The official English files of ../shared installed as a pack, no translation."""
    folder = official_english_copy(tmp_path_factory.mktemp("official-en"))
    target = tmp_path_factory.mktemp("packs") / "official"
    update_pack(from_dir=folder, target=target, langs=("en",))
    return target


def test_export_official_writes_only_the_users_corrections_in_the_official_layout(official_ko, home, tmp_path):
    _, target, _ = official_ko
    pack = ["--pack", str(target)]
    runner = CliRunner()
    below = load_database(packs=[target])
    unchanged = below.characters["chef"].texts["ko"].ability
    edits = {"imp.ability": "매일 밤*, 플레이어 1명을 고릅니다: 그는 사망합니다. (고친 문장)",
             "steward.name": "고친 집사",
             "imp.other_night_reminder": "임프를 깨웁니다. (고친 안내)",
             "step.dusk.first_night": "모두 눈을 감았는지 봅니다. (고친 황혼)",
             "reminder.dead": "고친 사망",
             "jinx.widow-damsel": "고친 징크스 문장입니다.",
             "chef.ability": unchanged,  # the same as the pack's: no correction
             "imp.overview": "고친 개요입니다.", "ui.teams.minion.name": "고친 하수인"}
    po = tmp_path / "ko.po"
    po.write_text(_po(edits), encoding="utf-8")
    assert runner.invoke(main, [*pack, "l10n", "import", str(po)]).exit_code == 0
    out = tmp_path / "ko.json"
    result = runner.invoke(main, [*pack, "l10n", "export", "--lang", "ko", "--format", "official", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "6 correction(s)" in result.output and "imp.overview" in result.output
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "roles": {"imp": {"ability": edits["imp.ability"], "other": edits["imp.other_night_reminder"]},
                  "steward": {"name": "고친 집사"},
                  "dusk": {"first": edits["step.dusk.first_night"]}},
        "reminders": {"dead": "고친 사망"},
        "jinxes": {"widow-damsel": "고친 징크스 문장입니다."}}
    # the file is a translation file the official layout readers take: l10n diff --against reads it
    against = runner.invoke(main, [*pack, "l10n", "diff", "--to", "ko", "--against", str(out), "--format", "json"])
    assert against.exit_code == 0, against.output
    # nothing corrected: an empty object
    empty = runner.invoke(main, ["--no-packs", "l10n", "export", "--lang", "ko", "--format", "official", "-o", "-"])
    assert empty.exit_code == 0 and json.loads(empty.output) == {}


def test_check_include_official_reports_nothing_on_the_official_english(english_pack):
    db = load_database(packs=[english_pack])
    found = run_checks(db, include_official=True, ignore=("missing",))
    official = [f"{f.code} {f.message}" for f in found if f.data.get("official")]
    assert official == []
    # what used to be reported: selection marks read as a bracket, a Fabled without one, "1)"
    for char_id in ("drunk", "legion", "atheist", "sentinel", "pope", "barista"):
        assert char_id in db.characters
    assert "1)" in db.characters["barista"].texts["en"].ability


def test_labels_that_are_marks_need_no_translation(english_pack):
    db = load_database(packs=[english_pack])
    marks = {token for token, label in db.reminder_labels["en"].items() if neutral_label(label)}
    assert {token_id("?"), token_id("X")} <= marks
    assert not any(u.key == f"reminder.{t}" for u in all_units(db) for t in marks)
    for token in marks:
        label, used = reminder_label(db, token, "ko")
        assert used == "ko" and label == db.reminder_labels["en"][token]
    assert not neutral_label("Good") and not neutral_label("선") and neutral_label("+1")


def test_a_name_left_out_of_a_translation_keeps_the_ability(tmp_path):
    folder = official_english_copy(tmp_path / "files")
    (folder / "game").mkdir()
    french = {"roles": {"godofug": {"ability": "Capacité de test sans nom."},
                        "imp": {"name": "Diablotin", "ability": "Capacité de test du diablotin."}}}
    (folder / "game" / "fr.json").write_text(json.dumps(french, ensure_ascii=False), encoding="utf-8")
    result = update_pack(from_dir=folder, target=tmp_path / "pack", langs=("fr",))
    assert not any("godofug" in w for w in result.build.warnings)
    db = load_database(packs=[tmp_path / "pack"])
    ug = db.characters["godofug"].texts["fr"]
    english = next(r for r in official_json("roles.json") if r["id"] == "godofug")["name"]
    assert (ug.name, ug.ability) == (english, "Capacité de test sans nom.")


def test_terms_official_takes_interface_words_in_their_own_sense(tmp_path, db):
    folder = tmp_path / "official"
    (folder / "game").mkdir(parents=True)
    (folder / "app").mkdir()
    game = {"roles": {"preacher": {"name": "전도사", "ability": db.characters["preacher"].texts["ko"].ability}},
            "reminders": {"dead": "사망"}}
    (folder / "game" / "ko.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    app = {"menu": {f"item{i}": f"알림 {i}개를 받았습니다" for i in range(5)},
           "help": {f"p{i}": "목사 역할 설명" for i in range(3)}}
    (folder / "app" / "ko.json").write_text(json.dumps(app, ensure_ascii=False), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["--no-packs", "l10n", "terms", "--official", str(folder), "--lang", "ko"])
    assert result.exit_code == 0, result.output
    # the same words in the game texts are still a conflict
    game["roles"]["preacher"]["ability"] += " 목사 " * 3 + " 알림 " * 5
    (folder / "game" / "ko.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(main, ["--no-packs", "l10n", "terms", "--official", str(folder), "--lang", "ko"])
    assert result.exit_code == 1


def test_check_rules_are_chosen_by_language_code():
    assert isinstance(rules_for("ko"), Korean) and isinstance(rules_for("en"), English)
    assert type(rules_for("de")) is type(rules_for("zh-Hans")) is type(rules_for("fr"))
    korean = rules_for("ko")
    assert korean.is_typo("미망임", "미망인")
    assert not korean.is_typo("소환하", "소환사")  # 소환하다 (to summon) is a verb, not the Summoner
    assert korean.numbers("플레이어 두 명과 3명") == {2, 3}
    assert rules_for("en").numbers("two players, twice") == {2}
    assert rules_for("de").numbers("zwei Spieler, 3 Stimmen") == {3}  # no English number words in German
    assert korean.imperatives("임프를 깨우세요.") == ["깨우세요"] and rules_for("de").imperatives("Weckt ihn.") == []


def test_your_own_text_is_not_called_the_official_translation(official_ko, home, tmp_path):
    _, target, _ = official_ko
    pack = ["--pack", str(target)]
    runner = CliRunner()
    po = tmp_path / "ko.po"
    po.write_text(_po({"steward.ability": "게임 시작 시, 설교자 1명을 알게 됩니다."}), encoding="utf-8")
    assert runner.invoke(main, [*pack, "l10n", "import", str(po)]).exit_code == 0
    result = runner.invoke(main, [*pack, "l10n", "check", "--lang", "ko", "--select", "term-variant",
                                  "--format", "json"])
    [finding] = [f for f in json.loads(result.output)["findings"] if f["character"] == "steward"]
    assert "your translations" in finding["message"] and "official" not in finding["message"]
    assert Path("translations/ko/characters/steward.yaml").as_posix() in finding["message"]


def test_status_and_check_count_stale_texts_alike(official_ko, tmp_path, monkeypatch):
    from scriptforge.l10n.provenance import status
    from tests.conftest import install_official

    folder, _, _ = official_ko
    translation = json.loads((folder / "game" / "ko.json").read_text(encoding="utf-8"))
    roles = [dict(r, ability=r["ability"] + " (reworded)") if r["id"] in ("fortuneteller", "chef") else r
             for r in official_json("roles.json")]
    install_official(tmp_path / "v1", tmp_path / "pack", translation)
    install_official(tmp_path / "v2", tmp_path / "pack", translation, roles=roles)
    db = load_database(packs=[tmp_path / "pack"])
    table = status(db)
    stale = sum(cell["stale"] for cell in table["ko"].values())
    upstream = sum(cell.get("stale_official", 0) for cell in table["ko"].values())
    found = run_checks(db, ["ko"], select=["stale"], include_official=True)
    assert upstream == len([f for f in found if f.data.get("official")]) >= 1
    assert stale - upstream == len([f for f in found if not f.data.get("official")])
