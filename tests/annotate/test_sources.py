"""The inputs of ``annotate`` (spacy_negation.annotate.sources): a byte order mark and
LF, CRLF or CR-only line ends, read across chunk boundaries; records no output can hold
are bad records of their line; an input must be a regular file."""
import os
from pathlib import Path
from typing import Any, List

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_negation.annotate.sinks import ID_KEY
from spacy_negation.annotate.sources import iter_lines, plan_input, read_shard

from util import annotate_quietly, corpus_texts


def _texts(path: Path, fmt: str = "text", shard_size: int = 2) -> List[Any]:
    plan = plan_input(path, fmt, shard_size, "text", "id")
    return [(r.id, r.text, r.error) for s in plan.shards for r in read_shard(plan, s, "text", "id")]


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"])
def test_line_ends_and_bom(tmp_path, eol):
    path = tmp_path / "in.txt"
    path.write_bytes(b"\xef\xbb\xbfNo one came." + eol + b"He was not here." + eol + eol + b"Last")
    assert _texts(path) == [(1, "No one came.", None), (2, "He was not here.", None),
                            (3, "", None), (4, "Last", None)]
    rows = [b'{"id": "a", "text": "x"}', b'{"id": "b", "text": "y"}']
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + eol.join(rows) + eol)
    assert _texts(path, "jsonl", 1) == [("a", "x", None), ("b", "y", None)]


def test_iter_lines_across_chunks():
    from io import BytesIO

    data = b"a\r\nb\rc\n\r\n\rd\r"
    expected = [b"a\r\n", b"b\r", b"c\n", b"\r\n", b"\r", b"d\r"]
    for size in (1, 2, 3, 5, 100):
        assert list(iter_lines(BytesIO(data), size)) == expected
    assert list(iter_lines(BytesIO(b"x\ny"), 1)) == [b"x\n", b"y"]
    assert list(iter_lines(BytesIO(b""))) == []


def test_cr_only_file_is_annotated_per_line(trained_cnn_dir, tmp_path):
    texts = corpus_texts(3)
    inp = tmp_path / "in.txt"
    inp.write_bytes(b"\xef\xbb\xbf" + "\r".join(texts).encode("utf-8") + b"\r")
    out = tmp_path / "out.spacy"
    summary = annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=2)
    assert summary.n_docs == 3
    docs = list(DocBin(store_user_data=True).from_disk(out).get_docs(spacy.blank("en").vocab))
    assert [d.text for d in docs] == texts and [d.user_data[ID_KEY] for d in docs] == [1, 2, 3]


#: JSONL lines no output can hold or Python cannot read, with the reason they are refused.
ODD_RECORDS = [
    (b'{"id": 1, "text": "a lone \\ud800 surrogate"}', "text field 'text' holds a lone surrogate (U+D800 at character 7)"),
    (b'{"id": "x\\udfff", "text": "No."}', "id field 'id' holds a lone surrogate (U+DFFF at character 1)"),
    (b'{"id": 3, "text": "No.", "meta": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
    (b'{"id": ' + b"7" * 5000 + b', "text": "No."}', "Exceeds the limit (4300 digits)"),
    (b'{"id": ' + b"9" * 20 + b', "text": "No."}', "integer outside the 64-bit range the outputs hold (20 digits)"),
]


def test_odd_records_are_bad_records_with_their_reason(tmp_path):
    """A lone surrogate in the text or id (no output can encode it), JSON nested deeper
    than Python's recursion limit, an id of more digits than int() reads or beyond 64 bits:
    each a bad record of its line, not a crash of the run."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join([b'{"id": 0, "text": "Fine."}'] + [line for line, _ in ODD_RECORDS]) + b"\n")
    records = _texts(path, "jsonl", 2)
    assert records[0] == (0, "Fine.", None)
    for (_, reason), (doc_id, text, error) in zip(ODD_RECORDS, records[1:]):
        assert doc_id is None and text is None and reason in error


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="no FIFOs or /dev/zero")
def test_an_input_that_is_not_a_regular_file_is_said_to_be_one(tmp_path):
    """Not "E130 not found": a FIFO (never opened: it would block without a writer) or a
    device (/dev/zero never ends) is refused as what it is; only a missing path is E130."""
    from spacy_negation.errors import NegationFormatError

    os.mkfifo(tmp_path / "pipe")
    for path, kind in ((tmp_path / "pipe", "a FIFO"), (Path("/dev/zero"), "a character device")):
        with pytest.raises(NegationFormatError, match=rf"\[NEG-E970\] {path} is {kind}, not a regular file"):
            plan_input(path, "text", 10, "text", "id")
    with pytest.raises(FileNotFoundError, match=r"\[NEG-E130\] Input file not found"):
        plan_input(tmp_path / "missing.txt", "text", 10, "text", "id")


def test_a_parquet_string_that_is_not_utf8_is_a_bad_record_of_its_row(tmp_path):
    """Parquet strings are UTF-8; one that is not (here a surrogate in CESU-8 bytes) is a bad
    record naming its row, the other rows are read."""
    import struct

    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    data = b"No.\xed\xa0\x80Yes."
    offsets = pa.py_buffer(struct.pack("<4i", 0, 3, 6, 10))
    text = pa.Array.from_buffers(pa.string(), 3, [None, offsets, pa.py_buffer(data)])
    pq.write_table(pa.table({"id": [1, 2, 3], "text": text}), tmp_path / "in.parquet")
    assert _texts(tmp_path / "in.parquet", "parquet", 3) == [
        (1, "No.", None), (None, None, "not valid UTF-8 (invalid continuation byte at byte 0 of a string)"),
        (3, "Yes.", None)]
