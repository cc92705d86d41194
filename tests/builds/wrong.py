"""A deliberately wrong build that speaks the protocol: the reference with one engine swapped for an entry of the
misreading catalogue (tests/misreadings/), by a short name the kit's own tests use.

    python tests/builds/wrong.py VARIANT

Each name is also a driver factory for ``pytest --driver tests.builds.wrong:NAME`` (``-`` read as ``_``). Five names
served wrong builds of their own before the merge (issue 44) and serve the catalogue's reading of the same rule
now, which the tests using them pass with: ``second-claim`` a second region reached from the first (the old one
took any), ``defender-wins-ties`` a tie given to the defender with the dice as thrown (the old one changed a die).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.harness.driver import ReferenceDriver  # noqa: E402
from refimpl.harness.serve import serve  # noqa: E402
from tests.misreadings import MISREADINGS, game_of, rule_of  # noqa: E402

NAMES = {
    # variant: the catalogue entry it serves
    "crossroads-to-north-pass": "BL-MAP-2#crossroads-to-north-pass",
    "tied-beacon-scores": "BL-SCORE-1",
    "second-claim": "BL-TURN-4",
    "lists-a-claim-twice": "BL-LEGAL-1#a-claim-twice",
    "draft-timing-as-v1": "LQ-TIME-1#draft-timing-as-v1",
    "forge-spends-on-failure": "LQ-FORGE-3#spends-on-failure",
    "install-lights-two": "LQ-INST-2#lights-two",
    "capture-bonus": "LD-CAP-2",
    "hard-ignores-risk": "LD-CPU-3#as-normal",
    "given-faces-skip-the-stream": "LD-DICE-1",
    "one-step-toward-feed": "BF-ANIMAL-2#one-step",
    "no-bonus-no-penalty": "BF-SCORE-1#no-bonus-no-penalty",
    "leaks-the-ambush": "CK-HIDE-1#leaks-the-ambush",
    "defender-wins-ties": "CK-ATK-4",
}
# Wrong builds an exploration finds (issue 41): a misreading of v0's last round no trace or scenario reaches
# (``explored_only`` in the catalogue), and a fault inside a nested mapping of a set-up (a scenario tells it too).
EXPLORED_NAMES = {
    "v0-tie-goes-to-the-beacon": "BL-WIN-2#v0-beacon-decides",
    "lenient-keepers": "BF-START-1#lenient-keepers",
}

# variant: (game, engine factory, the rule it breaks)
VARIANTS = {name: (game_of(key), MISREADINGS[key], rule_of(key)) for name, key in NAMES.items()}
EXPLORED = {name: (game_of(key), MISREADINGS[key], rule_of(key)) for name, key in EXPLORED_NAMES.items()}


def driver(variant: str) -> ReferenceDriver:
    """The wrong build ``variant`` in this process, as a driver."""
    game, factory, _ = {**VARIANTS, **EXPLORED}[variant]
    return ReferenceDriver({game: factory()}, name=f"wrong build: {variant}")


for _name in {**NAMES, **EXPLORED_NAMES}:
    globals()[_name.replace("-", "_")] = functools.partial(driver, _name)

if __name__ == "__main__":
    game, factory, _ = {**VARIANTS, **EXPLORED}[sys.argv[1]]
    serve(sys.stdin, sys.stdout, {game: factory()}, name=f"wrong build: {sys.argv[1]}")
