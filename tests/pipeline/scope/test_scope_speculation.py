"""negation_scope with ``kinds = ["negation", "speculation"]``: the kind-aware scope model
``spacy-negation.ScopeTagger.v2`` (v1 as it was), the windows and targets of each kind,
resolving the scopes of speculation cues, the setting's checks."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation import get_negations, get_speculations, set_negations, set_speculations
from spacy_negation.ml.bilstm import CUE_WHOLE
from spacy_negation.ml.models import build_scope_tagger, build_scope_tagger_v2, model_kinds
from spacy_negation.ml.windows import KIND_IDS, CueWindow
from spacy_negation.pipeline.scope.decoding import SCOPE_LABELS
from spacy_negation.pipeline.scope.windows import cue_windows

from util import SMALL_CNN

BOTH = ["negation", "speculation"]


def _scope_config(arch="spacy-negation.ScopeTagger.v2", **extra):
    return {"model": {"@architectures": arch, "tok2vec": SMALL_CNN, "cue_width": 8, "hidden_width": 16,
                      "depth": 1, "dropout": 0.0, **extra}}


def _cnn():
    from thinc.api import Config
    from spacy.util import registry

    return registry.resolve(Config({"m": SMALL_CNN}))["m"]


@pytest.fixture
def docs():
    nlp = spacy.blank("en")
    return [nlp("the drug might not help ."), nlp("no fever")]


def test_v2_reads_the_kind_of_a_window(docs):
    model = build_scope_tagger_v2(_cnn(), cue_width=4, hidden_width=6, nO=4)
    assert model_kinds(model) == 2 and model_kinds(build_scope_tagger(_cnn(), cue_width=4, hidden_width=6)) == 1
    cues = numpy.array([0, 0, CUE_WHOLE, 0, 0, 0], dtype="int32")
    negation = CueWindow(0, 0, 6, cues)
    speculation = CueWindow(0, 0, 6, cues, KIND_IDS["speculation"])
    model.initialize(X=(docs, [negation, speculation]))
    W = model.get_ref("output_layer").get_param("W")
    model.get_ref("output_layer").set_param("W", numpy.random.default_rng(0).normal(size=W.shape).astype("f"))
    a, b = model.predict((docs, [negation, speculation]))
    assert not numpy.allclose(a, b)
    # serialization: the kind embedding comes back with the LSTM
    fresh = build_scope_tagger_v2(_cnn(), cue_width=4, hidden_width=6, nO=4)
    fresh.from_bytes(model.to_bytes())
    numpy.testing.assert_allclose(fresh.predict((docs, [speculation]))[0], b, rtol=1e-5, atol=1e-6)
    state = model.get_ref("bilstm").shims[0]._model.state_dict()
    assert state["kind_embed.weight"].shape == (2, 4)


def test_v1_has_no_kind_embedding_and_ignores_the_kind(docs):
    model = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    cues = numpy.array([0, 0, CUE_WHOLE, 0, 0, 0], dtype="int32")
    model.initialize(X=(docs, [CueWindow(0, 0, 6, cues)]))
    assert set(model.get_ref("bilstm").shims[0]._model.state_dict()) == {
        "cue_embed.weight", "lstm.weight_ih_l0", "lstm.weight_hh_l0", "lstm.bias_ih_l0", "lstm.bias_hh_l0",
        "lstm.weight_ih_l0_reverse", "lstm.weight_hh_l0_reverse", "lstm.bias_ih_l0_reverse",
        "lstm.bias_hh_l0_reverse"}
    assert "n_kinds" not in model.attrs and "n_kinds" not in model.get_ref("bilstm").attrs


@pytest.mark.parametrize("setting", [{"cue_width": 0}, {"n_kinds": 0}])
def test_v2_settings_are_checked(setting):
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        build_scope_tagger_v2(_cnn(), **{"cue_width": 4, **setting})


def test_speculation_needs_a_kind_aware_model():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"\[NEG-E307\]"):
        nlp.add_pipe("negation_scope", config={**_scope_config("spacy-negation.ScopeTagger.v1"), "kinds": BOTH})
    with pytest.raises(ValueError, match=r"\[NEG-E306\]"):
        spacy.blank("en").add_pipe("negation_scope", config={**_scope_config(), "kinds": ["hedge"]})
    scope = spacy.blank("en").add_pipe("negation_scope", config=_scope_config())  # v2, negation only: fine
    assert scope.kinds == ("negation",) and not scope.resolves_speculation


def test_gold_windows_of_both_kinds(hedge):
    nlp = spacy.blank("en")
    scope = nlp.add_pipe("negation_scope", config={**_scope_config(), "kinds": BOTH})
    examples = hedge.examples(nlp)
    might_not = examples[4]  # "The scan might not help ."
    windows, truths = scope._gold_windows([might_not])
    assert [(w.kind, w.cues.tolist()) for w in windows] == [(0, [0, 0, 0, 1, 0, 0]), (1, [0, 0, 1, 0, 0, 0])]
    assert truths == [["S", "S", "O", "O", "S", "O"], ["S", "S", "O", "S", "S", "O"]]
    negation_only = spacy.blank("en").add_pipe("negation_scope", config=_scope_config())
    windows, truths = negation_only._gold_windows([might_not])
    assert [w.kind for w in windows] == [0] and truths == [["S", "S", "O", "O", "S", "O"]]


def test_set_annotations_resolves_speculation_scopes():
    nlp = spacy.blank("en")
    scope = nlp.add_pipe("negation_scope", config={**_scope_config(), "kinds": BOTH})
    # 0 It 1 may 2 rain 3 , 4 it 5 may 6 snow
    doc = nlp.make_doc("It may rain , it may snow")
    set_negations(doc, [])
    set_speculations(doc, [{"cue": [doc[1]]}, {"cue": [doc[5]]}])
    assert [(w.kind, w.start, w.end) for w in cue_windows(doc, 0, get_speculations(doc), kind=1)] == [(1, 0, 7)] * 2
    S, O, SE = (SCOPE_LABELS.index(label) for label in ("S", "O", "SE"))
    # both claim "rain" and "snow": split_at_other_cues gives each to the nearer cue; SE counts as scope
    first = numpy.asarray([S, O, SE, O, O, O, S], dtype="int32")
    second = numpy.asarray([O, O, S, O, S, O, S], dtype="int32")
    scope.set_annotations([doc], [[first, second]])
    assert [(s.cue_text, s.scope_text) for s in get_speculations(doc)] == [("may", "It rain"), ("may", "it snow")]
    assert get_negations(doc) == []
    # ids for the negations alone leave the speculations as they are
    scope.set_annotations([doc], [[]])
    assert [s.scope_text for s in get_speculations(doc)] == ["It rain", "it snow"]
    # any other number of arrays is a mistake, not a partial annotation
    with pytest.raises(ValueError, match=r"\[NEG-E309\]"):
        scope.set_annotations([doc], [[first]])
    assert [s.scope_text for s in get_speculations(doc)] == ["It rain", "it snow"]
    # switched off, the component neither predicts nor resolves them
    scope.active_kinds = ["negation"]
    assert scope.predict([doc]) == [[]]


def test_untrained_prediction_covers_both_kinds(hedge):
    nlp = spacy.blank("en")
    scope = nlp.add_pipe("negation_scope", config={**_scope_config(), "kinds": BOTH})
    nlp.initialize(lambda: hedge.examples(nlp))
    doc = nlp.make_doc("The drug might not help .")
    set_negations(doc, [{"cue": [doc[3]]}])
    set_speculations(doc, [{"cue": [doc[2]]}])
    (ids,) = scope.predict([doc])
    assert [len(a) for a in ids] == [6, 6]
    scope.set_annotations([doc], [ids])
    assert len(get_negations(doc)) == 1 and len(get_speculations(doc)) == 1
