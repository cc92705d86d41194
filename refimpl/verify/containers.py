"""A container image as a build (``image: NAME`` in a builds file, issue 47), as Bowtie runs its
implementations: the kit starts ``docker run`` (or ``podman run``, whichever is installed and answers) with the
protocol on stdin/stdout, no network, the run's memory bound and a label of the job's own, and removes every
container carrying that label when the build's run ends, whatever way it ends."""

from __future__ import annotations

import secrets
import shlex
import shutil
import subprocess

ENGINES = ("docker", "podman")
LABEL = "dev.refimpl.job"


class NoEngine(Exception):
    """Neither docker nor podman is installed and answering."""


def engine() -> str:
    """The container engine to use: the first of ENGINES installed whose daemon (or service) answers. Raises
    NoEngine saying what was tried."""
    tried = []
    for name in ENGINES:
        path = shutil.which(name)
        if path is None:
            tried.append(f"{name}: not installed")
            continue
        try:
            done = subprocess.run([path, "info"], capture_output=True, timeout=20, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            tried.append(f"{name}: {exc}")
            continue
        if done.returncode == 0:
            return path
        said = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no answer"])[-1]
        tried.append(f"{name}: {said[:200]}")
    raise NoEngine("an image build needs docker or podman (" + "; ".join(tried) + ")")


PULL_TIME = 900  # seconds an image may take to pull before the run


def ensure_image(engine_path: str, image: str) -> None:
    """Pull ``image`` before the run when the engine does not have it, so a slow pull is not taken for a build
    that does not answer its hello. Raises NoEngine saying why it cannot be had."""
    try:
        there = subprocess.run([engine_path, "image", "inspect", image], capture_output=True, timeout=60, check=False)
        if there.returncode == 0:
            return
        pulled = subprocess.run([engine_path, "pull", image], capture_output=True, timeout=PULL_TIME, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NoEngine(f"cannot get the image {image}: {exc}") from None
    if pulled.returncode != 0:
        said = (pulled.stderr.decode("utf-8", "replace").strip().splitlines() or ["no reason given"])[-1]
        raise NoEngine(f"cannot pull the image {image}: {said[:300]}")


def run_command(engine_path: str, image: str, memory: int | None) -> tuple[str, str]:
    """(the shell command that starts one container of ``image`` speaking the protocol, its job label)."""
    label = secrets.token_hex(8)
    words = [engine_path, "run", "--rm", "-i", "--network", "none", "--label", f"{LABEL}={label}",
             "--pids-limit", "512"]
    if memory is not None:
        words += ["--memory", f"{memory}m"]
    return shlex.join([*words, image]), label


def remove_containers(engine_path: str, label: str) -> None:
    """Remove every container of the job ``label`` (running or not); quiet when there is none."""
    try:
        found = subprocess.run([engine_path, "ps", "-aq", "--filter", f"label={LABEL}={label}"],
                               capture_output=True, timeout=30, check=False)
        ids = found.stdout.decode("ascii", "replace").split()
        if ids:
            subprocess.run([engine_path, "rm", "-f", *ids], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        pass  # the engine went away: nothing the kit can remove


__all__ = ["NoEngine", "engine", "ensure_image", "remove_containers", "run_command"]
