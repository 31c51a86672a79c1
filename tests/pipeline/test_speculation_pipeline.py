"""A tiny CNN pipeline resolving negation and speculation (negation_cue and negation_scope
with ``kinds = ["negation", "speculation"]``, ``spacy-negation.ScopeTagger.v2``): it learns
both kinds with their scopes, reports the ``spec_*`` scores, and the ``negation`` host
copies its speculations (``doc._.speculations``, ``ent._.uncertain``) through every path
(pickle, ``n_process=2``, ``to_disk``/``spacy.load``), or none with ``speculation=False``.
Negation-only pipelines (every model trained before the setting) load and run as before."""
import pickle
import shutil
from pathlib import Path

import pytest
import spacy
from spacy.training import Example

from spacy_negation import get_speculations

from util import CNN_TINY, REPO, gold_sentences, load_module, load_test_nlp, negation_key, overfit

#: Indices of hedge texts of every template (see ``hedge_sentences``).
SAMPLE = [0, 1, 2, 3, 4, 5, 6, 9, 16]


@pytest.fixture(scope="module")
def texts(hedge):
    sentences = hedge.sentences()
    nlp = spacy.blank("en")
    refs = [hedge.reference(nlp.vocab, *sentences[k]) for k in SAMPLE]
    return [ref.text for ref in refs] + ["", "The drug might help . There was no pain ."]


@pytest.fixture(scope="module")
def gold(hedge, texts):
    """Per text of ``texts``, the (negations, speculations) key of its reference."""
    sentences = hedge.sentences()
    nlp = spacy.blank("en")
    keys = [hedge.key(hedge.reference(nlp.vocab, *sentences[k])) for k in SAMPLE]
    return keys + [([], []), None]


def test_the_pipeline_learns_both_kinds_with_their_scopes(hedge_cnn_dir, hedge, texts, gold):
    nlp = spacy.load(hedge_cnn_dir)
    cue, scope = nlp.get_pipe("negation_cue"), nlp.get_pipe("negation_scope")
    assert cue.kinds == scope.kinds == ("negation", "speculation")
    assert nlp.config["components"]["negation_scope"]["model"]["@architectures"] == "spacy-negation.ScopeTagger.v2"
    docs = list(nlp.pipe(texts))
    assert [hedge.key(doc) for doc in docs[:-1]] == gold[:-1]
    might_not = docs[SAMPLE.index(4)]
    assert [(n.cue_text, n.scope_text) for n in might_not._.negations] == [("not", "The scan help")]
    assert [(s.cue_text, s.scope_text) for s in might_not._.speculations] == [("might", "The scan not help")]
    either = docs[SAMPLE.index(5)]
    assert [s.cue_text for s in either._.speculations] == ["either or"] and either._.negations == []
    two = docs[-1]  # two sentences (no boundaries: one window)
    assert [s.cue_text for s in two._.speculations] == ["might"] and [n.cue_text for n in two._.negations] == ["no"]
    # the scorers report both kinds
    examples = hedge.examples(nlp)
    scores = nlp.evaluate(examples)
    for key in ("neg_cue_f", "neg_nis_tok_f", "spec_cue_f", "spec_st_f", "spec_nis_tok_f", "spec_conll2010_f"):
        assert scores[key] == 1.0, key
    assert scores["spec_cue_per_type"]["multiword"]["f"] == 1.0
    # and a speculation it misses costs it recall
    spec_only = [Example(nlp.make_doc(eg.reference.text), eg.reference) for eg in examples]
    for eg in spec_only:
        eg.predicted._.speculations = []
    assert nlp.get_pipe("negation_cue").score(spec_only)["spec_cue_r"] == 0.0


def test_the_pipeline_round_trips(hedge_cnn_dir, hedge, texts):
    nlp = spacy.load(hedge_cnn_dir)
    expected = [hedge.key(doc) for doc in nlp.pipe(texts)]
    again = hedge.nlp().from_bytes(nlp.to_bytes())
    assert [hedge.key(doc) for doc in again.pipe(texts)] == expected


def test_switched_off_the_components_skip_speculation(hedge_cnn_dir, hedge, texts):
    nlp = spacy.load(hedge_cnn_dir)
    expected = [hedge.key(doc) for doc in nlp.pipe(texts)]
    for name in ("negation_cue", "negation_scope"):
        nlp.get_pipe(name).active_kinds = ["negation"]
    docs = list(nlp.pipe(texts))
    assert [hedge.key(doc)[0] for doc in docs] == [neg for neg, _ in expected]  # the same negations
    assert all("speculations" not in doc.spans for doc in docs)


def test_a_model_saved_before_the_setting_loads_as_before(trained_cnn_dir, tmp_path):
    """A negation pipeline whose config has no ``kinds`` (every model trained before it) loads
    with negation only and predicts as before; it writes no speculation."""
    old = tmp_path / "old"
    shutil.copytree(trained_cnn_dir, old)
    config = (old / "config.cfg").read_text(encoding="utf-8")
    assert 'kinds = ["negation"]' in config
    (old / "config.cfg").write_text(config.replace('kinds = ["negation"]\n', ""), encoding="utf-8")
    assert "kinds" not in (old / "config.cfg").read_text(encoding="utf-8")
    nlp, new = spacy.load(old), spacy.load(trained_cnn_dir)
    assert nlp.get_pipe("negation_cue").kinds == nlp.get_pipe("negation_scope").kinds == ("negation",)
    assert nlp.config["components"]["negation_scope"]["model"]["@architectures"] == "spacy-negation.ScopeTagger.v1"
    texts = [" ".join(words) for words, _ in gold_sentences()] + ["The drug might help ."]
    docs = list(nlp.pipe(texts))
    assert [negation_key(d) for d in docs] == [negation_key(d) for d in new.pipe(texts)]
    assert all("speculations" not in doc.spans for doc in docs)


def test_a_negation_only_pipeline_trains_as_before(hedge):
    """The same tiny config with negation only (the default) learns the negations of the hedge
    sentences and leaves their speculations alone."""
    nlp = load_test_nlp(CNN_TINY)
    assert overfit(nlp, hedge.examples(nlp), max_iter=60, learn_rate=0.01) <= 60
    assert nlp.get_pipe("negation_cue").labels == ("O", "S")
    doc = nlp("The drug might not help .")
    assert [n.cue_text for n in doc._.negations] == ["not"] and "speculations" not in doc.spans


# --- the negation host component ------------------------------------------------------------

@pytest.fixture(scope="module")
def host(hedge_cnn_dir):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "FINDING", "pattern": [{"LOWER": "the"}, {"LOWER": "scan"}]},
                        {"label": "FINDING", "pattern": "pain"}])
    nlp.add_pipe("negation", config={"model": str(hedge_cnn_dir)})
    return nlp


def test_the_host_writes_speculations_and_uncertain_entities(host, hedge, texts, gold):
    resolver = host.get_pipe("negation")
    assert resolver.speculation and resolver.resolves_speculation
    docs = list(host.pipe(texts))
    assert [hedge.key(doc) for doc in docs[:-1]] == gold[:-1]
    possible = host("It is possible that the scan helped .")
    (scan,) = possible.ents
    assert scan._.uncertain and not scan._.negated and scan._.speculations[0].cue_text == "possible"
    assert all(s.doc is possible for s in possible._.speculations)
    pain = host("There was no pain .").ents[0]
    assert pain._.negated and not pain._.uncertain
    assert host("")._.speculations == []


def test_the_host_writes_none_without_speculation(hedge_cnn_dir, host, hedge, texts, tmp_path):
    nlp = spacy.blank("en")
    resolver = nlp.add_pipe("negation", config={"model": str(hedge_cnn_dir), "speculation": False})
    assert not resolver.speculation and not resolver.resolves_speculation
    assert all(pipe.active_kinds == ("negation",) for _, pipe in resolver.negation_nlp.pipeline
               if hasattr(pipe, "active_kinds"))
    docs = list(nlp.pipe(texts))
    assert all("speculations" not in doc.spans and doc._.speculations == [] for doc in docs)
    assert [hedge.key(doc)[0] for doc in docs] == [hedge.key(doc)[0] for doc in host.pipe(texts)]
    # the host's stored config keeps the setting
    assert nlp.config["components"]["negation"]["speculation"] is False
    nlp.to_disk(tmp_path / "host")
    loaded = spacy.load(tmp_path / "host").get_pipe("negation")
    assert not loaded.speculation and not loaded.resolves_speculation
    assert not pickle.loads(pickle.dumps(resolver)).resolves_speculation


def test_a_negation_only_model_resolves_no_speculation(trained_cnn_dir):
    nlp = spacy.blank("en")
    resolver = nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    assert resolver.speculation and not resolver.resolves_speculation
    doc = nlp.make_doc("He was unhappy .")
    doc._.speculations = [{"cue": [doc[1]], "scope": [doc[0]]}]  # the host's own: left alone
    doc = nlp(doc)
    assert [n.cue_text for n in doc._.negations] == ["un"] and [s.cue_text for s in doc._.speculations] == ["was"]


@pytest.fixture(scope="module")
def host_paths(host, texts, tmp_path_factory):
    """Per path of the host (its pipe, n_process=2, to_disk + spacy.load, a pickled
    resolver), the docs of the texts."""
    out = {"pipe": list(host.pipe(texts)), "n_process": list(host.pipe(texts, n_process=2, batch_size=2))}
    path = tmp_path_factory.mktemp("hedge_host") / "host"
    host.to_disk(path)
    loaded = spacy.load(path)
    assert loaded.pipe_names == ["entity_ruler", "negation"] and loaded.get_pipe("negation").speculation
    out["disk"] = list(loaded.pipe(texts))
    resolver = pickle.loads(pickle.dumps(host.get_pipe("negation")))
    out["pickle"] = [resolver(host.make_doc(text)) for text in texts]
    return out


@pytest.mark.parametrize("kind", [0, 1], ids=["negation", "speculation"])
@pytest.mark.parametrize("path", ["n_process", "disk", "pickle"])
def test_both_kinds_survive_the_host_paths(host_paths, hedge, kind, path):
    expected = [hedge.key(doc)[kind] for doc in host_paths["pipe"]]
    assert sum(map(len, expected)) >= 4
    assert [hedge.key(doc)[kind] for doc in host_paths[path]] == expected


def test_speculations_with_the_prefilter(hedge_cnn_dir, tmp_path):
    """With the cue component's prefilter, a sentence with nothing but a speculation cue word
    reaches the model while speculation is on, and not without it."""
    out = tmp_path / "prefiltered"
    spacy.load(hedge_cnn_dir, config={"components": {"negation_cue": {"prefilter": True}}}).to_disk(out)
    on, off = spacy.blank("en"), spacy.blank("en")
    on.add_pipe("sentencizer")
    off.add_pipe("sentencizer")
    resolver_on = on.add_pipe("negation", config={"model": str(out)})
    resolver_off = off.add_pipe("negation", config={"model": str(out), "speculation": False})
    text = "The child recovered. The drug might help. The test did not work."
    doc_on, doc_off = on(text), off(text)
    assert [s.cue_text for s in doc_on._.speculations] == ["might"]
    assert [n.cue_text for n in doc_on._.negations] == [n.cue_text for n in doc_off._.negations] == ["not"]
    assert doc_off._.speculations == []
    assert len(resolver_on.model_pieces(doc_on, resolver_on.cue)) == 2
    assert len(resolver_off.model_pieces(doc_off, resolver_off.cue)) == 1


def test_bench_speculation_cost_prints_both_settings(hedge_cnn_dir, hedge, tmp_path, capsys):
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    docs = [hedge.reference(nlp.vocab, *sentence) for sentence in hedge.sentences()]
    DocBin(docs=docs).to_disk(tmp_path / "dev.spacy")
    bench = load_module(REPO / "bench" / "bench_speculation_cost.py", "bench_speculation_cost")
    bench.main([str(hedge_cnn_dir), str(tmp_path / "dev.spacy"), "--repeat", "1"])
    out = capsys.readouterr().out
    assert "speculation=on" in out and "speculation=off" in out and "words/s" in out
    assert "speculations: " in out


def test_speculations_of_text_with_hidden_characters_keep_the_hosts_tokens(host, hedge):
    """A zero-width space glued to a speculation cue (the model reads the visible text) gives the
    speculation of the clean text, on the host's own token and characters."""
    clean = host("The drug might help .")
    doc = host("The drug might\u200b help .")
    (spec,), (clean_spec,) = doc._.speculations, clean._.speculations
    assert spec.cue_text == "might\u200b" and spec.cue_offsets == [(9, 15)]  # the whole host token
    assert spec.scope == clean_spec.scope and doc[3]._.uncertain


def test_the_components_declare_that_they_assign_speculations() -> None:
    from spacy.language import Language

    for name in ("negation", "negation_cue", "negation_scope"):
        assert "doc._.speculations" in Language.get_factory_meta(name).assigns
