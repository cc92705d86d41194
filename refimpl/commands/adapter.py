"""``refimpl adapter js``: the kit's protocol module for JavaScript builds, written into a folder."""

from __future__ import annotations

from importlib import resources

import click

from ..util import yamlsafe
from .options import fail

FILES = ("refimpl-adapter.mjs", "refimpl-adapter.d.ts")


def adapter_files() -> list[tuple[str, bytes]]:
    """The JavaScript adapter's files as the kit ships them (refimpl/page/js)."""
    folder = resources.files("refimpl.page").joinpath("js")
    return [(name, folder.joinpath(name).read_bytes()) for name in FILES]


@click.command("adapter")
@click.argument("language", type=click.Choice(["js"]))
@click.option("--out", default=".", show_default=True, type=click.Path(file_okay=False),
              help="The folder to write refimpl-adapter.mjs and refimpl-adapter.d.ts into.")
def adapter_cmd(language: str, out: str) -> None:
    """Write the protocol's plumbing for a JavaScript build: refimpl-adapter.mjs (an ES module for a web page or
    Node: ids, hello, the requests' form, start's refusals, restart, observers, rejections, statistics) and its
    types, refimpl-adapter.d.ts. A game then supplies start, apply, view and legal in the protocol's words
    (docs/page.md). An earlier copy the kit wrote is replaced; a file of the same name it did not write is never
    (exit 2)."""
    from ..util.files import OwnedFolder

    folder = OwnedFolder(out, "adapter files (refimpl-adapter.*)", lambda name: name in FILES)
    try:
        written = folder.replace_all(adapter_files())
    except OSError as exc:
        fail(f"cannot write the adapter into {out}: {yamlsafe.os_reason(exc)}")
    for path in written:
        click.echo(f"wrote {path}")
