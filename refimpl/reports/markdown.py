"""A verify run as markdown: GitHub's step summary, and ``refimpl report --format markdown``."""

from __future__ import annotations

import re

from ..rulebook.rules import first_sentence
from ..status import Status
from .failures import rule_words
from .model import STATUSES, VERDICTS, Report
from .safetext import one_line
from .text import show_value

SUMMARY_FAILURES = 10  # failures a markdown summary shows in detail (the ten GitHub annotates, in its order)
SUMMARY_NAMED = 100  # failures past those it names, one phrase each
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def code(text: object) -> str:
    """``text`` as a markdown code span that holds it whatever it is: on one line, fenced by more backticks
    than any run of them in it (CommonMark), so no build text becomes a link, an image or HTML."""
    body = one_line(str(text))
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", body)), default=0))
    pad = " " if body.startswith("`") or body.endswith("`") or not body.strip() else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def plain(text: object) -> str:
    """``text`` as markdown text that shows as written: one line, HTML's ``<`` ``>`` ``&`` as entities and
    markdown's special characters escaped."""
    body = one_line(str(text)).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SPECIAL.sub(r"\\\1", body)


def markdown(report: Report) -> str:
    """A run as markdown (the GitHub step summary, ``refimpl report --format markdown``): the verdict, the
    kit and build, a table per game, and the first failures with their rules."""
    verdict = VERDICTS[report.exit_code]
    lines = [f"### refimpl verify: {verdict.replace('_', ' ')} (exit {int(report.exit_code)})", "",
             f"Build {code(report.build or '?')} judged by {report.kit.get('name')} {report.kit.get('version')} "
             f"(suite {report.kit.get('suite')}), level {code(report.level)}", ""]
    for p in report.profiles:
        lines.append(f"Profile **{plain(p['name'])}** for {p['game']}: "
                     + (", ".join(f"{code(c['field'])} {code(c['default'])} → {code(c['value'])}"
                                  for c in p["changed"]) or "the defaults"))
    if report.broke_at_start is not None:
        lines += [f"**The build did not start:** {plain(report.broke_at_start)}", ""]
    games = sorted({c.game for c in report.checks})
    if games:
        lines += ["| game | " + " | ".join(STATUSES) + " |", "|---|" + "---|" * len(STATUSES)]
        for game in games:
            mine = [c for c in report.checks if c.game == game]
            lines.append(f"| {game} | " + " | ".join(str(sum(c.status == s for c in mine)) for s in STATUSES) + " |")
        lines.append("")
    from .text import likeliest_first

    bad = likeliest_first([c for c in report.checks if c.status in (Status.FAILED, Status.BROKE, Status.XPASS)])
    for c in bad[:SUMMARY_FAILURES]:
        rules = ", ".join(c.credited) or "-"
        lines.append(f"- **{c.status}** {c.kind} {code(c.name)} [{rules}]")
        f = c.failure
        if f is not None:
            lines.append(f"  - at {code(f.where)}" + (f" step {f.step}" if f.step is not None else "")
                         + f": {plain(f.action)}")
            for field_ in f.fields[:3]:
                lines.append(f"  - {code(field_.path)}: expected {code(show_value(field_.expected))}, got "
                             f"{code(show_value(field_.actual))} ({field_.rule or '-'})")
            for rule in dict.fromkeys(x.rule for x in f.fields[:3] if x.rule):
                found = rule_words(rule)
                if found:
                    lines.append(f"  - {rule}: {first_sentence(found[0])}")
        elif c.detail:
            lines.append(f"  - {plain(c.detail.splitlines()[0][:300])}")
    more = bad[SUMMARY_FAILURES:]
    if more:  # named here too: GitHub annotates ten problems a step, and drops the rest
        lines.append(f"- ... and {len(more)} more: " + ", ".join(f"{code(c.name)} [{', '.join(c.credited) or '-'}]"
                                                          for c in more[:SUMMARY_NAMED])
                     + (f" and {len(more) - SUMMARY_NAMED} others (the reports list all)"
                        if len(more) > SUMMARY_NAMED else ""))
    return "\n".join(lines) + "\n"
