"""The full negation pipelines of the test configs: a shared CNN tok2vec and a shared
tiny random transformer, each with negation_cue and negation_scope listening to it."""
import shutil
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_negation import set_negations

from util import (
    CNN_TINY, TRF_TINY, gold_sentences, load_test_nlp, make_examples, negation_key, overfit,
)


def _trf_nlp(backbone):
    return load_test_nlp(TRF_TINY, {"components.transformer.model.name": str(backbone)})


def _two_sentence_doc(nlp):
    doc = nlp.make_doc("He was unhappy. No one came to the party.")
    for token in doc:
        token.is_sent_start = token.i in (0, 4)
    return doc


def test_cnn_pipeline_overfits_and_round_trips(trained_cnn_dir, tmp_path):
    nlp = spacy.load(trained_cnn_dir)
    assert nlp.pipe_names == ["tok2vec", "negation_cue", "negation_scope"]
    texts = [" ".join(w) for w, _ in gold_sentences()]
    expected = [negation_key(d) for d in nlp.pipe(texts)]
    nlp2 = load_test_nlp(CNN_TINY).from_bytes(nlp.to_bytes())
    assert [negation_key(d) for d in nlp2.pipe(texts)] == expected
    nlp.to_disk(tmp_path / "again")
    assert [negation_key(d) for d in spacy.load(tmp_path / "again").pipe(texts)] == expected


def test_cnn_pipeline_robustness(trained_cnn_dir):
    nlp = spacy.load(trained_cnn_dir)
    docs = list(nlp.pipe(["", " ", "\n\nHe was  unhappy.\n", "No", "I think not"]))
    assert [len(d._.negations) for d in docs] == [0, 0, 1, 1, 1]
    assert docs[2]._.negations[0].scope_text == "He was happy"
    assert docs[3]._.negations[0].cue_text == "No"  # a one-token doc, cue at its first token
    assert docs[4]._.negations[0].cue_tokens[0].i == 2  # cue at the last token
    # sentences: each negation's scope stays inside its own sentence
    doc = nlp(_two_sentence_doc(nlp))
    negs = doc._.negations
    assert [n.cue_text for n in negs] == ["un", "No"]
    assert negs[0].scope_text == "He was happy"
    assert negs[1].scope_text == "one came to the party"
    assert all(p.i >= 4 for p in negs[1].scope)


@pytest.fixture(scope="module")
def trained_trf(tiny_bert_dir, tmp_path_factory):
    """A tiny-transformer negation pipeline trained on the gold sentences; the backbone
    folder is a copy that is deleted after saving (loading must not need it)."""
    backbone = tmp_path_factory.mktemp("backbone") / "tiny_bert"
    shutil.copytree(tiny_bert_dir, backbone)
    nlp = _trf_nlp(backbone)
    examples = make_examples(nlp)
    n_iter = overfit(nlp, examples, max_iter=100, learn_rate=0.001)
    out = tmp_path_factory.mktemp("negation_trf") / "model"
    nlp.to_disk(out)
    shutil.rmtree(backbone)
    return nlp, out, n_iter


def test_trf_pipeline_overfits(trained_trf):
    nlp, _, n_iter = trained_trf
    assert n_iter <= 100, "the tiny transformer pipeline did not learn the gold sentences"
    assert nlp.pipe_names == ["transformer", "negation_cue", "negation_scope"]
    assert len(nlp.get_pipe("transformer").listeners) == 2


def test_trf_pipeline_round_trips_without_backbone_folder(trained_trf):
    nlp, path, _ = trained_trf
    texts = [" ".join(w) for w, _ in gold_sentences()]
    expected = [negation_key(d) for d in nlp.pipe(texts)]
    loaded = spacy.load(path)
    assert [negation_key(d) for d in loaded.pipe(texts)] == expected


def test_trf_one_pass_per_sentence_and_long_sentences(trained_trf):
    nlp, _, _ = trained_trf
    doc = nlp(_two_sentence_doc(nlp))
    assert doc._.trf_data.wordpieces.input_ids.shape[0] == 2  # one sequence per sentence
    assert [n.cue_text for n in doc._.negations] == ["un", "No"]
    # a 700-token sentence (> 512 word pieces): every token still gets word pieces
    words = (["He", "was", "unhappy", "and"] * 175)[:700]
    long_doc = nlp(Doc(nlp.vocab, words=words))
    lengths = long_doc._.trf_data.align.lengths
    assert len(lengths) == 700 and int(numpy.min(lengths)) > 0
    assert long_doc._.trf_data.wordpieces.input_ids.shape[1] <= 512
    assert len(long_doc._.negations) > 0
    assert max(p.i for n in long_doc._.negations for p in n.cue) > 600
    # empty docs, whitespace and no sentence boundaries
    docs = list(nlp.pipe(["", "  ", "He was unhappy .", "I think not"]))
    assert [len(d._.negations) for d in docs] == [0, 0, 1, 1]


def test_trf_is_fine_tuned(tiny_bert_dir):
    nlp = _trf_nlp(tiny_bert_dir)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.001
    nlp.update(examples, sgd=optimizer)  # the output layers start at zero
    trf = nlp.get_pipe("transformer").model.transformer
    before = {k: v.detach().clone() for k, v in trf.state_dict().items()}
    nlp.update(examples, sgd=optimizer)
    after = trf.state_dict()
    assert any(not (before[k] == after[k]).all() for k in before)


def test_trf_model_in_a_host_pipeline_with_two_processes(trained_trf):
    _, path, _ = trained_trf
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(path)})
    texts = ["He was unhappy. No one came to the party.", "Neither he nor she came.", ""] * 2
    expected = [negation_key(d) for d in host.pipe(texts)]
    assert expected[0] and expected[1]
    assert [negation_key(d) for d in host.pipe(texts, n_process=2, batch_size=2)] == expected


def test_ensemble_of_a_model_with_itself_is_the_model(trained_trf, trained_cnn_dir):
    from spacy_negation.analysis import ensemble

    _, path, _ = trained_trf
    first, second = spacy.load(path), spacy.load(path)
    ensemble.check_compatible([first, second])
    texts = [" ".join(w) for w, _ in gold_sentences()] + ["He was unhappy. No one came to the party.", ""]
    expected = [negation_key(d) for d in first.pipe(texts)]
    assert any(expected)
    docs = [first.make_doc(t) for t in texts]
    ensemble.annotate([first, second], docs, gold_cues=False)
    assert [negation_key(d) for d in docs] == expected
    # scope resolution on given cues: the cues stay, the scopes are the model's
    with_cues = []
    for text in texts:
        doc = first.make_doc(text)
        set_negations(doc, [{"cue": list(n.cue)} for n in first(text)._.negations])
        with_cues.append(doc)
    ensemble.annotate([first, second], with_cues, gold_cues=True)
    assert [negation_key(d) for d in with_cues] == expected
    with pytest.raises(ValueError, match=r"\[NEG-E744\].*'transformer'"):
        ensemble.check_compatible([first, spacy.load(trained_cnn_dir)])
    with pytest.raises(ValueError, match=r"\[NEG-E746\]"):
        ensemble.check_compatible([first])


def _run_ablation(*args):
    script = Path(__file__).resolve().parents[2] / "scripts" / "ablate_decoding.py"
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True)


def test_ablate_decoding_rows(trained_cnn_dir, tmp_path):
    nlp = spacy.load(trained_cnn_dir)
    gold = tmp_path / "gold.spacy"
    DocBin(docs=[eg.reference for eg in make_examples(nlp)]).to_disk(gold)
    proc = _run_ablation(trained_cnn_dir, gold)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and "decoding" not in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| as configured", "| affix_over_whole = False", "| affix_threshold = None",
        "| multiword_cues = False", "| split_at_other_cues = False"]
    # the model learned the gold sentences: Cues-B F1 100 as configured
    assert rows[0].split(" | ")[1] == "100.00"
    proc = _run_ablation(trained_cnn_dir, gold, "--set", "negation_cue.multiword_min_precision=1.0",
                         "--set", "negation_cue.multiword_cues=false")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and "decoding" not in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| as configured", "| multiword_min_precision = 1.0", "| multiword_cues = False"]


def test_ablate_decoding_lists_only_the_settings_that_are_on(trained_cnn_dir, tmp_path):
    nlp = spacy.load(trained_cnn_dir, config={"components.negation_scope.decoder.contiguous": True,
                                              "components.negation_scope.decoder.split_at_other_cues": False})
    nlp.to_disk(tmp_path / "model")
    gold = tmp_path / "gold.spacy"
    DocBin(docs=[eg.reference for eg in make_examples(nlp)]).to_disk(gold)
    proc = _run_ablation(tmp_path / "model", gold)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and "decoding" not in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| as configured", "| affix_over_whole = False", "| affix_threshold = None",
        "| multiword_cues = False", "| contiguous = False"]


@pytest.mark.parametrize("bad", ["multiword_min_precision=0.6", "negation_cue.x", "negation_cue.x=not-json"])
def test_ablate_decoding_bad_setting(trained_cnn_dir, tmp_path, bad):
    proc = _run_ablation(trained_cnn_dir, tmp_path / "gold.spacy", "--set", bad)
    assert proc.returncode == 2 and "--set" in proc.stderr
