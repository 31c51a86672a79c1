"""``negation_graph``: a trainable component that resolves negation as graph parsing
(Kurtz et al. 2020; the DP-direct and DP-nested systems of Sineva et al. 2021).

One model predicts cues, scopes and events in one step: each sentence's negation
instances are encoded as one dependency graph over its tokens and an artificial root
(:mod:`.encoding`; ``encoding = "direct"`` or ``"nested"``), an unfactorized biaffine
scorer (``spacy-negation.GraphParser.v1``, Dozat and Manning 2018) labels every (head,
dependent) pair, and the graph is decoded back to instances, affixal cues and
discontinuous cues included. It replaces ``negation_cue`` + ``negation_scope`` and writes
``doc._.negations`` as they do, so the same scorers apply.

During training, the gold instances of the reference are projected onto the predicted
tokens and encoded per sentence of the predicted doc (the sentence of each instance's
first cue part); what the encoding cannot express (a partial scope part other than the
rest beside an affixal cue, an embedded scope reaching outside its outer scope in the
nested encoding) is learned in its nearest encodable form.
"""
import copy
from dataclasses import replace
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from thinc.api import Config, Model
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example, validate_get_examples
from spacy.vocab import Vocab

from ...alignment import CharIndex, project_parts
from ...errors import Errors
from ...ml.biaffine import graph_ranges, sentence_spans
from ...negation import Negation, PartLike, get_negations, register_extensions, set_negations
from ..base import NegationPipe
from ..cue.factory import DEFAULT_CUE_MODEL
from .decoding import CUE_DECODINGS, GraphDecoder, RootGroups, graph_labels, root_groups
from .encoding import ENCODINGS, NO_EDGE, Instance, PartTuple, decode, encode, graph_of_pairs, pair_labels, parse_label

#: The default model: the biaffine scorer on the default CNN tok2vec of ``negation_cue``.
DEFAULT_GRAPH_MODEL = Config({
    "@architectures": "spacy-negation.GraphParser.v1", "hidden_width": 128, "dropout": 0.33, "nO": None,
    "tok2vec": copy.deepcopy(dict(DEFAULT_CUE_MODEL["tok2vec"])),
})


@Language.factory(
    "negation_graph",
    assigns=["doc.spans", "doc._.negations"],
    default_config={
        "model": DEFAULT_GRAPH_MODEL,
        "encoding": "nested",
        "decoder": {"@misc": "spacy-negation.graph_decoder.v1"},
        "lr_scale": 1.0,
        "scorer": {"@scorers": "spacy-negation.negation_scorer.v1"},
    },
    default_score_weights={"neg_nis_tok_f": 1.0, "neg_nis_tok_p": None, "neg_nis_tok_r": None,
                           "neg_cue_f": 0.0, "neg_cue_p": None, "neg_cue_r": None},
)
def make_negation_graph(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    encoding: str,
    decoder: GraphDecoder,
    lr_scale: float,
    scorer: Optional[Callable],
) -> "NegationGraph":
    """Create a graph-parsing negation resolver.

    model (Model[List[Doc], List[Floats2d]]): per sentence, scores over the pair labels
        (``spacy-negation.GraphParser.v1``).
    encoding (str): "direct" (Kurtz et al. 2020) or "nested" (Sineva et al. 2021).
    decoder (GraphDecoder): reads the labels off the scores
        (``spacy-negation.graph_decoder.v1``).
    lr_scale (float): the component's learning rate relative to the optimizer's.
    scorer (Optional[Callable]): the scoring method.
    """
    return NegationGraph(nlp.vocab, model, name, encoding=encoding, decoder=decoder, lr_scale=lr_scale, scorer=scorer)


class NegationGraph(NegationPipe):
    """Pipeline component that finds negation cues, scopes and events as one graph."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model[List[Doc], List[Floats2d]],
        name: str = "negation_graph",
        *,
        encoding: str = "nested",
        decoder: Optional[GraphDecoder] = None,
        lr_scale: float = 1.0,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize a graph-parsing negation resolver: the shared vocabulary, the
        model, the component's name (the key of its losses), the graph encoding
        ("direct" or "nested"), the decoder that reads the labels off the scores
        (:mod:`.decoding`; None: the built-in one with its defaults), the learning-rate
        factor of its weights and its scoring method.
        """
        if encoding not in ENCODINGS:
            raise ValueError(Errors.E860.format(encoding=encoding, encodings=", ".join(ENCODINGS)))
        decoder = GraphDecoder() if decoder is None else decoder
        if isinstance(decoder, GraphDecoder):
            if decoder.cue_decoding not in CUE_DECODINGS:
                raise ValueError(Errors.E871.format(value=decoder.cue_decoding, values=", ".join(CUE_DECODINGS)))
            if not numpy.isfinite(decoder.scope_bias):
                raise ValueError(Errors.E872.format(name=name, value=decoder.scope_bias))
            decoder = replace(decoder, contiguous=bool(decoder.contiguous), scope_bias=float(decoder.scope_bias))
        register_extensions()
        self.vocab, self.model, self.name = vocab, model, name
        self.decoder = decoder
        self.lr_scale, self.scorer = lr_scale, scorer
        self.cfg: Dict[str, Any] = {"labels": [NO_EDGE], "encoding": encoding}

    @property
    def encoding(self) -> str:
        """The graph encoding ("direct" or "nested")."""
        return str(self.cfg["encoding"])

    def predict(self, docs: Iterable[Doc]) -> List[List[numpy.ndarray]]:
        """Apply the pipeline's model to a batch of docs, without modifying them.

        docs (Iterable[Doc]): The documents to predict.
        RETURNS (List[List[numpy.ndarray]]): Per doc and sentence, the label id of each
            (head, dependent) pair (row ``head * n + dependent - 1``): the best label,
            a cue label or none on the arcs from the root.
        """
        docs = list(docs)
        out: List[List[numpy.ndarray]] = [[] for _ in docs]
        spans = sentence_spans(docs)
        if not spans:
            return out
        scores = self.model.predict(docs)
        labels = graph_labels(self.labels)
        for (d, start, end), s in zip(spans, scores):
            n = end - start
            s = self.model.ops.to_numpy(s)
            self._check_shape(s, n)
            words = [t.text for t in docs[d][start:end]]
            out[d].append(self.decoder.label_ids(s, words, labels).astype("int32"))
        return out

    # --- the built-in decoder's settings and steps (see :mod:`.decoding`) ---------------
    @property
    def cue_decoding(self) -> str:
        """How cues are read off the root's arcs (CUE_DECODINGS): the decoder's setting."""
        return str(self.decoder.cue_decoding)

    @property
    def contiguous(self) -> bool:
        """Whether each cue head's scope is decoded as a span: the decoder's setting."""
        return bool(self.decoder.contiguous)

    @contiguous.setter
    def contiguous(self, value: bool) -> None:
        self.decoder.contiguous = bool(value)

    @property
    def scope_bias(self) -> float:
        """Subtracted from the scope labels' log-odds: the decoder's setting."""
        return float(self.decoder.scope_bias)

    @scope_bias.setter
    def scope_bias(self, value: float) -> None:
        self.decoder.scope_bias = float(value)

    def scope_label_ids(self, scores: numpy.ndarray, head: int, has_scope: numpy.ndarray,
                        has_cue: Optional[numpy.ndarray] = None) -> numpy.ndarray:
        """The labels of the arcs from one cue head to every token, by the decoder
        (:meth:`.GraphDecoder.scope_label_ids`).

        scores (numpy.ndarray): the scores of the arcs from the head, one row per
            dependent token, one column per label.
        head (int): the head's token (sentence-relative).
        has_scope (numpy.ndarray): per label, whether it puts its token in the scope.
        has_cue (Optional[numpy.ndarray]): per label, whether it is a cue part (read off
            the labels if None).
        RETURNS (numpy.ndarray): the label id of each arc.
        """
        if has_cue is None:
            has_cue = numpy.asarray([parse_label(label).cue is not None for label in self.labels])
        ids: numpy.ndarray = self.decoder.scope_label_ids(scores, head, has_scope, has_cue)
        return ids

    def _root_groups(self) -> RootGroups:
        """The labels an arc from the root may carry, by group (:func:`.root_groups`)."""
        return root_groups(self.labels)

    def _root_ids_by_group(self, scores: numpy.ndarray, words: Sequence[str],
                           groups: Optional[RootGroups] = None) -> numpy.ndarray:
        """The labels of the root's arcs to each word by the "affix_groups" decoding
        (:meth:`.GraphDecoder.root_ids_by_group`)."""
        return GraphDecoder.root_ids_by_group(scores, words, self._root_groups() if groups is None else groups)

    def _check_shape(self, scores: numpy.ndarray, n: int) -> None:
        expected = ((n + 1) * n, len(self.labels))
        if tuple(scores.shape) != expected:
            raise ValueError(Errors.E868.format(name=self.name, shape=tuple(scores.shape), n=n,
                                                expected=expected[0], n_labels=expected[1]))

    def set_annotations(self, docs: Iterable[Doc], label_ids: List[List[numpy.ndarray]]) -> None:
        """Write the decoded instances as the docs' negations (replacing any others).

        docs (Iterable[Doc]): The documents to modify.
        label_ids (List[List[numpy.ndarray]]): The label ids, produced by predict.
        """
        labels = self.labels
        for doc, doc_ids in zip(docs, label_ids):
            negations: List[Dict[str, Iterable[PartLike]]] = []
            for (start, end), ids in zip(graph_ranges(doc)[0], doc_ids):
                words = [t.text for t in doc[start:end]]
                graph = graph_of_pairs([labels[int(i)] for i in ids], end - start)
                for inst in decode(words, graph, self.encoding):
                    negations.append({
                        role: [(i + start, a, b) for i, a, b in parts if not doc[i + start].is_space]
                        for role, parts in zip(("cue", "scope", "event"), inst)
                    })
            set_negations(doc, [neg for neg in negations if neg["cue"]])

    def _inputs_and_truths(self, examples: List[Example]) -> Tuple[List[Doc], List[List[str]]]:
        """The predicted docs and, per sentence of them, the gold label of each pair."""
        truths: List[List[str]] = []
        for eg in examples:
            pred = eg.predicted
            for (start, end), instances in zip(graph_ranges(pred)[0], gold_instances(eg)):
                words = [t.text for t in pred[start:end]]
                truths.append(pair_labels(encode(words, instances, self.encoding), end - start))
        return [eg.predicted for eg in examples], truths

    def _loss(self, truths: Sequence[Sequence[Optional[str]]], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        if len(truths) != len(scores):
            raise ValueError(Errors.E867.format(name=self.name, n_scores=len(scores), n_truths=len(truths)))
        return super()._loss(truths, scores)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Iterable[str]] = None,
    ) -> None:
        """Initialize the pipe for training, using a representative set
        of data examples.

        get_examples (Callable[[], Iterable[Example]]): Function that
            returns a representative sample of gold-standard Example objects.
        nlp (Language): The current nlp object the component is part of.
        labels (Optional[Iterable[str]]): The pair labels (e.g. from ``spacy init
            labels``); read from the examples if None.
        """
        validate_get_examples(get_examples, "NegationGraph.initialize")
        if labels is None:
            found = set()
            for eg in get_examples():
                _, truths = self._inputs_and_truths([eg])
                for seq in truths:
                    found.update(seq)
            labels = sorted(found - {NO_EDGE})
        for label in labels:
            self.add_label(label)
        if len(self.labels) < 2:
            raise ValueError(Errors.E866.format(name=self.name))
        self._initialize_model(get_examples)

    @property
    def label_data(self) -> List[str]:
        """The pair labels, for ``spacy init labels``."""
        return list(self.labels)

    def add_label(self, label: str) -> int:
        """Add a pair label (see :mod:`.encoding`: 'C', 'C:un-', 'S+E', ...).

        label (str): The label to add.
        RETURNS (int): 0 if label is already present, otherwise 1.
        """
        if not isinstance(label, str):
            raise ValueError(SpacyErrors.E187)
        parse_label(label)
        if label in self.labels:
            return 0
        self._allow_extra_label()
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        return 1


def gold_instances(example: Example) -> List[List[Instance]]:
    """The gold instances of an example, projected onto the predicted tokens, per
    sentence of the predicted doc (see :func:`negations_as_instances`).

    example (Example): the example.
    RETURNS (List[List[Instance]]): per predicted sentence, its instances.
    """
    pred, ref = example.predicted, example.reference
    gold = get_negations(ref)
    if not gold or not len(pred):
        return [[] for _ in graph_ranges(pred)[0]]
    ref_index, pred_index = CharIndex(ref), CharIndex(pred)
    projected: List[Negation] = []
    for neg in gold:
        cue = project_parts(neg.cue, ref_index, pred_index)
        if cue:
            projected.append(Negation(pred, cue, project_parts(neg.scope, ref_index, pred_index),
                                      project_parts(neg.event, ref_index, pred_index)))
    return negations_as_instances(pred, projected)


def negations_as_instances(doc: Doc, negations: Optional[List[Negation]] = None) -> List[List[Instance]]:
    """A doc's negations as sentence-relative instances, per sentence (the sentence of
    each instance's first cue part; parts outside it left out).

    doc (Doc): the doc.
    negations (Optional[List[Negation]]): the negations (the doc's if None).
    RETURNS (List[List[Instance]]): per sentence, its instances.
    """
    ranges, of_token = graph_ranges(doc)
    out: List[List[Instance]] = [[] for _ in ranges]
    for neg in get_negations(doc) if negations is None else negations:
        k = int(of_token[neg.cue[0].i])
        start, end = ranges[k]
        out[k].append(Instance(*(
            tuple((p.i - start, p.start, p.end) for p in neg.parts(role) if start <= p.i < end)
            for role in ("cue", "scope", "event")
        )))
    return out
