"""The torch threads of ``annotate`` (spacy_negation.annotate.threads): the number follows
``--threads``, else OMP_NUM_THREADS (checked), and worker processes get it."""
import os
from typing import List

import pytest

from spacy_negation.annotate.threads import ChildThreads, resolve_threads

from util import annotate_quietly, corpus_texts, write_text


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
    summary = annotate_quietly(inp, tmp_path / "out.jsonl", str(trained_cnn_dir),
                               on_shard=lambda r: seen.append(torch.get_num_threads()))
    assert seen == [2] and summary.threads == 2 and torch.get_num_threads() == before
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    with pytest.raises(ValueError, match=r"\[NEG-E950\]"):
        annotate_quietly(inp, tmp_path / "o.jsonl", str(trained_cnn_dir))
