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
