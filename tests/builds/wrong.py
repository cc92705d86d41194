"""A deliberately wrong build that speaks the protocol: the reference with one engine swapped.

    python tests/builds/wrong.py VARIANT
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.harness.serve import serve  # noqa: E402
from tests.wrong_builds import beacon, black_fog, conquest, lantern, ludo  # noqa: E402

VARIANTS = {
    # variant: (game, engine factory, the rule it breaks)
    "crossroads-to-north-pass": ("beacon-lines", beacon.CrossroadsToNorthPass, "BL-MAP-2"),
    "tied-beacon-scores": ("beacon-lines", beacon.TiedBeaconScores, "BL-SCORE-1"),
    "second-claim": ("beacon-lines", beacon.SecondClaim, "BL-TURN-4"),
    "lists-a-claim-twice": ("beacon-lines", beacon.ListsAClaimTwice, "BL-LEGAL-1"),
    "draft-timing-as-v1": ("lantern-quay", lantern.DraftTimingAsV1, "LQ-TIME-1"),
    "forge-spends-on-failure": ("lantern-quay", lantern.ForgeSpendsOnFailure, "LQ-FORGE-3"),
    "install-lights-two": ("lantern-quay", lantern.InstallLightsTwo, "LQ-INST-2"),
    "capture-bonus": ("ludo", ludo.CaptureBonus, "LD-CAP-2"),
    "hard-ignores-risk": ("ludo", ludo.HardIgnoresRisk, "LD-CPU-3"),
    "given-faces-skip-the-stream": ("ludo", ludo.GivenFacesSkipTheStream, "LD-DICE-1"),
    "one-step-toward-feed": ("black-fog", black_fog.OneStepTowardFeed, "BF-ANIMAL-2"),
    "no-bonus-no-penalty": ("black-fog", black_fog.NoBonusNoPenalty, "BF-SCORE-1"),
    "leaks-the-ambush": ("conquest-king", conquest.LeaksTheAmbush, "CK-HIDE-1"),
    "defender-wins-ties": ("conquest-king", conquest.DefenderWinsTies, "CK-ATK-4"),
}

# Wrong builds the traces and scenarios do not tell from the reference, and an exploration does (issue 41):
# a misreading of v0's last round, and a fault inside a nested mapping of a set-up.
EXPLORED = {
    "v0-tie-goes-to-the-beacon": ("beacon-lines", beacon.V0TieGoesToTheBeacon, "BL-WIN-2"),
    "lenient-keepers": ("black-fog", black_fog.LenientKeepers, "BF-START-1"),
}

if __name__ == "__main__":
    game, factory, _ = {**VARIANTS, **EXPLORED}[sys.argv[1]]
    serve(sys.stdin, sys.stdout, {game: factory()}, name=f"wrong build: {sys.argv[1]}")
