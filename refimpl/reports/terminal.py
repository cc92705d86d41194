"""A text report on a terminal: its verdict words and statuses in colour (red, green, yellow), plain text
everywhere else."""

from __future__ import annotations

import click


def echo_text(text: str, color: bool = True) -> None:
    """A text report on stdout: coloured on a terminal (verdict words and statuses), plain otherwise, with
    ``--no-color`` or with NO_COLOR set (rich honours it)."""
    from rich.console import Console
    from rich.highlighter import RegexHighlighter
    from rich.theme import Theme

    class Statuses(RegexHighlighter):
        base_style = "status."
        highlights = [r"(?P<bad>\b(?:FAILED|BROKE|XPASS|MISMATCH|DOES NOT CONFORM|BUILD BROKE|INTERRUPTED)\b)",
                      r"(?P<good>\b(?:CONFORMS|conforms)\b)", r"(?P<warn>\b(?:XFAIL|NOT RUN|not run|Warning)\b)"]

    console = Console(highlighter=Statuses(), theme=Theme({"status.bad": "bold red", "status.good": "bold green",
                                                           "status.warn": "yellow"}), soft_wrap=True)
    if not color or not console.is_terminal or console.no_color:
        click.echo(text, nl=False)
        return
    console.print(text, end="", markup=False, highlight=True, emoji=False)
