"""Corpus statistics: documents, sentences, tokens and kinds of negation instances."""
from typing import Dict, Iterable

from spacy.tokens import Doc

from ..negation import get_negations
from .docs import doc_ids


STAT_KEYS = ("documents", "sentences", "tokens", "negation_sentences", "negations", "multiword",
             "discontinuous", "affixal", "without_scope", "with_event")


def negation_statistics(docs: Iterable[Doc]) -> Dict[str, int]:
    """Counts over docs: documents (distinct ids), sentences, tokens, sentences with at
    least one negation, negation instances, multiword cues (>1 token), discontinuous cues
    (non-adjacent cue tokens), affixal cues (partial-token cue), instances without scope,
    instances with an event.

    docs (Iterable[Doc]): the docs (from a reader).
    RETURNS (Dict[str, int]): the counts, keys as in STAT_KEYS.
    """
    counts = {key: 0 for key in STAT_KEYS}
    ids: Dict[str, None] = {}
    for doc in docs:
        for d in doc_ids(doc):
            ids.setdefault(d, None)
        sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        counts["sentences"] += len(sents)
        counts["tokens"] += len(doc)
        negs = get_negations(doc)
        neg_sents = {doc[n.cue[0].i].sent.start if doc.has_annotation("SENT_START") else 0 for n in negs}
        counts["negation_sentences"] += len(neg_sents)
        counts["negations"] += len(negs)
        for n in negs:
            counts["multiword"] += n.is_multiword
            counts["discontinuous"] += n.is_discontinuous
            counts["affixal"] += n.is_affixal
            counts["without_scope"] += not n.scope
            counts["with_event"] += bool(n.event)
    counts["documents"] = len(ids)
    return counts
