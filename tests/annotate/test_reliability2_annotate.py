"""``annotate`` at document scale (issue 40, items 1-4 and 15): records built in time
linear in the document length, DocBin output without tensors unless asked, resume that
checks what made each finished shard, a BOM and CR-only line ends, torch threads."""
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any, Dict, List

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_negation import register_extensions, set_negations
from spacy_negation.annotate import annotate
from spacy_negation.annotate.threads import ChildThreads, resolve_threads
from spacy_negation.annotate.sinks import ID_KEY, doc_record
from spacy_negation.annotate.sources import iter_lines, plan_input, read_shard
from spacy_negation.annotate.workdir import model_identity

from util import corpus_texts, read_jsonl, write_text

BULKY = "test_reliability2_bulky_user_data"
TRF_KEY = ("._.", "trf_data", None, None)


def run(*args: Any, **kwargs: Any) -> Any:
    kwargs.setdefault("progress", False)
    return annotate(*args, **kwargs)


# --- 1. records in linear time ------------------------------------------------------------------
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


# --- 2. DocBin output without tensors -----------------------------------------------------------
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
    run(inp, tmp_path / "out.jsonl", str(bulky_model), shard_size=4)
    run(inp, tmp_path / "out.spacy", str(bulky_model), shard_size=4)
    docs = _docbin(tmp_path / "out.spacy")
    assert [d.text for d in docs] == texts
    assert [doc_record(d, d.user_data[ID_KEY]) for d in docs] == read_jsonl(tmp_path / "out.jsonl")
    for doc in docs:
        assert TRF_KEY not in doc.user_data and "another component" not in doc.user_data
        assert doc.tensor.size == 0
    light = (tmp_path / "out.spacy").stat().st_size
    # the opt-in keeps them
    run(inp, tmp_path / "full.spacy", str(bulky_model), shard_size=4, keep_user_data=True)
    full = _docbin(tmp_path / "full.spacy")
    assert all(TRF_KEY in d.user_data and d.user_data["another component"] == "x" * 1000
               for d in full)
    assert (tmp_path / "full.spacy").stat().st_size > light + 30000  # random bytes: incompressible
    with pytest.raises(ValueError, match=r"\[NEG-E951\]"):
        run(inp, tmp_path / "o.jsonl", str(bulky_model), keep_user_data=True)
    assert not (tmp_path / "o.jsonl").exists()


# --- 3. resume checks what made each shard ------------------------------------------------------
def test_resume_refuses_another_model_at_the_same_path(trained_cnn_dir, tmp_path):
    model = tmp_path / "model"
    shutil.copytree(trained_cnn_dir, model)
    inp = write_text(tmp_path / "in.txt", corpus_texts(6))
    out = tmp_path / "out.jsonl"
    run(inp, out, str(model), shard_size=2, keep_shards=True)
    identity = model_identity(str(model))
    assert identity.startswith("en_") and " config=" in identity and " files=" in identity
    # the same model, saved again at the same path with other weights (here: other files)
    weights = sorted(p for p in model.rglob("model") if p.is_file())[0]
    os.utime(weights, ns=(weights.stat().st_atime_ns, weights.stat().st_mtime_ns + 10**9))
    assert model_identity(str(model)) != identity
    with pytest.raises(ValueError, match=r"\[NEG-E504\] .*model_identity"):
        run(inp, out, str(model), shard_size=2)
    meta = json.loads((model / "meta.json").read_text(encoding="utf-8"))
    meta["version"] = "9.9.9"
    (model / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    assert " 9.9.9 " in model_identity(str(model))
    assert model_identity("not_a_model_or_path") == "not_a_model_or_path"


def test_resume_redoes_a_truncated_or_foreign_shard(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(9))
    out = tmp_path / "out.jsonl"
    fresh = tmp_path / "fresh.jsonl"
    run(inp, fresh, str(trained_cnn_dir), shard_size=3)
    run(inp, out, str(trained_cnn_dir), shard_size=3, keep_shards=True)
    work = tmp_path / "out.jsonl.shards"
    shard = work / "shard-00001.jsonl"
    done = json.loads((work / "shard-00001.done.json").read_text(encoding="utf-8"))
    assert done["records"] == [3, 6, done["records"][2]] and done["bytes"] == shard.stat().st_size
    shard.write_bytes(shard.read_bytes()[:-20])  # truncated inside its last record
    record = json.loads((work / "shard-00002.done.json").read_text(encoding="utf-8"))
    record["records"] = [0, 3, 0]  # a record that does not belong to its shard
    (work / "shard-00002.done.json").write_text(json.dumps(record), encoding="utf-8")
    out.unlink()
    with pytest.warns(UserWarning, match=r"\[NEG-W950\]") as caught:
        summary = run(inp, out, str(trained_cnn_dir), shard_size=3)
    messages = [str(w.message) for w in caught if "[NEG-W950]" in str(w.message)]
    assert len(messages) == 2 and "shard-00001.jsonl" in messages[0] and "bytes" in messages[0]
    assert "shard-00002.jsonl" in messages[1] and "covers records" in messages[1]
    assert sorted(summary.redone) == [1, 2] and summary.resumed == 1 and summary.n_docs == 9
    assert out.read_bytes() == fresh.read_bytes()
    assert [r["id"] for r in read_jsonl(out)] == list(range(1, 10))


def test_resume_redoes_an_edited_shard_of_the_same_size(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(4))
    out = tmp_path / "out.jsonl"
    run(inp, out, str(trained_cnn_dir), shard_size=2, keep_shards=True)
    expected = out.read_bytes()
    shard = tmp_path / "out.jsonl.shards" / "shard-00000.jsonl"
    data = shard.read_bytes()
    shard.write_bytes(data.replace(b'"id": 1', b'"id": 7'))
    out.unlink()
    with pytest.warns(UserWarning, match=r"\[NEG-W950\] .*SHA-256"):
        summary = run(inp, out, str(trained_cnn_dir), shard_size=2)
    assert summary.redone and out.read_bytes() == expected


# --- 4. a BOM and CR-only line ends -------------------------------------------------------------
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
    summary = run(inp, out, str(trained_cnn_dir), shard_size=2)
    assert summary.n_docs == 3
    docs = _docbin(out)
    assert [d.text for d in docs] == texts and [d.user_data[ID_KEY] for d in docs] == [1, 2, 3]


# --- 15. torch threads --------------------------------------------------------------------------
def test_threads_respect_omp_num_threads(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert resolve_threads(None) == 1 and resolve_threads(3) == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert resolve_threads(None) == 2 and resolve_threads(1) == 1
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("OMP_NUM_THREADS", bad)
        with pytest.raises(ValueError, match=r"\[NEG-E950\]"):
            resolve_threads(None)
    with pytest.raises(ValueError, match=r"\[NEG-E704\]"):
        resolve_threads(0)


def test_worker_processes_get_the_thread_count(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with ChildThreads(1, n_process=1):
        assert "OMP_NUM_THREADS" not in os.environ
    with ChildThreads(2, n_process=3):
        assert os.environ["OMP_NUM_THREADS"] == "2"
    assert "OMP_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    with ChildThreads(1, n_process=2):
        assert os.environ["OMP_NUM_THREADS"] == "1"
    assert os.environ["OMP_NUM_THREADS"] == "4"


def test_annotate_uses_omp_num_threads(trained_cnn_dir, tmp_path, monkeypatch):
    import torch

    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    inp = write_text(tmp_path / "in.txt", corpus_texts(2))
    seen: List[int] = []
    before = torch.get_num_threads()
    summary = run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir),
                  on_shard=lambda r: seen.append(torch.get_num_threads()))
    assert seen == [2] and summary.threads == 2 and torch.get_num_threads() == before
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    with pytest.raises(ValueError, match=r"\[NEG-E950\]"):
        run(inp, tmp_path / "o.jsonl", str(trained_cnn_dir))


def test_split_at_other_cues_pairs_negations_within_sentences_only():
    """A bounded long document: 20,000 one-negation sentences (the pairs across sentences,
    200 million, were all visited: seconds)."""
    from spacy_negation.negation import Negation
    from spacy_negation.pipeline.scope.decoding import split_at_other_cues

    register_extensions()
    n = 20000
    words = ["He", "did", "not", "go", "."] * n
    starts = [True, False, False, False, False] * n
    doc = Doc(spacy.blank("en").vocab, words=words, sent_starts=starts)
    negs = [Negation(doc, [doc[5 * k + 2]], [doc[5 * k], doc[5 * k + 1], doc[5 * k + 3]], id=k)
            for k in range(n)]
    start = time.perf_counter()
    out = split_at_other_cues(doc, negs)
    assert time.perf_counter() - start < 3.0
    assert [neg.scope for neg in out] == [neg.scope for neg in negs]
    # two cues of one sentence still share out their scopes
    d = Doc(doc.vocab, words=["not", "a", "b", "c", "never", "d"], sent_starts=[True] + [False] * 5)
    two = [Negation(d, [d[0]], [d[1], d[2], d[3]], id=0), Negation(d, [d[4]], [d[2], d[3], d[5]], id=1)]
    first, second = split_at_other_cues(d, two)
    assert [p.i for p in first.scope] == [1, 2] and [p.i for p in second.scope] == [2, 3, 5]  # a tie: both
