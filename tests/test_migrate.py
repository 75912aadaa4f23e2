"""`scriptforge migrate`: community Korean scripts to the official ids, names and terms."""

import json

from scriptforge.cli import main
from scriptforge.scripts.migrate import migrate_script, variants_left
from tests.conftest import shared_path


def test_the_corpus_korean_scripts_keep_no_variant_term(db):
    scripts = sorted(shared_path("reference", "scripts").glob("ko-*.json"))
    assert len(scripts) >= 10
    before = after = ids = 0
    for path in scripts:
        data = json.loads(path.read_text(encoding="utf-8"))
        result = migrate_script(data, db)
        before += variants_left(data, db)
        after += variants_left(result.after, db)
        ids += result.to_ids
        for entry in result.after:  # what stays an object is homebrew, or an official one whose rules differ
            if isinstance(entry, dict) and entry.get("id") != "_meta" and entry["id"] in db.characters:
                assert entry["name"] == db.get(entry["id"]).name("ko"), (path.name, entry["id"])
    assert before > 300 and after == 0 and ids > 300


def test_a_community_name_that_is_another_characters_official_name_is_refused(db, runner, tmp_path):
    imp = db.get("imp").name("ko")
    script = tmp_path / "ko.json"
    data = [{"id": "_meta", "name": "시험"},
            {"id": "ko_KR_chef", "name": "요리 담당", "team": "townsfolk", "ability": "게임 시작 시, 이웃한 악한 플레이어 쌍의 수를 압니다."},
            {"id": "ko_KR_empath", "name": imp, "team": "townsfolk", "ability": "매일 밤, 생존한 이웃 2명 중 악한 플레이어 수를 압니다."},
            {"id": "homebrew-seer", "name": "선견자", "team": "townsfolk", "ability": "매일 밤, 마을주민 1명을 알게 됩니다."},
            "imp", "baron", "saint"]
    script.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    shown = runner.invoke(main, ["migrate", str(script)])
    assert shown.exit_code == 0, shown.output
    assert f"/2 (ko_KR_empath): refused: '{imp}' is the official name of imp" in shown.stderr
    assert '+  "chef"' in shown.stdout and "-    \"id\": \"ko_KR_chef\"," in shown.stdout  # the diff
    assert "마을주민" in shown.stdout and json.loads(script.read_text(encoding="utf-8")) == data  # nothing written
    written = runner.invoke(main, ["migrate", str(script), "--write"])
    assert written.exit_code == 0
    after = json.loads(script.read_text(encoding="utf-8"))
    assert after[1] == "chef" and after[2] == data[2]  # the collision is left as it was
    assert after[3]["ability"] == "매일 밤, 주민 1명을 알게 됩니다." and after[3]["name"] == "선견자"
    again = runner.invoke(main, ["migrate", str(script)])
    assert "nothing to migrate" in again.stdout and "refused" in again.stderr


def test_number_words_are_read_as_numbers():
    from scriptforge.scripts.migrate import read_numbers

    assert read_numbers("두 참가자 중 한 명이 특정 마을주민임을 알고 시작합니다.", "ko") == [2, 1]
    assert read_numbers("당신의 좌우에 있는 생존자들 중 악한 진영의 수", "ko") == [2]
    assert read_numbers("2명 이상의 선한 참가자가 처형되면 5일 후에", "ko") == [2, 5]
    assert read_numbers("1명을 초과하는 추가 악한 참가자", "ko") == [2]
    assert read_numbers("오 일째 되는 날", "ko") == [5]
    assert read_numbers("이 두 참가자", "ko") == [2]  # 이 is "this" here, not the numeral 2
    assert read_numbers("If more than 1 good player is executed. After day 5, evil wins.", "en") == [2, 5]
    assert read_numbers("If both your alive neighbors are good, or neither", "en") == [2]
    assert read_numbers("Their ability works twice.", "en") == [2]


def test_the_corpus_korean_scripts_migrate_to_ids_and_validate(official_ko):
    """With the official pack, every community Korean script validates after migrate, keeps no
    `traveler`, and what stays an override differs from the official rules in a way it says."""
    from scriptforge.db.loading import load_database
    from scriptforge.scripts.analysis import validate_data
    from scriptforge.model.findings import has_errors

    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    scripts = sorted(shared_path("reference", "scripts").glob("ko-*.json"))
    assert len(scripts) == 14
    kept = []
    for path in scripts:
        result = migrate_script(json.loads(path.read_text(encoding="utf-8")), db, path.stem)
        report = validate_data(result.after, db, path.name)
        assert not has_errors(report.findings), (path.name, [f.message for f in report.findings
                                                              if f.severity == "error"][:3])
        assert not any(isinstance(e, dict) and e.get("team") == "traveler" for e in result.after)
        kept += [(path.stem, entry_id, why) for entry_id, why in result.kept]
    # the Puzzlemaster made a Townsfolk (twice) and the Storm Catcher made a Fabled change the rules
    assert sorted(k[1] for k in kept if k[2].startswith("team")) == ["puzzlemaster", "puzzlemaster", "stormcatcher"]
    assert len(kept) == 3, kept


def test_community_terms_and_bracket_style_become_the_official_ones(db):
    from scriptforge.scripts.migrate import terms_left

    data = [{"id": "_meta", "name": "시험"},
            {"id": "hb-watcher", "name": "파수꾼", "team": "townsfolk",
             "ability": "해가 질 때까지 한 참가자가 술에 취합니다. 그 참가자의 진영을 압니다. [외지인 -1 또는 +1]"}]
    assert terms_left(data, db) == {"해가 질 때까지": 1, "참가자": 2, "술에 취": 1, "진영": 1,
                                    "[외지인 -1 또는 +1]": 1}
    result = migrate_script(data, db)
    assert result.after[1]["ability"] == ("황혼까지 한 플레이어가 취합니다. 그 플레이어의 팀을 압니다. "
                                          "[외지인 -1명 또는 +1명]")
    assert not terms_left(result.after, db) and result.terms == 6


def test_without_the_pack_an_override_keeps_its_own_name(db):
    """`traveler` is the official team of the Bishop once spelt `traveller`; a Bishop made a
    Townsfolk stays an override, under the name the script gave it (no official Korean to give)."""
    data = [{"id": "_meta", "name": "시험"},
            {"id": "ko_KR_bishop", "name": "주교", "team": "traveler", "ability": "오직 이야기꾼만이 처형 대상을 지명합니다."},
            {"id": "ko_KR_butler", "name": "집사", "team": "townsfolk", "ability": "매일 밤, 당신의 주인을 고릅니다."}]
    result = migrate_script(data, db)
    assert "bishop" in result.after
    [entry] = [e for e in result.after if isinstance(e, dict) and e["id"] != "_meta"]
    assert entry["id"] == "butler" and entry["name"] == "집사"
    assert result.kept == [("butler", "team: townsfolk, officially outsider")]
