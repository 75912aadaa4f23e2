"""Token sheets (`scriptforge tokens`): counts from the data, circle sizes measured from the PDF's
vector paths, Korean text, curved names, labels that shrink before they break, layout, options."""

import ctypes
import json
import math

from click.testing import CliRunner
import pypdfium2
import pypdfium2.raw as raw
import pytest

from scriptforge.cli import main
from scriptforge.model.glossary import variant_pattern
from scriptforge.model.ids import normalize_id
from scriptforge.render.token_layout import PAPER_MM, PRINTABLE_MARGIN_MM, Kind, area, layout, packing
from scriptforge.render.tokens import balanced, fit_label

from .conftest import EXAMPLES, shared_path

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"
PT = 25.4 / 72


def cut_circles(pdf: bytes) -> list[list[tuple[float, float, float]]]:
    """Per page after the cover: the stroked, unfilled circles, as (cx, cy, diameter) in mm from
    the page's top left, measured from the points of the PDF's path objects."""
    document = pypdfium2.PdfDocument(pdf)
    pages = []
    try:
        for index in range(1, len(document)):
            page = document[index]
            height = page.get_size()[1]
            found = []
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=8):
                fill, stroke = ctypes.c_int(), ctypes.c_int()
                raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
                count = raw.FPDFPath_CountSegments(obj.raw)
                if not stroke.value or fill.value or count < 9:
                    continue
                matrix = obj.get_matrix()
                points = []
                for i in range(count):
                    x, y = ctypes.c_float(), ctypes.c_float()
                    raw.FPDFPathSegment_GetPoint(raw.FPDFPath_GetPathSegment(obj.raw, i), ctypes.byref(x), ctypes.byref(y))
                    points.append(matrix.on_point(x.value, y.value))
                xs, ys = [p[0] * PT for p in points], [(height - p[1]) * PT for p in points]
                found.append(((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, max(xs) - min(xs)))
            pages.append(found)
            page.close()
    finally:
        document.close()
    return pages


def page_text(pdf: bytes) -> str:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def tokens(args, tmp_path, name="out.pdf"):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["tokens", *map(str, args), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_bytes()


# -- the count the data gives ------------------------------------------------------------------


def data_count(script: list, roles: dict) -> tuple[int, int]:
    """(character tokens, reminder tokens) straight from the script JSON and roles.json: a string or
    {id} is the official record, a full object its own lists; every reminder and global reminder."""
    characters = reminders = 0
    for item in script:
        if isinstance(item, dict) and item.get("id") == "_meta":
            continue
        record = roles[normalize_id(item if isinstance(item, str) else item["id"])] \
            if isinstance(item, str) or set(item) == {"id"} else item
        characters += 1
        reminders += len(record.get("reminders", ())) + len(record.get("remindersGlobal", ()))
    return characters, reminders


@pytest.mark.parametrize("name", ["witchhunt", "deadcouncil"])
def test_token_count_equals_the_count_from_the_data(name, official_ko, tmp_path):
    _, pack, _ = official_ko
    path = shared_path("reference", "official", "wc25", name, "script.json")
    roles = {r["id"]: r for r in json.loads(shared_path("reference", "official", "roles.json").read_text())}
    characters, reminders = data_count(json.loads(path.read_text()), roles)
    pdf = tokens([path, "--pack", pack, "--lang", "ko"], tmp_path)
    assert "표식" in page_text(pdf)  # the pack's Korean labels (the test translation's) are printed
    circles = [c for page in cut_circles(pdf) for c in page]
    by_size = {44: 0, 25: 0}
    for _, _, d in circles:
        by_size[min(by_size, key=lambda s: abs(s - d))] += 1
    assert by_size == {44: characters, 25: reminders}
    assert reminders > characters  # the repeats (No Ability ×3) and global reminders are there


@pytest.mark.parametrize("size, diameters", [("44/25", (44, 25)), ("38/19", (38, 19))])
def test_circles_have_the_stated_diameter_on_a4_at_100_percent(size, diameters, tmp_path):
    pdf = tokens([FTPD, "--size", size, "--paper", "a4"], tmp_path)
    document = pypdfium2.PdfDocument(pdf)
    width, height = document[1].get_size()
    document.close()
    assert (round(width * PT, 1), round(height * PT, 1)) == (210.0, 297.0)  # the page is A4, unscaled
    circles = [c for page in cut_circles(pdf) for c in page]
    assert len(circles) == 25 + 35 + 4  # 25 characters, 35 reminders, 4 global reminders
    for _, _, d in circles:
        assert min(abs(d - diameters[0]), abs(d - diameters[1])) < 0.2, d
    for page in cut_circles(pdf):  # nothing at the printer's margin, no two tokens overlap
        for i, (x, y, d) in enumerate(page):
            r = d / 2 + 1.0
            assert PRINTABLE_MARGIN_MM <= x - r and x + r <= 210 - PRINTABLE_MARGIN_MM + 1e-6
            assert PRINTABLE_MARGIN_MM <= y - r and y + r <= 297 - PRINTABLE_MARGIN_MM + 1e-6
            for x2, y2, d2 in page[i + 1:]:
                assert math.hypot(x - x2, y - y2) >= d / 2 + d2 / 2 + 2.0 - 1e-6


# -- text ------------------------------------------------------------------------------------------


def test_korean_tokens_hold_names_labels_and_the_cover_counts(tmp_path, db):
    text = page_text(tokens([FTPD, "--lang", "ko"], tmp_path))
    for expected in ("시계공", "할머니", "현상금 사냥꾼", "능력 없음", "주정뱅이임", "캐릭터 토큰", "기록 토큰",
                     "점철되는 혼란", "이 스크립트에 새로 필요한 캐릭터"):
        assert expected in text, expected
    assert "Clockmaker" not in text
    pattern, table = variant_pattern(db.glossary["ko"])  # the glossary's terms, never a variant of one
    assert [m.group(0) for m in pattern.finditer(text)] == []


def test_ko_en_tokens_carry_both_names(tmp_path):
    text = page_text(tokens([FTPD, "--lang", "ko+en"], tmp_path))
    assert "시계공" in text and "Clockmaker" in text and "능력 없음" in text


def test_names_curve_along_the_lower_edge(tmp_path):
    pdf = tokens([FTPD, "--lang", "en", "--only", "bountyhunter"], tmp_path)
    document = pypdfium2.PdfDocument(pdf)
    try:
        text = document[1].get_textpage()
        angles = []
        for i in range(text.count_chars()):
            if chr(raw.FPDFText_GetUnicode(text.raw, i)).isalpha():
                matrix = raw.FS_MATRIX()
                raw.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
                angles.append(round(math.degrees(math.atan2(matrix.b, matrix.a))))
        assert "Bounty Hunter" in text.get_text_range()  # searchable, in reading order
    finally:
        document.close()
    name = angles[1:13]  # after the monogram's B (then its reminder token); PDF angles are counter-clockwise
    assert name[0] < -20 and name[-1] > 20 and name == sorted(name)


def test_labels_shrink_before_they_break_and_never_break_a_word():
    radius = 11.5
    one = fit_label([("능력 없음", 1.0)], 3.25, -2.0, radius, radius)
    assert one and len(one[0].lines) == 1 and one[2] == 3.25
    smaller = fit_label([("철학자임 능력 없음", 1.0)], 3.25, -2.0, radius, radius)
    assert smaller and len(smaller[0].lines) == 1 and 3.25 * 0.72 <= smaller[2] < 3.25  # smaller, not broken
    long = "하수인이 지목되지 않았음 오늘 밤 능력 없음"
    block, _, size = fit_label([(long, 1.0)], 3.25, -2.0, radius, radius)
    assert len(block.lines) > 1  # too long for one line even at 72 %: broken, at spaces only
    assert " ".join(text for text, _ in block.lines) == long
    assert balanced(["Minions", "Not", "Nominated"], 2) == ["Minions Not", "Nominated"]
    lines = balanced(["x"] * 150, 4)  # quick, even for 150 words
    assert len(lines) == 4 and max(len(line.split()) for line in lines) == 38 and " ".join(lines) == " ".join(["x"] * 150)


# -- layout --------------------------------------------------------------------------------------


def test_hexagonal_packing_when_it_fits_more():
    width, height = area("a4")
    characters, reminders = packing(Kind("c", 44, 1), width, height), packing(Kind("r", 25, 1), width, height)
    assert characters.hex and characters.per_page(height) == 21  # a 4 × 5 grid holds 20
    assert reminders.hex and reminders.per_page(height) > 54
    pages = layout([(Kind("character", 44, 1), 25), (Kind("reminder", 25, 1), 39)], "a4")
    assert len(pages) == 2 and [t.kind for t in pages[1].tokens][:4] == ["character"] * 4
    assert pages[1].tokens[4].kind == "reminder"  # reminders start below the last character row
    for page in pages:
        for t in page.tokens:
            r = (44 if t.kind == "character" else 25) / 2 + 1 + 2.0  # with the crop marks
            assert -1e-6 <= t.y - r and t.y + r <= height + 1e-6
    assert PAPER_MM["letter"] == (215.9, 279.4)


def test_new_only_leaves_out_the_boxed_characters(tmp_path):
    text = page_text(tokens([FTPD, "--lang", "en", "--new-only"], tmp_path))
    pdf_pages = text.split("\n")
    assert "Pixie" in text and "Lil' Monsta" in text
    circles = [c for page in cut_circles(tokens([FTPD, "--new-only"], tmp_path, "b.pdf")) for c in page]
    assert len([c for c in circles if c[2] > 40]) == 5  # pixie, bountyhunter, preacher, fisherman, lilmonsta
    assert pdf_pages


def test_only_chooses_teams_and_ids(tmp_path):
    circles = [c for page in cut_circles(tokens([FTPD, "--only", "demon,philosopher"], tmp_path)) for c in page]
    assert len([c for c in circles if c[2] > 40]) == 5  # four Demons and the Philosopher


@pytest.mark.parametrize("args, message", [
    (["--only", "nobody"], "--only nobody: neither a team"),
    (["--size", "44"], "--size 44: give two diameters"),
    (["--size", "200/25"], "each 12 to 90"),
])
def test_mistakes_are_one_line(args, message, tmp_path):
    result = CliRunner().invoke(main, ["tokens", str(FTPD), "-o", str(tmp_path / "t.pdf"), *args])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_stdout_png_and_folders(tmp_path):
    result = CliRunner().invoke(main, ["tokens", str(FTPD), "--only", "imp", "-o", "-"])
    assert result.exit_code == 0 and result.stdout_bytes.startswith(b"%PDF")
    result = CliRunner().invoke(main, ["tokens", str(FTPD), "--only", "imp", "-o", str(tmp_path / "t.png"), "--dpi", "40"])
    assert result.exit_code == 0 and (tmp_path / "t-1.png").is_file() and (tmp_path / "t-2.png").is_file()
    result = CliRunner().invoke(main, ["tokens", str(FTPD), str(EXAMPLES / "fang-gu-zealot.json"), "--only", "demon",
                                       "-o", str(tmp_path / "many") + "/"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "many").iterdir()) == ["faith-trust-and-pixie-dust-tokens.pdf",
                                                                     "fang-gu-zealot-tokens.pdf"]


def test_mirror_reflects_the_token_pages(tmp_path):
    plain = cut_circles(tokens([FTPD, "--only", "imp,baron"], tmp_path))
    mirrored = cut_circles(tokens([FTPD, "--only", "imp,baron", "--mirror"], tmp_path, "m.pdf"))
    assert sorted(round(210 - x, 2) for x, _, _ in mirrored[0]) == sorted(round(x, 2) for x, _, _ in plain[0])


def test_reminder_pips_stay_dots_however_many_reminders():
    import math

    from scriptforge.render.tokens import PIP_GAP, PIP_SPAN, reminder_pips

    ring, radius = 19.36, 0.704  # a 44 mm token's
    for count in range(1, 21):  # the official limit is 20 reminders
        pips = reminder_pips(count, 0.0, 0.0, ring, radius)
        assert len(pips) == count
        closest = min((math.dist((a.x, a.y), (b.x, b.y)) for i, a in enumerate(pips) for b in pips[i + 1:]),
                      default=math.inf)
        assert closest >= (2 + PIP_GAP) * radius * 0.99, count  # 12 pips were 1.2 mm apart: one bar
        for pip in pips:  # on the token's top, clear of the setup mark (237°) and the night marks
            angle = math.degrees(math.atan2(pip.y, pip.x)) % 360
            assert abs(angle - 270) <= PIP_SPAN / 2 + 3, (count, angle)
            assert math.hypot(pip.x, pip.y) > 0.29 * 44 + radius  # above the picture
