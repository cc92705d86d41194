"""``refimpl verify``: every bundled trace and Gherkin scenario (and the checks between them) run against a build
through the protocol, and the report they make.

- ``settings``: ``VerifySettings``, every choice of a run but the build, and ``VerifyError`` (bad input, exit 2);
- ``selection``: the games and rulesets checked, the traces and scenarios selected, the profiles' effect on them,
  the list of checks (``verify --list``);
- ``checks``: the traces and scenarios run, each a Check of the report as it ends (``Run``: what the run knows);
- ``between``: the checks between them: the requests twice, the protocol before any start, perft, own chance;
- ``expectations``: expect-fail files read, checked and applied (xfail, xpass), and written (--write-expect-fail);
- ``shards``: the checks spread over worker processes (``--jobs N``), put back as one job's report;
- ``builds``: a builds file and the builds ``--impl``/``--page`` name; ``many``: several builds in one run, each
  a job of the executor; ``containers``: a container image as a build;
- ``run``: ``verify`` itself, from its settings to its report.
"""

from .expectations import write_expect_fail
from .run import verify
from .selection import list_checks
from .settings import VerifyError, VerifySettings

__all__ = ["VerifyError", "VerifySettings", "list_checks", "verify", "write_expect_fail"]
