"""The inputs of ``annotate`` (spacy_negation.annotate.sources): a byte order mark and
LF, CRLF or CR-only line ends, read across chunk boundaries."""
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
