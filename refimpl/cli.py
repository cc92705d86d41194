"""The ``refimpl`` command: the click group, its one error boundary (KitGroup.invoke) and ``--version``. Each
command's code is in refimpl/commands/<name>.py, registered on the group below; what several share (options,
``fail``) is in refimpl/commands/options.py, since nothing imports this module. Exit codes live in
refimpl/errors.py."""

from __future__ import annotations

import os
import shlex
import signal
import sys
from typing import Any, NoReturn

import click

from .commands.adapter import adapter_cmd
from .commands.diff import diff_cmd
from .commands.fuzz import fuzz_cmd
from .commands.games import games_cmd
from .commands.map import map_cmd
from .commands.mutants import mutants_cmd
from .commands.options import fail
from .commands.perft import perft_cmd
from .commands.play import play_cmd
from .commands.profile import profile_cmd
from .commands.prompt import prompt_cmd
from .commands.replay import replay_cmd
from .commands.report import report_cmd
from .commands.rule import rule_cmd
from .commands.serve import serve_cmd
from .commands.show import show_cmd
from .commands.simulate import simulate_cmd
from .commands.solve import solve_cmd
from .commands.tables import tables_cmd
from .commands.verify import verify_cmd
from .errors import Exit, KitError
from .reports.safetext import printable


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from . import suite

        click.echo(suite.describe())
        ctx.exit()


def _internal_error(exc: BaseException) -> NoReturn:
    """A bug of the kit escaped a command: say so (not a verdict on the build), keep the traceback in a file
    the message names, exit INTERNAL_ERROR."""
    import tempfile
    import traceback

    from . import __version__

    text = "".join(traceback.format_exception(exc))
    try:
        fd, name = tempfile.mkstemp(prefix="refimpl-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(f"refimpl {__version__}, Python {sys.version.split()[0]}, {sys.platform}\n")
            out.write(f"command: {shlex.join(sys.argv)}\n\n{text}")
        where = f"the traceback is in {name}"
    except OSError:
        where = "the traceback follows:\n" + text
    first = str(exc).splitlines()[0] if str(exc) else ""
    click.echo(printable(f"refimpl: internal error, a bug in the kit (not a verdict on your build): "
                         f"{type(exc).__name__}: {first}".rstrip(": ")), err=True)
    click.echo(f"refimpl: {where}; please report it with that text", err=True)
    sys.exit(Exit.INTERNAL_ERROR)


class KitGroup(click.Group):
    """The one error boundary of every command. A KitError is one line on stderr and its exit code; anything
    else that escapes is a bug of the kit: exit 4 (INTERNAL_ERROR), the traceback kept in a file, never read as
    "does not conform". Interrupted, a command keeps the documented codes: 130 for Ctrl-C, 143 for SIGTERM
    (click alone would print "Aborted!" and exit 1); commands that have something to report (verify, fuzz,
    simulate, mutants) print it first."""

    def invoke(self, ctx: click.Context) -> Any:
        from .harness.processes import Terminated

        def terminated(signum: int, frame: object) -> None:
            raise Terminated()

        try:
            previous = signal.signal(signal.SIGTERM, terminated)
        except ValueError:  # not the main thread
            previous = None
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            word = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
            click.echo(f"refimpl: interrupted ({word})", err=True)
            sys.exit(Exit.TERMINATED if word == "SIGTERM" else Exit.INTERRUPTED)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # usage errors and --help: click's own, exit 2 and 0
        except BrokenPipeError:  # the reader of its output went away (``| head``): quiet, and not a verdict
            try:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            sys.exit(Exit.OUTPUT_CLOSED)
        except KitError as exc:
            fail(str(exc), exc.exit_code)
        except Exception as exc:  # noqa: BLE001 - the boundary: a bug of the kit, said as one
            _internal_error(exc)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


@click.group(cls=KitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Print the kit's version and the digest of the suite it judges by, then exit.")
def main() -> None:
    """Conformance kit for the five tabletop rule specs.

    Exit codes: 0 conforms, 1 does not conform, 2 bad usage or input, 3 the build under test broke, 4 a bug in
    the kit (internal error: the message names a file with the traceback), 130/143 interrupted, 141 the reader of
    its output went away.
    """


for _command in (games_cmd, replay_cmd, verify_cmd, report_cmd, diff_cmd, show_cmd, fuzz_cmd, mutants_cmd, perft_cmd,
                 serve_cmd, profile_cmd, simulate_cmd, solve_cmd, play_cmd, map_cmd, tables_cmd,
                 rule_cmd, adapter_cmd, prompt_cmd):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
