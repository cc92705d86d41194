"""The exit codes of every ``refimpl`` command: the CI-gate contract, documented in README.md."""

from enum import IntEnum


class Exit(IntEnum):
    CONFORMS = 0  # every trace and scenario that ran matched
    DOES_NOT_CONFORM = 1  # at least one mismatch (state, rejection code or outcome)
    BAD_INPUT = 2  # bad usage or input: malformed YAML, schema error, unknown game/ruleset/action
    BUILD_BROKE = 3  # the build under test crashed, hung or broke the protocol
    INTERRUPTED = 130  # Ctrl-C (SIGINT): what ran is printed, every process the run started is ended
    TERMINATED = 143  # SIGTERM (a cancelled CI job): the same
