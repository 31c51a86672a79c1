"""Rule baselines.

The punctuation baseline of Sineva et al. (2021, "Punct-BL"): given the (gold) cues, the
scope of each cue is every token from the cue up to, not including, the next punctuation
mark of its sentence; an affixal cue adds the rest of its own token (``happy`` of
``unhappy``). Cue tokens themselves are never in the scope, and no event is predicted.
"""
from typing import List

from spacy.tokens import Doc, Token

from .negation import Negation, Part, set_negations
from .corpora.starsem import is_punct_pos


def is_punct(token: Token) -> bool:
    """Punctuation by the *SEM gold-POS rule when the token has a tag, else ``is_punct``.

    token (Token): the token.
    RETURNS (bool): whether the token is punctuation.
    """
    return is_punct_pos(token.tag_) if token.tag_ else token.is_punct


def punct_baseline_scope(neg: Negation) -> List[Part]:
    """The punctuation-baseline scope of a negation's cue.

    neg (Negation): the negation (only its cue is used).
    RETURNS (List[Part]): the scope parts.
    """
    doc = neg.doc
    cue_tokens = {p.i for p in neg.cue}
    parts: List[Part] = []
    for p in neg.cue:
        if p.is_partial(doc):
            length = len(doc[p.i].text)
            # prefix: the rest after it; suffix or infix: the part before it
            parts.append(Part(p.i, p.end, length) if p.start == 0 else Part(p.i, 0, p.start))
    end = neg.sent.end
    i = neg.cue[0].i + 1
    while i < end and not is_punct(doc[i]):
        if i not in cue_tokens:
            parts.append(Part.whole(doc[i]))
        i += 1
    return parts


def apply_punct_baseline(doc: Doc) -> Doc:
    """Replace each negation's scope by the punctuation baseline and drop its event.

    doc (Doc): a doc with (gold) cues; modified in place.
    RETURNS (Doc): the doc.
    """
    negs = sorted(doc._.negations, key=lambda n: n.id)
    set_negations(doc, [{"cue": n.cue, "scope": punct_baseline_scope(n)} for n in negs])
    return doc
