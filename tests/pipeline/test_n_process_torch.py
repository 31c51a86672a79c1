"""``nlp.pipe(texts, n_process=2)`` with a transformer or CNN negation pipeline (both
have a torch BiLSTM) finishes.

Each case runs in a fresh interpreter (the test session itself runs torch with one
thread, which hides the deadlock) under a timeout, so a regression fails instead of
hanging: without the package's at-fork hook the forked workers wait forever in torch's
OpenMP thread pool.
"""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from util import TRF_TINY, load_test_nlp, make_examples

TIMEOUT = 120

SCRIPT = r"""
import sys

import spacy
import torch

torch.set_num_threads(2)  # a multi-threaded pool in the parent, on any machine
mode, path = sys.argv[1], sys.argv[2]
if mode == "load":
    nlp = spacy.load(path)
else:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": path})

def key(doc):
    return [(n.cue, n.scope, n.event) for n in doc._.negations]

texts = ["I did not see it.", "He was unhappy. No one came.", ""] * 2
expected = [key(doc) for doc in nlp.pipe(texts)]
got = [key(doc) for doc in nlp.pipe(texts, n_process=2, batch_size=2)]
assert got == expected, (got, expected)
print("docs", len(got))
"""


@pytest.fixture(scope="module")
def tiny_trf_model(tiny_bert_dir, tmp_path_factory) -> Path:
    """A tiny random transformer negation pipeline, initialized (not trained) on the
    gold sentences and saved to disk."""
    nlp = load_test_nlp(TRF_TINY, {"components.transformer.model.name": str(tiny_bert_dir)})
    nlp.initialize(lambda: make_examples(nlp))
    out = tmp_path_factory.mktemp("negation_trf_init") / "model"
    nlp.to_disk(out)
    return out


def _run(mode: str, model: Path) -> str:
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, mode, str(model)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # the workers too are killed on timeout
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"nlp.pipe(n_process=2) with {model} ({mode}) did not finish "
                    f"in {TIMEOUT} s: deadlock in the forked workers")
    assert proc.returncode == 0, err
    return out


@pytest.mark.parametrize("mode", ["load", "add_pipe"])
def test_n_process_2_with_a_transformer_model_finishes(tiny_trf_model, mode):
    assert _run(mode, tiny_trf_model).split() == ["docs", "6"]


@pytest.mark.parametrize("mode", ["load", "add_pipe"])
def test_n_process_2_with_a_cnn_model_finishes(trained_cnn_dir, mode):
    """The CNN pipelines' scope BiLSTM is torch too: the hook is there without a
    transformer."""
    assert _run(mode, trained_cnn_dir).split() == ["docs", "6"]


def test_a_forked_child_runs_torch_with_one_thread():
    torch = pytest.importorskip("torch")
    from spacy_negation.ml.fork import register_fork_hook

    register_fork_hook()
    n = torch.get_num_threads()
    torch.set_num_threads(2)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report and leave at once
        os.write(write, str(torch.get_num_threads()).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    value = os.read(read, 16)
    os.close(read)
    torch.set_num_threads(n)
    assert value == b"1" and torch.get_num_threads() == n
