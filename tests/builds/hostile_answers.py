"""The reference, with its state views turned hostile from the second action on: what a report of a
failing check must still carry whole and well-formed.

    python tests/builds/hostile_answers.py MODE    (surrogate | controls | deep | many-keys | long | verbose)

verbose: every answer lawful, and just under the 1 MiB line limit (a field the protocol does not name, which a
reader ignores, and a rejection's message): what a run's memory and reports must stay bounded under.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from refimpl.games import GAMES  # noqa: E402
from refimpl.harness.serve import Session  # noqa: E402


def spoil(mode: str, state: dict) -> None:
    keys = list(state)
    if mode == "surrogate":  # a lone surrogate: legal JSON (as an escape), no UTF-8 can hold it
        state.update({k: "\ud800bad" for k in keys}, **{"\udfff": "\ud800"})
    elif mode == "controls":
        state.update({k: "\x1b[31mred\x00\u2028\ufffe" for k in keys})
    elif mode == "deep":  # deeper than a report keeps, shallower than the protocol refuses
        value: object = 1
        for _ in range(490):
            value = [value]
        state.update({k: value for k in keys})
    elif mode == "many-keys":
        state.update({f"k{i}": i for i in range(30_000)})
    elif mode == "long":  # every text a few KB long: an ordinary build's failures, with long values
        state.update({k: f"{v} " + "long " * 800 for k, v in state.items() if isinstance(v, str) and k != "game"})


def main() -> None:
    mode = sys.argv[1]
    session = Session(GAMES, f"hostile answers ({mode})")
    applies = 0
    for line in sys.stdin:
        request = json.loads(line)
        response = session.answer(line)
        applies += request.get("op") == "apply"
        if mode == "verbose":
            response["padding"] = "x" * (1_000_000 - 2_000)
            if isinstance(response.get("rejected"), dict):
                response["rejected"]["message"] = "y" * 20_000
        elif applies >= 2 and isinstance(response.get("state"), dict):
            spoil(mode, response["state"])
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
