"""The power meter: its mutation operators, its sample, the reviewed equivalents, the isolation of the mutant
builds, and a fixed small sample that every run of the suite must kill (so the score cannot quietly fall)."""

from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

from refimpl.campaigns.mutants import (
    EQUIVALENTS,
    Judgement,
    equivalence,
    game_of,
    load_equivalents,
    mutate,
    population,
    run_campaign,
    sample,
    score,
    score_text,
    stale_judgements,
)
from refimpl.campaigns.mutants.campaign import Job, run_mutant
from refimpl.campaigns.mutants.operators import data_sites, python_sites
from refimpl.status import Status

ROOT = Path(__file__).resolve().parent.parent

SOURCE = textwrap.dedent('''
    """A module docstring is never mutated."""
    LIMIT = 4


    def check(a: int, b: list[int]) -> int:
        """Neither is a function's docstring."""
        if a <= LIMIT and b:
            raise ValueError("too-big", f"{a} is more than {LIMIT + 1}")
        total = max(b) - a
        return -total if not b else total
''')


def sites_by_operator(source: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for site in python_sites("m.py", source):
        out.setdefault(site.operator, []).append(f"{site.before} -> {site.after}")
    return out


def test_each_operator_changes_one_thing() -> None:
    found = sites_by_operator(SOURCE)
    assert "a <= LIMIT -> a < LIMIT" in found["compare"]
    assert "max(b) - a -> max(b) + a" in found["arith"] and "-total -> total" in found["arith"]
    assert {"4 -> 5", "4 -> 3"} <= set(found["constant"])
    assert "'too-big' -> 'XXtoo-bigXX'" in found["constant"]  # the code of an error is mutated, its message not:
    assert not any("is more than" in m or "LIMIT + 1" in m for op, ms in found.items() if op != "delete" for m in ms)
    assert "a <= LIMIT and b -> a <= LIMIT or b" in found["boolean"]
    assert "not b -> b" in found["boolean"] and "max(...) -> min(...)" in found["boolean"]
    assert "if a <= LIMIT and b -> if not (a <= LIMIT and b)" in found["boolean"]
    assert "total = max(b) - a -> pass" in found["delete"]
    assert not any("docstring" in m for ms in found.values() for m in ms)
    assert not any("int" in m for m in found.get("constant", []))  # annotations are left alone


def test_a_mutated_module_differs_from_the_original_only_at_its_site() -> None:
    for site in python_sites("m.py", SOURCE):
        namespace: dict = {}
        exec(compile(mutate(SOURCE, site), "m.py", "exec"), namespace)  # every mutant is valid Python
    site = next(s for s in python_sites("m.py", SOURCE) if s.before == "a <= LIMIT" and s.after == "a < LIMIT")
    assert "if a < LIMIT and b:" in mutate(SOURCE, site)


def test_a_protocol_declares_types_only_and_is_not_mutated() -> None:
    protocol = ("from typing import Protocol\n\nclass Rules(Protocol):\n    size: int = 3\n\n"
                "    def step(self, a: int) -> int: ...\n\n")
    assert [s.qualname for s in python_sites("m.py", SOURCE + protocol)] == \
        [s.qualname for s in python_sites("m.py", SOURCE)]
    assert python_sites("m.py", protocol.replace("(Protocol)", "")), "a class like it that is not a Protocol is"


def test_mutant_ids_do_not_depend_on_line_numbers() -> None:
    before = {s.id for s in python_sites("m.py", SOURCE)}
    shifted = {s.id for s in python_sites("m.py", "\n\n# a comment\n\n" + SOURCE)}
    assert before == shifted and len(before) == len(python_sites("m.py", SOURCE))


def test_data_files_get_their_numbers_and_flags_changed() -> None:
    text = "rounds: 3  # a comment\nwin: {min_score: 4, lead: true}\nname: beacon\n"
    sites = data_sites("d.yaml", text)
    assert [(s.qualname, s.before, s.after) for s in sites] == [
        ("rounds", "3", "4"), ("win.min_score", "4", "5"), ("win.lead", "true", "false")]
    assert mutate(text, sites[1]) == "rounds: 3  # a comment\nwin: {min_score: 5, lead: true}\nname: beacon\n"


def test_the_sample_is_seeded_and_spread_over_the_games_by_size() -> None:
    everything = population()
    first, again, other = sample(everything, 200, 3), sample(everything, 200, 3), sample(everything, 200, 4)
    assert [s.id for s in first] == [s.id for s in again] != [s.id for s in other]
    assert len(first) == 200
    for game in {game_of(s.file) for s in everything}:
        share = sum(game_of(s.file) == game for s in everything) / len(everything)
        assert abs(sum(game_of(s.file) == game for s in first) - 200 * share) <= 1
    assert sample(everything, 0, 1) == everything


def test_the_equivalents_are_reviewed_and_fit_the_code() -> None:
    judgements = load_equivalents()
    assert judgements and all(j.reason.strip() for j in judgements)
    assert stale_judgements(judgements, population()) == []
    stale = [Judgement("gone", id="0000000000", mutant="x"), Judgement("gone", function="refimpl/x.py::f")]
    assert len(stale_judgements(stale, population())) == 2


def _tree_digest() -> str:
    digest = hashlib.sha1()
    for path in sorted((ROOT / "refimpl").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def test_a_mutant_is_served_from_a_copy_and_the_kit_stays_pristine() -> None:
    everything = {s.id: s for s in population()}
    win_at_five = next(s for s in everything.values()
                       if s.file.endswith("beacon-lines.yaml") and s.qualname == "win.min_score")
    before = _tree_digest()
    record = run_mutant(Job(win_at_five, 5.0))
    assert record["status"] == Status.KILLED, record
    assert "beacon-lines" in record["by"]
    assert _tree_digest() == before


# A fixed sample, chosen once by --seed and kept: every mutant in it must stay killed (or be judged equivalent).
CI_SAMPLE_SIZE, CI_SAMPLE_SEED = 10, 20261201


def test_the_fixed_sample_is_all_detected(tmp_path: Path) -> None:
    chosen = sample(population(), CI_SAMPLE_SIZE, CI_SAMPLE_SEED)
    records = run_campaign(chosen, tmp_path, jobs=2)
    result = score(records, chosen, load_equivalents())
    survivors = [f"{r['file']}:{r['line']} {r['before']} -> {r['after']} [{r['id']}]" for r in result.survivors]
    assert not survivors, f"mutants the kit no longer tells apart: {survivors}"
    assert result.total.error == 0 and not result.contradicted
    assert all(r["status"] in (Status.KILLED, Status.BROKE, Status.SURVIVED) for r in records)


def test_equivalence_matches_ids_and_functions() -> None:
    site = next(s for s in population() if s.qualname == "Ludo.outcome")
    assert equivalence(site, load_equivalents()) is not None
    assert EQUIVALENTS.is_file()


def test_what_only_the_kit_reads_is_never_mutated() -> None:
    """``setup_of``, ``describe``, ``rules_of`` and the ``field_rules`` table serve the kit's fuzzer and
    messages; no build is judged on them, so a mutant there could only ever be equivalent."""
    source = textwrap.dedent('''
        INFO = dict(name="x", field_rules={"score": ("XX-SCORE-1",)}, length=4)


        class Game:
            def setup_of(self, state):
                return {"round": state + 1}

            def describe(self, before, after):
                return "moved" if before != after else None

            def apply(self, state):
                return state + 1
    ''')
    sites = python_sites("m.py", source)
    assert {s.qualname for s in sites} == {"<module>", "Game.apply"}
    assert not any("XX-SCORE-1" in s.before for s in sites)
    assert any(s.before == "4" for s in sites)


def test_fuzz_as_the_judge_records_time_to_find_and_reproducer_length() -> None:
    everything = {s.id: s for s in population()}
    win_at_five = next(s for s in everything.values()
                       if s.file.endswith("beacon-lines.yaml") and s.qualname == "win.min_score")
    record = run_mutant(Job(win_at_five, 5.0, "fuzz"))
    assert record["status"] == Status.KILLED, record
    assert record["by"] == "fuzz beacon-lines" and record["replays"] == "replays to the same mismatch"
    assert 0 <= record["found_after"] < 60 and 1 <= record["steps"] <= 10
    assert "fuzz findings" in score_text(score([{**record, "id": win_at_five.id, "game": "beacon-lines"}],
                                               [win_at_five], []))


def test_an_interrupted_campaign_leaves_no_copy_of_the_package(tmp_path: Path) -> None:
    """SIGTERM ends the workers at once; the package copies they were judging are removed with the run's folder
    (issue 43: refimpl-mutant-* folders were left in $TMPDIR)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "refimpl", "mutants", "--sample", "40", "--jobs", "2", "--out",
                             str(tmp_path / "out")], cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(scratch.glob("refimpl-mutants-*/refimpl-mutant-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(scratch.glob("refimpl-mutants-*/refimpl-mutant-*")), "no mutant was being judged"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and "Traceback" not in err, err[-2000:]
    assert list(scratch.iterdir()) == []
