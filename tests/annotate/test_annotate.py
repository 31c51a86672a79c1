"""``annotate``: formats, records, sharding, bad records, resume after a killed run
(local engine, tiny CNN negation pipeline trained offline)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from spacy_negation.annotate import annotate
from spacy_negation.annotate.sinks import read_output_ids
from spacy_negation.cli import main

from util import corpus_texts, read_jsonl, write_jsonl, write_text

def run(*args, **kwargs):
    kwargs.setdefault("progress", False)
    return annotate(*args, **kwargs)


def test_records_hold_the_pipelines_negations_as_offsets(trained_cnn_dir, tmp_path, monkeypatch):
    import torch

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)  # threads: 1 (the default)

    from spacy_negation import get_negations
    from spacy_negation.annotate.core import load_pipeline

    texts = corpus_texts(12)
    inp = write_text(tmp_path / "in.txt", texts)
    threads = torch.get_num_threads()
    seen: List[int] = []
    summary = run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir), shard_size=5,
                  on_shard=lambda r: seen.append(torch.get_num_threads()))
    assert seen == [1, 1, 1] and torch.get_num_threads() == threads  # --threads 1, restored
    records = read_jsonl(tmp_path / "out.jsonl")
    assert [r["id"] for r in records] == list(range(1, 13))  # plain text: id = line number
    nlp = load_pipeline(str(trained_cnn_dir))
    assert nlp.pipe_names[0] == "sentencizer"  # the model sets no sentence boundaries
    n_neg = 0
    for text, rec, doc in zip(texts, records, nlp.pipe(texts)):
        expected = [{role: [list(o) for o in neg.offsets(role)] for role in ("cue", "scope", "event")}
                    for neg in get_negations(doc)]
        got = [{role: [[p["start"], p["end"]] for p in neg[role]] for role in neg}
               for neg in rec["negations"]]
        assert got == expected
        for neg in rec["negations"]:
            for parts in neg.values():
                assert all(text[p["start"]:p["end"]] == p["text"] for p in parts)
        n_neg += len(rec["negations"])
    assert n_neg >= 12  # the tiny pipeline finds the learned negations
    assert summary.n_docs == 12 and summary.n_words == sum(len(d) for d in nlp.pipe(texts))
    assert not (tmp_path / "out.jsonl.shards").exists()  # the work folder is removed


def test_formats_agree(trained_cnn_dir, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    texts = corpus_texts(9)
    rows = [{"doc": f"d{i}", "body": t} for i, t in enumerate(texts)]
    inp = write_jsonl(tmp_path / "in.jsonl", rows)
    kw = dict(text_field="body", id_field="doc", shard_size=4)
    run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir), **kw)
    reference = read_jsonl(tmp_path / "out.jsonl")
    assert [r["id"] for r in reference] == [f"d{i}" for i in range(9)]
    # Parquet in (two row groups, so shards cross them), JSONL out: the same records
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet", row_group_size=5)
    run(tmp_path / "in.parquet", tmp_path / "from_parquet.jsonl", str(trained_cnn_dir), **kw)
    assert read_jsonl(tmp_path / "from_parquet.jsonl") == reference
    # Parquet out (ids as strings)
    run(inp, tmp_path / "out.parquet", str(trained_cnn_dir), **kw)
    assert pq.read_table(tmp_path / "out.parquet").to_pylist() == reference
    run(write_text(tmp_path / "in.txt", texts[:3]), tmp_path / "t.parquet", str(trained_cnn_dir))
    assert read_output_ids(tmp_path / "t.parquet", "parquet") == ["1", "2", "3"]
    # DocBin out: the docs with their ids and negations
    import spacy
    from spacy.tokens import DocBin

    from spacy_negation.annotate.sinks import ID_KEY, doc_record

    run(inp, tmp_path / "out.spacy", str(trained_cnn_dir), **kw)
    docs = list(DocBin().from_disk(tmp_path / "out.spacy").get_docs(spacy.blank("en").vocab))
    assert [doc_record(d, d.user_data[ID_KEY]) for d in docs] == reference
    assert [d.text for d in docs] == texts


def test_output_does_not_depend_on_shard_size_or_processes(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(30))
    run(inp, tmp_path / "a.jsonl", str(trained_cnn_dir), shard_size=1000)
    run(inp, tmp_path / "b.jsonl", str(trained_cnn_dir), shard_size=7, batch_size=3)
    run(inp, tmp_path / "c.jsonl", str(trained_cnn_dir), shard_size=4, n_process=2)
    a = (tmp_path / "a.jsonl").read_bytes()
    assert a == (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "c.jsonl").read_bytes()


BAD_JSONL = [
    b'{"id": 1, "text": "He was unhappy."}',
    b'{"id": 2, "txt": "no text field"}',
    b'{"id": 3, "text": "bad \xff byte"}',
    b'{"id": 4, "text": "I think not"',
    b'{"id": [5], "text": "list id"}',
    b'',
    b'["not", "an", "object"]',
    b'{"id": 8, "text": 8}',
    b'{"id": 9, "text": "No one came to the party."}',
]


@pytest.mark.parametrize("line,reason", [(2, "no text field 'text'"), (3, "not valid UTF-8")])
def test_bad_record_raises_by_default(trained_cnn_dir, tmp_path, line, reason):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join([BAD_JSONL[0]] * (line - 1) + [BAD_JSONL[line - 1]]) + b"\n")
    from spacy_negation.errors import NegationFormatError

    with pytest.raises(NegationFormatError, match=rf"\[NEG-E500\] .*in.jsonl:{line}: bad record: {reason}"):
        run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir))
    assert not (tmp_path / "out.jsonl").exists()


def test_bad_records_skipped_and_reported_with_their_line(trained_cnn_dir, tmp_path, recwarn):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(BAD_JSONL) + b"\n")
    summary = run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir), on_error="skip", shard_size=3)
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == [1, 9]
    assert [s["where"] for s in summary.skipped] == ["2", "3", "4", "5", "6", "7", "8"]
    messages = [str(w.message) for w in recwarn if "[NEG-W500]" in str(w.message)]
    assert len(messages) == 7
    assert all(f"in.jsonl:{k}:" in m for k, m in zip(range(2, 9), messages))
    assert "not valid JSON" in messages[2] and "not a string or an integer" in messages[3]
    assert "empty line" in messages[4] and "not a JSON object" in messages[5]


def test_plain_text_bad_line_and_cli_exit_codes(trained_cnn_dir, tmp_path, capsys):
    inp = tmp_path / "in.txt"
    inp.write_bytes(b"He was unhappy.\r\n\nbad \xe9 latin-1\nI think not")
    out = tmp_path / "out.jsonl"
    assert main(["annotate", str(inp), str(out), "--model", str(trained_cnn_dir), "--no-progress"]) == 1
    assert "[NEG-E500]" in capsys.readouterr().err and not out.exists()
    with pytest.warns(UserWarning, match=r"\[NEG-W500\] .*in.txt:3: bad record skipped .*UTF-8"):
        assert main(["annotate", str(inp), str(out), "--model", str(trained_cnn_dir),
                     "--no-progress", "--on-error", "skip"]) == 0
    assert "wrote 3 documents (7 words)" in capsys.readouterr().err
    records = read_jsonl(out)
    assert [r["id"] for r in records] == [1, 2, 4]  # an empty line is an empty document
    assert records[1]["negations"] == [] and records[0]["negations"][0]["cue"][0]["text"] == "un"


def test_id_field_empty_uses_line_numbers(trained_cnn_dir, tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [{"text": t} for t in corpus_texts(3)])
    run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir), id_field="")
    assert read_output_ids(tmp_path / "out.jsonl", "jsonl") == [1, 2, 3]


def test_input_errors(trained_cnn_dir, tmp_path):
    from spacy_negation.errors import NegationFormatError

    model = str(trained_cnn_dir)
    inp = write_text(tmp_path / "in.txt", ["No."])
    with pytest.raises(ValueError, match=r"\[NEG-E501\]"):
        run(tmp_path / "in.csv", tmp_path / "o.jsonl", model)
    with pytest.raises(ValueError, match=r"\[NEG-E501\]"):
        run(inp, tmp_path / "o.csv", model)
    with pytest.raises(ValueError, match=r"\[NEG-E502\]"):
        run(write_text(tmp_path / "empty.txt", []), tmp_path / "o.jsonl", model)
    with pytest.raises(ValueError, match=r"\[NEG-E971\] --shard-size must be a whole number from 1 to"):
        run(inp, tmp_path / "o.jsonl", model, shard_size=0)
    with pytest.raises(ValueError, match=r"\[NEG-E115\]"):
        run(inp, tmp_path / "o.jsonl", model, on_error="ignore")
    with pytest.raises(FileNotFoundError, match=r"\[NEG-E130\]"):
        run(tmp_path / "missing.txt", tmp_path / "o.jsonl", model)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E125\]"):
        run(inp, inp, model, output_fmt="jsonl")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E512\]"):
        run(inp, tmp_path / "o.jsonl", model, input_fmt="parquet")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.Table.from_pylist([{"body": "No."}]), tmp_path / "in.parquet")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E503\] .*'text' \(its columns: body\)"):
        run(tmp_path / "in.parquet", tmp_path / "o.jsonl", model, id_field="")
    assert not list(tmp_path.glob("o.*"))


def test_rerun_with_other_settings_or_bad_manifest_refuses(trained_cnn_dir, tmp_path):
    from spacy_negation.errors import NegationFormatError

    inp = write_text(tmp_path / "in.txt", corpus_texts(6))
    out = tmp_path / "out.jsonl"
    run(inp, out, str(trained_cnn_dir), shard_size=2, keep_shards=True)
    with pytest.raises(ValueError, match=r"\[NEG-E504\] .*shard_size was 2, now 3"):
        run(inp, out, str(trained_cnn_dir), shard_size=3)
    write_text(inp, corpus_texts(7))
    with pytest.raises(ValueError, match=r"\[NEG-E504\] .*input_sha256"):
        run(inp, out, str(trained_cnn_dir), shard_size=2)
    (tmp_path / "out.jsonl.shards" / "manifest.json").write_text("{", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E505\]"):
        run(inp, out, str(trained_cnn_dir), shard_size=2)


@pytest.mark.parametrize("sig,code", [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGINT, 130)])
def test_resume_after_kill_has_every_record_once_in_order(trained_cnn_dir, tmp_path, sig, code):
    """Kill (or Ctrl-C) a run after its first finished shard; the re-run annotates only the
    other shards and the output has every input record exactly once, in order. The child
    gets the default SIGINT disposition: started from a shell without job control (a
    background job, nohup), it would inherit SIGINT ignored, and Python raises no
    KeyboardInterrupt then."""
    n, size = 800, 20
    inp = write_text(tmp_path / "in.txt", corpus_texts(n))
    out = tmp_path / "out.jsonl"
    work = tmp_path / "out.jsonl.shards"
    cmd = [sys.executable, "-m", "spacy_negation", "annotate", str(inp), str(out), "--model",
           str(trained_cnn_dir), "--shard-size", str(size), "--no-progress", "--keep-shards"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if work.is_dir() and any(work.glob("shard-*.done.json")):
                break
            time.sleep(0.005)
        os.kill(proc.pid, sig)
    finally:
        proc.wait(timeout=60)
    stderr = proc.stderr.read().decode()
    assert proc.returncode == code, stderr
    if sig == signal.SIGINT:
        assert "run the same command again to resume" in stderr
    done = list(work.glob("shard-*.done.json"))
    assert 1 <= len(done) < n // size and not out.exists()
    first = tmp_path / "out.jsonl.shards" / "shard-00000.jsonl"
    stamp = first.stat().st_mtime_ns
    rerun = subprocess.run(cmd, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert f"resumed: {len(done)} of {n // size} shards" in rerun.stderr
    assert first.stat().st_mtime_ns == stamp  # finished shards are not annotated again
    assert [r["id"] for r in read_jsonl(out)] == list(range(1, n + 1))
    fresh = tmp_path / "fresh.jsonl"
    run(inp, fresh, str(trained_cnn_dir), shard_size=size)
    assert out.read_bytes() == fresh.read_bytes()


def test_command_module_imports_lightly():
    """The command module adds no heavy import to those of the cli package."""
    code = ("import sys, json, importlib\n"
            "import spacy_negation.cli\n"
            "heavy = ('spacy', 'torch', 'ray', 'pyarrow', 'thinc')\n"
            "base = {m for m in heavy if m in sys.modules}\n"
            "importlib.import_module('spacy_negation.cli.annotate')\n"
            "print(json.dumps(sorted({m for m in heavy if m in sys.modules} - base)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_docs_record_example(trained_cnn_dir, tmp_path):
    """The example record of docs/annotate.md is what the command writes for "He was unhappy."."""
    section = (Path(__file__).resolve().parents[2] / "docs" / "annotate.md").read_text(encoding="utf-8")
    example = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    inp = write_text(tmp_path / "in.txt", ["He was unhappy."])
    run(inp, tmp_path / "out.jsonl", str(trained_cnn_dir))
    assert read_jsonl(tmp_path / "out.jsonl") == [example]


def test_optional_dependencies_missing(trained_cnn_dir, tmp_path, monkeypatch):
    inp = write_text(tmp_path / "in.txt", ["No."])
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"\[NEG-E508\] .*spacy-negation\[ray\]"):
        run(inp, tmp_path / "o.jsonl", str(trained_cnn_dir), engine="ray")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"\[NEG-E509\] The parquet format"):
        run(inp, tmp_path / "o.parquet", str(trained_cnn_dir))
    assert not list(tmp_path.glob("o.*"))


def test_ray_scheduler_stops_at_a_shard_that_failed_after_its_retries():
    """The Ray engine's scheduler with a stand-in for ``ray`` (no cluster): the shards that
    finish are handed on in order, a task that Ray gave up on stops the run with E510,
    naming the shard and its records (1-based)."""
    from types import SimpleNamespace

    from spacy_negation.annotate.core import ShardDone
    from spacy_negation.annotate.ray_engine import _schedule
    from spacy_negation.annotate.sources import Record, Shard

    class RayError(Exception):
        pass

    class Actor:
        def __init__(self) -> None:
            self.annotate = SimpleNamespace(remote=self.remote)

        def remote(self, shard: Shard, records: List) -> Shard:
            assert [text for _, text in records] == [f"text {i}" for i in range(shard.start, shard.end)]
            return shard  # the task's reference

    def get(ref: Shard) -> ShardDone:
        if ref.index == 2:
            raise RayError("the actor died 4 times")
        return ShardDone(ref, b"", ref.end - ref.start, 0, 1, 0.0, 0.0)

    fake_ray = SimpleNamespace(wait=lambda refs, num_returns: (refs[:1], refs[1:]), get=get,
                               exceptions=SimpleNamespace(RayError=RayError))
    shards = [Shard(k, 5 * k, 5 * k + 5, 0) for k in range(4)]

    def read(shard: Shard) -> List[Record]:
        return [Record(str(i + 1), i, f"text {i}", None) for i in range(shard.start, shard.end)]

    done: List[int] = []
    with pytest.raises(RuntimeError, match=r"\[NEG-E510\] A Ray worker failed on shard 2 \(records 11-15\) "
                                           r"after its retries: the actor died 4 times"):
        _schedule(fake_ray, [Actor()], shards, read, lambda result: done.append(result.shard.index))
    assert done == [0, 1]


#: Records with a lone surrogate (text, id), nesting too deep, a 5000-digit id, lines 2-5.
ODD_JSONL = [
    b'{"id": 1, "text": "No one came."}',
    b'{"id": 2, "text": "a lone \\ud800 surrogate"}',
    b'{"id": "\\udc00", "text": "He was not here."}',
    b'{"id": 4, "text": "x", "meta": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    b'{"id": ' + b"5" * 5000 + b', "text": "No."}',
    b'{"id": 6, "text": "I think not."}',
]


def test_odd_records_raise_naming_their_line(trained_cnn_dir, tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    for line in range(2, 6):
        inp.write_bytes(b"\n".join(ODD_JSONL[:1] + ODD_JSONL[line - 1:line]) + b"\n")
        out = tmp_path / "out.jsonl"
        assert main(["annotate", str(inp), str(out), "--model", str(trained_cnn_dir), "--no-progress"]) == 1
        err = capsys.readouterr().err
        assert f"[NEG-E500] {inp}:2: bad record: " in err and "Traceback" not in err and not out.exists()


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".spacy"])
def test_odd_records_are_skipped_and_reported_in_every_output_format(trained_cnn_dir, tmp_path, capsys, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(ODD_JSONL) + b"\n")
    out = tmp_path / f"out{suffix}"
    with pytest.warns(UserWarning) as caught:
        assert main(["annotate", str(inp), str(out), "--model", str(trained_cnn_dir), "--no-progress",
                     "--on-error", "skip", "--shard-size", "2"]) == 0
    warned = [str(w.message) for w in caught if "[NEG-W500]" in str(w.message)]
    assert [m.split(": bad record")[0].rsplit(":", 1)[1] for m in warned] == ["2", "3", "4", "5"]
    assert "lone surrogate" in warned[0] and "lone surrogate" in warned[1]
    assert "nested too deeply" in warned[2] and "4300 digits" in warned[3]
    assert "wrote 2 documents" in capsys.readouterr().err
    ids = read_output_ids(out, suffix[1:])
    assert ids == ([1, 6] if suffix != ".parquet" else ["1", "6"])


@pytest.mark.parametrize("address", ["10.255.255.1:6379", None])
def test_a_failed_ray_connection_is_a_coded_error_with_the_address(tmp_path, monkeypatch, capsys, address):
    """ray.init failing (no cluster at the address, or no local cluster can start) stops
    with E521 naming the address; nothing is left behind."""
    from types import SimpleNamespace

    from spacy_negation.annotate import ray_engine

    def init(**kwargs):
        raise ConnectionError(f"Could not find any running Ray instance at {kwargs['address']}")

    fake_ray = SimpleNamespace(is_initialized=lambda: False, init=init)
    monkeypatch.setattr(ray_engine, "import_ray", lambda: fake_ray)
    inp = write_text(tmp_path / "in.txt", ["No."])
    out = tmp_path / "out.jsonl"
    argv = ["annotate", str(inp), str(out), "--model", "no-model", "--engine", "ray", "--no-progress"]
    assert main(argv + (["--address", address] if address else [])) == 1
    err = capsys.readouterr().err
    where = f"--address {address}" if address else "a local cluster"
    assert f"[NEG-E521] Ray cannot join or start the cluster ({where}): Could not find" in err
    assert "Traceback" not in err and sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]
