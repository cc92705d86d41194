"""``refimpl rule``: everything the kit holds about one rule or ruling."""

from __future__ import annotations

import click

from ..harness.trace import TraceError
from ..reports import jsondoc
from ..reports.safetext import printable
from .options import fail


@click.command("rule")
@click.argument("rule_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule_cmd(rule_id: str, fmt: str) -> None:
    """Print what the kit holds about rule or ruling ID (case ignored): its spec text, the code that cites it,
    the scenarios tagged with it, the traces that name it and the misreadings that target it."""
    from ..rulebook.lookup import UnknownRule, as_json, as_text, lookup
    from ..scenarios.gherkin import FeatureError

    try:
        entry = lookup(rule_id)
    except (UnknownRule, FeatureError, TraceError) as exc:  # the last two: a broken install's suite
        fail(str(exc))
    if fmt == "json":  # schema: refimpl/schemas/output/rule.schema.json
        click.echo(jsondoc.dumps(as_json(entry)), nl=False)
        return
    click.echo(printable(as_text(entry)), nl=False)
