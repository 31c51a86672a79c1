"""The decoder of ``negation_graph``: how the labels of a sentence's (head, dependent) pairs
are read off the biaffine scores. The decoder is a registered function of the component's
config (``[components.negation_graph.decoder]``), as the decoders of ``negation_cue`` and
``negation_scope`` are; another registered function that returns an object with the same
``label_ids`` method replaces it."""
from dataclasses import dataclass, fields
from typing import Any, Dict, List, NamedTuple, Sequence, Tuple

import numpy
from spacy.util import registry

from ..scope.decoding import best_span
from .encoding import NO_EDGE, affix_fits, parse_label

#: How the label of an arc from the root (a cue or none) is chosen: "argmax", the best
#: label (an affixal label whose affix is not in the token decodes to no cue); or
#: "affix_groups", the best of three groups by probability mass (no cue, whole-word cue,
#: affixal cue), then within an affixal win the best affixal label whose affix is in the
#: token (none fits: the better of the other two groups).
CUE_DECODINGS = ("argmax", "affix_groups")

#: The labels an arc from the root may carry, as (label id, cue form), grouped into no cue
#: ("none"), whole-word cue ("word") and affixal cue ("affix").
RootGroups = Dict[str, List[Tuple[int, str]]]


class GraphLabels(NamedTuple):
    """What decoding needs to know of a component's labels, read once per batch
    (:func:`graph_labels`)."""

    #: Per label, whether an arc from the root may carry it.
    root_ok: numpy.ndarray
    #: Per label, whether it puts its token in the scope.
    has_scope: numpy.ndarray
    #: Per label, whether it is a cue part.
    has_cue: numpy.ndarray
    #: The id of the label of no arc.
    no_edge: int
    #: The root's labels by group (see RootGroups).
    groups: RootGroups


def root_groups(labels: Sequence[str]) -> RootGroups:
    """The labels an arc from the root may carry, by group (see RootGroups).

    labels (Sequence[str]): the component's labels.
    RETURNS (RootGroups): group -> (label id, cue form).
    """
    groups: RootGroups = {"none": [], "word": [], "affix": []}
    for k, label in enumerate(labels):
        parsed = parse_label(label)
        if parsed.is_root_label:
            group = "none" if parsed.cue is None else "affix" if parsed.cue else "word"
            groups[group].append((k, parsed.cue or ""))
    return groups


def graph_labels(labels: Sequence[str]) -> GraphLabels:
    """The label sets of a component's labels.

    labels (Sequence[str]): the component's labels.
    RETURNS (GraphLabels): the label sets.
    """
    parsed = [parse_label(label) for label in labels]
    return GraphLabels(root_ok=numpy.asarray([label.is_root_label for label in parsed]),
                       has_scope=numpy.asarray([label.scope is not None for label in parsed]),
                       has_cue=numpy.asarray([label.cue is not None for label in parsed]),
                       no_edge=list(labels).index(NO_EDGE), groups=root_groups(labels))


@registry.misc("spacy-negation.graph_decoder.v1")
def make_graph_decoder(cue_decoding: str = "argmax", contiguous: bool = False,
                       scope_bias: float = 0.0) -> "GraphDecoder":
    """The decoder of ``negation_graph``.

    cue_decoding (str): "argmax" or "affix_groups" (see CUE_DECODINGS).
    contiguous (bool): decode the scope arcs of each cue head as the best-scoring span
        that joins its cue without a gap, as BioScope and SFU Review annotate scopes
        (the taggers' ``contiguous``; see :meth:`GraphDecoder.scope_label_ids`).
    scope_bias (float): subtracted from the log-odds of the scope labels on the arcs
        from cue heads before decoding; above 0, fewer tokens are in scopes.
    RETURNS (GraphDecoder): the decoder.
    """
    return GraphDecoder(cue_decoding=cue_decoding, contiguous=contiguous, scope_bias=scope_bias)


@dataclass
class GraphDecoder:
    """Decodes the graph parser's scores; the settings are those of
    ``make_graph_decoder``."""

    cue_decoding: str = "argmax"
    contiguous: bool = False
    scope_bias: float = 0.0

    def label_ids(self, scores: numpy.ndarray, words: Sequence[str], labels: GraphLabels) -> numpy.ndarray:
        """The label id of each (head, dependent) pair of a sentence (row
        ``head * n + dependent - 1``, the root's arcs first): the best label, a cue
        label or none on the arcs from the root.

        scores (numpy.ndarray): the sentence's scores, ((n + 1) * n, labels).
        words (Sequence[str]): the sentence's token texts.
        labels (GraphLabels): the label sets of the component's labels.
        RETURNS (numpy.ndarray): the label ids.
        """
        n = len(words)
        ids = scores.argmax(axis=1)
        if self.cue_decoding == "affix_groups":
            ids[:n] = self.root_ids_by_group(scores[:n], words, labels.groups)
        else:
            ids[:n] = numpy.where(labels.root_ok, scores[:n], -numpy.inf).argmax(axis=1)
        if self.contiguous or self.scope_bias:
            for h in numpy.flatnonzero(ids[:n] != labels.no_edge):
                block = slice((h + 1) * n, (h + 2) * n)
                ids[block] = self.scope_label_ids(scores[block], int(h), labels.has_scope, labels.has_cue)
        return ids

    def scope_label_ids(self, scores: numpy.ndarray, head: int, has_scope: numpy.ndarray,
                        has_cue: numpy.ndarray) -> numpy.ndarray:
        """The labels of the arcs from one cue head to every token, by the scope
        decoding settings: ``scope_bias`` is subtracted from the scope labels' scores;
        with ``contiguous``, the scope is the span around the head's cue tokens (the
        head and the tokens whose best label is a cue part) with the greatest sum of
        log-odds of scope (``best_span``, as the taggers decode it), each token inside it
        getting its best scope label and each outside its best other label. The arcs to
        the cue tokens keep their best label.

        scores (numpy.ndarray): the scores of the arcs from the head, one row per
            dependent token, one column per label.
        head (int): the head's token (sentence-relative).
        has_scope (numpy.ndarray): per label, whether it puts its token in the scope.
        has_cue (numpy.ndarray): per label, whether it is a cue part.
        RETURNS (numpy.ndarray): the label id of each arc.
        """
        scores = scores.copy()
        scores[:, has_scope] -= self.scope_bias
        ids = scores.argmax(axis=1)
        if not self.contiguous:
            return ids
        is_cue = has_cue[ids]
        is_cue[head] = True
        z = scores - scores.max(axis=1, keepdims=True)
        log_in = numpy.logaddexp.reduce(z[:, has_scope], axis=1)
        log_out = numpy.logaddexp.reduce(z[:, ~has_scope], axis=1)
        start, end = best_span(log_in - log_out, is_cue)
        inside = numpy.zeros(len(ids), dtype=bool)
        inside[start:end + 1] = True
        best_in = numpy.where(has_scope, scores, -numpy.inf).argmax(axis=1)
        best_out = numpy.where(has_scope, -numpy.inf, scores).argmax(axis=1)
        result: numpy.ndarray = numpy.where(is_cue, ids, numpy.where(inside, best_in, best_out))
        return result

    @staticmethod
    def root_ids_by_group(scores: numpy.ndarray, words: Sequence[str], groups: RootGroups) -> numpy.ndarray:
        """The labels of the root's arcs to each word by the "affix_groups" decoding:
        the group of highest probability mass among no cue, whole-word cue and affixal
        cue (softmax over the labels an arc from the root may carry, grouped by
        :func:`root_groups`), then the best label of the group; an affixal label only
        where its affix is in the word.

        scores (numpy.ndarray): the scores of the root's arcs, one row per word.
        words (Sequence[str]): the words.
        groups (RootGroups): the root's labels by group.
        RETURNS (numpy.ndarray): the label id of each arc.
        """
        root = [k for members in groups.values() for k, _ in members]
        probs = numpy.zeros_like(scores)
        z = scores[:, root] - scores[:, root].max(axis=1, keepdims=True)
        probs[:, root] = numpy.exp(z) / numpy.exp(z).sum(axis=1, keepdims=True)
        out = numpy.zeros(len(words), dtype="int64")
        for i, word in enumerate(words):
            mass = {name: float(probs[i, [k for k, _ in members]].sum()) for name, members in groups.items()}
            fits = [k for k, form in groups["affix"] if affix_fits(form, word)]
            if fits and mass["affix"] > max(mass["none"], mass["word"]):
                out[i] = max(fits, key=lambda k: probs[i, k])
            else:
                out[i] = max([k for k, _ in groups["none"] + groups["word"]], key=lambda k: probs[i, k])
        return out


#: The settings of ``spacy-negation.graph_decoder.v1`` and their defaults.
GRAPH_DECODER_DEFAULTS: Dict[str, Any] = {field.name: field.default for field in fields(GraphDecoder)}

