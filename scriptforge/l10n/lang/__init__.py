"""What the translation checks know of one language, one module per language, chosen by its code
(as translate-toolkit's `translate/lang/`): how its words take endings, how it writes numbers,
what a typo of a name looks like, its night-text register. The registry (data/languages.json)
keeps what is data — names, fonts, letters, quotes, fallbacks; these modules keep the rules that
are code. A language without a module of its own gets `base.Language` (digits only, names
compared letter by letter)."""

from scriptforge.l10n.lang.base import Language
from scriptforge.l10n.lang.en import English
from scriptforge.l10n.lang.ko import Korean

#: language code -> its rules; every other code of the registry gets `Language()`
_BY_CODE: dict[str, Language] = {"en": English(), "ko": Korean()}
_DEFAULT = Language()


def rules_for(code: str) -> Language:
    """The check rules of the language `code` (a registry code: ko, en, de, zh-Hans, …)."""
    return _BY_CODE.get(code, _DEFAULT)
