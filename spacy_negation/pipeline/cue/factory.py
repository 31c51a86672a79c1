"""The factory of ``negation_cue`` (:mod:`.component`): its settings with their defaults,
and the default model (``spacy-negation.CueTagger.v1`` on the package's CNN tok2vec)."""
from typing import Any, Callable, List, Optional

from thinc.api import Config, Model
from thinc.types import Floats2d

from spacy.language import Language
from spacy.tokens import Doc

from ..base import NEGATION_ONLY
from .component import NegationCue
from .decoding import CueDecoder
from .pattern_lists import load_cue_patterns
from .._util import DEFAULT_TOK2VEC_CONFIG

default_model_config = """
[model]
@architectures = "spacy-negation.CueTagger.v1"
nO = null

"""

DEFAULT_CUE_MODEL = Config().from_str(default_model_config + DEFAULT_TOK2VEC_CONFIG)["model"]


@Language.factory(
    "negation_cue",
    assigns=["doc.spans", "doc._.negations", "doc._.speculations"],
    default_config={
        "model": DEFAULT_CUE_MODEL,
        "lr_scale": 1.0,
        "decoder": {"@misc": "spacy-negation.cue_decoder.v3"},
        "cue_patterns": None,
        "convention": None,
        "annotate_unmarked": True,
        "prefilter": False,
        "prefilter_window": None,
        "kinds": list(NEGATION_ONLY),
        "scorer": {"@scorers": "spacy-negation.negation_cue_scorer.v1"},
    },
    default_score_weights={"neg_cue_f": 1.0, "neg_cue_p": None, "neg_cue_r": None},
)
def make_negation_cue(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    lr_scale: float,
    decoder: CueDecoder,
    cue_patterns: Any,
    convention: Optional[str],
    annotate_unmarked: bool,
    prefilter: bool,
    prefilter_window: Optional[List[int]],
    kinds: Any,
    scorer: Optional[Callable],
) -> "NegationCue":
    """Create a negation cue tagger.

    model (Model[List[Doc], List[Floats2d]]): per doc, scores over the cue labels.
    lr_scale (float): the component's learning rate relative to the optimizer's (e.g.
        10 for 2e-4 on a 2e-5 transformer; it applies to this component's own weights).
    decoder (CueDecoder): turns the scores into cues (``spacy-negation.cue_decoder.v3``).
    cue_patterns (Any): a user cue list applied to the predicted cues: None, a
        shipped list's name ("en_clinical"), a JSONL file path, or a list of entries
        ({"pattern": "denies", "kind": "preceding"}), names and paths (a ``Setting``;
        typed Any so that the package checks it: E350 for another type, not spaCy's
        config validation).
    convention (Optional[str]): learn from and annotate only docs of this annotation
        convention (``spacy_negation.negation.convention``); None: all.
    annotate_unmarked (bool): annotate docs without a convention mark.
    prefilter (bool): find cues only in sentences with a candidate cue (:mod:`.prefilter`).
    prefilter_window (Optional[List[int]]): with ``prefilter``, [before, after]: look for
        cues (and let the ``negation`` component send to the network) only the tokens
        from ``before`` tokens before a sentence's first candidate to ``after`` tokens
        after its last; None: whole sentences.
    kinds (Any): the kinds of cue the component learns and finds: ["negation"]
        (the default), or ["negation", "speculation"] (speculation cues with labels of
        their own, written as the docs' speculations); typed Any so that the package
        checks it: E306 for another value, not spaCy's config validation.
    scorer (Optional[Callable]): the scoring method (the default reports the ``spec_cue_*``
        keys beside the ``neg_cue_*`` keys when the reference docs have speculations).
    """
    return NegationCue(
        nlp.vocab, model, name, lr_scale=lr_scale, decoder=decoder,
        cue_patterns=None if cue_patterns is None else load_cue_patterns(cue_patterns, nlp.make_doc),
        convention=convention, annotate_unmarked=annotate_unmarked, prefilter=prefilter, prefilter_window=prefilter_window,
        kinds=kinds, scorer=scorer,
    )
