"""The user's files: every file the kit reads for a user is bounded, every file it writes is written safely,
and in a folder it shares with the user it removes only what it wrote itself.

- ``read_bytes``: one open, checked to be a regular file (a FIFO or a device is refused at once, never waited
  on or read without end), read with a byte limit (checked while reading: a file that grows is caught too).
- ``write_file``: a regular file (or a new one) is replaced whole through a temporary file with a unique name
  in the same folder, keeping the old file's permissions and following a symbolic link to the file it names;
  anything else (``-`` for standard output, a device such as ``/dev/null``, a FIFO with a reader) is written to
  directly and never replaced; a FIFO without a reader is refused rather than waited on.
- ``OwnedFolder``: a folder the kit writes many files into (``--badges DIR``, ``--transcript DIR``) keeps a
  manifest per kind of output (``.refimpl-badges``, ``.refimpl-transcripts``, ``.refimpl-reproducer``; older
  kits' shared ``.refimpl-files`` is still read) of the files the kit wrote there and their digests. A run
  removes only those of its earlier files of its kind that are still as it wrote them, and refuses, before
  anything runs, to write over a file of the kind it writes that it did not write (or that was changed since).
  Two runs writing one folder at once take turns (a lock on the folder), so each leaves a true manifest and
  neither locks the folder for later runs. A dangling link is never written through.

Every failure is an OSError whose ``strerror`` says what is wrong, so callers name the path and exit 2.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

MANIFEST = ".refimpl-files"  # a manifest of 0.3 and before, shared by every kind of output: still read
MANIFEST_LIMIT = 1 << 20


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refused(reason: str, code: int = errno.EINVAL) -> OSError:
    """An OSError carrying ``reason`` as its message (``os_reason`` and ``str`` show it)."""
    exc = OSError(code, reason)
    return exc


def read_bytes(path: str | os.PathLike[str], limit: int, head: bool = False) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (with ``head``, its first ``limit``
    bytes, however long it is). Raises OSError: not there, not a regular file (named), or larger than
    ``limit``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO does not wait for a writer
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refused(f"{_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit and not head:
            raise refused(f"the file has {info.st_size} bytes; the limit is {limit}", errno.EFBIG)
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if head and size >= limit:
                return b"".join(chunks)[:limit]
            if size > limit:
                raise refused(f"the file has more than {limit} bytes (it grew while read); the limit is {limit}",
                              errno.EFBIG)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def dangling(path: str | os.PathLike[str]) -> str | None:
    """Where the link at ``path`` points when it is a link to nothing (the kit never writes through one, nor
    makes what it points to), in words; None for anything else."""
    where = Path(path)
    if where.is_symlink() and not where.exists():
        return f"a link to {os.readlink(where)}, which does not exist"
    return None


def _refuse_dangling(path: str | os.PathLike[str]) -> None:
    said = dangling(path)
    if said is not None:
        raise refused(said, errno.ENOENT)


def write_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` (see the module docstring: replaced whole when it is a regular file or new;
    written to directly when it is ``-``, a device or a FIFO). Creates missing parent folders. Raises OSError
    (a full disk, no permission, a folder, a FIFO nobody reads)."""
    if os.fspath(path) == "-":
        sys.stdout.flush()
        _write_all(sys.stdout.fileno(), data)
        return
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is None:
        _refuse_dangling(target)  # never make the file, or the folders, a dangling link points to
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise refused("a folder, not a file", errno.EISDIR)
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_special(target, data, info.st_mode)
        return
    real = Path(os.path.realpath(target)) if target.is_symlink() else target
    real.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".part")
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
            _write_all(fd, data)
            os.fsync(fd)  # a full disk shows here at the latest, before the old file is replaced
        finally:
            os.close(fd)
        os.replace(temporary, real)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def _write_special(target: Path, data: bytes, mode: int) -> None:
    """Write into a device or a FIFO as it is (never replace it)."""
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
    if stat.S_ISFIFO(mode):
        flags |= os.O_NONBLOCK  # no reader: ENXIO at once instead of waiting for one forever
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO and stat.S_ISFIFO(mode):
            raise refused("a FIFO (named pipe) that nobody reads", errno.ENXIO) from None
        raise
    try:
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class OwnedFolder:
    """A folder the kit writes a set of files into, keeping a manifest of them (see the module docstring).

    ``ours(name)`` says which names are of the kind the kit writes there (``*.jsonl`` for transcripts; the
    badge names for badges): such a file that the manifest does not vouch for is the user's, and the kit
    refuses to write into the folder rather than replace it."""

    def __init__(self, path: str | os.PathLike[str], what: str, ours: Callable[[str], bool]) -> None:
        self.path, self.what, self.ours = Path(path), what, ours
        # one manifest per kind of output, so that badges and transcripts may share a folder (issue 43)
        self.manifest = f".refimpl-{what.split()[0]}"

    def _manifest(self) -> dict[str, str]:
        """name -> digest of the files the kit wrote here last, from this kind's manifest and the shared one of
        older kits (empty when none)."""
        return {**self._read(MANIFEST), **self._read(self.manifest)}

    def _read(self, name: str) -> dict[str, str]:
        where = self.path / name
        try:
            raw = read_bytes(where, MANIFEST_LIMIT)
        except FileNotFoundError:
            return {}
        try:
            doc = json.loads(raw)
            files = doc["files"]
            assert isinstance(files, dict) and all(isinstance(v, str) for v in files.values())
            return {str(k): v for k, v in files.items() if "/" not in str(k) and str(k) not in ("", ".", "..")}
        except (ValueError, KeyError, TypeError, AssertionError):
            raise refused(f"{where} is not a manifest refimpl wrote; remove it or choose another folder") from None

    def _still_ours(self, name: str, want: str) -> bool:
        try:
            return digest(read_bytes(self.path / name, 64 << 20)) == want
        except OSError:
            return False

    def check(self) -> None:
        """Refuse (OSError) a folder holding files of the kit's kind that the kit did not write, or that
        were changed since; call it before the run, so nothing is lost and no time is wasted. Taken under the
        folder's lock, so another run's files half written are never taken for the user's."""
        if self.path.is_dir():
            with self._locked():
                self._check()
        else:
            self._check()

    def _check(self) -> None:
        _refuse_dangling(self.path)
        if not self.path.exists():
            return
        if not self.path.is_dir():
            raise refused("not a folder", errno.ENOTDIR)
        written = self._manifest()
        foreign = []
        for entry in sorted(os.listdir(self.path)):
            if entry in (MANIFEST, self.manifest) or not self.ours(entry):
                continue
            if entry not in written or not self._still_ours(entry, written[entry]):
                foreign.append(entry)
        if foreign:
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise refused(f"holds {shown}, which refimpl did not write (or which changed since); the kit "
                          f"replaces only its own {self.what}: choose another folder, or move them", errno.EEXIST)

    def replace_all(self, files: Iterable[tuple[str, bytes]]) -> list[Path]:
        """Remove the kit's earlier files here that are still as it wrote them, write ``files`` (name, bytes),
        and the manifest naming them; the paths written. Raises OSError."""
        _refuse_dangling(self.path)  # never made where a dangling link points
        self.path.mkdir(parents=True, exist_ok=True)
        with self._locked():  # two runs writing here at once: one after the other, each leaving a true manifest
            self._check()
            new = dict(files)
            for name, want in self._manifest().items():
                if name not in new and self.ours(name) and self._still_ours(name, want):
                    (self.path / name).unlink()
            written = []
            for name, data in new.items():
                write_file(self.path / name, data)
                written.append(self.path / name)
            manifest = {"written_by": "refimpl", "what": self.what,
                        "files": {name: digest(data) for name, data in sorted(new.items())}}
            write_file(self.path / self.manifest, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
            self._forget_shared()
        return written

    def _forget_shared(self) -> None:
        """Drop this kind's files from an older kit's shared manifest (the other kinds' stay vouched for)."""
        old = self._read(MANIFEST)
        if not any(self.ours(name) for name in old):
            return
        left = {name: want for name, want in old.items() if not self.ours(name)}
        if left:
            doc = {"written_by": "refimpl", "what": "older outputs", "files": left}
            write_file(self.path / MANIFEST, (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode())
        else:
            (self.path / MANIFEST).unlink()

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock on the folder (where the system has flock)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no lock, as before
            yield
            return
        fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))  # the folder itself: no file left
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)
