"""Exit 4 only for the kit's own bugs (issue 43): hostile saved reports (``report``, ``diff``), profiles
(``--profile``) and output paths (``fuzz --out``, ``mutants --out``) are bad input, exit 2 naming the file, never
"a bug in the kit". Hypothesis bends a real saved report and a real profile at random places."""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from refimpl.cli import main
from refimpl.errors import KitError
from refimpl.reports.jsondoc import verify_json
from refimpl.rulebook.profiles import load_profile
from refimpl.verify import VerifySettings, verify

ROOT = Path(__file__).resolve().parent.parent
WRONG = f"{sys.executable} {ROOT / 'tests/builds/wrong.py'} capture-bonus"

LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10 ** 30),
                   st.floats(allow_nan=False), st.text(max_size=20), st.just([]), st.just({}),
                   st.just(json.loads("[" * 300 + "]" * 300)), st.just({"x": {"y": [1, {"z": None}]}}))


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    """A real saved report with failures in it (views, fields, ledgers: every nested part)."""
    report = verify(WRONG, VerifySettings(games=["ludo"], keyword="capture", explore=0))
    return json.loads(verify_json(report))


def places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``doc`` (keys and indexes), the document itself first."""
    out = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += places(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:3]):
            out += places(value, (*path, i))
    return out


def bent(doc: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    """``doc`` with the value at ``path`` replaced by ``value``, or its key dropped, or a key added beside it."""
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "drop" and isinstance(parent, dict):
        del parent[last]
    elif how == "add" and isinstance(parent, dict):
        parent["unexpected"] = value
    else:
        parent[last] = value
    return doc


def exit_of(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), how=st.sampled_from(["replace", "drop", "add"]), value=LEAVES)
def test_a_bent_saved_report_is_bad_input_for_report_and_diff(saved: dict[str, Any], tmp_path: Path,
                                                              data: st.DataObject, how: str, value: Any) -> None:
    path = data.draw(st.sampled_from(places(saved)))
    file = tmp_path / "bent.json"
    file.write_text(json.dumps(bent(saved, path, how, value)), encoding="utf-8")
    original = tmp_path / "saved.json"
    original.write_text(json.dumps(saved), encoding="utf-8")
    for args in (["report", str(file)], ["report", "--format", "markdown", str(file)],
                 ["diff", str(original), str(file)]):
        code, said = exit_of(*args)
        assert code != 4, (path, how, said[-600:])
        if code == 2:
            assert "bent.json" in said


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), game=st.sampled_from(["conquest-king", "ludo", "black-fog", "lantern-quay", "beacon-lines"]),
       value=LEAVES)
def test_a_bent_profile_is_refused_with_its_file_or_taken(tmp_path: Path, data: st.DataObject, game: str,
                                                          value: Any) -> None:
    default = yaml.safe_load(exit_of("profile", game)[1])
    fields = list(default.get("set") or {}) or ["anything"]
    field = data.draw(st.sampled_from([*fields, "name", "game", "set"]))
    doc = dict(default)
    if field in ("name", "game", "set"):
        doc[field] = value
    else:
        doc["set"] = {**(default.get("set") or {}), field: value}
    file = tmp_path / "bent.yaml"
    file.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    try:
        load_profile(file)
    except KitError as exc:
        assert "bent.yaml" in str(exc)


@pytest.mark.parametrize("command", ["fuzz", "mutants"])
@pytest.mark.parametrize("kind", ["file", "under-a-file", "dangling-link", "fifo"])
def test_a_hostile_output_path_is_bad_input(command: str, kind: str, tmp_path: Path) -> None:
    target = tmp_path / "out"
    if kind == "file":
        target.write_text("mine")
    elif kind == "under-a-file":
        (tmp_path / "file").write_text("mine")
        target = tmp_path / "file" / "out"
    elif kind == "dangling-link":
        target.symlink_to(tmp_path / "elsewhere" / "deep")
    else:
        os.mkfifo(target)
    args = ["fuzz", "--impl", "true", "--game", "ludo", "--examples", "1", "--out", str(target)] \
        if command == "fuzz" else ["mutants", "--sample", "1", "--out", str(target)]
    code, said = exit_of(*args)
    assert code == 2, said[-600:]
    assert not (tmp_path / "elsewhere").exists(), "nothing is made where a dangling link points"
    if kind == "file":
        assert target.read_text() == "mine"


@pytest.mark.parametrize("option", ["--json", "--junit-xml", "--html"])
def test_a_report_path_that_is_a_dangling_link_is_refused_before_the_run(option: str, tmp_path: Path) -> None:
    link = tmp_path / "report"
    link.symlink_to(tmp_path / "elsewhere" / "report")
    code, said = exit_of("verify", "--impl", "false", option, str(link))  # no build could start: refused first
    assert code == 2 and "which does not exist" in said, said[-600:]
    assert not (tmp_path / "elsewhere").exists()
