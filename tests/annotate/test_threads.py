"""The torch threads of ``annotate`` (spacy_negation.annotate.threads): the number follows
``--threads``, else OMP_NUM_THREADS (checked), and worker processes get it; the worker
processes of ``--n-process`` do not hang after this process ran torch with several threads."""
import os
import signal
import subprocess
import sys
from typing import List

import pytest

from spacy_negation.annotate.core import ShardDone
from spacy_negation.annotate.threads import resolve_threads

from util import annotate_quietly, corpus_texts, read_jsonl, write_text


def test_threads_respect_omp_num_threads(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert resolve_threads(None) == 1 and resolve_threads(3) == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert resolve_threads(None) == 2 and resolve_threads(1) == 1
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("OMP_NUM_THREADS", bad)
        with pytest.raises(ValueError, match=r"\[NEG-E950\]"):
            resolve_threads(None)
    with pytest.raises(ValueError, match=r"\[NEG-E971\] --threads must be a whole number from 1 to 256"):
        resolve_threads(0)


def test_worker_processes_get_the_thread_count(trained_cnn_dir, tmp_path, monkeypatch):
    import torch

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    inp = write_text(tmp_path / "in.txt", corpus_texts(8))
    results: List[ShardDone] = []
    summary = annotate_quietly(inp, tmp_path / "out.jsonl", str(trained_cnn_dir), shard_size=2,
                               n_process=2, threads=2, on_shard=results.append)
    assert summary.threads == 2 and [r.threads for r in results] == [2, 2, 2, 2]
    assert os.getpid() not in {r.pid for r in results}  # the workers annotate, not this process
    assert "OMP_NUM_THREADS" not in os.environ and torch.get_num_threads() >= 1


WORKERS_AFTER_THREADS = """
from spacy_negation.annotate import annotate

if __name__ == "__main__":
    kwargs = dict(shard_size=3, progress=False)
    annotate("in.txt", "one.jsonl", {model!r}, **kwargs)  # torch runs here with 2 threads
    annotate("in.txt", "two.jsonl", {model!r}, n_process=2, **kwargs)
    assert open("one.jsonl").read() == open("two.jsonl").read()
"""


def test_worker_processes_do_not_hang_after_this_process_ran_torch_threads(trained_cnn_dir,
                                                                            tmp_path):
    """Worker processes forked after torch used 2 OpenMP threads hung in GNU OpenMP; the
    workers are spawned."""
    write_text(tmp_path / "in.txt", corpus_texts(12))
    script = tmp_path / "run.py"
    script.write_text(WORKERS_AFTER_THREADS.format(model=str(trained_cnn_dir)), encoding="utf8")
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_worker_process_that_dies_is_a_coded_error_and_the_run_resumes(trained_cnn_dir, tmp_path,
                                                                         monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    inp = write_text(tmp_path / "in.txt", corpus_texts(40))
    out = tmp_path / "out.jsonl"
    killed: List[int] = []

    def kill_first(result: ShardDone) -> None:
        if not killed:
            killed.append(result.pid)
            os.kill(result.pid, signal.SIGKILL)

    with pytest.raises(RuntimeError, match=r"\[NEG-E513\] A worker process failed on shard \d+ "
                                           r"\(records \d+-\d+\): .*run the command again to resume"):
        annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=2, n_process=2, on_shard=kill_first)
    assert not out.exists() and (tmp_path / "out.jsonl.shards").is_dir()  # finished shards kept
    summary = annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=2, n_process=2)
    assert summary.resumed >= 1 and [r["id"] for r in read_jsonl(out)] == list(range(1, 41))


def test_a_model_that_does_not_load_in_the_workers_is_its_own_error(tmp_path, monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    inp = write_text(tmp_path / "in.txt", corpus_texts(4))
    with pytest.raises(OSError, match=r"\[NEG-E320\] Cannot load the negation model"):
        annotate_quietly(inp, tmp_path / "out.jsonl", str(tmp_path / "no-model"), shard_size=2,
                         n_process=2)
    assert not (tmp_path / "out.jsonl").exists() and not (tmp_path / "out.jsonl.shards").exists()


def test_annotate_uses_omp_num_threads(trained_cnn_dir, tmp_path, monkeypatch):
    import torch

    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    inp = write_text(tmp_path / "in.txt", corpus_texts(2))
    seen: List[int] = []
    before = torch.get_num_threads()
    summary = annotate_quietly(inp, tmp_path / "out.jsonl", str(trained_cnn_dir),
                               on_shard=lambda r: seen.append(torch.get_num_threads()))
    assert seen == [2] and summary.threads == 2 and torch.get_num_threads() == before
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    with pytest.raises(ValueError, match=r"\[NEG-E950\]"):
        annotate_quietly(inp, tmp_path / "o.jsonl", str(trained_cnn_dir))
