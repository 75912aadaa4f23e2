"""The official Korean translation, exactly: every label, jinx and night text reaches the output,
the official wording wins over ours, and what it cannot give is marked, not hidden."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.model.ids import token_id
from scriptforge.db.pack_store import packs_dir
from scriptforge.text.reference import character_record
from tests.conftest import install_official, korean_translation, official_json, shared_path


@pytest.fixture
def pack_env(official_ko, monkeypatch):
    folder, pack, _ = official_ko
    monkeypatch.setenv("SCRIPTFORGE_PACKS", str(pack))
    return folder, pack


def _translation(folder):
    return json.loads((folder / "game" / "ko.json").read_text(encoding="utf-8"))


def test_every_official_label_reaches_its_token(pack_env, runner):
    folder, pack = pack_env
    translation = _translation(folder)
    db = load_database(packs=[pack])
    roles = official_json("roles.json")
    checked = 0
    for role in roles:
        expected = [translation["reminders"][token_id(label)]
                    for label in (*role.get("reminders", ()), *role.get("remindersGlobal", ()))]
        record = character_record(db, db.get(role["id"]), ("ko",))
        assert record["labels"]["ko"] == expected, role["id"]
        assert not any(k.startswith("reminder.") for k in record["fallbacks"]["ko"]), role["id"]
        checked += len(expected)
    assert checked > 200  # every label of every official character
    result = runner.invoke(main, ["show", "fortuneteller", "--lang", "ko", "--format", "json"])
    shown = json.loads(result.stdout)
    assert shown["labels"]["ko"] == [translation["reminders"]["redherring"]]
    text = runner.invoke(main, ["show", "fortuneteller", "--lang", "ko"]).stdout
    assert translation["reminders"]["redherring"] in text and "Red Herring" not in text
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.almanac import almanac_view
    from scriptforge.scripts.script import parse_script

    script = parse_script(json.dumps([{"id": "_meta", "name": "A"}, "fortuneteller", "grandmother", "imp", "chef", "saint"]), db)
    for page in almanac_view(analyse(script, db), "ko").characters:
        role = next(r for r in roles if r["id"] == page.id)
        if not role.get("reminders"):
            continue
        reminders = next(f for f in page.facts if f.key == "reminders")
        assert all(translation["reminders"][token_id(x)] in reminders.text for x in role["reminders"]), page.id
        assert not reminders.fallback


def test_the_official_label_wins_over_the_built_in_one(pack_env, db):
    folder, pack = pack_env
    translation = _translation(folder)
    packed = load_database(packs=[pack])
    differing = [t for t, ours in db.reminder_labels["ko"].items()
                 if t in translation["reminders"] and translation["reminders"][t] != ours]
    assert len(differing) > 10
    for token in differing:
        assert packed.reminder_label(token, "ko") == translation["reminders"][token], token


def test_every_jinx_and_night_text_reaches_the_output(pack_env):
    folder, pack = pack_env
    translation = _translation(folder)
    db = load_database(packs=[pack])
    jinxes = {frozenset(j.characters): j for j in db.jinxes}
    for key, text in translation["jinxes"].items():
        assert jinxes[frozenset(key.split("-"))].text("ko") == text, key
    for char_id, entry in translation["roles"].items():
        if char_id in db.steps:
            continue
        ch = db.get(char_id)
        for ours, theirs in (("first_night", "first"), ("other_nights", "other")):
            if theirs in entry:
                assert ch.night_reminder(ours, "ko") == (entry[theirs], "ko"), (char_id, ours)


def test_a_label_key_that_matches_no_token_is_a_warning_naming_it(official_ko, tmp_path, db):
    from scriptforge.packs.install import import_pack

    odd = {"roles": {}, "reminders": {"redherring": "붉은 청어", "nosuchlabel": "없는 표식"},
           "editions": {"tb": {"name": "시험판"}}}
    (tmp_path / "ko.json").write_text(json.dumps(odd, ensure_ascii=False), encoding="utf-8")
    _, build = import_pack([tmp_path / "ko.json", official_ko[0] / "roles.json"], lang="ko",
                           out=tmp_path / "pack", base_db=db)
    said = "\n".join(build.warnings)
    assert "/reminders/nosuchlabel: no reminder token 'nosuchlabel'" in said, said
    assert "redherring" not in said and "editions" not in said


def test_diff_against_really_reads_the_file(pack_env, runner, tmp_path):
    folder, _ = pack_env
    translation = _translation(folder)
    translation["reminders"]["redherring"] = "다른 청어"
    translation["jinxes"][next(iter(translation["jinxes"]))] = "바뀐 징크스 문장입니다."
    changed = tmp_path / "ko.json"
    changed.write_text(json.dumps(translation, ensure_ascii=False), encoding="utf-8")
    same = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(folder / "game" / "ko.json")])
    assert same.exit_code == 0 and "no differences" in same.stdout, same.output
    result = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(changed)])
    assert "reminder.redherring" in result.stdout and "다른 청어" in result.stdout, result.output
    assert "바뀐 징크스 문장입니다." in result.stdout


@pytest.fixture(scope="module")
def gappy_pack(tmp_path_factory):
    """The official pack with a Korean translation that, like the official one, has no text yet for
    a jinx reworded in English and for a Fabled's first-night reminder."""
    roles, jinxes = official_json("roles.json"), official_json("jinxes.json")
    full = korean_translation(load_database(), roles, jinxes)
    jinx_key = next(k for k in full["jinxes"] if set(k.split("-")) == {"fanggu", "scarletwoman"})
    translation = korean_translation(load_database(), roles, jinxes,
                                     leave_out=(f"jinxes/{jinx_key}", "roles/toymaker/first"))
    # an official typo, as the official file has one: the Preacher named 목사 beside 전도사
    preacher = next(k for k in translation["jinxes"] if "preacher" in k.split("-"))
    translation["jinxes"][preacher] = "전도사가 목사처럼 설교하면 시험용 징크스가 적용됩니다."
    target = tmp_path_factory.mktemp("gappy") / "official"
    install_official(tmp_path_factory.mktemp("gappy-files"), target, translation)
    return target


def test_a_korean_sheet_marks_the_english_it_prints_and_json_says_so(gappy_pack, runner, tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPTFORGE_PACKS", str(gappy_pack))
    script = tmp_path / "gaps.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Gaps"}, "chef", "empath", "investigator", "saint",
                                  "scarletwoman", "fanggu", "toymaker"]), encoding="utf-8")
    out = tmp_path / "gaps.html"
    result = runner.invoke(main, ["build", str(script), "--lang", "ko", "--night", "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    db = load_database(packs=[gappy_pack])
    english_jinx = next(j for j in db.jinxes if set(j.characters) == {"fanggu", "scarletwoman"}).texts["en"]
    english_night = db.get("toymaker").texts["en"].first_night_reminder
    assert english_jinx in html and english_night.split(":")[0] in html
    assert html.count('<span class="lang-tag">EN</span>') == 2, html.count("lang-tag")
    assert html.count("fallback-note") == 1  # explained once, in the footer
    assert "EN: 한국어 번역이 아직 없어 영어로 인쇄한 글" in html
    warnings = [line for line in result.stderr.splitlines() if "another language" in line]
    assert len(warnings) == 1 and "2 text(s)" in warnings[0], result.stderr
    night = json.loads(runner.invoke(main, ["night", str(script), "--lang", "ko", "--format", "json"]).stdout)
    assert night["steps"]["toymaker"]["fallback"] == {"first_night": "en"}
    assert night["steps"]["toymaker"]["first_night"] == english_night
    assert [i for i, step in night["steps"].items() if "fallback" in step] == ["toymaker"]
    shown = json.loads(runner.invoke(main, ["show", "fanggu", "--lang", "ko", "--format", "json"]).stdout)
    assert shown["fallbacks"]["ko"] == {"jinx.fanggu-scarletwoman": "en"} or \
        shown["fallbacks"]["ko"] == {"jinx.scarletwoman-fanggu": "en"}


def test_a_translation_older_than_its_english_is_stale_until_translated_again(official_ko, tmp_path, runner, monkeypatch):
    folder, _, _ = official_ko
    translation = _translation(folder)
    roles = official_json("roles.json")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # `pack update` installs there
    target = packs_dir() / "official"
    first = install_official(tmp_path / "v1", target, translation)
    assert first.build.stale == {}
    reworded = [dict(r, ability=r["ability"] + " (reworded)", firstNightReminder="Reworded.")
                if r["id"] == "fortuneteller" else r for r in roles]
    second = install_official(tmp_path / "v2", target, translation, roles=reworded)
    assert second.build.stale == {"ko": ["fortuneteller.ability", "fortuneteller.first_night_reminder"]}
    diff = runner.invoke(main, ["l10n", "diff", "fortuneteller", "--to", "ko"]).stdout
    assert "ability  [STALE]" in diff and "first_night_reminder  [STALE]" in diff and diff.count("[STALE]") == 2
    was = next(r for r in roles if r["id"] == "fortuneteller")["ability"]
    assert f"translated from: {was}" in diff  # the English the Korean describes
    status = runner.invoke(main, ["l10n", "status", "--game", "botc"]).stdout
    assert "ko: 0 missing, 2 stale" in status, status
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "S"}, "fortuneteller", "chef", "empath", "imp", "saint"]))
    out = tmp_path / "s.html"
    built = runner.invoke(main, ["build", str(script), "--lang", "ko", "--format", "html", "-o", str(out)])
    html = out.read_text(encoding="utf-8")
    assert translation["roles"]["fortuneteller"]["ability"] in html  # the default: printed, marked
    assert '<span class="lang-tag">옛 번역</span>' in html and "fallback-note\">옛 번역:" in html
    assert "1 official translation(s) were made before their English changed" in built.stderr
    # the same files again, stale ones left out: still stale (the record is kept), now in English
    update = runner.invoke(main, ["pack", "update", "--from", str(tmp_path / "v2"), "--lang", "ko", "--stale", "english"])
    assert "stale official translation: ko fortuneteller.ability" in update.stdout, update.output
    shown = json.loads(runner.invoke(main, ["show", "fortuneteller", "--lang", "ko", "--format", "json"]).stdout)
    assert shown["fallbacks"]["ko"] == {"name": "en", "ability": "en", "flavor": "en",
                                        "first_night_reminder": "en", "other_night_reminder": "en"}
    translation["roles"]["fortuneteller"].update(ability="새로 번역한 능력입니다.", first="새로 번역한 안내입니다.")
    third = install_official(tmp_path / "v3", target, translation, roles=reworded)
    assert third.build.stale == {}


def test_export_for_app_keeps_official_characters_as_ids_and_validates(pack_env, runner, tmp_path):
    from jsonschema import Draft202012Validator

    from scriptforge.db.official import official_facts

    schema = Draft202012Validator(official_json("script-schema.json"))
    scripts = sorted(p for p in (shared_path("reference", "official", "wc25")).glob("*/script.json"))
    assert len(scripts) == 16
    objects = 0
    for path in scripts:
        result = runner.invoke(main, ["export", str(path), "--lang", "ko"])
        assert result.exit_code == 0, (path, result.output)
        data = json.loads(result.stdout)
        assert not list(schema.iter_errors(data)), path
        original = {e if isinstance(e, str) else e["id"]: e for e in json.loads(path.read_text(encoding="utf-8"))}
        for entry in data:
            if isinstance(entry, dict) and entry["id"] != "_meta":
                # an object only for homebrew characters, or for official ones the script itself changes
                assert entry["id"] not in official_facts().teams or isinstance(original.get(entry["id"]), dict), \
                    (path.parent.name, entry["id"])
                objects += 1
        assert ("export-homebrew" in result.stderr) == any(isinstance(e, dict) and e["id"] != "_meta" for e in data)
    assert objects  # the wc25 scripts' own characters stay objects
    full = runner.invoke(main, ["export", str(scripts[0]), "--lang", "ko", "--for", "full"])
    data = json.loads(full.stdout)
    assert all(isinstance(e, dict) for e in data) and not list(schema.iter_errors(data))
    assert "every character is written as an object" in full.stderr


def test_a_korean_full_export_carries_every_official_label(pack_env, runner, tmp_path):
    folder, _ = pack_env
    translation = _translation(folder)
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "S"}, "fortuneteller", "vigormortis", "grandmother",
                                  "devilsadvocate", "lilmonsta", "philosopher"]))
    data = json.loads(runner.invoke(main, ["export", str(script), "--lang", "ko", "--for", "full"]).stdout)
    roles = {r["id"]: r for r in official_json("roles.json")}
    for entry in data[1:]:
        role = roles[entry["id"]]
        assert entry.get("reminders", []) == [translation["reminders"][token_id(x)] for x in role.get("reminders", ())]
        assert entry.get("remindersGlobal", []) == [translation["reminders"][token_id(x)]
                                                    for x in role.get("remindersGlobal", ())]


def test_l10n_check_never_reports_official_texts_as_ours(gappy_pack, runner, monkeypatch):
    monkeypatch.setenv("SCRIPTFORGE_PACKS", str(gappy_pack))
    result = runner.invoke(main, ["l10n", "check", "--lang", "ko", "--game", "botc"])
    assert result.exit_code == 0, result.stdout[-2000:]
    assert "목사" not in result.stdout and "official texts" not in result.stdout
    listed = runner.invoke(main, ["l10n", "check", "--lang", "ko", "--game", "botc", "--include-official"])
    assert listed.exit_code == 0
    head, _, official = listed.stdout.partition("== official texts:")
    assert "목사" not in head and official, listed.stdout[-2000:]
    typo = next(line for line in official.splitlines() if "'목사' is a variant" in line)
    assert typo.startswith("ko info [term-variant]") and "the official ko translation (game/ko.json)" in typo
    assert "data/ko/jinxes.yaml" not in typo
    assert any("[missing]" in line and "toymaker.first_night_reminder" in line for line in official.splitlines())
    assert all(line.startswith("ko info [") for line in official.splitlines()[1:-1])


def test_every_korean_setup_bracket_reads_as_its_english():
    """The Korean brackets of every official setup character (written for this test in the
    official layout, as a translator writes them) read into the same effect as the English."""
    from pathlib import Path

    from scriptforge.rules.brackets import read_brackets

    korean = json.loads((Path(__file__).parent / "fixtures" / "ko-brackets.json").read_text(encoding="utf-8"))
    roles = {r["id"]: r for r in official_json("roles.json")}
    names = {r["name"].casefold(): i for i, r in roles.items()}
    names.update({entry["name"].casefold(): i for i, entry in korean["roles"].items()})

    def resolve(text):
        return names.get(text.strip().casefold())

    bracketed = [i for i, r in roles.items() if "[" in r["ability"]]
    assert len(bracketed) == 18 and set(bracketed) <= set(korean["roles"])
    for char_id in bracketed:
        english = read_brackets(roles[char_id]["ability"], [roles[char_id]["name"]], resolve)
        mine = read_brackets(korean["roles"][char_id]["ability"], [korean["roles"][char_id]["name"],
                                                                   roles[char_id]["name"]], resolve)
        assert english.effect is not None and not english.unknown, char_id
        assert mine.unknown == () and mine.effect == english.effect, (char_id, mine)


def test_an_overview_quotes_the_ability_printed_on_its_page(pack_env, db, tmp_path):
    """With the pack, the page prints the official ability; the overview's opening quotation is
    that ability, and the rest of the seed's prose is as written."""
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.almanac import almanac_view
    from scriptforge.scripts.script import read_script

    _, pack = pack_env
    packed = load_database(packs=[pack])
    script = tmp_path / "all.json"  # every character with an overview
    script.write_text(json.dumps([{"id": "_meta", "name": "All"},
                                  *(c.id for c in db.characters.values() if any(t.overview for t in c.texts.values()))]))
    quoted = 0
    for lang in ("en", "ko"):
        view = almanac_view(analyse(read_script(script, packed), packed), lang)
        for page in view.characters:
            sections = {s.key: s for s in page.sections}
            if "overview" not in sections or "ability" not in sections or sections["overview"].fallback:
                continue
            ability, overview = sections["ability"].paragraphs[0], sections["overview"].paragraphs[0]
            seed = db.get(page.id).texts[lang]
            assert overview[0] in "\"“" and overview[1:].startswith(ability), (lang, page.id)
            rest = overview[1 + len(ability) + 1:]
            assert seed.overview.endswith(rest), (lang, page.id)  # the prose after the quote is untouched
            quoted += ability != seed.ability
    assert quoted >= 10  # the official English differs from the seed's for many of them


def test_l10n_terms_follows_official_usage_per_kind_and_lists_typos(runner, tmp_path):
    """Small official-layout files (written for the test): the game texts use 살아있는 and 지목,
    the interface words 지명 and 마을 주민; one jinx writes 목사 for 전도사 once."""
    (tmp_path / "game").mkdir()
    (tmp_path / "script").mkdir()
    game = {"roles": {
        "empath": {"name": "초공감자", "ability": "매일 밤, 살아있는 이웃 2명 중 악한 이웃의 수를 알게 됩니다."},
        "preacher": {"name": "전도사", "ability": "매일 밤, 플레이어 1명을 선택합니다. 전도사가 고른 하수인은 능력을 잃습니다.",
                     "first": "전도사를 깨웁니다.", "other": "전도사를 깨웁니다."},
        "witch": {"name": "마녀", "ability": "매일 밤, 플레이어 1명을 선택합니다: 그가 내일 지목하면 사망합니다."},
        "chef": {"name": "요리사", "ability": "주민 1명을 알게 됩니다."}},
        "jinxes": {"preacher-legion": "목사가 군단을 고르면 시험용 규칙이 적용됩니다."},
        "reminders": {}, "editions": {}}
    script = {"analysis": {"nominate": "지명할 수 있는 플레이어", "team": "마을 주민"}}
    (tmp_path / "game" / "ko.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "script" / "ko.json").write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(main, ["--debug", "l10n", "terms", "--official", str(tmp_path), "--lang", "ko"])
    assert result.exit_code == 0, result.output  # the glossary agrees with the official usage
    assert "conflict" not in result.stdout
    assert "typo to report upstream: '목사' in jinxes/preacher-legion" in result.stdout
    assert "지명 ui 1" in result.stdout and "살아있는 ability 1" in result.stdout
    game["roles"]["witch"]["ability"] += " 마을주민 마을주민 마을주민"
    (tmp_path / "game" / "ko.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    disagree = runner.invoke(main, ["l10n", "terms", "--official", str(tmp_path), "--lang", "ko"])
    assert disagree.exit_code == 1 and "conflict: the official ability texts use '마을주민' 3 time(s)" in disagree.stdout
