"""Whether a render uses the system's fonts (through fontconfig) beside the bundled ones.

The choice (`--system-fonts` / `--no-system-fonts` on every printing command) is one of:

- None (auto, the default): the bundled fonts alone, unless the page has letters they lack
  (Japanese, Chinese, Thai, ...); then the system's fonts as well, where one has them;
- True: the system's fonts as well on every page (a system font may then set what the bundled
  ones lack, and nothing else changes: the bundled fonts come first in the stylesheet);
- False: the bundled fonts only; a sheet language or a page they cannot set is refused in one
  line naming the letters and the Debian package whose fonts would set them.
"""

from collections.abc import Iterable

from scriptforge.io.errors import InputError
from scriptforge.model.languages import registry, system_of

Choice = bool | None


def font_packages_for(chars: Iterable[str]) -> tuple[str, ...]:
    """The Debian packages whose fonts set the writing systems of `chars`, in their order."""
    systems = registry().writing_systems
    found = (system_of(char) for char in chars)
    return tuple(dict.fromkeys(systems[ws].font_package for ws in found if ws in systems and systems[ws].font_package))


def bundled_only_refusal(what: str, missing: str, packages: Iterable[str]) -> str:
    """The one line that refuses `what` ("--lang ja: ", or "" for the page) under --no-system-fonts."""
    letters = " ".join(sorted(set(missing))[:5]) + (" …" if len(set(missing)) > 5 else "")
    install = " or ".join(packages) or "a font that has them"
    return (f"{what}the bundled fonts cannot set {letters} and --no-system-fonts keeps the system's fonts out; "
            f"drop --no-system-fonts to use a system font ({install}, Debian/Ubuntu package), or render --format html")


def use_system_fonts(choice: Choice, missing: Iterable[str]) -> bool:
    """Whether a page whose letters the bundled fonts lack are `missing` is laid out with the
    system's fonts too (see the module's docstring); InputError under False when any are missing."""
    missing = "".join(missing)
    if choice is False and missing:
        raise InputError(bundled_only_refusal("", missing, font_packages_for(missing)))
    return bool(missing) if choice is None else choice
