"""Inputs of ``annotate``: plain text (one document per line), JSONL and Parquet.

An input is split into shards of consecutive records (record ranges, so the split
depends only on the input and the shard size). One pass over the file finds the
shards' byte offsets (line formats) and the input's SHA-256, which tells a re-run whether
the finished shards of an earlier run belong to the same input.

Lines end with LF, CRLF or a lone CR (old Mac files), as Python's universal newlines
read them; a UTF-8 byte order mark at the start of the file is not part of the first
record.
"""
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator, List, Optional, Sequence, Tuple, Union

from ..errors import Errors
from ..util import check_input_file

INPUT_FORMATS = ("text", "jsonl", "parquet")
_SUFFIXES = {".txt": "text", ".text": "text", ".jsonl": "jsonl", ".ndjson": "jsonl",
             ".parquet": "parquet"}
_CHUNK = 1 << 20
_EOL = re.compile(rb"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"
#: Integer ids lie in [-ID_LIMIT, ID_LIMIT): 64 bits, as a DocBin (msgpack) and Parquet
#: hold them.
ID_LIMIT = 2**63


@dataclass(frozen=True)
class Shard:
    """A range of consecutive input records.

    index (int): the shard's number (0-based), its place in the output.
    start (int): the first record (0-based).
    end (int): one past the last record.
    offset (int): the byte offset of the first record's line (line formats; 0 for Parquet).
    """

    index: int
    start: int
    end: int
    offset: int


@dataclass(frozen=True)
class Record:
    """One input record: a document, or a bad record with the reason.

    where (str): its line number (line formats) or ``row N`` (Parquet), 1-based.
    id (Any): the document id (a string or an integer).
    text (Optional[str]): the text; None for a bad record.
    error (Optional[str]): why the record is bad; None for a good one.
    """

    where: str
    id: Any
    text: Optional[str]
    error: Optional[str] = None


@dataclass(frozen=True)
class InputPlan:
    """An input split into shards.

    path (Path): the input file.
    fmt (str): its format (one of INPUT_FORMATS).
    sha256 (str): the file's SHA-256.
    n_records (int): the number of records.
    shards (List[Shard]): the shards, in input order.
    """

    path: Path
    fmt: str
    sha256: str
    n_records: int
    shards: List[Shard]


def guess_format(path: Path, fmt: Optional[str], formats: Sequence[str], suffixes: dict,
                 what: str) -> str:
    """The format given, or the one the file name's suffix implies.

    RAISES (ValueError): unknown format (E501).
    """
    name = fmt if fmt is not None else suffixes.get(Path(path).suffix.lower(), Path(path).suffix)
    if name not in formats:
        raise ValueError(Errors.E501.format(what=what, path=path, fmt=name,
                                            available=", ".join(formats)))
    return name


def input_format(path: Path, fmt: Optional[str] = None) -> str:
    """The input format: ``fmt`` or guessed from the suffix (.txt, .jsonl, .parquet)."""
    return guess_format(path, fmt, INPUT_FORMATS, _SUFFIXES, "input")


def plan_input(path: Path, fmt: str, shard_size: int, text_field: str, id_field: str) -> InputPlan:
    """Split an input into shards of ``shard_size`` records (the last may be shorter).

    RAISES (FileNotFoundError): no such file (E130). (NegationFormatError): a directory,
    FIFO or device (E210, E970; never opened), not Parquet (E512), or without the text or id
    column (E503). (ValueError): no records (E502).
    """
    path = check_input_file(path)
    sha = hashlib.sha256()
    starts: List[Tuple[int, int]] = []
    if fmt == "parquet":
        with path.open("rb") as f:
            for chunk in iter(lambda: f.read(_CHUNK), b""):
                sha.update(chunk)
        n = _parquet_file(path, _columns(text_field, id_field)).metadata.num_rows
        starts = [(i, 0) for i in range(0, n, shard_size)]
    else:
        n = pos = 0
        with path.open("rb") as f:
            for line in iter_lines(f):
                if n % shard_size == 0:
                    starts.append((n, pos))
                sha.update(line)
                pos += len(line)
                n += 1
    if n == 0:
        raise ValueError(Errors.E502.format(path=path))
    shards = [Shard(k, start, min(start + shard_size, n), offset)
              for k, (start, offset) in enumerate(starts)]
    return InputPlan(path, fmt, sha.hexdigest(), n, shards)


def read_shard(plan: InputPlan, shard: Shard, text_field: str, id_field: str) -> List[Record]:
    """The records of one shard, in input order, bad ones included (with their reason).

    text_field (str): the text field (JSONL) or column (Parquet).
    id_field (str): the id field or column; ``""``: the line (row) number is the id.
    """
    if plan.fmt == "parquet":
        return _read_parquet(plan.path, shard, text_field, id_field)
    out: List[Record] = []
    with plan.path.open("rb") as f:
        f.seek(shard.offset)
        lines = iter_lines(f)
        for k in range(shard.start, shard.end):
            raw = next(lines, b"")
            if k == 0 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            line = k + 1
            if plan.fmt == "text":
                out.append(_text_record(raw, line))
            else:
                out.append(_jsonl_record(raw, line, text_field, id_field))
    return out


def iter_lines(f: IO[bytes], chunk_size: int = _CHUNK) -> Iterator[bytes]:
    """The lines of a binary file from its current position, each with its line end
    (LF, CRLF or a lone CR; the last line may have none): the bytes of the lines add up to
    the file's. Memory: one chunk plus the longest line.

    f (IO[bytes]): the file, opened in binary mode.
    chunk_size (int): bytes read at a time.
    YIELDS (bytes): the lines.
    """
    buf = b""
    while True:
        chunk = f.read(chunk_size)
        if not chunk:
            break
        buf += chunk
        start = 0
        for match in _EOL.finditer(buf):
            if match.end() == len(buf) and match.group() == b"\r":
                break  # a CR at the end of the chunk: the next chunk may start with LF
            yield buf[start:match.end()]
            start = match.end()
        buf = buf[start:]
    if buf:
        yield buf


def _strip_eol(raw: bytes) -> bytes:
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw


def _decode(raw: bytes) -> Tuple[Optional[str], Optional[str]]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as err:
        return None, f"not valid UTF-8 ({err.reason} at byte {err.start})"


def _text_record(raw: bytes, line: int) -> Record:
    text, error = _decode(_strip_eol(raw))
    return Record(str(line), line, text, error)


def _valid_id(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _surrogate(field: str, value: str) -> Optional[str]:
    """Why a string cannot be written as UTF-8 (a lone surrogate, which a JSON ``\\ud800``
    escape gives), or None."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        return (f"the {field} holds a lone surrogate (U+{ord(value[err.start]):04X} at "
                f"character {err.start}), which UTF-8 cannot encode")
    return None


def _fields(obj: Any, where: str, line: int, text_field: str, id_field: str) -> Record:
    """A record from a JSON object or a Parquet row (a dict)."""
    if not isinstance(obj, dict):
        return Record(where, None, None, f"not a JSON object ({type(obj).__name__})")
    if text_field not in obj or obj[text_field] is None:
        return Record(where, None, None, f"no text field {text_field!r}")
    text = obj[text_field]
    if not isinstance(text, str):
        return Record(where, None, None,
                      f"the text field {text_field!r} is not a string ({type(text).__name__})")
    error = _surrogate(f"text field {text_field!r}", text)
    if error is not None:
        return Record(where, None, None, error)
    if not id_field:
        return Record(where, line, text)
    if id_field not in obj or obj[id_field] is None:
        return Record(where, None, None, f"no id field {id_field!r}")
    doc_id = obj[id_field]
    if not _valid_id(doc_id):
        return Record(where, None, None, f"the id field {id_field!r} is not a string or an "
                                         f"integer ({type(doc_id).__name__})")
    if isinstance(doc_id, str):
        error = _surrogate(f"id field {id_field!r}", doc_id)
    elif not -ID_LIMIT <= doc_id < ID_LIMIT:
        error = (f"the id field {id_field!r} is an integer outside the 64-bit range the "
                 f"outputs hold ({len(str(abs(doc_id)))} digits)")
    if error is not None:
        return Record(where, None, None, error)
    return Record(where, doc_id, text)


def _jsonl_record(raw: bytes, line: int, text_field: str, id_field: str) -> Record:
    where = str(line)
    content, error = _decode(_strip_eol(raw))
    if content is None:
        return Record(where, None, None, error)
    if not content.strip():
        return Record(where, None, None, "empty line")
    try:
        obj = json.loads(content)
    except json.JSONDecodeError as err:
        return Record(where, None, None, f"not valid JSON ({err.msg})")
    except RecursionError:
        return Record(where, None, None, "not readable JSON: nested too deeply")
    except ValueError as err:  # an integer of more digits than int() converts (4300)
        return Record(where, None, None, f"not readable JSON: {err}")
    return _fields(obj, where, line, text_field, id_field)


def _columns(text_field: str, id_field: str) -> List[str]:
    return [text_field] + ([id_field] if id_field else [])


def _parquet_file(path: Path, columns: List[str]) -> Any:
    """The Parquet file, checked to have the columns."""
    pq = import_pyarrow("parquet")[1]
    from ..errors import NegationFormatError

    try:
        pf = pq.ParquetFile(path)
    except Exception as err:  # pyarrow raises ArrowInvalid/OSError subclasses
        raise NegationFormatError(Errors.E512.format(path=path, reason=err), path) from err
    names = pf.schema_arrow.names
    for column in columns:
        if column not in names:
            raise NegationFormatError(Errors.E503.format(path=path, column=column,
                                                         columns=", ".join(names)), path)
    return pf


def _read_parquet(path: Path, shard: Shard, text_field: str, id_field: str) -> List[Record]:
    columns = _columns(text_field, id_field)
    pf = _parquet_file(path, columns)
    rows: List[Union[dict, str]] = []  # a row, or why it cannot be read
    first = 0
    for g in range(pf.metadata.num_row_groups):
        n = pf.metadata.row_group(g).num_rows
        lo, hi = max(shard.start, first), min(shard.end, first + n)
        if lo < hi:
            table = pf.read_row_group(g, columns=columns).slice(lo - first, hi - lo)
            try:
                rows.extend(table.to_pylist())
            except UnicodeDecodeError:  # a string that is not UTF-8: find its row
                rows.extend(_row_or_reason(table, k) for k in range(table.num_rows))
        first += n
    return [Record(f"row {shard.start + k + 1}", None, None, row) if isinstance(row, str) else
            _fields(row, f"row {shard.start + k + 1}", shard.start + k + 1, text_field, id_field)
            for k, row in enumerate(rows)]


def _row_or_reason(table: Any, k: int) -> Union[dict, str]:
    """Row k of a Parquet table, or why it cannot be read (a string that is not UTF-8)."""
    try:
        row: dict = table.slice(k, 1).to_pylist()[0]
        return row
    except UnicodeDecodeError as err:
        return f"not valid UTF-8 ({err.reason} at byte {err.start} of a string)"


def import_pyarrow(fmt: str) -> Tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, with a coded error if not installed (E509)."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as err:
        raise ImportError(Errors.E509.format(fmt=fmt, reason=err)) from err
    return pyarrow, pyarrow.parquet
