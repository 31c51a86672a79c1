"""The records and the DocBin output of ``annotate`` (spacy_negation.annotate.sinks): a
record is built in time linear in the document's length, and the DocBin output holds no
tensors or other components' user data unless asked (``keep_user_data``)."""
import time
from pathlib import Path
from typing import List

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_negation import register_extensions, set_negations
from spacy_negation.annotate.sinks import ID_KEY, doc_record

from util import annotate_quietly, corpus_texts, read_jsonl, write_text

BULKY = "test_bulky_user_data"
TRF_KEY = ("._.", "trf_data", None, None)


# --- records in linear time ---------------------------------------------------------------
class CountingDoc(Doc):
    """A Doc that counts how often its text is built (``doc.text`` joins every token)."""

    builds = 0

    @property
    def text(self) -> str:  # type: ignore[override]
        CountingDoc.builds += 1
        return "".join(t.text_with_ws for t in self)


def test_doc_record_builds_the_text_once_per_doc():
    register_extensions()
    words = ["unhappy" if i % 5 == 0 else "word" for i in range(200)]
    doc = CountingDoc(spacy.blank("en").vocab, words=words)
    negations = []
    for i in range(0, 200, 5):  # 40 negations, each with an affixal cue and 3 scope parts
        negations.append({"cue": [(i, 0, 2)], "scope": [(i, 2, 7), (i + 1, 0, 4), (i + 3, 0, 4)],
                          "event": [(i, 2, 7)]})
    set_negations(doc, negations)
    CountingDoc.builds = 0
    record = doc_record(doc, 1)
    assert CountingDoc.builds <= 1  # was one per part: 200 builds of the whole text
    text = "".join(t.text_with_ws for t in doc)
    assert len(record["negations"]) == 40
    for neg in record["negations"]:
        for parts in neg.values():
            assert all(text[p["start"]:p["end"]] == p["text"] for p in parts)
    assert record["negations"][0]["cue"] == [{"start": 0, "end": 2, "text": "un"}]
    assert doc_record(CountingDoc(doc.vocab, words=["a"]), 2) == {"id": 2, "negations": []}


def test_doc_record_of_a_long_doc_is_fast():
    """A bounded version of the 20k-token document: 20,000 tokens and 4,000 negations."""
    register_extensions()
    words = ["word"] * 20000
    doc = Doc(spacy.blank("en").vocab, words=words)
    set_negations(doc, [{"cue": [doc[i]], "scope": [doc[i + 1], doc[i + 3]]}
                        for i in range(0, 20000, 5)])
    start = time.perf_counter()
    record = doc_record(doc, 1)
    assert time.perf_counter() - start < 5.0  # quadratic: about 30 s
    assert len(record["negations"]) == 4000


# --- DocBin output without tensors --------------------------------------------------------
def _bulky(doc: Doc) -> Doc:
    """Stands in for a transformer: a tensor and megabyte-sized outputs in user data."""
    doc.tensor = numpy.ones((len(doc), 64), dtype="float32")
    doc.user_data[TRF_KEY] = numpy.random.default_rng(len(doc)).bytes(8000)
    doc.user_data["another component"] = "x" * 1000
    return doc


@pytest.fixture(scope="module")
def bulky_model(trained_cnn_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if BULKY not in Language.factories:
        Language.component(BULKY, func=_bulky)
    nlp = spacy.load(trained_cnn_dir)
    nlp.add_pipe(BULKY)
    out = tmp_path_factory.mktemp("bulky") / "model"
    nlp.to_disk(out)
    return out


def _docbin(path: Path) -> List[Doc]:
    return list(DocBin(store_user_data=True).from_disk(path).get_docs(spacy.blank("en").vocab))


def test_docbin_output_holds_no_tensors_or_foreign_user_data(bulky_model, tmp_path):
    texts = corpus_texts(6)
    inp = write_text(tmp_path / "in.txt", texts)
    annotate_quietly(inp, tmp_path / "out.jsonl", str(bulky_model), shard_size=4)
    annotate_quietly(inp, tmp_path / "out.spacy", str(bulky_model), shard_size=4)
    docs = _docbin(tmp_path / "out.spacy")
    assert [d.text for d in docs] == texts
    assert [doc_record(d, d.user_data[ID_KEY]) for d in docs] == read_jsonl(tmp_path / "out.jsonl")
    for doc in docs:
        assert TRF_KEY not in doc.user_data and "another component" not in doc.user_data
        assert doc.tensor.size == 0
    light = (tmp_path / "out.spacy").stat().st_size
    # the opt-in keeps them
    annotate_quietly(inp, tmp_path / "full.spacy", str(bulky_model), shard_size=4, keep_user_data=True)
    full = _docbin(tmp_path / "full.spacy")
    assert all(TRF_KEY in d.user_data and d.user_data["another component"] == "x" * 1000
               for d in full)
    assert (tmp_path / "full.spacy").stat().st_size > light + 30000  # random bytes: incompressible
    with pytest.raises(ValueError, match=r"\[NEG-E951\]"):
        annotate_quietly(inp, tmp_path / "o.jsonl", str(bulky_model), keep_user_data=True)
    assert not (tmp_path / "o.jsonl").exists()


def test_a_full_disk_stops_the_output_with_a_coded_error_and_keeps_the_shards(trained_cnn_dir, tmp_path,
                                                                              monkeypatch, capsys):
    """The merged output does not fit: E972 naming it, no half-written output or temporary
    file, the finished shards kept; once there is room, the same command resumes."""
    import errno
    import os

    from spacy_negation.cli import main

    from full_disk import FullDisk

    inp = write_text(tmp_path / "in.txt", corpus_texts(4))
    out = tmp_path / "out.jsonl"
    argv = ["annotate", str(inp), str(out), "--model", str(trained_cnn_dir), "--no-progress",
            "--shard-size", "2"]
    # written whole: the manifest, then each shard and its done record
    monkeypatch.setattr(os, "fdopen", FullDisk(errno.ENOSPC, after=5))
    assert main(argv) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert f"[NEG-E972] Cannot write {out}: No space left on device" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.jsonl.shards"]
    assert main(argv) == 0
    assert "resumed: 2 of 2 shards" in capsys.readouterr().err and len(read_jsonl(out)) == 4


def test_lighten_keeps_the_mirrors_of_both_kinds():
    """``Span.as_doc(copy_user_data=True)`` of an output doc reads the storage's mirrors in
    the user data: lighten keeps the negation and the speculation mirror, drops the rest."""
    from spacy_negation import register_extensions
    from spacy_negation.annotate.sinks import lighten

    register_extensions()
    doc = spacy.blank("en")("He may not come .")
    doc._.negations = [{"cue": [doc[2]], "scope": [doc[0], doc[3]]}]
    doc._.speculations = [{"cue": [doc[1]], "scope": [doc[0], doc[2], doc[3]]}]
    doc.user_data["another component"] = "x"
    lighten(doc)
    assert "another component" not in doc.user_data
    part = doc[0:4].as_doc(copy_user_data=True)
    assert [n.cue_text for n in part._.negations] == ["not"]
    assert [s.cue_text for s in part._.speculations] == ["may"]
