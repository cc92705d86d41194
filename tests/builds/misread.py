"""A misreading of the catalogue served as an outside build over the protocol: the reference, with the game
of the misread rule played by the misreading engine (tests/misreadings/).

    python tests/builds/misread.py KEY        (a catalogue key: LD-CAP-2, or LD-CAP-2#bonus-on-safe)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.harness.serve import serve  # noqa: E402
from tests.misreadings import MISREADINGS, game_of  # noqa: E402


def main() -> None:
    key = sys.argv[1]
    serve(sys.stdin, sys.stdout, {**GAMES, game_of(key): MISREADINGS[key]()}, name=f"misreading {key}")


if __name__ == "__main__":
    main()
