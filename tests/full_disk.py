"""A full disk for the tests: ``monkeypatch.setattr(os, "fdopen", FullDisk(errno.ENOSPC))``
makes the package's atomic writes (``spacy_negation.util.atomic_write``, which every
output goes through) fail as on a full disk or quota, after a few bytes."""
import os
from typing import Any


class FullFile:
    """A file on a full disk: it takes ``room`` bytes, then a write fails with ``err``."""

    def __init__(self, f: Any, err: int, room: int) -> None:
        self.f, self.err, self.room = f, err, room

    def write(self, data: bytes) -> int:
        if len(data) > self.room:
            self.f.write(data[:self.room])
            raise OSError(self.err, os.strerror(self.err))
        self.room -= len(data)
        return self.f.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.f, name)

    def __enter__(self) -> "FullFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.f.close()


class FullDisk:
    """``os.fdopen`` whose files take ``room`` bytes, then fail with ``err`` (ENOSPC: a full
    disk; EDQUOT: a full quota), as writes on a full disk do; the first ``after`` files
    opened are written whole (the disk fills up later)."""

    def __init__(self, err: int, room: int = 10, after: int = 0) -> None:
        self.err, self.room, self.after, self.real = err, room, after, os.fdopen

    def __call__(self, fd: int, *args: Any, **kwargs: Any) -> Any:
        f = self.real(fd, *args, **kwargs)
        if self.after > 0:
            self.after -= 1
            return f
        return FullFile(f, self.err, self.room)
