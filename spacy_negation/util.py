"""Small shared helpers."""
import os
import tempfile
from pathlib import Path
from typing import Callable, IO


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write a file atomically: into a temporary file beside it, renamed on success.

    path (Path): the destination.
    write (Callable[[IO[bytes]], None]): writes the content to the binary stream it gets.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the usual file mode
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write`)."""
    atomic_write(path, lambda f: f.write(text.encode("utf-8")))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write bytes atomically (see :func:`atomic_write`)."""
    atomic_write(path, lambda f: f.write(data))
