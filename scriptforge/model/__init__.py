"""The vocabulary: frozen records (`records`), ids and the one name lookup (`ids`), the language
registry (`languages`), findings and their codes (`findings`), the official character object
(`character_json`), facts in words (`describe`), the official texts' markup (`markup`), glossaries
(`glossary`) and the rule-set ids (`rule_sets`). Pure: nothing here reads a data file but the
language registry."""
