"""The optional system packages some tests need, and whether this machine has them.

`python -m tests.optional` prints one line of what was found (.ci/run shows it); the tests use
`needs_font` and `needs_program` from tests/conftest.py, which skip with the package to install.
"""

import ctypes.util
import functools
import importlib.util
import shutil

# language code → (sample letters, the Debian/Ubuntu package with a font for them)
FONTS = {"ja": ("狐の子かな", "fonts-noto-cjk"), "zh-Hans": ("钟表匠镇民", "fonts-noto-cjk"),
         "th": ("กขคภาษาไทย", "fonts-thai-tlwg")}
# program → the Debian/Ubuntu package that has it
PROGRAMS = {"msgfmt": "gettext", "pdftoppm": "poppler-utils", "pdftotext": "poppler-utils",
            "pofilter": "translate-toolkit"}


@functools.cache
def has_font(lang: str) -> bool:
    """Whether a font the render may use (bundled or found through fontconfig) sets `lang`."""
    from scriptforge.model.languages import unprintable_letters
    from scriptforge.render.typefaces import font_coverage, system_fonts_cover

    missing = unprintable_letters(lang, font_coverage())
    return not missing or (shutil.which("fc-list") is not None and system_fonts_cover(missing + FONTS[lang][0]))


def has_program(name: str) -> bool:
    return shutil.which(name) is not None


def has_harfbuzz_subset() -> bool:
    return ctypes.util.find_library("harfbuzz-subset") is not None


def has_translate_toolkit() -> bool:
    return importlib.util.find_spec("translate") is not None


def summary() -> str:
    def mark(found: bool) -> str:
        return "yes" if found else "no"

    fonts = " ".join(f"{lang}={mark(has_font(lang))}" for lang in FONTS)
    programs = " ".join(f"{p}={mark(has_program(p))}" for p in PROGRAMS)
    return (f"optional packages: fonts {fonts}; {programs}; libharfbuzz-subset={mark(has_harfbuzz_subset())}; "
            f"translate-toolkit={mark(has_translate_toolkit())}")


if __name__ == "__main__":
    print(summary())
