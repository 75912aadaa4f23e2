"""Translator tools: text units in both languages, provenance (staleness), status, diff, checks and
the exchange of .po files with translation platforms.

Nothing here is imported by the reference commands (`show`, `list`); Babel is imported only by
scriptforge.l10n.po.
"""
