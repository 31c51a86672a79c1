"""The speculation decoding of ``negation_cue`` (a component with ``kinds = ["negation",
"speculation"]``): a token whose best label is a speculation label is a speculation cue
token and no negation cue token; the component's cue decoder (:mod:`.decoding`) reads the
negation labels of the other tokens as a negation-only model's (:func:`decode_kinds`: the
tokens of speculation cues are 'O' to it), and each speculation cue token gets the best
speculation label possible there ('I' only after a 'B' in its sentence;
:func:`speculation_label_ids`). Speculation cues are whole tokens, as the tagger's labels
join them (:func:`speculation_cues`): no lexicon adds or drops one."""
from dataclasses import dataclass
from typing import Any, Iterator, List, Tuple

import numpy
from spacy.tokens import Doc

from ...negation import Part
from ...sentences import sentence_ranges
from .decoding import CueLexicons, join_positions
from .labels import SPECULATION, label_kind, parse_label

#: A score far below any (a logit): a column that cannot win.
_NEVER = -1e9


@dataclass(frozen=True)
class LabelKinds:
    """The score columns of each kind of cue label.

    negation (numpy.ndarray): the ids of 'O' and the negation labels, in label order.
    speculation (numpy.ndarray): the ids of the speculation labels.
    negation_labels (Tuple[str, ...]): the labels of ``negation``.
    local (numpy.ndarray): per label id, its position in ``negation`` (0, 'O', for a
        speculation label).
    """

    negation: numpy.ndarray
    speculation: numpy.ndarray
    negation_labels: Tuple[str, ...]
    local: numpy.ndarray

    @classmethod
    def of(cls, labels: Tuple[str, ...]) -> "LabelKinds":
        """The columns of a component's labels ('O' first).

        labels (Tuple[str, ...]): the labels.
        RETURNS (LabelKinds): the columns.
        """
        is_spec = [label_kind(label) == SPECULATION for label in labels]
        negation = numpy.asarray([k for k, spec in enumerate(is_spec) if not spec], dtype="int64")
        local = numpy.zeros(len(labels), dtype="int64")
        local[negation] = numpy.arange(len(negation))
        return cls(negation, numpy.asarray([k for k, spec in enumerate(is_spec) if spec], dtype="int64"),
                   tuple(labels[k] for k in negation), local)


def decode_kinds(decoder: Any, doc: Doc, scores: numpy.ndarray, labels: Tuple[str, ...], lexicons: CueLexicons,
                 speculation: bool = True) -> numpy.ndarray:
    """The label ids of a doc's tokens for a component with speculation labels: the
    tokens whose best label is a speculation label are speculation cue tokens (with
    ``speculation``; else 'O'); the decoder decodes the negation labels of the others
    as a negation-only model's, the speculation cue tokens 'O' to it.

    decoder (Any): the cue decoder (``label_ids(doc, scores, labels, lexicons)``).
    doc (Doc): the doc.
    scores (numpy.ndarray): the tagger's scores, one row per token, a column per label.
    labels (Tuple[str, ...]): the labels ('O' first).
    lexicons (CueLexicons): the learned lexicons.
    speculation (bool): decode the speculation cue tokens (False: they are 'O').
    RETURNS (numpy.ndarray): the label id of each token (into ``labels``).
    """
    kinds = LabelKinds.of(labels)
    best = scores.argmax(axis=1) if len(doc) else numpy.zeros(0, dtype="int64")
    is_spec = numpy.isin(best, kinds.speculation)
    negation_scores = scores[:, kinds.negation]
    if is_spec.any():
        negation_scores = negation_scores.copy()
        negation_scores[is_spec] = _NEVER
        negation_scores[is_spec, 0] = 0.0
    ids = kinds.negation[decoder.label_ids(doc, negation_scores, kinds.negation_labels, lexicons)].astype("int32")
    if speculation and is_spec.any():
        spec_ids = speculation_label_ids(doc, scores, labels, is_spec)
        ids[is_spec] = spec_ids[is_spec]
    return ids


def speculation_label_ids(doc: Doc, scores: numpy.ndarray, labels: Tuple[str, ...],
                          is_spec: numpy.ndarray) -> numpy.ndarray:
    """Per token marked in ``is_spec``, the best-scoring speculation label possible
    there: an 'I' only after a 'B' speculation cue in its sentence (else its next best
    speculation label); the other tokens 'O' (id 0).

    doc (Doc): the doc.
    scores (numpy.ndarray): the tagger's scores.
    labels (Tuple[str, ...]): the labels ('O' first).
    is_spec (numpy.ndarray): per token, whether it is a speculation cue token.
    RETURNS (numpy.ndarray): the label ids.
    """
    kinds = LabelKinds.of(labels)
    position = {int(k): parse_label(labels[int(k)])[0] for k in kinds.speculation}
    ids = numpy.zeros(len(doc), dtype="int32")
    for start, end in sentence_ranges(doc)[0]:
        has_open = False
        for i in range(start, end):
            if not is_spec[i] or doc[i].is_space:
                continue
            order = kinds.speculation[numpy.argsort(-scores[i, kinds.speculation], kind="stable")]
            chosen = next((int(k) for k in order if position[int(k)] != "I" or has_open), None)
            if chosen is None:
                continue
            has_open = has_open or position[chosen] == "B"
            ids[i] = chosen
    return ids


def negation_ids(ids: numpy.ndarray, labels: Tuple[str, ...]) -> Tuple[numpy.ndarray, Tuple[str, ...]]:
    """Label ids of a component with speculation labels as ids into its negation labels
    ('O' and the negation labels; a speculation label becomes 'O'), for the decoder's
    ``cues``.

    ids (numpy.ndarray): the label id of each token.
    labels (Tuple[str, ...]): the labels.
    RETURNS (Tuple[numpy.ndarray, Tuple[str, ...]]): the ids and the negation labels.
    """
    kinds = LabelKinds.of(labels)
    return kinds.local[ids.astype("int64")].astype(ids.dtype), kinds.negation_labels


def speculation_cues(doc: Doc, ids: numpy.ndarray, labels: Tuple[str, ...]) -> List[List[Part]]:
    """The whole-token parts of each speculation cue of decoded label ids: an
    'I|speculation' joins the most recent 'B|speculation' cue of its sentence (an 'I'
    without one starts a cue).

    doc (Doc): the doc.
    ids (numpy.ndarray): the label id of each token.
    labels (Tuple[str, ...]): the labels.
    RETURNS (List[List[Part]]): the parts of each cue.
    """
    spec = {k: parse_label(label)[0] for k, label in enumerate(labels) if label_kind(label) == SPECULATION}
    if not spec:
        return []
    marked = numpy.flatnonzero(numpy.isin(ids, list(spec)))
    if not len(marked):
        return []
    _, of_sentence = sentence_ranges(doc)

    def tagged() -> Iterator[Tuple[int, str, Part]]:
        for i in marked.tolist():
            yield int(of_sentence[i]), spec[int(ids[i])], Part.whole(doc[i])

    return join_positions(tagged())
