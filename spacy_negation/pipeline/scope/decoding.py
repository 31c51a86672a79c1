"""The scope label scheme and the decoder of ``negation_scope``: from the scores of a cue
window to label ids (``label_ids``), and the post-processing of a doc's resolved
negations (``resolve``). The decoder is a registered function of the component's config
(``[components.negation_scope.decoder]``), as spaCy's span categorizer takes its
``suggester``; another registered function that returns an object with the same two
methods replaces it."""
from dataclasses import dataclass, fields
from typing import Any, Dict, List, Set, Tuple

import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...negation import Negation
from ...sentences import sentence_ranges

#: The scope labels: outside, scope, negated event, both.
SCOPE_LABELS = ("O", "S", "E", "SE")
#: The ids of the labels that put a token in the scope.
SCOPE_IDS = [SCOPE_LABELS.index("S"), SCOPE_LABELS.index("SE")]

@registry.misc("spacy-negation.scope_decoder.v1")
def make_scope_decoder(split_at_other_cues: bool = True, contiguous: bool = False, scope_bias: float = 0.0) -> "ScopeDecoder":
    """The decoder of ``negation_scope``.

    split_at_other_cues (bool): a token that two negations of a sentence both put in
        their scopes stays with the nearer cue only, unless one is nested in the other
        (see ``split_at_other_cues``).
    contiguous (bool): decode each scope as the best-scoring span that joins its cue
        without a gap (see ``contiguous_labels``). BioScope and SFU Review annotate
        scopes so; CD-SCO does not.
    scope_bias (float): subtracted from the scope labels' scores (log-odds) before
        decoding; above 0, fewer tokens are tagged as scope.
    RETURNS (ScopeDecoder): the decoder.
    """
    return ScopeDecoder(split_at_other_cues=split_at_other_cues, contiguous=contiguous, scope_bias=scope_bias)


@dataclass
class ScopeDecoder:
    """Decodes the scope tagger's scores; the settings are those of
    ``make_scope_decoder``."""

    split_at_other_cues: bool = True
    contiguous: bool = False
    scope_bias: float = 0.0

    def label_ids(self, scores: numpy.ndarray, is_cue: numpy.ndarray) -> numpy.ndarray:
        """The label id of each token of a cue window.

        scores (numpy.ndarray): the scope model's scores (logits), one row per window
            token, columns in the order of ``SCOPE_LABELS``.
        is_cue (numpy.ndarray): per window token, whether it holds a cue part.
        RETURNS (numpy.ndarray): the label ids.
        """
        if self.scope_bias:
            scores = scores.copy()
            scores[:, SCOPE_IDS] -= self.scope_bias
        return contiguous_labels(scores, is_cue) if self.contiguous else scores.argmax(axis=1)

    def resolve(self, doc: Doc, negations: List[Negation]) -> List[Negation]:
        """The doc's negations, with decoded scopes and events, post-processed.

        doc (Doc): the doc.
        negations (List[Negation]): the negations.
        RETURNS (List[Negation]): the negations, same order.
        """
        return split_at_other_cues(doc, negations) if self.split_at_other_cues else negations


#: The settings of ``spacy-negation.scope_decoder.v1`` and their defaults.
SCOPE_DECODER_DEFAULTS: Dict[str, Any] = {field.name: field.default for field in fields(ScopeDecoder)}


def contiguous_labels(scores: numpy.ndarray, is_cue: numpy.ndarray) -> numpy.ndarray:
    """The label ids of a cue window whose scope is the best-scoring contiguous span
    around the cue: the tokens from the span's start to its end, the cue's excepted.
    A span scores the log-probabilities of scope (``S`` or ``SE``) of its tokens and of
    no scope (``O`` or ``E``) of the others; each token then gets the better of its two
    labels on its side. O(n) per cue: the best left and right extensions are
    independent.

    scores (numpy.ndarray): the scope model's scores (logits), one row per window token,
        columns in the order of ``SCOPE_LABELS``.
    is_cue (numpy.ndarray): per window token, whether it holds a cue part.
    RETURNS (numpy.ndarray): the label id of each token.
    """
    if not is_cue.any():  # also an empty window
        return scores.argmax(axis=1)
    log_p = scores - scores.max(axis=1, keepdims=True)
    log_p = log_p - numpy.log(numpy.exp(log_p).sum(axis=1, keepdims=True))
    in_ids = SCOPE_IDS
    out_ids = [SCOPE_LABELS.index("O"), SCOPE_LABELS.index("E")]
    gain = numpy.logaddexp(log_p[:, in_ids[0]], log_p[:, in_ids[1]]) - numpy.logaddexp(
        log_p[:, out_ids[0]], log_p[:, out_ids[1]]
    )
    start, end = best_span(gain, is_cue)
    inside = numpy.zeros(len(scores), dtype=bool)
    inside[start : end + 1] = True
    best_in = numpy.where(scores[:, in_ids[0]] >= scores[:, in_ids[1]], in_ids[0], in_ids[1])
    best_out = numpy.where(scores[:, out_ids[0]] >= scores[:, out_ids[1]], out_ids[0], out_ids[1])
    ids = numpy.where(inside, best_in, best_out)
    ids[is_cue] = scores[is_cue].argmax(axis=1)
    return ids


def best_span(gain: numpy.ndarray, is_cue: numpy.ndarray) -> Tuple[int, int]:
    """The first and last token of the contiguous span around the cue tokens whose
    tokens outside the cue have the greatest sum of gains (the log-odds of being in the
    scope). O(n): the best left and right extensions are independent; on a tie, the
    shorter extension.

    gain (numpy.ndarray): per token, its log-odds of scope (cue tokens' are ignored).
    is_cue (numpy.ndarray): per token, whether it holds a cue part; at least one does.
    RETURNS (Tuple[int, int]): the span's first and last token.
    """
    cue_ids = numpy.flatnonzero(is_cue)
    gain = numpy.where(is_cue, 0.0, gain)
    first, last = int(cue_ids[0]), int(cue_ids[-1])
    # The best start at or before the cue (sum of the gains from there to the cue; an
    # empty extension on a tie) and, symmetrically, the best end.
    left = numpy.concatenate([numpy.cumsum(gain[:first][::-1])[::-1], [0.0]])
    start = int(numpy.flatnonzero(left == left.max())[-1])
    right = numpy.concatenate([[0.0], numpy.cumsum(gain[last + 1 :])])
    end = last + int(numpy.flatnonzero(right == right.max())[0])
    return start, end


#: The longest stretch of a sentence whose negations ``split_at_other_cues`` pairs: a longer
#: sentence (a doc without sentence boundaries, a line without punctuation) is cut into
#: blocks of this many tokens, and a negation is paired with those whose first cue token
#: lies in its block, so that the work stays linear in the doc (the scope model's window
#: around a cue has the same size; no sentence of the corpora comes near: the longest has
#: 178 tokens).
MAX_PAIRED_TOKENS = 512


def split_at_other_cues(doc: Doc, negations: List[Negation]) -> List[Negation]:
    """Share out the tokens that two negations of a sentence both claim: such a token
    stays only in the scope (and event) of the negation whose cue is nearer (in
    tokens; on a tie, in both), unless one negation is nested in the other (a cue
    token of either lies in the other's scope), where both keep it. It undoes the
    scope tagger's commonest error in sentences with several cues: tagging the other
    cue's scope as well. The negations of a sentence longer than
    :data:`MAX_PAIRED_TOKENS` are paired within blocks of that many tokens.

    doc (Doc): the doc.
    negations (List[Negation]): the doc's negations with decoded scopes and events.
    RETURNS (List[Negation]): the negations without the tokens they lost, same order.
    """
    _, of_token = sentence_ranges(doc, MAX_PAIRED_TOKENS)
    scopes = [{p.i for p in neg.scope} for neg in negations]
    cues = [sorted({p.i for p in neg.cue}) for neg in negations]

    drops: List[Set[int]] = [set() for _ in negations]
    by_block: Dict[int, List[int]] = {}  # pairs within a sentence (block) only: linear in the doc
    for k, cue in enumerate(cues):
        by_block.setdefault(int(of_token[cue[0]]), []).append(k)
    for group in by_block.values():
        if len(group) > 1:
            _share_out(group, scopes, cues, drops)
    out: List[Negation] = []
    for neg, drop in zip(negations, drops):
        if drop:
            neg = Negation(doc, neg.cue, [p for p in neg.scope if p.i not in drop],
                           [p for p in neg.event if p.i not in drop], id=neg.id)
        out.append(neg)
    return out


def _share_out(group: List[int], scopes: List[Set[int]], cues: List[List[int]], drops: List[Set[int]]) -> None:
    """The tokens that negations of one sentence (block) both claim go to the nearer cue
    (see :func:`split_at_other_cues`): a negation loses a token that another negation
    claims too, is not nested with it and has a nearer cue. Computed at once for the
    group's negations and the tokens two or more of them claim.

    group (List[int]): the negations of the sentence (indices).
    scopes (List[Set[int]]): the scope tokens of every negation.
    cues (List[List[int]]): the cue tokens of every negation, sorted.
    drops (List[Set[int]]): the tokens each negation loses (added to).
    """
    claimed: Dict[int, int] = {}
    for k in group:
        for i in scopes[k]:
            claimed[i] = claimed.get(i, 0) + 1
    shared = numpy.asarray(sorted(i for i, n in claimed.items() if n > 1), dtype="int64")
    if not len(shared):
        return
    # per negation of the group (rows) and shared token (columns): claims it, distance to the cue
    claims = numpy.stack([numpy.isin(shared, numpy.fromiter(scopes[k], dtype="int64", count=len(scopes[k])))
                          for k in group])
    distance = numpy.stack([numpy.abs(shared[None, :] - numpy.asarray(cues[k])[:, None]).min(axis=0) for k in group])
    # nested: a cue token of either lies in the other's scope
    holds = numpy.array([[any(j in scopes[k] for j in cues[m]) for m in group] for k in group], dtype=bool)
    nested = holds | holds.T
    for a, k in enumerate(group):
        rivals = claims & ~nested[a][:, None] & (distance < distance[a][None, :])
        lost = claims[a] & rivals.any(axis=0)
        if lost.any():
            drops[k].update(shared[lost].tolist())
