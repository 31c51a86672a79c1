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
them and runs one BiLSTM over all cue windows of the batch.

Each token gets its best-scoring label, unless ``contiguous`` is set: then the scope is
the best-scoring span that, with the cue, leaves no gap — the cue's tokens and the scope
tokens on either side of it up to the span's ends (O(n) per cue: the best left and right
extensions are independent). BioScope and SFU Review annotate scopes this way (every
training scope joins its cue without a gap of words); CD-SCO does not, so it is off by
default. Within the span a token is ``S`` or ``SE``, outside it ``O`` or ``E``,
whichever scores better.

Where the cue component applied a user cue list (``cue_patterns``), the decoded scopes
keep to the side of a directed trigger cue and stop at terminations
(``constrain_scopes``), before ``split_at_other_cues``.
"""
from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

import numpy
from thinc.api import Config, Model, Optimizer, SequenceCategoricalCrossentropy, set_dropout_rate
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab

from ..alignment import CharIndex, project_parts
from ..errors import Errors
from ..ml.bilstm import CUE_AFFIX, CUE_WHOLE
from ..ml.models import CueWindow
from ..negation import Negation, Part, get_negations, register_extensions, set_negations
from .cue_patterns import constrain_scopes
from ._util import ScaledOptimizer, one_hot, remainder, sentence_ranges

#: The scope labels: outside, scope, negated event, both.
SCOPE_LABELS = ("O", "S", "E", "SE")
#: The ids of the labels that put a token in the scope.
SCOPE_IDS = [SCOPE_LABELS.index("S"), SCOPE_LABELS.index("SE")]

default_model_config = """
[model]
@architectures = "spacy-negation.ScopeTagger.v1"
cue_width = 128
hidden_width = 200
depth = 1
dropout = 0.1
nO = null

[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""
DEFAULT_SCOPE_MODEL = Config().from_str(default_model_config)["model"]


@Language.factory(
    "negation_scope",
    assigns=["doc.spans", "doc._.negations"],
    requires=["doc.spans", "doc._.negations"],
    default_config={
        "model": DEFAULT_SCOPE_MODEL,
        "lr_scale": 1.0,
        "split_at_other_cues": True,
        "contiguous": False,
        "scope_bias": 0.0,
        "scorer": {"@scorers": "spacy_negation.negation_scope_scorer.v1"},
    },
    default_score_weights={"neg_nis_tok_f": 1.0, "neg_nis_tok_p": None, "neg_nis_tok_r": None},
)
def make_negation_scope(
    nlp: Language,
    name: str,
    model: Model,
    lr_scale: float,
    split_at_other_cues: bool,
    contiguous: bool,
    scope_bias: float,
    scorer: Optional[Callable],
) -> "NegationScope":
    """Create a negation scope and event tagger.

    model (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per cue window,
        scores over the scope labels.
    lr_scale (float): the component's learning rate relative to the optimizer's (e.g.
        10 for 2e-4 on a 2e-5 transformer; it applies to this component's own weights).
    split_at_other_cues (bool): give a token that two negations of a sentence both put in
        their scopes to the nearer cue only, unless one is nested in the other (see
        ``split_at_other_cues``).
    contiguous (bool): decode each scope as the best span that joins its cue without a gap.
    scope_bias (float): subtracted from the scope labels' scores (log-odds) before
        decoding; above 0, fewer tokens are tagged as scope.
    scorer (Optional[Callable]): the scoring method.
    """
    return NegationScope(
        nlp.vocab, model, name, lr_scale=lr_scale, split_at_other_cues=split_at_other_cues,
        contiguous=contiguous, scope_bias=scope_bias, scorer=scorer,
    )


class NegationScope(TrainablePipe):
    """Pipeline component that resolves negation scopes and negated events."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "negation_scope",
        *,
        lr_scale: float = 1.0,
        split_at_other_cues: bool = True,
        contiguous: bool = False,
        scope_bias: float = 0.0,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize a negation scope tagger.

        vocab (Vocab): The shared vocabulary.
        model (thinc.api.Model): The Thinc Model powering the pipeline component.
        name (str): The component instance name, used to add entries to the
            losses during training.
        lr_scale (float): Learning-rate factor for this component's weights.
        split_at_other_cues (bool): Post-process the decoded scopes with
            ``split_at_other_cues``.
        contiguous (bool): Decode each scope as the best-scoring span that joins its cue
            without a gap (see ``contiguous_labels``).
        scope_bias (float): Subtracted from the scores (logits) of the scope labels
            ('S', 'SE') before decoding.
        scorer (Optional[Callable]): The scoring method.
        """
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.lr_scale = lr_scale
        self.split_at_other_cues = split_at_other_cues
        self.contiguous = contiguous
        self.scope_bias = scope_bias
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {"labels": list(SCOPE_LABELS)}

    @property
    def labels(self) -> Tuple[str, ...]:
        """The scope labels (fixed: 'O', 'S', 'E', 'SE').

        RETURNS (Tuple[str]): The labels.
        """
        return tuple(self.cfg["labels"])

    def predict(self, docs: Iterable[Doc]) -> List[List[numpy.ndarray]]:
        """Apply the pipeline's model to a batch of docs, without modifying them.

        docs (Iterable[Doc]): The documents to predict.
        RETURNS (List[List[numpy.ndarray]]): Per doc and negation (in the order of
            ``get_negations``), the label id of each token of the cue's sentence.
        """
        docs = list(docs)
        windows: List[CueWindow] = []
        for d, doc in enumerate(docs):
            windows.extend(cue_windows(doc, d, get_negations(doc)))
        out: List[List[numpy.ndarray]] = [[] for _ in docs]
        if not windows:
            return out
        scores = self.model.predict((docs, windows))
        for w, s in zip(windows, scores):
            s = self.model.ops.to_numpy(s)
            if self.scope_bias:
                s = s.copy()
                s[:, SCOPE_IDS] -= self.scope_bias
            ids = contiguous_labels(s, w.cues != 0) if self.contiguous else s.argmax(axis=1)
            out[w.doc].append(ids.astype("int32"))
        return out

    def set_annotations(self, docs: Iterable[Doc], label_ids: List[List[numpy.ndarray]]) -> None:
        """Add the predicted scopes and events to the docs' negations (cues kept).

        docs (Iterable[Doc]): The documents to modify.
        label_ids (List[List[numpy.ndarray]]): The label ids, produced by predict.
        """
        labels = self.labels
        for doc, doc_ids in zip(docs, label_ids):
            negations = get_negations(doc)
            if not negations:
                continue
            windows = cue_windows(doc, 0, negations)
            resolved: List[Negation] = []
            for neg, window, ids in zip(negations, windows, doc_ids):
                scope, event = _decode(doc, neg, window, [labels[int(i)] for i in ids])
                resolved.append(Negation(doc, neg.cue, scope, event, id=neg.id))
            resolved = constrain_scopes(doc, resolved)
            if self.split_at_other_cues:
                resolved = split_at_other_cues(doc, resolved)
            set_negations(doc, sorted(resolved, key=lambda n: n.id))

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Learn from a batch of documents and gold-standard information,
        updating the pipe's model. Delegates to predict and get_loss.

        examples (Iterable[Example]): A batch of Example objects.
        drop (float): The dropout rate.
        sgd (thinc.api.Optimizer): The optimizer.
        losses (Dict[str, float]): Optional record of the loss during training.
            Updated using the component name as the key.
        RETURNS (Dict[str, float]): The updated losses dictionary.
        """
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        validate_examples(examples, "NegationScope.update")
        examples = list(examples)
        docs = [eg.predicted for eg in examples]
        if not any(len(doc) for doc in docs):
            return losses
        set_dropout_rate(self.model, drop)
        windows, truths = self._gold_windows(examples)
        # Always run the model: a listener must pass its (possibly zero) gradient on.
        scores, bp_scores = self.model.begin_update((docs, windows))
        loss = 0.0
        d_scores: List[Floats2d] = []
        if windows:
            loss, d_scores = self._get_loss(truths, scores)
        bp_scores(d_scores)
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def get_loss(self, examples: Iterable[Example], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """Find the loss and gradient of loss for the batch of documents and
        their predicted scores (one score array per gold cue window).

        examples (Iterable[Examples]): The batch of examples.
        scores: Scores representing the model's predictions.
        RETURNS (Tuple[float, List[Floats2d]]): The loss and the gradient.
        """
        validate_examples(examples, "NegationScope.get_loss")
        _, truths = self._gold_windows(list(examples))
        return self._get_loss(truths, scores)

    def _get_loss(self, truths: List[List[str]], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        if len(truths) != len(scores):
            raise ValueError(Errors.E310.format(n_scores=len(scores), n_truths=len(truths)))
        loss_func = SequenceCategoricalCrossentropy(names=self.labels, normalize=False)
        d_scores, loss = loss_func(scores, truths)
        if self.model.ops.xp.isnan(loss):
            raise ValueError(SpacyErrors.E910.format(name=self.name))
        return float(loss), d_scores

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
        n_cues = 0
        for eg in get_examples():
            n_cues += len(get_negations(eg.reference))
            if n_cues:
                break
        if not n_cues:
            raise ValueError(Errors.E311.format(name=self.name))
        sample = list(islice(get_examples(), 10))
        if not sample:
            raise ValueError(SpacyErrors.E923.format(name=self.name))
        windows, truths = self._gold_windows(sample)
        label_sample = [
            self.model.ops.asarray2f(one_hot([self.labels.index(t) for t in truth], len(self.labels)))
            for truth in truths
        ]
        self.model.set_dim("nO", len(self.labels))
        self.model.initialize(X=([eg.predicted for eg in sample], windows), Y=label_sample)

    def finish_update(self, sgd: Optimizer) -> None:
        """Update parameters using the current parameter gradients, with the
        component's learning-rate factor.

        sgd (thinc.api.Optimizer): The optimizer.
        """
        self.model.finish_update(sgd if self.lr_scale == 1.0 else ScaledOptimizer(sgd, self.lr_scale))

    def _gold_windows(self, examples: List[Example]) -> Tuple[List[CueWindow], List[List[str]]]:
        """The windows of the gold cues, projected onto the predicted tokens, and the
        gold label of each window token."""
        windows: List[CueWindow] = []
        truths: List[List[str]] = []
        for d, eg in enumerate(examples):
            pred, ref = eg.predicted, eg.reference
            gold = get_negations(ref)
            if not gold or not len(pred):
                continue
            ref_index, pred_index = CharIndex(ref), CharIndex(pred)
            projected: List[Negation] = []
            for neg in gold:
                cue = project_parts(neg.cue, ref_index, pred_index)
                if not cue:
                    continue
                projected.append(Negation(
                    pred, cue,
                    project_parts(neg.scope, ref_index, pred_index),
                    project_parts(neg.event, ref_index, pred_index),
                ))
            for neg, window in zip(projected, cue_windows(pred, d, projected)):
                windows.append(window)
                truths.append(_gold_window_labels(neg, window))
        return windows, truths


def cue_windows(doc: Doc, doc_index: int, negations: List[Negation]) -> List[CueWindow]:
    """The scope-model input of each negation: its cue's sentence, with cue types.

    doc (Doc): the doc.
    doc_index (int): the doc's position in the batch.
    negations (List[Negation]): the negations of the doc.
    RETURNS (List[CueWindow]): one window per negation, in the same order.
    """
    if not negations:
        return []
    ranges, of_token = sentence_ranges(doc)
    windows: List[CueWindow] = []
    for neg in negations:
        start, end = ranges[int(of_token[neg.cue[0].i])]
        cues = numpy.zeros(end - start, dtype="int32")
        for p in neg.cue:
            if start <= p.i < end:
                cues[p.i - start] = CUE_AFFIX if p.is_partial(doc) else CUE_WHOLE
        windows.append(CueWindow(doc_index, start, end, cues))
    return windows


def contiguous_labels(scores: numpy.ndarray, is_cue: numpy.ndarray) -> numpy.ndarray:
    """The label ids of a cue window whose scope is the best-scoring contiguous span
    around the cue: the tokens from the span's start to its end, the cue's excepted.
    A span scores the log-probabilities of scope (``S`` or ``SE``) of its tokens and of
    no scope (``O`` or ``E``) of the others; each token then gets the better of its two
    labels on its side.

    scores (numpy.ndarray): the scope model's scores (logits), one row per window token,
        columns in the order of ``SCOPE_LABELS``.
    is_cue (numpy.ndarray): per window token, whether it holds a cue part.
    RETURNS (numpy.ndarray): the label id of each token.
    """
    cue_ids = numpy.flatnonzero(is_cue)
    if not len(cue_ids):  # also an empty window
        return scores.argmax(axis=1)
    log_p = scores - scores.max(axis=1, keepdims=True)
    log_p = log_p - numpy.log(numpy.exp(log_p).sum(axis=1, keepdims=True))
    in_ids = SCOPE_IDS
    out_ids = [SCOPE_LABELS.index("O"), SCOPE_LABELS.index("E")]
    gain = numpy.logaddexp(log_p[:, in_ids[0]], log_p[:, in_ids[1]]) - numpy.logaddexp(
        log_p[:, out_ids[0]], log_p[:, out_ids[1]]
    )
    gain[is_cue] = 0.0
    first, last = int(cue_ids[0]), int(cue_ids[-1])
    # The best start at or before the cue (sum of the gains from there to the cue; an
    # empty extension on a tie) and, symmetrically, the best end.
    left = numpy.concatenate([numpy.cumsum(gain[:first][::-1])[::-1], [0.0]])
    start = int(numpy.flatnonzero(left == left.max())[-1])
    right = numpy.concatenate([[0.0], numpy.cumsum(gain[last + 1 :])])
    end = last + int(numpy.flatnonzero(right == right.max())[0])
    inside = numpy.zeros(len(scores), dtype=bool)
    inside[start : end + 1] = True
    best_in = numpy.where(scores[:, in_ids[0]] >= scores[:, in_ids[1]], in_ids[0], in_ids[1])
    best_out = numpy.where(scores[:, out_ids[0]] >= scores[:, out_ids[1]], out_ids[0], out_ids[1])
    ids = numpy.where(inside, best_in, best_out)
    ids[is_cue] = scores[is_cue].argmax(axis=1)
    return ids


def split_at_other_cues(doc: Doc, negations: List[Negation]) -> List[Negation]:
    """Share out the tokens that two negations of a sentence both claim: such a token
    stays only in the scope (and event) of the negation whose cue is nearer (in
    tokens; on a tie, in both), unless one negation is nested in the other (a cue
    token of either lies in the other's scope), where both keep it. It undoes the
    scope tagger's commonest error in sentences with several cues: tagging the other
    cue's scope as well.

    doc (Doc): the doc.
    negations (List[Negation]): the doc's negations with decoded scopes and events.
    RETURNS (List[Negation]): the negations without the tokens they lost, same order.
    """
    _, of_token = sentence_ranges(doc)
    scopes = [{p.i for p in neg.scope} for neg in negations]
    cues = [sorted({p.i for p in neg.cue}) for neg in negations]
    sents = [of_token[cue[0]] for cue in cues]

    def distance(i: int, k: int) -> int:
        return min(abs(i - j) for j in cues[k])

    drops: List[Set[int]] = [set() for _ in negations]
    for k in range(len(negations)):
        for m in range(k + 1, len(negations)):
            if sents[k] != sents[m]:
                continue
            if any(j in scopes[k] for j in cues[m]) or any(j in scopes[m] for j in cues[k]):
                continue  # nested
            for i in scopes[k] & scopes[m]:
                d_k, d_m = distance(i, k), distance(i, m)
                if d_k > d_m:
                    drops[k].add(i)
                elif d_m > d_k:
                    drops[m].add(i)
    out: List[Negation] = []
    for neg, drop in zip(negations, drops):
        if drop:
            neg = Negation(doc, neg.cue, [p for p in neg.scope if p.i not in drop],
                           [p for p in neg.event if p.i not in drop], id=neg.id)
        out.append(neg)
    return out


def _gold_window_labels(neg: Negation, window: CueWindow) -> List[str]:
    scope = {p.i for p in neg.scope}
    event = {p.i for p in neg.event}
    labels: List[str] = []
    for i in range(window.start, window.end):
        label = ("S" if i in scope else "") + ("E" if i in event else "")
        labels.append(label or "O")
    return labels


def _decode(doc: Doc, neg: Negation, window: CueWindow, labels: List[str]) -> Tuple[List[Part], List[Part]]:
    """Scope and event parts of a negation from the labels of its window."""
    cue_parts = {p.i: p for p in neg.cue}
    scope: List[Part] = []
    event: List[Part] = []
    for i, label in zip(range(window.start, window.end), labels):
        if label == "O":
            continue
        token = doc[i]
        if token.is_space:
            continue
        cue_part = cue_parts.get(i)
        if cue_part is None:
            part = Part.whole(token)
        elif cue_part.is_partial(doc):
            rng = remainder(cue_part, token.text)
            if rng is None:
                continue
            part = Part(i, rng[0], rng[1])
        else:
            continue
        if "S" in label:
            scope.append(part)
        if "E" in label:
            event.append(part)
    return scope, event
