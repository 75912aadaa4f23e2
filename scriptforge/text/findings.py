"""Findings in words for people — `validate`, `l10n check` and `explain` — one finding a line,
then the verdict; a code's entry from its docs page."""

from collections.abc import Sequence

from scriptforge.io.errors import ScriptforgeError
from scriptforge.model.findings import DOMAINS, REGISTRY, Finding, FindingCode, count, has_errors
from scriptforge.io.paths import DOCS_DIR


def all_codes() -> dict[str, FindingCode]:
    """Every code of the registry, the translation checks' included: `l10n.checks` registers them
    as it loads."""
    # deferred: start-up time (validate and explain CODE need no translation check)
    from scriptforge.l10n import checks

    return {**REGISTRY, **{code: REGISTRY[code] for code in checks.REGISTRY}}


def finding_line(f: Finding, source: str | None = None) -> str:
    """One finding for people: where, severity, [code], message."""
    if f.lang is not None:
        where = f.lang
    else:
        where = f"{source}:" + (f" {f.path}" if f.path else "") if source else (f.path or "")
    return f"{where} {f.severity} [{f.code}] {f.message}".lstrip()


def findings_text(findings: Sequence[Finding], source: str | None = None) -> str:
    """Every finding, one per line, then the verdict: ok or FAILED, with the counts. Findings on
    official texts (`data.official`, see l10n.checks.run_checks) come last, in their own group."""
    verdict = "FAILED" if has_errors(findings) else "ok"
    summary = f"{verdict} ({count(findings, 'error')} error(s), {count(findings, 'warning')} warning(s))"
    ours = [f for f in findings if not f.data.get("official")]
    theirs = [f for f in findings if f.data.get("official")]
    lines = [finding_line(f, source) for f in ours]
    if theirs:
        lines.append(f"== official texts: {len(theirs)} finding(s), not ours to fix (report them upstream)")
        lines += [finding_line(f, source) for f in theirs]
    lines.append(f"{source}: {summary}" if source else summary)
    return "\n".join(lines)


def explanation(code: str) -> str:
    """A code's entry for people: code, severity, domain and its paragraph from the docs."""
    known = all_codes()
    if code not in known:
        hint = [c for c in known if c.startswith(code.split("-")[0])][:5]
        raise ScriptforgeError(f"no finding code '{code}'" + (f"; did you mean {', '.join(hint)}?" if hint else
                                                             "; 'scriptforge explain --list' lists them"))
    entry = known[code]
    page = DOCS_DIR / DOMAINS[entry.domain]
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    start = text.find(f"\n## {code}\n")
    body = text[start + len(code) + 5:].split("\n## ", 1)[0].strip() if start >= 0 else entry.summary
    return f"{code} ({entry.severity}; docs/{DOMAINS[entry.domain]})\n\n{body}"


def codes_text() -> str:
    """Every code with its severity and summary, by domain."""
    lines = []
    for domain, page in DOMAINS.items():
        lines.append(f"{domain} (docs/{page}):")
        lines += [f"  {c.code:<22} {c.severity:<7} {c.summary}" for c in all_codes().values() if c.domain == domain]
    return "\n".join(lines)
