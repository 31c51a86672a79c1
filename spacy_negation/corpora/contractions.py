"""Contracted copies of negated sentences: "does not" → "doesn't", for corpora without
contractions.

BioScope (Vincze et al. 2008) is scientific and clinical writing: its cue "not" never
appears as the clitic "n't", so a model trained on it alone has never seen the token spaCy's
English tokenizer makes of "doesn't" ("does" + "n't"), and a cue lexicon built from it
drops the word. :func:`contract` rewrites a sentence's "AUX not" pairs into the tokens the
tokenizer produces for the contracted form, keeping every token index, so the negations
carry over unchanged (the cue "not" becomes the cue "n't").
"""
import random
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.tokens import Doc

from ..alignment import Part
from ..errors import Errors
from ..negation import get_convention, get_negations, set_convention, set_negations
from ..util import recase
from .docs import META_KEY

#: Auxiliary (lower case) → its form before "n't" as spaCy's English tokenizer splits the
#: contraction ("can't" → "ca" + "n't", "won't" → "wo" + "n't").
AUXILIARIES: Dict[str, str] = {
    "is": "is", "are": "are", "was": "was", "were": "were", "do": "do", "does": "does", "did": "did",
    "has": "has", "have": "have", "had": "had", "could": "could", "would": "would", "should": "should",
    "can": "ca", "will": "wo", "must": "must",
}


def contractible(doc: Doc) -> List[int]:
    """The indices of the "not" tokens of a doc that :func:`contract` rewrites: a whole
    token "not", directly after an auxiliary of :data:`AUXILIARIES` separated by one
    space, neither token carrying a part of a negation other than the whole token."""
    partial = {p.i for neg in get_negations(doc) for role in ("cue", "scope", "event")
               for p in neg.parts(role) if (p.start, p.end) != (0, len(doc[p.i].text))}
    out = []
    for token in doc[1:]:
        aux = doc[token.i - 1]
        if (token.text.lower() == "not" and aux.text.lower() in AUXILIARIES and aux.whitespace_ == " "
                and not partial & {token.i, aux.i}):
            out.append(token.i)
    return out


def contract(doc: Doc, indices: Optional[Iterable[int]] = None) -> Optional[Doc]:
    """A copy of the doc with "AUX not" contracted to "AUX-stem n't", its negations,
    convention mark and *SEM metadata kept (same token indices).

    doc (Doc): the doc.
    indices (Optional[Iterable[int]]): the "not" tokens to contract (a subset of
        :func:`contractible`); default: all of them.
    RETURNS (Optional[Doc]): the copy, or None when nothing is contractible.
    """
    allowed = set(contractible(doc))
    chosen = allowed if indices is None else allowed & set(indices)
    if not chosen:
        return None
    words = [t.text for t in doc]
    spaces = [bool(t.whitespace_) for t in doc]
    for i in chosen:
        aux = doc[i - 1]
        words[i - 1] = recase(AUXILIARIES[aux.text.lower()], aux.text)
        spaces[i - 1] = False
        words[i] = recase("n't", doc[i].text)
    new = Doc(doc.vocab, words=words, spaces=spaces)
    if doc.has_annotation("SENT_START"):
        for token in doc:
            new[token.i].is_sent_start = token.is_sent_start
    changed = chosen | {i - 1 for i in chosen}

    def moved(parts: Tuple[Part, ...]) -> List[Tuple[int, int, int]]:
        return [(p.i, 0, len(words[p.i])) if p.i in changed else (p.i, p.start, p.end) for p in parts]

    set_negations(new, [{"cue": moved(n.cue), "scope": moved(n.scope), "event": moved(n.event)}
                        for n in get_negations(doc)])
    set_convention(new, get_convention(doc))
    if META_KEY in doc.user_data:
        new.user_data[META_KEY] = doc.user_data[META_KEY]
    return new


def contracted_copies(docs: Iterable[Doc], ratio: float, seed: int = 0) -> Iterator[Doc]:
    """Contracted copies (:func:`contract`, every pair of the doc) of a random share of
    the docs that have a contractible "not" in a negation cue.

    docs (Iterable[Doc]): the docs.
    ratio (float): the share of those docs copied (0 to 1).
    seed (int): the seed of the random choice.
    YIELDS (Doc): the copies, in the docs' order.
    """
    if not 0.0 <= ratio <= 1.0:
        raise ValueError(Errors.E147.format(value=ratio))
    rng = random.Random(seed)
    for doc in docs:
        cues = {p.i for neg in get_negations(doc) for p in neg.cue}
        if not cues & set(contractible(doc)):
            continue
        if rng.random() < ratio:
            copy = contract(doc)
            if copy is not None:
                yield copy
