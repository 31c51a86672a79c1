"""Small shared helpers."""
import os
import tempfile
from pathlib import Path
from typing import Callable, IO, Union


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


def read_utf8(path: Union[str, Path]) -> str:
    """Read a UTF-8 text file, with coded errors naming the file (and line).

    path (Union[str, Path]): the file.
    RETURNS (str): the text.
    RAISES (NegationFormatError): unreadable file (E112) or invalid UTF-8 (E111).
    """
    from .errors import Errors, NegationFormatError

    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise NegationFormatError(Errors.E112.format(path=path, reason=err), path) from err
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise NegationFormatError(
            Errors.E111.format(path=path, line=line, reason=err.reason), path, line
        ) from err
