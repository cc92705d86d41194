"""The two adapter skeletons (examples/skeleton-js, examples/skeleton-python) speak the protocol's loop correctly
with their stub rules: hello, the error codes, id null for an unreadable line, order, flushing, quit and end of
input. Each test starts the skeleton as a subprocess and talks to it over stdin/stdout, as the kit does."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.node import missing_reason

ROOT = Path(__file__).resolve().parent.parent
SKELETONS = {
    "python": [sys.executable, str(ROOT / "examples/skeleton-python/adapter.py")],
    "js": ["node", str(ROOT / "examples/skeleton-js/main.mjs")],
}
PROTOCOL = json.loads((resources.files("refimpl") / "schemas" / "protocol-v1.schema.json").read_text())
RESPONSE = jsonschema.Draft202012Validator({**PROTOCOL, "$ref": "#/$defs/response"})
HELLO = {"id": 0, "op": "hello", "protocol": 1}
Request = dict[str, Any] | str


@pytest.fixture(params=sorted(SKELETONS))
def command(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "js" and missing_reason("the skeleton") is not None:
        pytest.skip(missing_reason("the skeleton") or "")
    return SKELETONS[request.param]


def _line(request: Request) -> str:
    return (request if isinstance(request, str) else json.dumps(request)) + "\n"


def talk(command: list[str], requests: list[Request]) -> tuple[list[dict[str, Any]], int]:
    """Send every request at once (pipelined), close stdin, and return the answers and the exit status."""
    proc = subprocess.run(command, input="".join(_line(r) for r in requests), capture_output=True, text=True,
                          timeout=10, cwd=ROOT, check=False)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    for answer in answers:
        assert RESPONSE.is_valid(answer), answer
    return answers, proc.returncode


@pytest.fixture(scope="module")
def declarations() -> dict[str, tuple[str, str]]:
    return {}


@pytest.fixture
def declared(command: list[str], declarations: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """The game and a ruleset the skeleton declares (beacon-lines v1 as shipped), asked once per skeleton."""
    if command[-1] not in declarations:
        (hello, _), _ = talk(command, [HELLO, {"id": 1, "op": "quit"}])
        game, rulesets = next(iter(hello["games"].items()))
        declarations[command[-1]] = game, rulesets[0]
    return declarations[command[-1]]


def start(game: str, ruleset: str | None, rid: int = 1, **fields: Any) -> dict[str, Any]:
    return {"id": rid, "op": "start", "game": game, "ruleset": ruleset, "seed": None, "setup": {}, **fields}


def code(answer: dict[str, Any]) -> str | None:
    return (answer.get("error") or answer.get("rejected") or {}).get("code")


def test_hello_declares_protocol_1_a_build_its_game_and_capabilities(command: list[str]) -> None:
    answers, status = talk(command, [HELLO, {"id": 3, "op": "hello", "protocol": 2}])
    assert status == 0 and len(answers) == 2
    hello = answers[0]
    assert hello["id"] == 0 and hello["ok"] is True and hello["protocol"] == 1
    assert isinstance(hello["build"]["name"], str) and hello["build"]["name"]
    assert len(hello["games"]) == 1 and all(isinstance(r, list) and r for r in hello["games"].values())
    assert hello["capabilities"] == ["legal", "stats"]
    assert answers[1]["id"] == 3 and answers[1]["protocol"] == 1  # answers with the version it speaks


def test_every_game_op_before_start_is_no_game(command: list[str]) -> None:
    answers, _ = talk(command, [HELLO, {"id": 1, "op": "apply", "action": {"type": "x"}},
                                {"id": 2, "op": "state", "observer": None}, {"id": 3, "op": "legal"},
                                {"id": 4, "op": "restart"}])
    assert [code(a) for a in answers] == [None, "no-game", "no-game", "no-game", "no-game"]
    assert all("error" in a for a in answers[1:])


def test_an_undeclared_game_or_ruleset_is_unsupported(command: list[str], declared: tuple[str, str]) -> None:
    game, _ = declared
    answers, _ = talk(command, [HELLO, start("chess", "v1"), start(game, "v99", 2)])
    assert [a["id"] for a in answers] == [0, 1, 2]
    assert [code(a) for a in answers] == [None, "unsupported", "unsupported"]


def test_an_unreadable_line_is_bad_request_with_id_null(command: list[str]) -> None:
    answers, _ = talk(command, [HELLO, "this is not JSON", "[1, 2]", '{"op": "hello"}', '{"id": "7", "op": "hello"}',
                                '{"id": 1, "op": "state", "observer": NaN}', "", {"id": 2, "op": "quit"}])
    assert [(a["id"], code(a)) for a in answers] == [(0, None)] + [(None, "bad-request")] * 6 + [(2, None)]


def test_an_unknown_op_is_unknown_op_and_a_missing_op_bad_request(command: list[str]) -> None:
    answers, _ = talk(command, [HELLO, {"id": 1, "op": "fly"}, {"id": 2, "op": "toString"}, {"id": 3}])
    assert [(a["id"], code(a)) for a in answers] == [(0, None), (1, "unknown-op"), (2, "unknown-op"),
                                                     (3, "bad-request")]


def test_start_is_refused_in_the_documented_order_and_checks_the_seed(command: list[str],
                                                                      declared: tuple[str, str]) -> None:
    game, ruleset = declared
    bad = [start("chess", ruleset, seed=-1),  # the form comes before the undeclared game
           start(game, ruleset, seed=2**53), start(game, ruleset, seed=1.5), start(game, ruleset, seed="3"),
           start(game, ruleset, seed=True), start(game, ruleset, setup=[]), start(game, 5),
           {"id": 1, "op": "start", "ruleset": ruleset, "seed": None, "setup": {}}]
    good = [start(game, ruleset, seed=2**53 - 1), start(game, ruleset, seed=0), start(game, None)]
    answers, _ = talk(command, [HELLO, *bad, *good, start(game, ruleset, setup={"no-such-key": 1})])
    assert [code(a) for a in answers[1:len(bad) + 1]] == ["bad-request"] * len(bad)
    assert [a["ok"] for a in answers[len(bad) + 1:]] == [True, True, True, False]
    assert code(answers[-1]) == "bad-request"  # a set-up the game cannot use, after the form and the game


def test_a_refused_start_leaves_the_game_in_progress_and_restart_replays_it(command: list[str],
                                                                            declared: tuple[str, str]) -> None:
    game, ruleset = declared
    answers, _ = talk(command, [HELLO, start(game, ruleset, seed=5, future_field=[1]),  # unknown fields ignored
                                start("chess", ruleset, 2), start(game, ruleset, 3, setup={"x": 1}),
                                {"id": 4, "op": "state", "observer": None, "whatever": True},
                                {"id": 5, "op": "apply", "action": {"type": "no-such-action"}},
                                {"id": 6, "op": "apply", "action": 7}, {"id": 7, "op": "apply"},
                                {"id": 8, "op": "restart"}, {"id": 9, "op": "legal", "observer": "somebody"}])
    first = answers[1]["state"]
    assert first["game"] == game and first["ruleset"] == ruleset
    assert [code(a) for a in answers[2:]] == ["unsupported", "bad-request", None, "unknown-action",
                                              "malformed-action", "bad-request", None, None]
    assert "rejected" in answers[5] and "rejected" in answers[6]
    assert answers[4]["state"] == first and answers[8]["state"] == first
    assert answers[9]["actions"] == []  # no hidden information as shipped: the observer is ignored


def test_a_pipelined_batch_is_answered_in_order(command: list[str], declared: tuple[str, str]) -> None:
    game, ruleset = declared
    batch: list[Request] = [HELLO, start(game, ruleset)]
    for i in range(2, 150):
        batch.append([{"id": i, "op": "state", "observer": None}, {"id": i, "op": "fly"}, "{oops",
                      {"id": i, "op": "apply", "action": {"type": "x"}}, {"id": i, "op": "legal"}][i % 5])
    answers, status = talk(command, batch)
    assert status == 0 and len(answers) == len(batch)
    expected = [r["id"] if isinstance(r, dict) else None for r in batch]
    assert [a["id"] for a in answers] == expected


def test_each_answer_is_flushed_before_the_next_request(command: list[str]) -> None:
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for rid in range(3):  # lock-step: the build must answer while stdin is still open
            proc.stdin.write(_line({"id": rid, "op": "hello", "protocol": 1}).encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 5)
            assert ready, f"no answer to request {rid} while stdin stays open (stdout not flushed?)"
            assert json.loads(proc.stdout.readline())["id"] == rid
        proc.stdin.close()  # end of input: the build exits by itself, with status 0
        assert proc.wait(timeout=5) == 0
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_quit_is_answered_then_the_build_exits_with_status_0(command: list[str]) -> None:
    answers, status = talk(command, [HELLO, {"id": 1, "op": "quit"}, {"id": 2, "op": "hello", "protocol": 1}])
    assert status == 0
    assert answers[1] == {"id": 1, "ok": True}
    assert len(answers) == 2  # nothing after quit


def test_end_of_stdin_exits_with_status_0(command: list[str], declared: tuple[str, str]) -> None:
    answers, status = talk(command, [HELLO, start(*declared)])  # a game in progress, then stdin closes
    assert status == 0 and [a["ok"] for a in answers] == [True, True]
