"""English: number words."""

from scriptforge.l10n.lang.base import Language


class English(Language):
    number_words = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                    "ten": 10, "twice": 2}
