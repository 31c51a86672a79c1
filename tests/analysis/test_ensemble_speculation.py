"""spacy_negation.analysis.ensemble with pipelines that resolve speculation beside negation
(``kinds = ["negation", "speculation"]``): the ensemble averages the speculation cue labels
and resolves the speculation cues' scopes as the negation ones (an ensemble of a pipeline
with itself is the pipeline, both kinds), also on given cues; pipelines of other kinds are
refused (E378).

The tiny pipeline of both kinds and its synthetic hedge sentences are those of the pipeline
tests (``tests/pipeline/conftest.py``, loaded by its path); the ensemble reads a component
named ``transformer``, so the tiny pipeline's ``tok2vec`` is renamed."""
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.language import Language

from spacy_negation import get_speculations, set_negations, set_speculations
from spacy_negation.analysis import ensemble
from spacy_negation.pipeline.scope.component import DEFAULT_SCOPE_MODEL

import hedge as HEDGE

BOTH = ["negation", "speculation"]



def _member(path: Path) -> Language:
    nlp = spacy.load(path)
    nlp.rename_pipe("tok2vec", "transformer")
    return nlp


@pytest.fixture(scope="module")
def texts() -> List[str]:
    vocab = spacy.blank("en").vocab
    refs = [HEDGE.hedge_reference(vocab, *sentence) for sentence in HEDGE.hedge_sentences()[:14]]
    return [ref.text for ref in refs] + ["The drug might help . There was no pain .", ""]


def test_an_ensemble_of_a_model_with_itself_resolves_both_kinds_as_the_model(hedge_cnn_dir: Path,
                                                                               texts: List[str]) -> None:
    first, second = _member(hedge_cnn_dir), _member(hedge_cnn_dir)
    ensemble.check_compatible([first, second])
    expected = [HEDGE.kind_key(doc) for doc in first.pipe(texts)]
    assert sum(len(spec) for _, spec in expected) >= 4 and sum(len(neg) for neg, _ in expected) >= 4
    assert any(scope for _, spec in expected for _, scope in spec)  # speculation scopes
    docs = [first.make_doc(t) for t in texts]
    ensemble.annotate([first, second], docs, gold_cues=False)
    assert [HEDGE.kind_key(doc) for doc in docs] == expected
    # on given cues of both kinds: the cues stay, the scopes are the model's
    with_cues = []
    for text in texts:
        doc, done = first.make_doc(text), first(text)
        set_negations(doc, [{"cue": list(n.cue)} for n in done._.negations])
        set_speculations(doc, [{"cue": list(s.cue)} for s in done._.speculations])
        with_cues.append(doc)
    ensemble.annotate([first, second], with_cues, gold_cues=True)
    assert [HEDGE.kind_key(doc) for doc in with_cues] == expected


def test_the_speculation_windows_follow_the_scope_components_kinds(hedge_cnn_dir: Path, texts: List[str]) -> None:
    """With speculation switched off (``active_kinds``) the ensemble neither finds
    speculation cues nor resolves scopes of given ones, as the pipeline itself."""
    first, second = _member(hedge_cnn_dir), _member(hedge_cnn_dir)
    for nlp in (first, second):
        for name in ("negation_cue", "negation_scope"):
            nlp.get_pipe(name).active_kinds = ["negation"]
    docs = [first.make_doc(t) for t in texts]
    ensemble.annotate([first, second], docs, gold_cues=False)
    assert all(not get_speculations(doc) for doc in docs)
    assert [HEDGE.kind_key(doc) for doc in docs] == [HEDGE.kind_key(doc) for doc in first.pipe(texts)]
    doc = first.make_doc("The drug might help .")
    set_speculations(doc, [{"cue": [doc[2]]}])
    assert ensemble.scope_windows(first.get_pipe("negation_scope"), [doc]) == []
    first.get_pipe("negation_scope").active_kinds = BOTH
    (window,) = ensemble.scope_windows(first.get_pipe("negation_scope"), [doc])
    assert (window.start, window.end, window.kind) == (0, 5, 1)


def test_pipelines_of_other_kinds_are_refused() -> None:
    negation_only = spacy.blank("en")
    negation_only.add_pipe("tok2vec", name="transformer")
    negation_only.add_pipe("negation_cue")
    negation_only.add_pipe("negation_scope")
    negation_only.meta["name"] = "negation_only"
    both = spacy.blank("en")
    both.add_pipe("tok2vec", name="transformer")
    both.add_pipe("negation_cue", config={"kinds": BOTH})
    both.add_pipe("negation_scope", config={"kinds": BOTH, "model": {
        **DEFAULT_SCOPE_MODEL, "@architectures": "spacy-negation.ScopeTagger.v2", "n_kinds": 2}})
    both.meta["name"] = "both"
    ensemble.check_compatible([both, both])
    with pytest.raises(ValueError, match=r"\[NEG-E378\] The pipelines' 'negation_cue' components resolve "
                                         r"different kinds \(both: \['negation', 'speculation'\], "
                                         r"negation_only: \['negation'\]\)"):
        ensemble.check_compatible([both, negation_only])
    # the cue components alike, the scope components not
    cue_both = spacy.blank("en")
    cue_both.add_pipe("tok2vec", name="transformer")
    cue_both.add_pipe("negation_cue", config={"kinds": BOTH})
    cue_both.add_pipe("negation_scope")
    with pytest.raises(ValueError, match=r"\[NEG-E378\] The pipelines' 'negation_scope' components"):
        ensemble.check_compatible([both, cue_both])
