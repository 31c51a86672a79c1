"""nlp.add_pipe("negation"): a trained negation pipeline inside a host pipeline."""
import pickle
import warnings

import pytest
import spacy

from spacy_negation.pipeline import model_loading
from spacy_negation.pipeline.model_loading import DEFAULT_MODEL, DEFAULT_MODELS, MODEL_WORKFLOWS
from spacy_negation.pipeline.negation import NegationResolver

from util import negation_key

TEXTS = ["He was unhappy. No one came to the party.", "The dog barked loudly.", "",
         "Neither he nor she came.", "I think not"]


@pytest.fixture
def host(trained_cnn_dir):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "EVENT", "pattern": "the party"},
                        {"label": "ANIMAL", "pattern": "The dog"}])
    nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    return nlp


def test_host_pipeline_gets_negations_on_its_own_tokens(host):
    doc = host(TEXTS[0])
    negs = doc._.negations
    assert [n.cue_text for n in negs] == ["un", "No"]
    assert negs[0].scope_text == "He was happy"
    assert negs[1].scope_text == "one came to the party"  # the sentencizer fallback
    assert not doc.has_annotation("SENT_START")  # the host doc is not segmented
    assert all(n.doc is doc for n in negs)
    (party,) = [e for e in doc.ents if e.label_ == "EVENT"]
    assert party._.negated and party._.negations[0].cue_text == "No"
    dog = host(TEXTS[1])
    assert dog._.negations == [] and not dog.ents[0]._.negated
    assert host("")._.negations == []


def test_host_sentence_boundaries_are_copied(trained_cnn_dir):
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    resolver = nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    doc = nlp.make_doc("He came. He was unhappy.")
    doc = nlp.get_pipe("sentencizer")(doc)
    for token in doc:  # an unusual segmentation the fallback would not make
        token.is_sent_start = token.i in (0, 2)
    model_doc = resolver.model_doc(doc)
    assert [t.is_sent_start for t in model_doc] == [t.is_sent_start for t in doc]
    assert model_doc.vocab is resolver.negation_nlp.vocab
    doc = nlp("He was unhappy. No one came to the party.")
    assert [n.cue_text for n in doc._.negations] == ["un", "No"]


def test_multiprocessing_and_serialization(host, tmp_path):
    expected = [negation_key(d) for d in host.pipe(TEXTS)]
    assert expected[0] and expected[3]
    assert [negation_key(d) for d in host.pipe(TEXTS, n_process=2, batch_size=2)] == expected
    host.to_disk(tmp_path / "host")
    loaded = spacy.load(tmp_path / "host")
    assert loaded.pipe_names == ["entity_ruler", "negation"]
    assert [negation_key(d) for d in loaded.pipe(TEXTS)] == expected
    resolver = pickle.loads(pickle.dumps(host.get_pipe("negation")))
    assert isinstance(resolver, NegationResolver)
    assert negation_key(resolver(host.make_doc(TEXTS[3]))) == expected[3]


def test_overfitting_IO(trained_cnn_dir, tmp_path):
    """spaCy's overfitting/IO check for the host component: the negation pipeline trained
    until it predicts the gold sentences (the fixture) gives them in a host pipeline, and
    the host's bytes and disk round trips predict the same."""
    from spacy.util import load_model_from_config

    from util import make_examples

    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    examples = make_examples(host)
    texts = [eg.reference.text for eg in examples]
    gold = [negation_key(eg.reference) for eg in examples]
    assert any(gold) and [negation_key(d) for d in host.pipe(texts)] == gold
    from_bytes = load_model_from_config(host.config).from_bytes(host.to_bytes())
    assert [negation_key(d) for d in from_bytes.pipe(texts)] == gold
    host.to_disk(tmp_path / "host")
    from_disk = load_model_from_config(host.config).from_disk(tmp_path / "host")
    assert [negation_key(d) for d in from_disk.pipe(texts)] == gold


def test_missing_or_wrong_model(tmp_path):
    nlp = spacy.blank("en")
    with pytest.raises(OSError, match=r"\[NEG-E320\].*spacy project run all"):
        nlp.add_pipe("negation", config={"model": str(tmp_path / "no_such_model")})
    if not spacy.util.is_package(DEFAULT_MODEL):
        with pytest.raises(OSError, match=r"\[NEG-E320\].*make project.*builds and installs it"):
            spacy.blank("en").add_pipe("negation")
    if not spacy.util.is_package("en_negation_cdsco"):
        with pytest.raises(OSError, match=r"\[NEG-E320\].*spacy project run cdsco"):
            spacy.blank("en").add_pipe("negation", config={"model": "en_negation_cdsco"})
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(ValueError, match=r"\[NEG-E321\]"):
        nlp.add_pipe("negation", config={"model": str(tmp_path / "blank")})


@pytest.fixture(scope="module")
def tiny_nb_dir(tmp_path_factory):
    """A tiny Norwegian negation pipeline (initialized, not trained)."""
    from util import CNN_TINY, load_test_nlp, make_examples

    nlp = load_test_nlp(CNN_TINY, {"nlp.lang": "nb"})
    nlp.initialize(lambda: make_examples(nlp))
    out = tmp_path_factory.mktemp("nb_model") / "model"
    nlp.to_disk(out)
    return out


def test_the_default_model_is_that_of_the_host_language(tiny_nb_dir, tmp_path, monkeypatch):
    assert DEFAULT_MODELS == {"en": "en_negation_general", "nb": "nb_negation_norec", "es": "es_negation_clinical"}
    assert DEFAULT_MODELS["en"] == DEFAULT_MODEL
    assert MODEL_WORKFLOWS["nb_negation_norec"] == "`spacy project run norec`"
    assert MODEL_WORKFLOWS["es_negation_clinical"] == "`spacy project run nubes`"
    assert "es_negation_sfu" in MODEL_WORKFLOWS  # the Spanish reviews model stays available by name
    monkeypatch.setitem(model_loading.DEFAULT_MODELS, "nb", str(tiny_nb_dir))
    host = spacy.blank("nb")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no W301: the default model is of the host's language
        resolver = host.add_pipe("negation")
    assert resolver.model_ref == str(tiny_nb_dir) and resolver.negation_nlp.lang == "nb"
    assert host.config["components"]["negation"]["model"] is None  # stored as "the default of nlp.lang"
    host("Han var ikke glad.")
    host.to_disk(tmp_path / "host")
    assert spacy.load(tmp_path / "host").get_pipe("negation").model_ref == str(tiny_nb_dir)
    assert pickle.loads(pickle.dumps(resolver)).model_ref == str(tiny_nb_dir)


@pytest.mark.parametrize("lang,workflow", [("nb", "spacy project run norec"), ("es", "spacy project run nubes")])
def test_a_missing_default_model_names_its_workflow(lang, workflow):
    if spacy.util.is_package(DEFAULT_MODELS[lang]):
        pytest.skip(f"{DEFAULT_MODELS[lang]} is installed")
    with pytest.raises(OSError, match=rf"\[NEG-E320\].*{DEFAULT_MODELS[lang]}.*{workflow}"):
        spacy.blank(lang).add_pipe("negation")


def test_a_language_without_a_default_model():
    with pytest.raises(ValueError, match=r"\[NEG-E323\].*'de'.*'en' \(en_negation_general\).*'es'.*'nb'"):
        spacy.blank("de").add_pipe("negation")


def test_relative_model_path_warns(trained_cnn_dir, monkeypatch):
    monkeypatch.chdir(trained_cnn_dir.parent)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spacy.blank("en").add_pipe("negation", config={"model": trained_cnn_dir.name})
    assert any("[NEG-W300]" in str(w.message) for w in caught)


SPANISH = [
    (["No", "me", "gusta", "el", "libro", "."], [{"cue": [0], "scope": [1, 2, 3, 4]}]),
    (["El", "hotel", "no", "tiene", "nada", "."], [{"cue": [2, 4], "scope": [1, 3]}]),
    (["Es", "un", "buen", "coche", "."], []),
    (["Nunca", "compraré", "otro", "."], [{"cue": [0], "scope": [1, 2]}]),
]


def test_spanish_pipeline_in_a_blank_spanish_host(tmp_path):
    from spacy.training import Example

    from util import CNN_TINY, load_test_nlp, make_reference, overfit

    nlp = load_test_nlp(CNN_TINY, {"nlp.lang": "es"})
    examples = []
    for words, negs in SPANISH:
        spec = [{role: [(i, 0, len(words[i])) for i in idx] for role, idx in neg.items()} for neg in negs]
        ref = make_reference(nlp.vocab, words, spec)
        examples.append(Example(nlp.make_doc(ref.text), ref))
    assert overfit(nlp, examples, max_iter=150, learn_rate=0.01) <= 150
    nlp.to_disk(tmp_path / "es_model")
    host = spacy.blank("es")
    host.add_pipe("negation", config={"model": str(tmp_path / "es_model")})
    doc = host("El hotel no tiene nada.")
    assert [n.cue_text for n in doc._.negations] == ["no nada"]
    assert doc._.negations[0].scope_text == "hotel tiene"
    assert host("Es un buen coche.")._.negations == []
    english_host = spacy.blank("en")
    with pytest.warns(UserWarning, match=r"\[NEG-W301\]"):
        english_host.add_pipe("negation", config={"model": str(tmp_path / "es_model")})


def test_nlp_evaluate_on_a_host_pipeline_reports_negation_scores(trained_cnn_dir):
    from spacy.training import Example

    from util import gold_sentences, make_reference

    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    refs = [make_reference(nlp.vocab, words, negs) for words, negs in gold_sentences()]
    examples = [Example(nlp.make_doc(ref.text), ref) for ref in refs]
    scores = nlp.evaluate(examples)
    # the tiny model knows these sentences
    assert scores["neg_nis_tok_f"] == 1.0 and scores["neg_cue_f"] == 1.0
    assert nlp.config["training"]["score_weights"]["neg_nis_tok_f"] == 1.0
    # a reference with no negation at all: the predictions are false positives
    empty = [Example(nlp.make_doc(ref.text), nlp.make_doc(ref.text)) for ref in refs]
    for eg in empty:
        eg.reference._.negations = []
    assert nlp.evaluate(empty)["neg_cue_p"] == 0.0
    assert pickle.loads(pickle.dumps(nlp.get_pipe("negation"))).scorer is not None


def test_span_negated_setting_marks_the_host_docs(trained_cnn_dir, tmp_path):
    from spacy.tokens import Span

    from spacy_negation.negation import get_span_rule

    text = "No one came to the party ."
    default = spacy.blank("en")
    default.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    doc = default(text)
    assert get_span_rule(doc) == "outside_all"
    # "No one": the cue lies inside the span: not negated by default, negated by the token view
    assert not Span(doc, 0, 2)._.negated and Span(doc, 5, 6)._.negated
    tokens = spacy.blank("en")
    tokens.add_pipe("negation", config={"model": str(trained_cnn_dir), "span_negated": "any"})
    doc = tokens(text)
    assert get_span_rule(doc) == "any" and Span(doc, 0, 2)._.negated
    tokens.to_disk(tmp_path / "host")
    assert spacy.load(tmp_path / "host").get_pipe("negation").span_negated == "any"
    assert pickle.loads(pickle.dumps(tokens.get_pipe("negation"))).span_negated == "any"
    with pytest.raises(ValueError, match=r"\[NEG-E331\]"):
        spacy.blank("en").add_pipe("negation", config={"model": str(trained_cnn_dir), "span_negated": "some"})


SPAWN_SCRIPT = r"""
import multiprocessing, os, pickle, sys
import torch

def child(blob, queue):
    pickle.loads(blob)
    queue.put(torch.get_num_threads())

if __name__ == "__main__":
    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": sys.argv[1]})
    blob = pickle.dumps(nlp.get_pipe("negation"))
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=child, args=(blob, queue))
    proc.start()
    print(queue.get(timeout=120))
    proc.join()
"""


@pytest.mark.parametrize("omp", [None, "2"])
def test_spawned_workers_run_torch_with_one_thread_unless_told(trained_cnn_dir, tmp_path, omp):
    import os
    import subprocess
    import sys

    script = tmp_path / "spawn.py"
    script.write_text(SPAWN_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    if omp is not None:
        env["OMP_NUM_THREADS"] = omp
    out = subprocess.run([sys.executable, str(script), str(trained_cnn_dir)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) == (1 if omp is None else 2)
