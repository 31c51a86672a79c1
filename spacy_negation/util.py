"""Small shared helpers: input files and output paths, atomic file writing, UTF-8
reading, lenient reading."""
import errno
import hashlib
import os
import re
import stat
import tempfile
import unicodedata
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Callable, IO, Iterable, List, Optional, Union

from .errors import Errors, NegationFormatError, Warnings

if TYPE_CHECKING:
    from spacy.language import Language

#: The values of the ``on_error`` setting of the readers (``convert --on-error``).
ON_ERROR = ("raise", "skip")
#: Longest file name most file systems allow, in bytes.
NAME_MAX = 255
_TMP_SUFFIX = ".tmp"
_TMP_EXTRA = len(".") + len(".") + 8 + len(_TMP_SUFFIX)  # mkstemp: prefix + 8 random + suffix
_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
               (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
#: The errors of a write on a full disk or beyond the user's quota.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def file_kind(mode: int) -> str:
    """What a file is, for messages: 'a directory', 'a FIFO', 'a character device', ...

    mode (int): its ``st_mode``.
    RETURNS (str): the kind with its article ('a regular file' for one).
    """
    if stat.S_ISDIR(mode):
        return "a directory"
    for test, kind in _FILE_KINDS:
        if test(mode):
            return kind
    return "a regular file" if stat.S_ISREG(mode) else "an unknown kind of file"


def check_input_file(path: Union[str, Path], *, folder_ok: bool = False) -> Path:
    """Check that an input path is an existing regular file (or a folder, where one is
    read), before it is opened: a FIFO or a device is never opened (a FIFO without a
    writer blocks ``open``, ``/dev/zero`` never ends). A symlink is followed.

    path (Union[str, Path]): the input path.
    folder_ok (bool): accept a folder (the corpus readers that read every file below one).
    RETURNS (Path): the path.
    RAISES (FileNotFoundError): nothing exists at the path (E130; also a dangling symlink).
    RAISES (NegationFormatError): a directory where a file is read (E210), a FIFO, socket or
        device (E970), or the path cannot be looked up (E112, e.g. a parent that is a file).
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileNotFoundError(Errors.E130.format(path=path)) from None
    except OSError as err:
        raise NegationFormatError(Errors.E112.format(path=path, reason=err.strerror or err), path) from None
    if stat.S_ISDIR(mode):
        if folder_ok:
            return path
        raise NegationFormatError(Errors.E210.format(path=path), path)
    if not stat.S_ISREG(mode):
        raise NegationFormatError(Errors.E970.format(path=path, kind=file_kind(mode)), path)
    return path


def check_output(path: Union[str, Path], inputs: Iterable[Union[str, Path]] = ()) -> Path:
    """Check that a file can be (re)placed at an output path, before any work is done.

    A symlink at the path is followed: its target is written and the link is kept.

    path (Union[str, Path]): the output path.
    inputs (Iterable[Union[str, Path]]): input files the output must not be (compared with
        ``os.path.samefile``: also through symlinks, hard links and relative paths).
    RETURNS (Path): the file to write (the path, or the final target of a symlink).
    RAISES (NegationFormatError): the output is an input (E125), a directory or its parent
        is not a directory (E123), or it is a FIFO, socket or device (E124). ``/dev/null``
        is refused too: a file is written to a temporary file renamed over the path, which
        would replace the device (and a run whose output is thrown away needs no output).
    """
    path = Path(path)
    for source in inputs:
        try:
            same = os.path.samefile(source, path)
        except OSError:  # one of them does not exist
            same = False
        if same:
            raise NegationFormatError(Errors.E125.format(output=path, input=source), path)
    target = Path(os.path.realpath(path))
    try:
        mode: Optional[int] = os.stat(target).st_mode
    except OSError:  # missing, or a parent is not a directory (checked below)
        mode = None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise NegationFormatError(Errors.E123.format(path=path, reason="it is a directory"), path)
        for test, kind in _FILE_KINDS:
            if test(mode):
                raise NegationFormatError(Errors.E124.format(path=path, kind=kind), path)
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise NegationFormatError(
                    Errors.E123.format(path=path, reason=f"{parent} is not a directory"), path)
            break
    return target


def _tmp_prefix(name: str) -> str:
    """The mkstemp prefix ``.{name}.``, the name shortened (at a character boundary) so that
    the temporary file name stays within NAME_MAX bytes."""
    budget = NAME_MAX - _TMP_EXTRA
    while len(os.fsencode(name)) > budget:
        name = name[: -max(1, (len(os.fsencode(name)) - budget) // 4)]
    return f".{name}."


def atomic_write(path: Union[str, Path], write: Callable[[IO[bytes]], None]) -> None:
    """Write a file atomically: into a temporary file beside it, renamed on success.

    A symlink at the path is followed (its target is replaced, the link stays); a
    directory, FIFO, socket or device at the path is refused with a coded error. Whatever
    stops the write (a full disk, an error of ``write``), the temporary file is removed:
    nothing half-written is left.

    path (Union[str, Path]): the destination.
    write (Callable[[IO[bytes]], None]): writes the content to the binary stream it gets.
    RAISES (NegationFormatError): the file cannot be written (E123, E124), the disk or the
        quota is full (E972).
    """
    path = Path(path)
    target = check_output(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(target.name), suffix=_TMP_SUFFIX,
                                   dir=target.parent)
    except OSError as err:
        raise _write_error(path, err) from err
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                write(f)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the usual file mode
            os.replace(tmp, target)
        except OSError as err:
            raise _write_error(path, err) from err
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _write_error(path: Path, err: OSError) -> NegationFormatError:
    """The coded error of a failed write: E972 for a full disk or quota, else E123."""
    reason = err.strerror or str(err)
    code = Errors.E972 if err.errno in DISK_FULL else Errors.E123
    return NegationFormatError(code.format(path=path, reason=reason), path)


def atomic_write_text(path: Union[str, Path], text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write`)."""
    data = text.encode("utf-8")

    def write(f: IO[bytes]) -> None:
        f.write(data)

    atomic_write(path, write)


def atomic_write_bytes(path: Union[str, Path], data: bytes) -> None:
    """Write bytes atomically (see :func:`atomic_write`)."""
    def write(f: IO[bytes]) -> None:
        f.write(data)

    atomic_write(path, write)


def file_sha256(path: Union[str, Path]) -> str:
    """The sha256 of a file's bytes, read in blocks (hex digest)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_bytes(path: Union[str, Path]) -> bytes:
    """The bytes of a file, with a coded error naming it if it cannot be read.

    path (Union[str, Path]): the file.
    RETURNS (bytes): its content.
    RAISES (FileNotFoundError): no such file (E130).
    RAISES (NegationFormatError): not a regular file (E210, E970), unreadable (E112).
    """
    check_input_file(path)
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise NegationFormatError(Errors.E112.format(path=path, reason=err), path) from err


def decode_utf8(path: Union[str, Path], raw: bytes) -> str:
    """UTF-8 text of a file's bytes without a leading byte order mark (U+FEFF), with a
    coded error naming the line of a bad byte.

    path (Union[str, Path]): the file, for the message.
    raw (bytes): its content.
    RETURNS (str): the text.
    RAISES (NegationFormatError): invalid UTF-8 (E111).
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise NegationFormatError(Errors.E111.format(path=path, line=line, reason=err.reason),
                                  path, line) from err
    return text[1:] if text.startswith("\ufeff") else text


def read_utf8(path: Union[str, Path]) -> str:
    """Read a UTF-8 text file (a leading byte order mark is removed), with coded errors
    naming the file (and line).

    path (Union[str, Path]): the file.
    RETURNS (str): the text.
    RAISES (FileNotFoundError): no such file (E130).
    RAISES (NegationFormatError): not a regular file (E210, E970), unreadable (E112) or
        invalid UTF-8 (E111).
    """
    return decode_utf8(path, read_bytes(path))


def split_lines(path: Union[str, Path], text: str) -> List[str]:
    """The lines of a text with LF or CRLF line endings (a CR is left at the line end).

    path (Union[str, Path]): the file, for the message.
    text (str): the text.
    RETURNS (List[str]): the lines.
    RAISES (NegationFormatError): a CR not followed by LF (CR-only line endings, E113).
    """
    lone = re.search(r"\r(?!\n)", text)
    if lone is not None:
        line = text.count("\n", 0, lone.start()) + 1
        raise NegationFormatError(Errors.E113.format(path=path, line=line), path, line)
    return text.split("\n")


def recase(form: str, model: str) -> str:
    """``form`` in the letter case of ``model``: upper case (a model of two or more upper-case
    letters), capitalized, or as it is.

    form (str): the new word form, lower case.
    model (str): the word it replaces.
    RETURNS (str): the form, recased.
    """
    if model.isupper() and len(model) > 1:
        return form.upper()
    if model[:1].isupper():
        return form[:1].upper() + form[1:]
    return form


def is_writable_form(form: str) -> bool:
    """Whether a word form fits one line of a *SEM-style file: not empty, no whitespace
    (``str.isspace``: also U+00A0 and the other Unicode spaces), no control character.

    form (str): the form.
    RETURNS (bool): whether it can be written and read back unchanged.
    """
    return bool(form) and not any(c.isspace() or unicodedata.category(c) == "Cc" for c in form)


def check_on_error(on_error: str) -> bool:
    """Validate the ``on_error`` setting of a reader.

    on_error (str): 'raise' or 'skip'.
    RETURNS (bool): True for 'skip' (lenient reading).
    """
    if on_error not in ON_ERROR:
        raise ValueError(Errors.E115.format(value=on_error))
    return on_error == "skip"


def skip_or_raise(err: NegationFormatError, lenient: bool, path: Union[str, Path], line: int) -> None:
    """Handle a bad sentence: raise its error (strict reading) or warn that it is skipped
    (W402, lenient reading).

    err (NegationFormatError): the sentence's error.
    lenient (bool): whether to skip instead of raising.
    path (Union[str, Path]): the file.
    line (int): the line where the sentence starts.
    """
    if not lenient:
        raise err
    warnings.warn(Warnings.W402.format(path=path, line=line, reason=err), stacklevel=3)


def blank_nlp(lang: str) -> "Language":
    """A blank pipeline of a language, with a coded error for an unknown code.

    lang (str): the language code, e.g. 'en'.
    RETURNS (Language): ``spacy.blank(lang)``.
    RAISES (NegationFormatError): spaCy has no such language (E126).
    """
    import spacy

    try:
        return spacy.blank(lang)
    except ImportError as err:
        raise NegationFormatError(Errors.E126.format(lang=lang, reason=err)) from err
