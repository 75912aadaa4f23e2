"""The whole script on the page: the script's own rules, logo and night order; no character left
out without a word; renamed official characters in the sheet's language; badges everywhere; the
print options; the footer; back pages that use their pages."""

import io
import json
import re

from click.testing import CliRunner
from pypdf import PdfReader
import pypdfium2
import pytest

from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.render.completeness import Item, missing, sheet_items
from scriptforge.render.pdf import Renderer
from scriptforge.render.writing import pdf_bytes
from scriptforge.render.choices import FONT_SIZES
from scriptforge.render.options import PrintOptions
from scriptforge.render.views import make_view
from scriptforge.scripts.script import read_script, script_from_data

from .conftest import EXAMPLES, shared_path

WITCH = ("Each night, choose a player: if they nominate tomorrow, they die. "
         "If just 3 players live, you lose this ability.")
BASE = ["chef", "librarian", "empath", "monk", "undertaker", "slayer", "pixie", "savant", "soldier", "mayor",
        "fisherman", "artist", "seamstress", "drunk", "recluse", "goon", "poisoner", "baron", "imp"]
RULES = ["All Minions are Witches. Nominated Demons can not move tonight.", "Dead players may whisper."]


def write(tmp_path, entries, name="Whole Script", **meta):
    path = tmp_path / "script.json"
    path.write_text(json.dumps([{"id": "_meta", "name": name, "author": "Tester", **meta}, *entries]),
                    encoding="utf-8")
    return path


def build(*args, ok=True):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def pdf_pages(path) -> list[str]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def squashed(text: str) -> str:
    return re.sub(r"[\s\u2060]+", "", text)


# -- 1. the script's own rules, logo, hideTitle ------------------------------------------------


def test_bootlegger_rules_on_the_sheet_night_sheets_and_almanac(tmp_path):
    script = write(tmp_path, BASE, bootlegger=RULES)
    build("build", script, "--lang", "ko", "--night", "-o", tmp_path / "sheet.pdf")
    pages = pdf_pages(tmp_path / "sheet.pdf")
    assert len(pages) == 3
    for page in pages:  # the sheet (under the jinxes) and each night sheet's header
        assert "특수 규칙" in page and all(squashed(rule) in squashed(page) for rule in RULES)
    almanac = build("almanac", script, "--lang", "en", "--format", "html", "-o", "-").stdout
    closing = almanac.split('<section class="almanac-closing"')[1]
    assert "Bootlegger rules" in closing and all(rule in closing for rule in RULES)


def test_witch_hunt_prints_its_rule_in_korean_with_the_witch_in_korean(tmp_path):
    witchhunt = shared_path("reference", "official", "wc25", "witchhunt", "script.json")
    out = tmp_path / "wh.pdf"
    result = build("build", witchhunt, "--lang", "ko", "-o", out, "--skip-unknown")
    text = squashed("".join(pdf_pages(out)))
    assert squashed("All Minions are Witches. Nominated Demons can not move tonight.") in text
    assert "마녀" in text  # witchhunt-witch is the official Witch: its Korean name and ability
    assert squashed("매일 밤, 플레이어 1명을 선택합니다") in text
    # the remote logo is one of the script's images not fetched (one warning), and the title is printed
    assert "images not fetched: use --allow-network" in result.stderr
    assert "WitchHunt" in text


def test_a_local_logo_stands_for_the_title_with_hide_title(tmp_path):
    from PIL import Image

    Image.new("RGB", (40, 12), "darkred").save(tmp_path / "logo.png")
    script = write(tmp_path, BASE, logo="logo.png", hideTitle=True)
    html = build("build", script, "--format", "html", "-o", "-").stdout
    assert '<img class="logo" src="data:image/png;base64,' in html
    assert "<h1>Whole Script</h1>" not in html
    shown = write(tmp_path, BASE, logo="logo.png")
    assert "<h1>Whole Script</h1>" in build("build", shown, "--format", "html", "-o", "-").stdout
    # a logo that cannot be had: the title is printed, and a warning says why
    away = write(tmp_path, BASE, logo="https://example.org/logo.png", hideTitle=True)
    result = build("build", away, "--format", "html", "-o", "-")
    assert "<h1>Whole Script</h1>" in result.stdout and "1 image not fetched: use --allow-network" in result.stderr


def test_the_scripts_own_night_order_is_printed_as_given(tmp_path):
    script = write(tmp_path, BASE, firstNight=["dusk", "imp", "poisoner", "chef", "dawn"])
    html = build("nightsheet", script, "--format", "html", "-o", "-").stdout
    first = html.split('class="page nightsheet"')[1]
    assert re.findall(r'data-id="([a-z]+)"', first) == ["dusk", "imp", "poisoner", "chef", "dawn"]


# -- 2. no character left out without a word ------------------------------------------------------


def test_traveler_is_read_as_traveller_and_printed(tmp_path, db):
    traveller = {"id": "wanderer", "name": "Wanderer", "team": "traveler", "ability": "You may wander."}
    script = write(tmp_path, [*BASE, traveller])
    parsed = read_script(script, db)
    assert parsed.get("wanderer").team == "traveller"
    assert [p.severity for p in parsed.problems if p.code == "team-spelling"] == ["info"]
    html = build("build", script, "--format", "html", "-o", "-", "--back").stdout
    assert 'data-id="wanderer"' in html and "team-traveller" in html


def test_an_unknown_team_is_an_error_on_every_command_per_file_in_a_batch(tmp_path):
    villager = {"id": "domestic", "name": "Domestic", "team": "villager", "ability": "You know 2 allies."}
    bad = write(tmp_path, [*BASE, villager])
    good = tmp_path / "good.json"
    good.write_text(json.dumps(BASE), encoding="utf-8")
    for command in (["build"], ["nightsheet"], ["almanac"], ["night"], ["setup"], ["jinxes"], ["order"]):
        result = build(*command, bad, "-o", tmp_path / "x.pdf", ok=False) if command[0] in ("build", "nightsheet", "almanac") \
            else build(*command, bad, ok=False)
        assert result.exit_code == 1, command
        assert f"{bad}: /20/team: character 'domestic' cannot be used: team villager" in result.stderr, command
        assert "--skip-unknown leaves it out" in result.stderr, command
    validated = build("validate", bad, ok=False)
    assert "error [unknown-team]" in validated.stdout
    batch = build("build", good, bad, "-o", f"{tmp_path}/out/", ok=False)
    assert batch.exit_code == 1 and "1 of 2 scripts failed" in batch.stderr and "domestic" in batch.stderr
    assert (tmp_path / "out" / "good.pdf").is_file()
    skipped = build("build", bad, "--skip-unknown", "--format", "html", "-o", "-")
    assert "left out 1 character(s)" in skipped.stderr and "domestic" in skipped.stderr


def test_a_token_object_is_left_out_with_a_warning_and_the_script_prints(tmp_path):
    """`"team": "token"` (a reminder or note some tools write) is no character: left out, as before."""
    token = {"id": "domestic", "name": "Domestic", "team": "token", "ability": "You know 2 allies."}
    script = write(tmp_path, [*BASE, token])
    html = build("build", script, "--format", "html", "-o", "-")
    assert html.exit_code == 0 and 'data-id="domestic"' not in html.stdout
    assert "left out 1 object(s) with no team or the team 'token'" in html.stderr and "domestic" in html.stderr


def test_fall_of_rome_prints_its_six_travellers(tmp_path):
    rome = shared_path("reference", "scripts", "ko-fall_of_rome.json")
    travellers = [e for e in json.loads(rome.read_text(encoding="utf-8"))
                  if isinstance(e, dict) and e.get("team") == "traveler"]
    assert len(travellers) == 6
    html = build("build", rome, "--format", "html", "-o", "-").stdout
    for entry in travellers:
        assert f'data-id="{entry["id"]}"' in html and entry["name"] in html


# -- 3. renamed official characters -----------------------------------------------------------------


def test_a_renamed_official_character_gets_its_translation(db):
    entries = [*BASE[:-2], {"id": "hunt-witch", "name": "Witch", "team": "minion", "ability": WITCH},
               {"id": "coven_witch", "name": "Hag", "team": "minion", "ability": WITCH + " [+1 Outsider]",
                "flavor": "Our own words."}, "imp"]
    script = script_from_data(entries, db)
    witch, hag = script.get("hunt-witch"), script.get("coven_witch")
    assert (witch.texts["ko"].name, witch.texts["ko"].ability) == (db.get("witch").texts["ko"].name,
                                                                   db.get("witch").texts["ko"].ability)
    assert witch.homebrew and witch.team == "minion"  # its own facts stay
    assert hag.texts["ko"].name == "Hag"  # its own name stays where it is not the official one
    assert hag.texts["ko"].ability == db.get("witch").texts["ko"].ability + " [+1 Outsider]"
    assert hag.texts["ko"].flavor is None and hag.field("flavor", "ko") == ("Our own words.", "en")  # not the Witch's
    assert {p.data["official"] for p in script.problems if p.code == "character-renamed"} == {"witch"}
    other = script_from_data([*BASE, {"id": "hunt-witch", "name": "Witch", "team": "minion", "ability": "Mine."}], db)
    assert set(other.get("hunt-witch").texts) == {"en"}  # another ability: not the official Witch


# -- 4. badges never disappear ------------------------------------------------------------------------


def test_jinx_rows_keep_their_badges_when_remote_images_are_not_fetched(tmp_path):
    entries = [*BASE, "widow", "damsel"]
    script = write(tmp_path, entries)
    data = json.loads(script.read_text(encoding="utf-8"))
    for i, entry in enumerate(data):
        if entry in ("widow", "damsel"):
            data[i] = {"id": entry, "image": f"https://example.org/{entry}.png"}
    script.write_text(json.dumps(data), encoding="utf-8")
    html = build("build", script, "--format", "html", "-o", "-").stdout
    icons = re.search(r'<td class="jinx-icons">(.*?)</td>', html).group(1)
    assert icons.count("badge") == 2 and "https://" not in html


# -- 5. print options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_two_columns_compact_and_large_text_render(tmp_path, lang):
    ftpd = EXAMPLES / "faith-trust-and-pixie-dust.json"
    out = tmp_path / "sheet.pdf"
    result = build("build", ftpd, "--lang", lang, "--columns", "2", "--compact", "--font-size", "large", "-o", out)
    assert "1 page" in result.stdout
    text = squashed(pdf_pages(out)[0])
    names = [c.name for t in make_view(analyse(read_script(ftpd, _db()), _db()), lang).teams for c in t.characters]
    assert all(squashed(n) in text for n in names)
    html = build("build", ftpd, "--lang", lang, "--columns", "2", "--compact", "--font-size", "large",
                 "--format", "html", "-o", "-").stdout
    assert 'class="characters columns-2"' in html and 'compact">' in html
    assert f"font-size: {9.0 * FONT_SIZES['large']:.2f}pt" in html
    default = build("build", ftpd, "--lang", lang, "--format", "html", "-o", "-").stdout
    assert 'class="characters columns-2"' not in default and 'compact">' not in default
    assert "font-size: 9.00pt" in default


def _db():
    from scriptforge.db.loading import load_database

    return load_database()


def test_no_player_table_players_and_teensyville(tmp_path):
    big = write(tmp_path, BASE)
    html = build("build", big, "--back", "--night", "--lang", "en", "--format", "html", "-o", "-").stdout
    assert 'class="setup-table"' in html and 'data-id="minioninfo"' in html and "Teensyville" not in html
    html = build("build", big, "--back", "--night", "--no-player-table", "--players", "6", "--lang", "en",
                 "--format", "html", "-o", "-").stdout
    assert 'class="setup-table"' not in html and 'data-id="minioninfo"' not in html and "6 players" in html
    small = tmp_path / "small.json"
    small.write_text(json.dumps([{"id": "_meta", "name": "Small"}, *BASE[:8], "drunk", "poisoner", "imp"]),
                     encoding="utf-8")
    html = build("build", small, "--back", "--night", "--lang", "en", "--format", "html", "-o", "-").stdout  # 11
    assert "Teensyville" in html and 'data-id="minioninfo"' not in html
    assert re.findall(r"<th>(\d+)</th>", html) == ["5", "6"]
    html = build("build", small, "--back", "--night", "--no-teensy", "--lang", "en", "--format", "html", "-o", "-").stdout
    assert "Teensyville" not in html and 'data-id="minioninfo"' in html and len(re.findall(r"<th>\d+</th>", html)) == 11
    teensy = build("nightsheet", big, "--teensy", "--lang", "en", "--format", "html", "-o", "-").stdout
    assert "Teensyville" in teensy and 'data-id="demoninfo"' not in teensy


def test_print_options_are_refused_for_other_games(tmp_path):
    result = build("build", "--game", "salem", "--columns", "2", "-o", tmp_path / "x.pdf", ok=False)
    assert result.exit_code == 2 and "--columns is for Blood on the Clocktower scripts" in result.stderr


# -- 6. the footer ------------------------------------------------------------------------------------


def test_every_page_has_the_footer_numbered_over_the_whole_output(tmp_path):
    # the sheet does not fit on one page: its parts are laid out one by one, and numbered as one
    long = [{"id": f"hb{i}", "name": f"Homebrew {i}", "team": "townsfolk",
             "ability": "You start knowing something long. " * 6} for i in range(9)]
    script = write(tmp_path, [*BASE, *long], bootlegger=RULES)
    out = tmp_path / "long.pdf"
    build("build", script, "--back", "--night", "--lang", "en", "-o", out)
    pages = pdf_pages(out)
    assert len(pages) >= 4
    from scriptforge import __version__
    for number, page in enumerate(pages, 1):
        assert "Whole Script · Tester" in page
        assert re.search(rf"\b{number}\s*/\s*{len(pages)}\b", page), (number, page[-200:])
        assert f"scriptforge {__version__} · " in page  # and the data it was built from


# -- 7. back pages --------------------------------------------------------------------------------------


def test_ko_en_back_page_shows_both_names_and_no_table_alone(db, tmp_path):
    script = read_script(EXAMPLES / "fang-gu-zealot.json", db)
    html = Renderer().render(make_view(analyse(script, db), "ko+en", "a4", sheet=False, back=True), "html").files[0][1]
    back = html.decode("utf-8").split('class="page back"')[1]
    assert "Fang Gu" in back and "팡 구" in back.replace("\u2060", "")
    # a long night order starts under the table, never leaving it alone on its page
    many = [{"id": f"hb{i}", "name": f"Night Owl {i}", "team": "townsfolk", "ability": "Each night, hoot.",
             "firstNight": 30 + i * 0.01, "otherNight": 30 + i * 0.01} for i in range(70)]
    path = write(tmp_path, [*BASE, *many])
    renderer = Renderer()
    view = make_view(analyse(read_script(path, db), db), "en", "a4", sheet=False, back=True)
    document = renderer.layout(renderer.html(view), None, [])  # laid out once, at full size
    assert len(document.pages) >= 2
    first = PdfReader(io.BytesIO(pdf_bytes([document]))).pages[0].extract_text()
    assert "Players" in first and "Night Owl 5" in first


# -- the completeness check (benchmarks/print_check.py runs it over the corpus) -------------------------


def test_completeness_finds_every_item_and_misses_what_is_not_printed(tmp_path, db):
    jinxed = [*BASE, "widow", "damsel"]
    script = write(tmp_path, jinxed, bootlegger=RULES)
    for lang in ("ko", "en", "ko+en"):
        out = tmp_path / f"{lang}.pdf"
        build("build", script, "--lang", lang, "-o", out)
        items = sheet_items(analyse(read_script(script, db), db), lang)
        assert {i.kind for i in items} == {"character", "jinx", "rule"}
        assert sum(i.kind == "character" for i in items) == len(jinxed)
        assert missing(items, "".join(pdf_pages(out))) == []
    assert missing([Item("rule", "rule 1", (RULES[0],))], "All Minions are Witches.") != []


def test_completeness_on_a_corpus_sample(tmp_path, official_ko):
    official = shared_path("reference", "official")
    samples = [official / "wc25" / name / "script.json" for name in ("witchhunt", "stowedaway")]
    pack = official_ko[1]  # the official files and a Korean test translation
    from scriptforge.db.loading import load_database

    db = load_database(None, [pack])
    counts = {"character": 0, "jinx": 0, "rule": 0}
    for path in samples:
        out = tmp_path / f"{path.parent.name}-{path.stem}.pdf"
        build("build", path, "--lang", "ko", "--pack", pack, "-o", out)
        items = sheet_items(analyse(read_script(path, db), db), "ko")
        for item in items:
            counts[item.kind] += 1
        assert missing(items, "".join(pdf_pages(out))) == [], path
    assert counts["character"] >= 40 and counts["jinx"] >= 1 and counts["rule"] == 2


def test_print_options_defaults_are_todays_look():
    assert PrintOptions() == PrintOptions(columns=1, compact=False, font_size="normal", player_table=True)
    assert set(FONT_SIZES) == {"normal", "large"}  # the choices of --font-size (cli/printing.py)
