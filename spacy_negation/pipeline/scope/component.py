"""``negation_scope``: a trainable component that resolves the scope and the negated
event of every negation cue a doc carries.

For each cue instance the model tags the tokens of the cue's sentence with ``O``
(outside), ``S`` (scope), ``E`` (negated event) or ``SE`` (both: events lie inside
scopes in CD-SCO). On the token of an affixal cue, ``S``/``E`` mean the rest of the
token (``happy`` of *un*happy, ``rest`` of rest*less*ly), written as a partial part.

At prediction time the cues are the ones the doc carries (in a pipeline, the ones
``negation_cue`` predicted); during training they are the gold cues of the reference,
projected onto the predicted tokens. The token vectors come once per doc (from a
listener of a shared transformer or tok2vec); the model gathers one window per cue from
them (:mod:`.windows`) and runs one BiLSTM over all cue windows of the batch.

The decoder (:mod:`.decoding`) turns each window's scores into labels. Where the
cue component applied a user cue list (``cue_patterns``), the decoded scopes keep to the
side of a directed trigger cue and stop at terminations (``constrain_scopes``) before
the decoder post-processes them.

Speculation (``kinds = ["negation", "speculation"]``; default ``["negation"]``): the
component also resolves the scope of every speculation cue a doc carries
(``doc.spans["speculations"]``; in training the gold speculation cues, their scopes the
gold targets; a speculation has no event, so ``E`` never is its target and ``SE`` counts
as ``S``). The model must read each cue's kind (``spacy-negation.ScopeTagger.v2``: a
learned kind embedding added to the cue embedding; ``CueWindow.kind``), else E307. The
decoder post-processes each kind's scopes apart (``split_at_other_cues`` shares tokens
between the cues of one kind); a user cue list constrains the negation scopes only.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from thinc.api import Config, Model
from thinc.types import Floats2d

from spacy.attrs import IS_SPACE, LENGTH
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example, validate_get_examples
from spacy.vocab import Vocab

from ...alignment import CharIndex, project_parts
from ...errors import Errors
from ...ml.models import KIND_IDS, CueWindow, model_kinds
from ...negation import (KINDS, Instance, Negation, Speculation, get_instances, get_negations, get_speculations,
                         register_extensions, set_negations, set_speculations)
from ..base import NEGATION_ONLY, NegationPipe, check_kinds
from ..cue.patterns import constrain_scopes
from .decoding import SCOPE_LABELS, ScopeDecoder, make_scope_decoder
from .windows import cue_windows, decode_window, gold_window_labels, window_batches
from .._util import DEFAULT_TOK2VEC_CONFIG

default_model_config = """
[model]
@architectures = "spacy-negation.ScopeTagger.v1"
cue_width = 128
hidden_width = 200
depth = 1
dropout = 0.1
nO = null

"""

DEFAULT_SCOPE_MODEL = Config().from_str(default_model_config + DEFAULT_TOK2VEC_CONFIG)["model"]

#: The most cells (windows x tokens of the longest window) of one call of the scope model;
#: more windows are predicted in several calls, each with the docs its windows come from.
MAX_BATCH_CELLS = 1 << 16


@Language.factory(
    "negation_scope",
    assigns=["doc.spans", "doc._.negations", "doc._.speculations"],
    requires=["doc.spans", "doc._.negations"],
    default_config={
        "model": DEFAULT_SCOPE_MODEL,
        "lr_scale": 1.0,
        "decoder": {"@misc": "spacy-negation.scope_decoder.v1"},
        "convention": None,
        "annotate_unmarked": True,
        "kinds": list(NEGATION_ONLY),
        "scorer": {"@scorers": "spacy-negation.negation_scope_scorer.v1"},
    },
    default_score_weights={"neg_nis_tok_f": 1.0, "neg_nis_tok_p": None, "neg_nis_tok_r": None},
)
def make_negation_scope(
    nlp: Language,
    name: str,
    model: Model,
    lr_scale: float,
    decoder: ScopeDecoder,
    convention: Optional[str],
    annotate_unmarked: bool,
    kinds: Any,
    scorer: Optional[Callable],
) -> "NegationScope":
    """Create a negation scope and event tagger.

    model (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per cue window,
        scores over the scope labels.
    lr_scale (float): the component's learning rate relative to the optimizer's (e.g.
        10 for 2e-4 on a 2e-5 transformer; it applies to this component's own weights).
    decoder (ScopeDecoder): turns the scores into scopes and events
        (``spacy-negation.scope_decoder.v1``).
    convention (Optional[str]): learn from and annotate only docs of this annotation
        convention (``spacy_negation.negation.convention``); None: all.
    annotate_unmarked (bool): annotate docs without a convention mark.
    kinds (Any): the kinds of instance whose scopes it resolves: ["negation"] (the
        default), or ["negation", "speculation"] (with ``spacy-negation.ScopeTagger.v2``,
        E307 otherwise); typed Any so that the package checks it: E306 for another value.
    scorer (Optional[Callable]): the scoring method (the default reports the ``spec_*``
        scope keys beside the ``neg_*`` keys when the reference docs have speculations).
    """
    return NegationScope(nlp.vocab, model, name, lr_scale=lr_scale, decoder=decoder, convention=convention,
                         annotate_unmarked=annotate_unmarked, kinds=kinds, scorer=scorer)


class NegationScope(NegationPipe):
    """Pipeline component that resolves negation scopes and negated events."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "negation_scope",
        *,
        lr_scale: float = 1.0,
        decoder: Optional[ScopeDecoder] = None,
        convention: Optional[str] = None,
        annotate_unmarked: bool = True,
        kinds: Sequence[str] = NEGATION_ONLY,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize a negation scope tagger.

        vocab (Vocab): The shared vocabulary.
        model (thinc.api.Model): The Thinc Model powering the pipeline component.
        name (str): The component instance name, used to add entries to the
            losses during training.
        lr_scale (float): Learning-rate factor for this component's weights.
        decoder (Optional[ScopeDecoder]): Turns the scores into scopes and events (None:
            the built-in decoder with its default settings).
        convention (Optional[str]): The annotation convention of the docs the component
            learns from and annotates (None: all).
        annotate_unmarked (bool): Whether it annotates docs without a convention mark.
        kinds (Sequence[str]): The kinds of instance whose scopes it resolves
            (["negation"], or ["negation", "speculation"] with a kind-aware model).
        scorer (Optional[Callable]): The scoring method.
        """
        register_extensions()
        self.kinds = check_kinds(kinds)
        if len(self.kinds) > model_kinds(model):
            raise ValueError(Errors.E307.format(name=name, kinds=list(self.kinds), model=model.name))
        self.vocab = vocab
        self.model = model
        self.name = name
        self.lr_scale = lr_scale
        self.convention, self.annotate_unmarked = convention, annotate_unmarked
        self.decoder = make_scope_decoder() if decoder is None else decoder
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {"labels": list(SCOPE_LABELS)}

    def predict(self, docs: Iterable[Doc]) -> List[List[numpy.ndarray]]:
        """Apply the pipeline's model to a batch of docs, without modifying them.

        docs (Iterable[Doc]): The documents to predict.
        RETURNS (List[List[numpy.ndarray]]): Per doc and negation (in the order of
            ``get_negations``), then per speculation while the component resolves them
            (in the order of ``get_speculations``), the label id of each token of the
            cue's window (none for a doc the component does not annotate: ``annotates``).
        """
        docs = list(docs)
        windows: List[CueWindow] = []
        for d, doc in enumerate(docs):
            if self.annotates(doc):
                for kind, instances in self._instances(doc):
                    windows.extend(cue_windows(doc, d, instances, kind=KIND_IDS[kind]))
        out: List[List[numpy.ndarray]] = [[] for _ in docs]
        if not windows:
            return out
        scores: List[Floats2d] = []
        for chunk in window_batches(windows, MAX_BATCH_CELLS):
            used = sorted({w.doc for w in chunk})
            position = {d: k for k, d in enumerate(used)}
            scores.extend(self.model.predict(([docs[d] for d in used],
                                              [CueWindow(position[w.doc], w.start, w.end, w.cues, w.kind)
                                               for w in chunk])))
        for w, s in zip(windows, scores):
            ids = self.decoder.label_ids(self.model.ops.to_numpy(s), w.cues != 0)
            out[w.doc].append(ids.astype("int32"))
        return out

    def set_annotations(self, docs: Iterable[Doc], label_ids: List[List[numpy.ndarray]]) -> None:
        """Add the predicted scopes and events to the docs' negations (cues kept), and,
        while the component resolves them, the predicted scopes to their speculations
        (given label ids for them too: ids for the negations alone leave the
        speculations as they are).

        docs (Iterable[Doc]): The documents to modify.
        label_ids (List[List[numpy.ndarray]]): The label ids, produced by predict.
        """
        labels = self.labels
        speculation = self.resolves_speculation
        for doc, doc_ids in zip(docs, label_ids):
            negations = get_negations(doc)
            speculations = get_speculations(doc) if speculation else []
            if not (negations or speculations) or not self.annotates(doc):
                continue
            if len(doc_ids) not in (len(negations), len(negations) + len(speculations)):
                raise ValueError(Errors.E309.format(name=self.name, n_neg=len(negations),
                                                    n_spec=len(speculations), n_ids=len(doc_ids)))
            # the token lengths and space flags once per doc: a window's tokens need no Token objects
            lengths, spaces = (column.tolist() for column in doc.to_array([LENGTH, IS_SPACE]).T)
            if negations:
                windows = cue_windows(doc, 0, negations)
                resolved: List[Negation] = []
                for neg, window, ids in zip(negations, windows, doc_ids):
                    scope, event = decode_window(doc, neg, window, [labels[int(i)] for i in ids], lengths, spaces)
                    # parts of the window's tokens in order (set_negations checks them once)
                    resolved.append(Negation._trusted(doc, neg.cue, tuple(scope), tuple(event), neg.id))
                resolved = self.decoder.resolve(doc, constrain_scopes(doc, resolved))
                set_negations(doc, sorted(resolved, key=lambda n: n.id))
            if speculations and len(doc_ids) == len(negations) + len(speculations):
                windows = cue_windows(doc, 0, speculations, kind=KIND_IDS["speculation"])
                hedges: List[Negation] = []  # the decoder post-processes negations: a speculation as one
                for spec, window, ids in zip(speculations, windows, doc_ids[len(negations):]):
                    scope, _ = decode_window(doc, spec, window, [labels[int(i)] for i in ids], lengths, spaces)
                    hedges.append(Negation._trusted(doc, spec.cue, tuple(scope), (), spec.id))
                hedges = self.decoder.resolve(doc, hedges)
                set_speculations(doc, [Speculation._trusted(doc, h.cue, h.scope, h.id)
                                       for h in sorted(hedges, key=lambda h: h.id)])

    def _instances(self, doc: Doc) -> List[Tuple[str, Sequence[Instance]]]:
        """The instances of each kind the component resolves on a doc: its negations,
        then its speculations while it resolves them."""
        out: List[Tuple[str, Sequence[Instance]]] = [("negation", get_negations(doc))]
        if self.resolves_speculation:
            out.append(("speculation", get_speculations(doc)))
        return out

    def _inputs_and_truths(
        self, examples: List[Example]
    ) -> Tuple[Tuple[List[Doc], List[CueWindow]], List[List[str]]]:
        """The predicted docs with the windows of the gold cues, and the gold label of
        each window token."""
        windows, truths = self._gold_windows(examples)
        return ([eg.predicted for eg in examples], windows), truths

    def _loss(self, truths: Sequence[Sequence[Optional[str]]], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        if len(truths) != len(scores):
            raise ValueError(Errors.E310.format(n_scores=len(scores), n_truths=len(truths)))
        return super()._loss(truths, scores)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
    ) -> None:
        """Initialize the pipe for training, using a representative set
        of data examples.

        get_examples (Callable[[], Iterable[Example]]): Function that
            returns a representative sample of gold-standard Example objects.
        nlp (Language): The current nlp object the component is part of.
        """
        validate_get_examples(get_examples, "NegationScope.initialize")
        get_examples = self._own_examples(get_examples)
        n_cues = 0
        for eg in get_examples():
            n_cues += sum(len(get_instances(eg.reference, KINDS[kind])) for kind in self.kinds)
            if n_cues:
                break
        if not n_cues:
            raise ValueError(Errors.E301.format(name=self.name))
        self._initialize_model(get_examples)

    def _gold_windows(self, examples: List[Example]) -> Tuple[List[CueWindow], List[List[str]]]:
        """The windows of the gold cues (of each kind the component learns), projected
        onto the predicted tokens, and the gold label of each window token."""
        windows: List[CueWindow] = []
        truths: List[List[str]] = []
        for d, eg in enumerate(examples):
            pred, ref = eg.predicted, eg.reference
            if not len(pred) or not self.learns_from(eg):
                continue
            ref_index: Optional[CharIndex] = None
            pred_index: Optional[CharIndex] = None
            for kind in self.kinds:
                gold = get_instances(ref, KINDS[kind])
                if not gold:
                    continue
                if ref_index is None or pred_index is None:
                    ref_index, pred_index = CharIndex(ref), CharIndex(pred)
                projected: List[Instance] = []
                for inst in gold:
                    cue = project_parts(inst.cue, ref_index, pred_index)
                    if not cue:
                        continue
                    scope = project_parts(inst.scope, ref_index, pred_index)
                    if kind == "speculation":
                        projected.append(Speculation(pred, cue, scope))
                    else:
                        projected.append(Negation(pred, cue, scope, project_parts(inst.parts("event"), ref_index,
                                                                                   pred_index)))
                for inst, window in zip(projected, cue_windows(pred, d, projected, kind=KIND_IDS[kind])):
                    windows.append(window)
                    truths.append(gold_window_labels(inst, window))
        return windows, truths
