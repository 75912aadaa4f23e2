from scriptforge.rules.script_kind import is_teensyville
from scriptforge.model.records import PLAYER_TEAMS
from scriptforge.scripts.script import script_from_data


def _script(db, ids, **meta):
    return script_from_data([{"id": "_meta", "name": "t", **meta}, *ids], db)


def test_small_scripts_are_teensyville_and_meta_decides_where_given(db):
    small = ["washerwoman", "librarian", "investigator", "chef", "empath", "fortuneteller",
             "butler", "drunk", "poisoner", "spy", "imp"]
    script = _script(db, small)
    assert is_teensyville(script.meta, script.characters)
    script = _script(db, small, teensyville=False)
    assert not is_teensyville(script.meta, script.characters)


def test_a_full_script_is_not_teensyville_unless_its_meta_says_so(db):
    full = [ch.id for ch in db.characters.values() if ch.team in PLAYER_TEAMS]
    script = _script(db, full[:25])
    assert not is_teensyville(script.meta, script.characters)
    script = _script(db, full[:25], teensyville=True)
    assert is_teensyville(script.meta, script.characters)
