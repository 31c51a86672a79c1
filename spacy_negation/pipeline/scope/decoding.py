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

    drops: List[Set[int]] = [set() for _ in negations]
    by_sent: Dict[int, List[int]] = {}  # pairs within a sentence only: linear in the doc
    for k, sent in enumerate(sents):
        by_sent.setdefault(sent, []).append(k)
    for group in by_sent.values():
        for a, k in enumerate(group):
            for m in group[a + 1:]:
                _share_out(k, m, scopes, cues, drops)
    out: List[Negation] = []
    for neg, drop in zip(negations, drops):
        if drop:
            neg = Negation(doc, neg.cue, [p for p in neg.scope if p.i not in drop],
                           [p for p in neg.event if p.i not in drop], id=neg.id)
        out.append(neg)
    return out


def _share_out(k: int, m: int, scopes: List[Set[int]], cues: List[List[int]],
               drops: List[Set[int]]) -> None:
    """The tokens negations k and m of one sentence both claim go to the nearer cue
    (see :func:`split_at_other_cues`)."""
    if any(j in scopes[k] for j in cues[m]) or any(j in scopes[m] for j in cues[k]):
        return  # nested
    for i in scopes[k] & scopes[m]:
        d_k = min(abs(i - j) for j in cues[k])
        d_m = min(abs(i - j) for j in cues[m])
        if d_k > d_m:
            drops[k].add(i)
        elif d_m > d_k:
            drops[m].add(i)
