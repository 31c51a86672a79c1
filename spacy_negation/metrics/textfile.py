"""Streaming reading of UTF-8 text files for the metric readers: blank-line separated
blocks read in chunks (:func:`iter_text_blocks`) or lines (:func:`iter_lines`), with coded
errors (file and line) for what a reader must not guess: a missing file, a directory, a
FIFO or a device (:func:`spacy_negation.util.check_input_file`, before the file is opened),
invalid UTF-8, carriage returns without line feed. A byte order mark is dropped.
"""
import codecs
import re
from pathlib import Path
from typing import Iterator, Tuple, Union

from ..errors import Errors, NegationFormatError
from ..util import check_input_file

PathLike = Union[str, Path]
#: A sentence block: (line number of its first line, its lines joined by newlines).
Block = Tuple[int, str]
CHUNK_SIZE = 1 << 18
_BOM = "\ufeff"
_LONE_CR = re.compile(r"\r(?!\n)")


def iter_text_blocks(path: PathLike, chunk_size: int = CHUNK_SIZE) -> Iterator[Block]:
    """The blank-line separated blocks of a UTF-8 text file, read in chunks.

    A leading byte order mark is dropped; CRLF line endings are read as LF. A block may
    still contain lines of whitespace: a line without a TAB separates sentences too, a line
    holding one is a row of cells (the parsers split or refuse there, see
    :func:`spacy_negation.corpora.blocks.is_blank`).

    path (PathLike): the file.
    chunk_size (int): bytes per read.
    YIELDS (Block): (first line number, block text without a final newline).
    RAISES (NegationFormatError): unreadable file (E112), invalid UTF-8 (E111), a carriage
        return without line feed (E113).
    """
    path = check_input_file(path)
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1  # number of the first line in buf
    buf = ""
    carry = ""
    start = True
    try:
        f = open(path, "rb")
    except OSError as err:
        raise NegationFormatError(Errors.E112.format(path=path, reason=err), path) from err
    with f:
        while True:
            raw = f.read(chunk_size)
            try:
                text = carry + decoder.decode(raw, final=not raw)
            except UnicodeDecodeError as err:
                n = line + buf.count("\n") + carry.count("\n") + raw[:max(err.start, 0)].count(b"\n")
                raise NegationFormatError(Errors.E111.format(path=path, line=n, reason=err.reason),
                                          path, n) from None
            carry = ""
            if start and text:
                start = False
                if text.startswith(_BOM):
                    text = text[1:]
            if "\r" in text:
                if raw and text.endswith("\r"):
                    text, carry = text[:-1], "\r"
                lone = _LONE_CR.search(text)
                if lone is not None:
                    n = line + buf.count("\n") + text.count("\n", 0, lone.start())
                    raise NegationFormatError(Errors.E113.format(path=path, line=n), path, n)
                text = text.replace("\r\n", "\n")
            buf += text
            if not raw:
                break
            pieces = buf.split("\n\n")
            buf = pieces.pop()
            for piece in pieces:
                body = piece.lstrip("\n")
                if body:
                    yield line + len(piece) - len(body), body
                line += piece.count("\n") + 2
    body = buf.lstrip("\n")
    if body.rstrip("\n"):
        yield line + len(buf) - len(body), body.rstrip("\n")


def iter_lines(path: PathLike) -> Iterator[str]:
    """The lines of a UTF-8 text file without line terminators, streamed (the checks of
    :func:`iter_text_blocks`: byte order mark dropped, CRLF read as LF, CR-only line
    endings and invalid UTF-8 are coded errors with the line).

    path (PathLike): the file.
    YIELDS (str): each line.
    """
    path = check_input_file(path)
    line = 0
    try:
        f = open(path, encoding="utf-8", newline="")
    except OSError as err:
        raise NegationFormatError(Errors.E112.format(path=path, reason=err), path) from err
    with f:
        try:
            for line, text in enumerate(f, 1):
                if line == 1 and text.startswith(_BOM):
                    text = text[1:]
                if text.endswith("\n"):
                    text = text[:-2] if text.endswith("\r\n") else text[:-1]
                elif text.endswith("\r"):
                    raise NegationFormatError(Errors.E113.format(path=path, line=line), path, line)
                yield text
        except UnicodeDecodeError as err:
            for _ in iter_text_blocks(path):  # raises E111 with the exact line
                pass
            raise NegationFormatError(Errors.E111.format(path=path, line=line + 1,
                                                         reason=err.reason), path, line + 1) from None
