"""The exit codes of every ``refimpl`` command (the CI gate's contract, docs/exit-codes.md) and ``KitError``, the
one error every library error the user can cause derives from.

``refimpl.cli`` turns a ``KitError`` into one line on stderr and its ``exit_code``; anything else that escapes a
command is a bug in the kit: exit INTERNAL_ERROR, the traceback saved to a file the message names.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    CONFORMS = 0  # every trace and scenario that ran matched
    DOES_NOT_CONFORM = 1  # at least one mismatch (state, rejection code or outcome)
    BAD_INPUT = 2  # bad usage or input: malformed YAML, schema error, unknown game/ruleset/action
    BUILD_BROKE = 3  # the build under test crashed, hung or broke the protocol
    INTERNAL_ERROR = 4  # a bug in the kit: nothing is said about the build; please report it
    INTERRUPTED = 130  # Ctrl-C (SIGINT): what ran is printed, every process the run started is ended
    OUTPUT_CLOSED = 141  # the reader of its output went away (``| head``), as a shell reports SIGPIPE: no verdict
    TERMINATED = 143  # SIGTERM (a cancelled CI job): the same


Exit = ExitCode  # the name the kit used before 0.3


class KitError(Exception):
    """An error the kit reports as a message, never a traceback, with its exit code (by default BAD_INPUT: the
    user's input or usage). Subclasses name what went wrong; each says its code."""

    exit_code: ExitCode = ExitCode.BAD_INPUT


__all__ = ["Exit", "ExitCode", "KitError"]
