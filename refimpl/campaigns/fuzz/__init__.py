"""``refimpl fuzz``: differential fuzzing of a build against the reference, with short reproducers.

- ``draw``: the one source of choices (Hypothesis's, so shrinking works on them);
- ``inputs``: actions with faults, malformed actions, bad starts and requests, made from legal ones;
- ``positions``: set-ups drawn from each game's set-up space, weighted toward what play seldom reaches;
- ``cases``: a case (a start and its requests), drawn against the reference as it goes;
- ``judge``: a case run against the build and the reference; the first divergence, in a builder's words;
- ``shrink``: shrinking passes that know what a case is (start from a set-up, drop steps);
- ``reproducer``: a judged case as an ordinary trace;
- ``campaign``: one campaign: a search, its first finding shrunk;
- ``run``: a fuzz run: its campaigns (jobs), the report, the finding judged, written and replayed.
"""

from .campaign import FuzzSettings
from .run import FuzzReport, fuzz

__all__ = ["FuzzReport", "FuzzSettings", "fuzz"]
