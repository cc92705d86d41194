"""The protocol's published schemas agree with what the kit checks and with what `refimpl serve` says."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from refimpl.games import GAMES
from refimpl.harness.buildprocess import response_is_valid
from refimpl.harness.requests import Start, State
from refimpl.harness.serve import Session

SCHEMAS = resources.files("refimpl") / "schemas"
PROTOCOL = json.loads((SCHEMAS / "protocol-v1.schema.json").read_text())
RESPONSE = jsonschema.Draft202012Validator({**PROTOCOL, "$ref": "#/$defs/response"})
REQUEST = jsonschema.Draft202012Validator({**PROTOCOL, "$ref": "#/$defs/request"})
VIEWS = {g: jsonschema.Draft202012Validator(json.loads((SCHEMAS / "views" / f"{g}.schema.json").read_text()))
         for g in GAMES}

ids = st.one_of(st.integers(-2, 5), st.none(), st.just("3"), st.just(True))
codes = st.sampled_from(["illegal-target", "no-game", "unsupported", "Bad Code", "", "bad-request", "unknown-op"])
anything = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.booleans())
responses = st.fixed_dictionaries({"id": ids, "ok": st.one_of(st.booleans(), st.none(), st.just(1))}, optional={
    "state": st.one_of(anything, st.just({"game": "g", "ruleset": "v1"})),
    "actions": st.one_of(anything, st.just([{"type": "roll"}])),
    "rejected": st.one_of(anything, st.fixed_dictionaries({"code": codes}, optional={"message": anything})),
    "error": st.one_of(anything, st.fixed_dictionaries({"code": codes}, optional={"message": anything})),
    "protocol": st.one_of(st.just(1), anything),
    "build": st.one_of(anything, st.fixed_dictionaries({"name": st.text(max_size=3)},
                                                       optional={"version": anything})),
    "games": st.one_of(anything, st.just({"beacon-lines": ["v1"]}), st.just({"Bad Name": ["v1"]}),
                       st.just({"g": []})),
    "capabilities": st.one_of(anything, st.just(["legal"]), st.just(["legal", "legal"])),
})


@settings(max_examples=800, suppress_health_check=[HealthCheck.too_slow])
@given(responses)
def test_the_quick_response_check_agrees_with_the_schema(message: dict[str, Any]) -> None:
    assert response_is_valid(message) == RESPONSE.is_valid(message), message


def _answers(lines: list[dict[str, Any] | str]) -> list[dict[str, Any]]:
    session = Session(GAMES, "test")
    return [session.answer(line if isinstance(line, str) else json.dumps(line)) for line in lines]


def test_every_answer_of_serve_fits_the_schema() -> None:
    requests: list[dict[str, Any] | str] = [
        {"id": 0, "op": "hello", "protocol": 1},
        {"id": 1, "op": "apply", "action": {"type": "roll", "dice": [1, 2, 3]}},  # no game yet
        {"id": 2, "op": "start", "game": "chess", "ruleset": "v1", "seed": None, "setup": {}},
        {"id": 3, "op": "start", "game": "lantern-quay", "ruleset": "v9", "seed": None, "setup": {}},
        {"id": 4, "op": "start", "game": "lantern-quay", "ruleset": "v1", "seed": None, "setup": {"x": 1}},
        {"id": 5, "op": "start", "game": "lantern-quay", "ruleset": "v1", "seed": None, "setup": {}},
        {"id": 6, "op": "apply", "action": {"type": "roll", "dice": [2, 4, 6]}},
        {"id": 7, "op": "apply", "action": {"type": "place", "slot": "forge", "face": 9}},
        {"id": 8, "op": "legal"},
        {"id": 9, "op": "state", "observer": None},
        {"id": 10, "op": "restart"},
        {"id": 11, "op": "fly"},
        "not json",
        {"id": 12, "op": "quit"},
    ]
    answers = _answers(requests)
    for request, answer in zip(requests, answers):
        assert RESPONSE.is_valid(answer), (request, answer)
        if isinstance(request, dict):
            assert REQUEST.is_valid(request) or request["op"] == "fly" or request["id"] == 1
    codes = [a.get("error", a.get("rejected", {})).get("code") for a in answers]
    assert codes == [None, "no-game", "unsupported", "unsupported", "bad-request", None, None, "no-such-die",
                     None, None, None, "unknown-op", "bad-request", None]


@st.composite
def played(draw: st.DrawFn) -> tuple[str, Any]:
    game = draw(st.sampled_from(sorted(GAMES)))
    engine = GAMES[game]
    state = engine.new_state(draw(st.sampled_from(engine.info.rulesets)))
    for _ in range(draw(st.integers(0, 14))):
        legal = engine.legal_actions(state)
        if not legal:
            break
        state = engine.apply(state, draw(st.sampled_from(legal)))
    return game, state


@given(played())
def test_reference_views_fit_the_published_view_schemas(case: tuple[str, Any]) -> None:
    game, state = case
    view = GAMES[game].view(state)
    errors = list(VIEWS[game].iter_errors(view))
    assert not errors, errors[0].message
    assert list(view) == list(VIEWS[game].schema["required"]), "views keep the documented key order"


def test_serve_answers_every_state_request_with_the_view_of_the_state_and_observer_asked() -> None:
    """refimpl serve keeps the latest view and answers it again while the state is the same object: a state
    request after a rejection, for another observer, or after a move must still get its own view."""
    import io

    from refimpl.harness.serve import serve

    engine = GAMES["conquest-king"]
    start = engine.new_state("v1", 1, {})
    first = engine.legal_actions(start)[0]
    moved = engine.apply(start, first)
    requests = [{"op": "start", "game": "conquest-king", "ruleset": "v1", "seed": 1, "setup": {}},
                {"op": "state"}, {"op": "state", "observer": "sparkia"}, {"op": "state", "observer": "gaias"},
                {"op": "apply", "action": {"type": "no-such-action"}}, {"op": "state", "observer": None},
                {"op": "apply", "action": engine.action_json(first)}, {"op": "state"},
                {"op": "state", "observer": "gaias"}]
    out = io.StringIO()
    serve(io.StringIO("".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests))), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    expected = {1: engine.view(start), 2: engine.view(start, "sparkia"), 3: engine.view(start, "gaias"),
                5: engine.view(start), 7: engine.view(moved), 8: engine.view(moved, "gaias")}
    assert answers[4]["ok"] is False and "rejected" in answers[4]
    assert answers[6]["state"] == engine.view(moved) != engine.view(start)
    for i, view in expected.items():
        assert answers[i]["state"] == view, i


def _pipes_with(requests: list[bytes]) -> tuple[Any, Any, int]:
    """(stdin file with ``requests`` in one chunk and then its end, stdout file, stdout's read end)."""
    import os

    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    os.write(in_write, b"".join(requests))
    os.close(in_write)
    return os.fdopen(in_read, "r"), os.fdopen(out_write, "w"), out_read


def test_serve_still_writes_what_it_answered_when_a_session_crashes_mid_chunk() -> None:
    """A crash (a deliberately wrong build) must not take the answers before it along, even when they were
    read in one chunk: the kit reports the request the build broke on, so those answers have to reach it."""
    import os

    import pytest

    from refimpl.harness.serve import Session, serve

    class CrashOnThird(Session):
        def handle(self, req: dict[str, Any]) -> dict[str, Any]:
            if req.get("id") == 2:
                raise RuntimeError("boom")
            return super().handle(req)

    requests = [json.dumps({"id": i, "op": "hello", "protocol": 1}).encode() + b"\n" for i in range(4)]
    stdin, stdout, out_read = _pipes_with(requests)
    with stdin, stdout, pytest.raises(RuntimeError):
        serve(stdin, stdout, session_class=CrashOnThird)
    text = os.read(out_read, 1 << 20)
    os.close(out_read)
    assert [json.loads(line)["id"] for line in text.splitlines()] == [0, 1]


def test_the_kit_writes_pipelined_requests_in_chunks_and_every_answer_comes_back() -> None:
    """A batch of small requests goes to the build in a few writes (SEND_CHUNK bytes each), the first at once;
    requests sent one at a time are written at once."""
    import os
    import sys
    from unittest import mock

    from refimpl.harness import buildprocess, protocol

    driver = protocol.ProtocolDriver(f"{sys.executable} -m refimpl serve", pipeline=True, transcript=[])
    writes = []
    text = bytearray()
    real_write = os.write

    def counting_write(fd: int, data: Any) -> int:
        written = real_write(fd, data)
        writes.append(written)
        text.extend(bytes(data[:written]))
        return written

    try:
        with mock.patch.object(buildprocess.os, "write", counting_write):
            ops = [Start("beacon-lines", "v1", None, {})] + [State()] * 300
            outcomes = list(driver.batch(ops))
            batched = list(writes)
            writes.clear()
            single = list(driver.batch([State()]))
    finally:
        driver.close()
    assert len(outcomes) == 301 and all(isinstance(o, dict) and o["game"] == "beacon-lines" for o in outcomes)
    assert batched[0] < buildprocess.SEND_CHUNK  # the start went alone, at once
    assert len(batched) <= sum(batched) // buildprocess.SEND_CHUNK + 3 and len(batched) <= 30, batched
    assert single and writes == [len(b'{"id":302,"op":"state","observer":null}\n')]
    # every request as json.dumps writes it (those the same but for the id are written once and reused)
    sent = [m["request"] for m in driver.transcript if "request" in m][1:]  # type: ignore[union-attr]
    assert bytes(text) == b"".join(json.dumps(m, separators=(",", ":")).encode() + b"\n" for m in sent)


SLOW_BUILD = """\
import json, sys, time
pause, per_state, answers = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "1"
noise = int(sys.argv[4]) if len(sys.argv) > 4 else 0  # bytes written to stderr before each answer
for line in sys.stdin:
    r = json.loads(line)
    if r["op"] == "hello":
        print(json.dumps({"id": 0, "ok": True, "protocol": 1, "build": {"name": "slow"}, "games": {},
                          "capabilities": []}), flush=True)
        time.sleep(pause)  # reads nothing more meanwhile: the kit's requests fill the pipe
        continue
    time.sleep(per_state if r["op"] == "state" else 0)
    if noise:
        sys.stderr.write("." * noise + "\\n")
        sys.stderr.flush()
    if answers:
        print(json.dumps({"id": r["id"], "ok": True, "state": {"game": "g", "ruleset": "v1", "n": r["id"]}}),
              flush=True)
"""


def _slow_build(tmp_path: Any, pause: float = 0, per_state: float = 0.3, answers: bool = True,
                timeout: float = 5.0, noise: int = 0) -> Any:
    import sys

    from refimpl.harness import protocol

    script = tmp_path / "slow.py"
    script.write_text(SLOW_BUILD)
    return protocol.ProtocolDriver(f"{sys.executable} {script} {pause} {per_state} {int(answers)} {noise}",
                                   timeout=timeout)


def test_the_kit_works_while_it_waits_for_an_answer_and_then_reads_every_answer_in_order(tmp_path: Any) -> None:
    """The build process's idle work (the fuzzer drawing its next case) runs only while an answer is due and
    none has come, a unit at a time; once it says it has nothing left, the kit waits as before."""
    driver = _slow_build(tmp_path)
    units: list[int] = []

    def idle() -> bool:
        units.append(len(units))
        return len(units) < 5

    try:
        driver.process.idle = idle
        outcomes = list(driver.batch([State()] * 3))
    finally:
        driver.close()
    assert [o["n"] for o in outcomes] == [1, 2, 3]  # type: ignore[index]
    # five units of work while the first answer was due; then one try at most for each answer still due
    assert 5 <= len(units) <= 5 + 3, units


def test_idle_work_waits_for_every_request_to_be_written_and_stops_for_an_answer(tmp_path: Any) -> None:
    """While requests wait to be written (the build reads nothing for a while and the pipe is full), no idle
    work; once an answer has come, it is read after one more unit at most."""
    import time

    driver = _slow_build(tmp_path, pause=0.3, per_state=0)
    units: list[float] = []

    def idle() -> bool:
        assert not driver.process._pending, "idle work while requests still wait to be written"
        units.append(time.monotonic())
        time.sleep(0.01)
        return len(units) < 500

    try:
        driver.process.idle = idle
        outcomes = list(driver.batch([State("x" * 200)] * 1000))  # 230 KB: more than a pipe holds
    finally:
        driver.close()
    assert len(outcomes) == 1000
    assert len(units) < 100, len(units)  # the answers come within the pause; idle stops as each is there


def test_idle_work_never_hides_a_build_that_hangs(tmp_path: Any) -> None:
    """Idle work that never runs out still lets the timeout name a build that does not answer."""
    import time

    from refimpl.harness.driver import BuildBroke

    driver = _slow_build(tmp_path, per_state=0, answers=False, timeout=0.5)
    start = time.monotonic()

    def idle() -> bool:
        time.sleep(0.005)
        if time.monotonic() - start > 5:
            raise AssertionError("idle work went on past the timeout")
        return True

    try:
        driver.process.idle = idle
        with pytest.raises(BuildBroke) as broke:
            list(driver.batch([State()]))
    finally:
        driver.close()
    assert broke.value.cause == "hung" and time.monotonic() - start < 2


def test_idle_work_reads_what_the_build_writes_to_stderr(tmp_path: Any) -> None:
    """A build that writes more to stderr than its pipe holds before it answers is not kept waiting while the
    kit works ahead."""
    import time

    driver = _slow_build(tmp_path, per_state=0, noise=200_000)
    units: list[int] = []

    def idle() -> bool:
        units.append(1)
        time.sleep(0.01)
        return len(units) < 300

    try:
        driver.process.idle = idle
        assert len(list(driver.batch([State()] * 2))) == 2
    finally:
        driver.close()
    assert len(units) < 100, len(units)


def test_a_build_is_one_value_made_once_and_started_where_it_says(tmp_path: Path) -> None:
    """``Build``: the command, the time it gets an answer and the folder it starts in, passed down whole (issue 44);
    a command alone is read as a build with the timeout given."""
    import sys

    from refimpl.harness.protocol import DEFAULT_TIMEOUT, Build, as_build

    (tmp_path / "adapter.py").write_text("import runpy, sys\nsys.argv = ['refimpl', 'serve']\n"
                                         "runpy.run_module('refimpl', run_name='__main__')\n", encoding="utf-8")
    build = Build(f"{sys.executable} adapter.py", 7.0, cwd=str(tmp_path))  # a path relative to its folder
    driver = build.start()
    try:
        assert driver.build is build and driver.timeout == 7.0 and "ludo" in driver.games
    finally:
        driver.close()
    assert build.within(1.0) == Build(build.command, 1.0, str(tmp_path)) and build.within(60.0) == build
    assert as_build("cmd") == Build("cmd", DEFAULT_TIMEOUT) and as_build("cmd", 3.0).timeout == 3.0
    assert as_build(build, 3.0) is build


def test_a_build_gets_its_own_variables_on_top_of_the_runs_and_never_the_kits_tags(
        tmp_path: Path, monkeypatch: Any) -> None:
    """``Build.env``: set for that build's process only, over the run's environment (under ``--isolate-env``,
    over the allow-list alone: a token of the kit's stays out, the build's own variable gets in); the kit's
    process tags cannot be set, so a build cannot hide its children from the clean-up."""
    import sys

    from refimpl.harness import processes
    from refimpl.harness.protocol import Build

    (tmp_path / "adapter.py").write_text(
        "import os, runpy, sys\n"
        "open('seen.txt', 'w').write(repr((os.environ.get('LEVEL'), os.environ.get('SECRET_TOKEN'))))\n"
        "sys.argv = ['refimpl', 'serve']\nrunpy.run_module('refimpl', run_name='__main__')\n", encoding="utf-8")
    monkeypatch.setenv("SECRET_TOKEN", "t0k")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent.parent))
    seen = []
    for isolated in (False, True):
        if isolated:
            monkeypatch.setenv(processes.ISOLATE, "1")
        Build(f"{sys.executable} adapter.py", cwd=str(tmp_path), env={"LEVEL": "hard"}).start().close()
        seen.append((tmp_path / "seen.txt").read_text())
    assert seen == ["('hard', 't0k')", "('hard', None)"]
    plain = Build(f"{sys.executable} adapter.py", cwd=str(tmp_path))
    plain.start().close()
    assert (tmp_path / "seen.txt").read_text() == "(None, None)"
    for name in (processes.BUILD_TAG, processes.RUN_TAGS):
        with pytest.raises(ValueError, match=name):
            Build("cmd", env={name: "x"})
