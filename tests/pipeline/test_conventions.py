"""Annotation conventions: a doc's convention mark, components that learn from and
annotate only docs of their convention, and the `negation` resolver's `convention`."""
import copy
import pickle
from typing import Dict, List, Tuple

import numpy
import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from util import CNN_TINY, gold_sentences, load_test_nlp, make_reference, negation_key
from spacy_negation.negation import CONVENTION_KEY, get_convention, set_convention


def test_convention_mark_round_trips_and_rejects_bad_values() -> None:
    nlp = spacy.blank("en")
    doc = nlp("No fever .")
    assert get_convention(doc) is None
    set_convention(doc, "bioscope")
    assert get_convention(doc) == "bioscope"
    assert doc.user_data[CONVENTION_KEY] == "bioscope"
    data = DocBin(store_user_data=True, docs=[doc]).to_bytes()
    (restored,) = DocBin().from_bytes(data).get_docs(nlp.vocab)
    assert get_convention(restored) == "bioscope"
    assert get_convention(pickle.loads(pickle.dumps(doc))) == "bioscope"
    assert get_convention(doc.copy()) == "bioscope"
    set_convention(doc, None)
    assert get_convention(doc) is None
    for bad in ("", 3):
        with pytest.raises(ValueError, match=r"\[NEG-E900\]"):
            set_convention(doc, bad)  # type: ignore[arg-type]


def _without_subjects(negations: List[Dict[str, List[Tuple[int, int, int]]]]) -> List[Dict]:
    """A second convention for the tests: the same cues, scopes without the first token
    (the subject in the synthetic sentences), no events."""
    return [{"cue": n["cue"], "scope": [p for p in n["scope"] if p[0] != 0], "event": []} for n in negations]


def _two_convention_nlp():
    """The tiny CNN pipeline with a second cue and scope component for convention "sfu";
    the first pair has convention "bioscope" and annotates unmarked docs."""
    nlp = load_test_nlp(CNN_TINY, overrides={
        "components.negation_cue.convention": "bioscope", "components.negation_scope.convention": "bioscope",
    })
    for name in ("negation_cue", "negation_scope"):
        config = copy.deepcopy(dict(nlp.config["components"][name]))
        factory = config.pop("factory")
        config.update({"convention": "sfu", "annotate_unmarked": False, "scorer": None})
        nlp.add_pipe(factory, name=f"{name}_sfu", config=config)
    return nlp


def _examples(nlp, convention: str) -> List[Example]:
    out = []
    for words, negations in gold_sentences():
        ref = make_reference(nlp.vocab, words, negations if convention == "bioscope" else _without_subjects(negations))
        set_convention(ref, convention)
        pred = nlp.make_doc(ref.text)
        set_convention(pred, convention)
        out.append(Example(pred, ref))
    return out


def test_components_learn_only_from_their_convention() -> None:
    nlp = _two_convention_nlp()
    examples_bioscope = _examples(nlp, "bioscope")
    optimizer = nlp.initialize(lambda: examples_bioscope + _examples(nlp, "sfu"))
    cue_sfu = nlp.get_pipe("negation_cue_sfu")
    scope_sfu = nlp.get_pipe("negation_scope_sfu")
    before = {name: nlp.get_pipe(name).model.get_ref("output_layer").get_param("W").copy()
              for name in ("negation_cue", "negation_cue_sfu", "negation_scope", "negation_scope_sfu")}
    losses = nlp.update(examples_bioscope, sgd=optimizer)
    assert losses["negation_cue"] > 0 and losses["negation_scope"] > 0
    assert losses["negation_cue_sfu"] == 0 and losses["negation_scope_sfu"] == 0
    for name, W in before.items():
        changed = not numpy.array_equal(W, nlp.get_pipe(name).model.get_ref("output_layer").get_param("W"))
        assert changed == (not name.endswith("_sfu")), name
    assert cue_sfu.learns_from(examples_bioscope[0]) is False and scope_sfu.learns_from(examples_bioscope[0]) is False


def test_initialize_without_examples_of_the_convention_fails() -> None:
    nlp = _two_convention_nlp()
    with pytest.raises(ValueError, match=r"\[NEG-E301\]"):
        nlp.initialize(lambda: _examples(nlp, "bioscope"))


def test_each_convention_is_learned_and_marks_choose_the_components(tmp_path) -> None:
    nlp = _two_convention_nlp()
    examples = _examples(nlp, "bioscope") + _examples(nlp, "sfu")
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.01
    texts = [eg.reference.text for eg in examples]
    marks = [get_convention(eg.reference) for eg in examples]
    gold = [negation_key(eg.reference) for eg in examples]

    def predict(model) -> List:
        docs = [model.make_doc(text) for text in texts]
        for doc, mark in zip(docs, marks):
            set_convention(doc, mark)
        return [negation_key(doc) for doc in model.pipe(docs)]

    for it in range(300):
        for batch in spacy.util.minibatch(examples, 4):
            nlp.update(batch, sgd=optimizer)
        if it % 10 == 9 and predict(nlp) == gold:
            break
    assert predict(nlp) == gold
    # the two conventions really differ on these texts (the check above can fail)
    assert gold[: len(gold) // 2] != gold[len(gold) // 2 :]
    # unmarked docs: the components of convention "bioscope" (annotate_unmarked)
    unmarked = [negation_key(doc) for doc in nlp.pipe(texts[: len(texts) // 2])]
    assert unmarked == gold[: len(gold) // 2]
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert loaded.get_pipe("negation_cue_sfu").convention == "sfu"
    assert loaded.get_pipe("negation_scope_sfu").annotate_unmarked is False
    assert predict(loaded) == gold

    # the resolver for any pipeline: convention "sfu" on request, "bioscope" by default, E901 else
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(tmp_path / "model"), "convention": "sfu"})
    default = spacy.blank("en")
    default.add_pipe("negation", config={"model": str(tmp_path / "model")})
    half = len(texts) // 2
    # only the components that annotate the resolver's docs run
    assert host.get_pipe("negation").negation_nlp.disabled == ["negation_cue", "negation_scope"]
    assert default.get_pipe("negation").negation_nlp.disabled == ["negation_cue_sfu", "negation_scope_sfu"]
    assert [negation_key(d) for d in host.pipe(texts[half:])] == gold[half:]
    assert [negation_key(d) for d in default.pipe(texts[:half])] == gold[:half]
    with pytest.raises(ValueError, match=r"\[NEG-E901\]"):
        spacy.blank("en").add_pipe("negation", config={"model": str(tmp_path / "model"), "convention": "cdsco"})
    assert default.get_pipe("negation").conventions == host.get_pipe("negation").conventions == ["bioscope", "sfu"]
    # the challenge set runs such a model in a host in the convention it checks
    from spacy_negation.challenge import load_pipeline

    hosted = load_pipeline(str(tmp_path / "model"), host="blank:en", convention="sfu")
    assert hosted.get_pipe("negation").convention == "sfu"
    assert [negation_key(d) for d in hosted.pipe(texts[half:])] == gold[half:]
    # scripts/model_card.py: the card of a per-convention pipeline, and a copy whose unmarked
    # docs go to the "sfu" components
    import json
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    scores = {"scores": {k: 0.8 for k in ("neg_cue_b_f", "neg_nis_ex_f", "neg_st_f", "neg_nis_tok_f")}}
    (tmp_path / "scores.json").write_text(json.dumps(scores))
    card = [sys.executable, str(repo / "scripts" / "model_card.py"), str(tmp_path / "model"), "--domain", "general",
            "--name", "negation_general", "--version", "0.1.0", "--scores", f"sfu={tmp_path / 'scores.json'}",
            "--out", str(tmp_path / "meta.json")]
    proc = subprocess.run(card, capture_output=True, text=True)
    assert proc.returncode == 1 and "--default-convention" in proc.stderr
    proc = subprocess.run(card + ["--default-convention", "sfu", "--model-out", str(tmp_path / "copy")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = json.loads((tmp_path / "meta.json").read_text())["description"]
    assert "By default it annotates in the SFU Review convention" in text
    assert "| SFU Review | 80.00 | 80.00 | 80.00 | 80.00 |" in text
    copy = spacy.blank("en")
    copy.add_pipe("negation", config={"model": str(tmp_path / "copy")})
    assert [negation_key(d) for d in copy.pipe(texts[half:])] == gold[half:]
    doc = host(texts[-1])
    assert get_convention(doc) is None  # the host doc is not marked
    assert pickle.loads(pickle.dumps(host.get_pipe("negation"))).convention == "sfu"


def test_single_convention_model_rejects_a_convention(trained_cnn_dir) -> None:
    with pytest.raises(ValueError, match=r"\[NEG-E901\]"):
        spacy.blank("en").add_pipe("negation", config={"model": str(trained_cnn_dir), "convention": "cdsco"})


def test_training_reader_keeps_the_mark(tmp_path) -> None:
    from spacy_negation.ml.training_corpus import SentenceCorpus

    nlp = spacy.blank("en")
    words, negations = gold_sentences()[0]
    doc = make_reference(nlp.vocab, words, negations)
    set_convention(doc, "cdsco")
    DocBin(store_user_data=True, docs=[doc]).to_disk(tmp_path / "train.spacy")
    (eg,) = list(SentenceCorpus(tmp_path / "train.spacy")(nlp))
    assert get_convention(eg.reference) == "cdsco" and get_convention(eg.predicted) == "cdsco"
