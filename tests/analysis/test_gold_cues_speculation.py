"""Scope resolution on gold cues (``evaluate_model.py --gold-cues``,
``spacy_negation.analysis.evaluation.annotate_gold(gold_cues=True)``) with speculation: the
gold speculation cues are copied beside the negation ones and the scope component
resolves their scopes; a pipeline that resolves no speculation gets none; every cue
component (of every convention) is disabled.

The tiny pipeline of both kinds and its synthetic hedge sentences are those of the pipeline
tests (``tests/pipeline/conftest.py``, loaded by its path)."""
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_negation import get_speculations, register_extensions, set_negations, set_speculations
from spacy_negation.analysis.evaluation import (annotate_gold, blank_copy, cue_components, resolves_speculation_on,
                                                write_results)
from spacy_negation.negation import SPECULATIONS_KEY

import hedge as HEDGE




def _gold(nlp: Language) -> List[Doc]:
    """Gold docs of every template of the hedge sentences (negations, speculations, both)."""
    return [HEDGE.hedge_reference(nlp.vocab, *s) for s in HEDGE.hedge_sentences()[:14]]


def test_blank_copy_copies_the_speculation_cues_where_the_gold_annotates_them() -> None:
    register_extensions()
    vocab = spacy.blank("en").vocab
    words, negations, speculations = HEDGE.hedge_sentences()[4]  # "The scan might not help ."
    gold = HEDGE.hedge_reference(vocab, words, negations, speculations)
    copy = blank_copy(vocab, gold, True)
    assert [(n.cue_text, n.scope) for n in copy._.negations] == [("not", ())]
    assert [(s.cue_text, s.scope) for s in copy._.speculations] == [("might", ())]
    assert not get_speculations(blank_copy(vocab, gold, True, speculation_cues=False))
    assert not get_speculations(blank_copy(vocab, gold, False)) and not blank_copy(vocab, gold, False)._.negations
    # a gold doc without speculation annotation (CD-SCO) gives a copy without the span group
    plain = Doc(vocab, words=words)
    set_negations(plain, [{"cue": [plain[3]]}])
    assert SPECULATIONS_KEY not in blank_copy(vocab, plain, True).spans
    # one that annotates speculation but has none gives the empty group (speculation is scored)
    empty = Doc(vocab, words=words)
    set_speculations(empty, [])
    assert SPECULATIONS_KEY in blank_copy(vocab, empty, True).spans


def test_on_gold_cues_the_scope_component_resolves_the_speculation_scopes(hedge_cnn_dir: Path,
                                                                          tmp_path: Path) -> None:
    nlp = spacy.load(hedge_cnn_dir)
    gold = _gold(nlp)
    assert sum(len(get_speculations(doc)) for doc in gold) >= 6
    assert resolves_speculation_on(nlp, gold[0])
    system, _ = annotate_gold(nlp, gold, gold_cues=True)
    assert [HEDGE.kind_key(doc) for doc in system] == [HEDGE.kind_key(doc) for doc in gold]
    result = write_results(system, gold, None, tmp_path / "scores.json", 1.0, True)
    scores = result["scores"]
    assert result["gold_cues"] is True
    for key in ("spec_cue_f", "spec_st_f", "spec_conll2010_f", "neg_cue_f", "neg_st_f"):
        assert scores[key] == 1.0, key
    # the cues are the gold ones, not the cue component's: a hedge the gold leaves out stays out
    might = next(doc for doc in gold if [s.cue_text for s in get_speculations(doc)] == ["might"])
    unannotated = Doc(nlp.vocab, words=[t.text for t in might], spaces=[bool(t.whitespace_) for t in might])
    set_speculations(unannotated, [])
    (end_to_end,), _ = annotate_gold(nlp, [unannotated])
    assert [s.cue_text for s in end_to_end._.speculations] == ["might"]
    (on_gold,), _ = annotate_gold(nlp, [unannotated], gold_cues=True)
    assert SPECULATIONS_KEY in on_gold.spans and not get_speculations(on_gold)


def test_a_pipeline_without_speculation_gets_no_speculation_cues(hedge_cnn_dir: Path) -> None:
    """Speculation switched off on the scope component (or a negation-only model): the gold
    speculation cues are not copied (they would stay without scopes), as end to end."""
    nlp = spacy.load(hedge_cnn_dir)
    nlp.get_pipe("negation_scope").active_kinds = ["negation"]
    gold = _gold(nlp)
    assert not resolves_speculation_on(nlp, gold[0])
    system, _ = annotate_gold(nlp, gold, gold_cues=True)
    assert all(not get_speculations(doc) for doc in system)
    assert [HEDGE.kind_key(doc)[0] for doc in system] == [HEDGE.kind_key(doc)[0] for doc in gold]


def test_gold_cues_disable_the_cue_components_of_every_convention() -> None:
    """A model with components per convention (the general model: negation_cue for BioScope,
    negation_cue_sfu, negation_cue_cdsco) keeps none of them on gold cues, so that the cue
    component of the doc's convention does not replace the gold cues."""
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe("negation_cue", config={"convention": "bioscope"})
    nlp.add_pipe("negation_scope", config={"convention": "bioscope"})
    nlp.add_pipe("negation_cue", name="negation_cue_sfu", config={"convention": "sfu"})
    nlp.add_pipe("negation_scope", name="negation_scope_sfu", config={"convention": "sfu"})
    assert cue_components(nlp) == ["negation_cue", "negation_cue_sfu"]
    doc = nlp.make_doc("It might rain .")
    assert not resolves_speculation_on(nlp, doc)  # negation-only scope components
