"""Shields endpoint badges (refimpl/reports/badges.py): one per game and one for the run, each valid against
refimpl/schemas/output/badge.schema.json, and the run's badge green exactly when verify exits 0."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from refimpl import __version__
from refimpl.errors import Exit
from refimpl.harness.driver import BuildBroke
from refimpl.reports.badges import badges, write_badges
from refimpl.reports.model import Check, Report
from refimpl.status import Status
from refimpl.suite import digest

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "refimpl/schemas/output/badge.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def report(*checks: tuple[str, str, int], **fields: object) -> Report:
    """A report with ``n`` checks of ``status`` in ``game`` for each (game, status, n)."""
    made = [Check("trace", game, f"{game}-{status}-{i}", ("X-1",), status)
            for game, status, n in checks for i in range(n)]
    return Report("build", checks=made, **fields)  # type: ignore[arg-type]


def message(doc: dict[str, Any]) -> tuple[str, str]:
    return doc["message"], doc["color"]


CASES = {
    "conforms": report(("ludo", Status.PASSED, 3), ("beacon-lines", Status.PASSED, 2), ("ludo", Status.NOT_RUN, 4)),
    "xfail": report(("ludo", Status.PASSED, 2), ("ludo", Status.XFAIL, 1)),
    "failed": report(("ludo", Status.PASSED, 2), ("ludo", Status.FAILED, 1), ("beacon-lines", Status.PASSED, 2)),
    "xpass": report(("ludo", Status.PASSED, 2), ("ludo", Status.XPASS, 1)),
    "broke": report(("ludo", Status.PASSED, 1), ("ludo", Status.FAILED, 1), ("ludo", Status.BROKE, 1),
                    ("beacon-lines", Status.PASSED, 1)),
    "not-run-game": report(("ludo", Status.PASSED, 1), ("conquest-king", Status.NOT_RUN, 5)),
    "nothing-ran": report(("ludo", Status.NOT_RUN, 2)),
    "empty": report(),
    "did-not-start": report(("ludo", Status.NOT_RUN, 2),
                            broke_at_start=BuildBroke("crashed-at-start", "exit status 1")),
    "did-not-start-no-checks": report(broke_at_start=BuildBroke("crashed-at-start", "exit status 1")),
    "interrupted": report(("ludo", Status.PASSED, 2), ("ludo", Status.NOT_RUN, 2), interrupted="SIGTERM"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_badge_is_a_valid_endpoint_document_and_all_is_green_only_on_exit_0(name: str) -> None:
    rep = CASES[name]
    docs = badges(rep)
    assert set(docs) == {c.game for c in rep.checks} | {"all", "kit"}
    for key, doc in docs.items():
        errors = [e.message for e in VALIDATOR.iter_errors(doc)]
        assert not errors, (key, errors)
        assert doc["label"] == {"all": f"refimpl {__version__}", "kit": "refimpl"}.get(key, key)
    assert docs["kit"]["message"] == f"{__version__} (suite {digest()})" and docs["kit"]["color"] == "blue"
    assert (docs["all"]["color"] == "brightgreen") == (rep.exit_code == Exit.CONFORMS)
    assert (docs["all"]["color"] == "orange") == (rep.exit_code == Exit.BUILD_BROKE)


def test_messages_and_colours() -> None:
    def get(name: str, key: str) -> tuple[str, str]:
        return message(badges(CASES[name])[key])

    assert get("conforms", "ludo") == ("conforms 3/3", "brightgreen")  # not-run checks are not counted
    assert get("conforms", "all") == ("conforms 5/5", "brightgreen")
    assert get("xfail", "ludo") == ("conforms 2/3 (1 xfail)", "brightgreen")
    assert get("failed", "ludo") == ("1 failing of 3", "red")
    assert get("failed", "beacon-lines") == ("conforms 2/2", "brightgreen")
    assert get("failed", "all") == ("1 failing of 5", "red")
    assert get("xpass", "ludo") == ("1 failing of 3", "red")
    assert get("broke", "ludo") == ("broke", "orange")
    assert get("broke", "beacon-lines") == ("conforms 1/1", "brightgreen")
    assert get("broke", "all") == ("broke", "orange")
    assert get("not-run-game", "conquest-king") == ("not run", "lightgrey")
    assert get("not-run-game", "all") == ("conforms 1/1", "brightgreen")
    assert get("nothing-ran", "all") == ("not run", "lightgrey")
    assert get("empty", "all") == ("not run", "lightgrey")
    assert get("did-not-start", "ludo") == get("did-not-start", "all") == ("broke", "orange")
    assert get("did-not-start-no-checks", "all") == ("broke", "orange")
    assert get("interrupted", "ludo") == get("interrupted", "all") == ("interrupted", "lightgrey")


def test_write_badges_creates_the_folder_and_writes_one_file_per_badge(tmp_path: Path) -> None:
    folder = tmp_path / "reports" / "badges"
    paths = write_badges(CASES["failed"], folder)
    stems = ["all", "beacon-lines", "kit", "ludo"]
    assert sorted(p.name for p in paths) == sorted(f"{s}.{e}" for s in stems for e in ("json", "svg"))
    assert sorted(p for p in folder.iterdir() if p.name != ".refimpl-badges") == sorted(paths)
    for path in paths:
        doc = badges(CASES["failed"])[path.stem]
        if path.suffix == ".json":
            assert json.loads(path.read_text(encoding="ascii")) == doc
        else:  # the same badge drawn locally: parses, says the label and message
            import xml.etree.ElementTree as ET

            root = ET.fromstring(path.read_text(encoding="utf-8"))
            texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
            assert texts == [doc["label"], doc["message"]]


def test_badges_of_a_real_verify_run_on_the_reference() -> None:
    from refimpl.verify import VerifySettings, verify

    rep = verify(f"{shlex.quote(sys.executable)} -m refimpl serve",
                 VerifySettings(scenarios=False, games=["ludo"], explore=0))
    docs = badges(rep)
    assert rep.exit_code == Exit.CONFORMS and set(docs) == {"ludo", "all", "kit"}
    ran = rep.count(Status.PASSED)
    assert ran > 0
    assert message(docs["ludo"]) == message(docs["all"]) == (f"conforms {ran}/{ran}", "brightgreen")
