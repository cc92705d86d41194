"""Folders the kit shares with the user and with other runs (issue 43): badges and transcripts in one folder, an
older kit's manifest, runs writing one folder at once, and dangling links."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from refimpl.util.files import MANIFEST, OwnedFolder, write_file


def badges(path: Path) -> OwnedFolder:
    return OwnedFolder(path, "badges", lambda name: name.endswith(".svg"))


def transcripts(path: Path) -> OwnedFolder:
    return OwnedFolder(path, "transcripts (*.jsonl)", lambda name: name.endswith(".jsonl"))


def test_badges_and_transcripts_share_a_folder(tmp_path: Path) -> None:
    for _ in range(2):  # the second run finds both kinds as the first left them
        badges(tmp_path).replace_all([("all.svg", b"<svg/>")])
        transcripts(tmp_path).replace_all([("ludo__capture.jsonl", b"{}\n")])
    assert {p.name for p in tmp_path.iterdir()} == {"all.svg", "ludo__capture.jsonl", ".refimpl-badges",
                                                    ".refimpl-transcripts"}


def test_an_older_kits_shared_manifest_still_vouches_for_its_files(tmp_path: Path) -> None:
    (tmp_path / "all.svg").write_bytes(b"<svg/>")
    (tmp_path / "old.jsonl").write_bytes(b"{}\n")
    from refimpl.util.files import digest

    files = {"all.svg": digest(b"<svg/>"), "old.jsonl": digest(b"{}\n")}
    (tmp_path / MANIFEST).write_text(json.dumps({"written_by": "refimpl", "files": files}))
    transcripts(tmp_path).replace_all([("new.jsonl", b"[]\n")])
    assert not (tmp_path / "old.jsonl").exists() and (tmp_path / "all.svg").exists()  # the badge is not its kind
    badges(tmp_path).check()  # the badge is still vouched for, by what is left of the old manifest
    badges(tmp_path).replace_all([("ludo.svg", b"<svg/>")])
    assert not (tmp_path / MANIFEST).exists() and not (tmp_path / "all.svg").exists()


def test_runs_writing_one_folder_at_once_leave_it_usable(tmp_path: Path) -> None:
    errors: list[BaseException] = []

    def run(build: str) -> None:
        try:
            for i in range(25):
                transcripts(tmp_path).replace_all([(f"{build}-{i % 3}.jsonl", f"{build} {i}\n".encode())])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    transcripts(tmp_path).check()  # a later run is not refused
    assert len(list(tmp_path.glob("*.jsonl"))) == 1


def test_a_dangling_link_is_never_written_through(tmp_path: Path) -> None:
    link = tmp_path / "r.json"
    link.symlink_to(tmp_path / "elsewhere" / "r.json")
    with pytest.raises(OSError, match="which does not exist"):
        write_file(link, b"{}")
    folder = tmp_path / "badges"
    folder.symlink_to(tmp_path / "elsewhere" / "badges")
    with pytest.raises(OSError, match="which does not exist"):
        badges(folder).check()
    assert not (tmp_path / "elsewhere").exists()
