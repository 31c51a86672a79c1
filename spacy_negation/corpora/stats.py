"""Corpus statistics: documents, sentences, tokens and kinds of negation instances, and the
speculation instances beside them."""
from typing import Dict, Iterable, Sequence

from spacy.tokens import Doc

from ..negation import SPECULATIONS, Instance, get_instances, get_negations
from .docs import doc_ids


STAT_KEYS = ("documents", "sentences", "tokens", "negation_sentences", "negations", "multiword",
             "discontinuous", "affixal", "without_scope", "with_event")
#: The speculation counts of :func:`speculation_statistics`.
SPECULATION_KEYS = ("speculation_sentences", "speculations", "speculation_scopes", "speculation_multiword",
                    "speculation_discontinuous")
#: The keys of :func:`corpus_statistics`.
CORPUS_KEYS = STAT_KEYS + SPECULATION_KEYS


def _instance_sentences(doc: Doc, instances: Sequence[Instance]) -> int:
    """The number of sentences of a doc with the first cue token of an instance."""
    if not doc.has_annotation("SENT_START"):
        return int(bool(instances))
    return len({doc[n.cue[0].i].sent.start for n in instances})


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
        counts["negation_sentences"] += _instance_sentences(doc, negs)
        counts["negations"] += len(negs)
        for n in negs:
            counts["multiword"] += n.is_multiword
            counts["discontinuous"] += n.is_discontinuous
            counts["affixal"] += n.is_affixal
            counts["without_scope"] += not n.scope
            counts["with_event"] += bool(n.event)
    counts["documents"] = len(ids)
    return counts


def speculation_statistics(docs: Iterable[Doc]) -> Dict[str, int]:
    """Speculation counts over docs: sentences with at least one speculation, speculation
    instances (one per cue: a BioScope ``ref``, an SFU ``<cue>`` element), instances with a
    scope, multiword cues (>1 token), discontinuous cues (non-adjacent cue tokens, e.g.
    either … or).

    docs (Iterable[Doc]): the docs (from a reader).
    RETURNS (Dict[str, int]): the counts, keys as in SPECULATION_KEYS.
    """
    counts = {key: 0 for key in SPECULATION_KEYS}
    for doc in docs:
        specs = get_instances(doc, SPECULATIONS)
        counts["speculation_sentences"] += _instance_sentences(doc, specs)
        counts["speculations"] += len(specs)
        for s in specs:
            counts["speculation_scopes"] += bool(s.scope)
            counts["speculation_multiword"] += s.is_multiword
            counts["speculation_discontinuous"] += s.is_discontinuous
    return counts


def corpus_statistics(docs: Iterable[Doc]) -> Dict[str, int]:
    """The negation counts (:func:`negation_statistics`) and the speculation counts
    (:func:`speculation_statistics`) of docs.

    docs (Iterable[Doc]): the docs (from a reader).
    RETURNS (Dict[str, int]): the counts, keys as in CORPUS_KEYS.
    """
    docs = list(docs)
    return {**negation_statistics(docs), **speculation_statistics(docs)}
