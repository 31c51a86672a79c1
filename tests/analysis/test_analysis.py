"""spacy_negation.analysis: decoding-ablation settings and the ensemble's softmax (the
ablation and ensemble runs on trained pipelines: tests/pipeline/test_pipeline.py)."""
import numpy
import pytest
import spacy
from spacy.language import Language

from spacy_negation.analysis.ablation import SETTINGS, parse_setting, settings_on
from spacy_negation.analysis.ensemble import check_compatible, softmax


def test_parse_setting() -> None:
    assert parse_setting("negation_cue.multiword_min_precision=0.6") == \
        ("negation_cue", "multiword_min_precision", 0.6)
    assert parse_setting("negation_scope.contiguous=false") == ("negation_scope", "contiguous", False)
    assert parse_setting("negation_cue.affix_threshold=null") == ("negation_cue", "affix_threshold", None)
    assert parse_setting("negation_cue.decoder.min_word_precision=0.1") == ("negation_cue", "min_word_precision", 0.1)
    for bad in ("negation_cue=1", "multiword_cues", ".x=1", "negation_cue.=1"):
        with pytest.raises(ValueError, match=r"\[NEG-E747\]"):
            parse_setting(bad)
    with pytest.raises(ValueError, match=r"\[NEG-E748\]"):
        parse_setting("negation_cue.multiword_cues=maybe")


def test_settings_on_lists_the_settings_a_config_switches_on() -> None:
    assert settings_on({}) == []
    components = {
        "negation_cue": {"factory": "negation_cue", "decoder": {
            "@misc": "spacy-negation.cue_decoder.v1", "affix_over_whole": True, "affix_threshold": None}},
        "negation_scope": {"factory": "negation_scope", "decoder": {
            "@misc": "spacy-negation.scope_decoder.v1", "split_at_other_cues": False, "contiguous": True,
            "scope_bias": 0.5}}}
    assert settings_on(components) == [("negation_cue", "affix_over_whole", False),
                                       ("negation_cue", "multiword_cues", False),
                                       ("negation_scope", "contiguous", False),
                                       ("negation_scope", "scope_bias", 0.0)]
    assert all(row in SETTINGS for row in settings_on(components))
    # a section without a decoder block: the factory's default decoder, with its defaults
    default = {"negation_cue": {"factory": "negation_cue"}, "negation_scope": {"factory": "negation_scope"}}
    assert settings_on(default) == [("negation_cue", "affix_over_whole", False),
                                    ("negation_cue", "affix_threshold", None),
                                    ("negation_cue", "multiword_cues", False),
                                    ("negation_scope", "split_at_other_cues", False)]


def test_softmax_rows() -> None:
    probs = softmax(numpy.array([[0.0, 0.0], [1000.0, 0.0], [1.0, 2.0]]))
    assert probs.sum(axis=1) == pytest.approx([1.0, 1.0, 1.0])
    assert probs[0] == pytest.approx([0.5, 0.5]) and probs[1] == pytest.approx([1.0, 0.0])
    assert probs[2][1] == pytest.approx(1 / (1 + numpy.exp(-1.0)))


def _ensemble_member() -> Language:
    """A pipeline (not initialized) with the components the ensemble reads."""
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec", name="transformer")
    nlp.add_pipe("negation_cue")
    nlp.add_pipe("negation_scope")
    return nlp


def test_ensemble_refuses_pipelines_with_other_labels() -> None:
    first, second = _ensemble_member(), _ensemble_member()
    check_compatible([first, second])
    second.get_pipe("negation_cue").add_label("S")
    with pytest.raises(ValueError, match=r"\[NEG-E745\] The pipelines' 'negation_cue' labels differ"):
        check_compatible([first, second])
    first.get_pipe("negation_cue").add_label("S")
    check_compatible([first, second])
    # the scope labels of a pipeline saved with others (its component's cfg)
    second.get_pipe("negation_scope").cfg["labels"].append("X")
    with pytest.raises(ValueError, match=r"\[NEG-E745\] The pipelines' 'negation_scope' labels differ"):
        check_compatible([first, second])


def test_score_docs_scores_speculation_where_the_gold_annotates_it() -> None:
    from spacy_negation import register_extensions
    from spacy_negation.analysis.evaluation import score_docs
    from spacy_negation.negation import set_negations, set_speculations

    register_extensions()
    nlp = spacy.blank("en")
    words = "It might be pneumonia but there is no effusion .".split()
    gold, system = nlp.make_doc(" ".join(words)), nlp.make_doc(" ".join(words))
    for doc in (gold, system):
        set_negations(doc, [{"cue": [doc[7]], "scope": [doc[8]]}])
    set_speculations(gold, [{"cue": [gold[1]], "scope": [gold[0], gold[2], gold[3]]}])
    set_speculations(system, [{"cue": [system[1]], "scope": [system[2], system[3]]}])
    scores = score_docs([system], [gold])["scores"]
    assert scores["neg_cue_f"] == 1.0 and scores["spec_cue_f"] == 1.0
    assert scores["spec_st_r"] == pytest.approx(2 / 3)
    assert scores["spec_conll2010_f"] == 0.0  # a scope boundary differs
    negation_only = nlp.make_doc(" ".join(words))
    set_negations(negation_only, [{"cue": [negation_only[7]], "scope": [negation_only[8]]}])
    assert not any(key.startswith("spec_") for key in score_docs([system], [negation_only])["scores"])
