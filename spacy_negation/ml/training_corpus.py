"""The training corpus reader (``spacy-negation.SentenceCorpus.v1``): one example per gold
sentence of .spacy files, negations and speculations kept.

spaCy's ``gold_preproc`` splits docs with ``Span.as_doc``, which drops span groups and
with them the negations; this reader splits the docs itself. The models are trained on
single sentences (Sineva et al. 2021 batch sentences), exactly what they see at run time,
where the transformer encodes each sentence separately (see
``spacy-negation.sent_windows.v1``) and a scope never leaves its cue's sentence.
"""
import random
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.training.corpus import walk_corpus
from spacy.util import ensure_path, registry
from spacy.vocab import Vocab

from ..corpora.docs import META_KEY
from ..errors import Errors
from ..negation import (SPANS_KEY, SPECULATIONS_KEY, Negation, get_convention, get_negations, get_speculations,
                        set_convention, set_negations, set_speculations)


def split_sentences(doc: Doc) -> List[Doc]:
    """One doc per sentence, with the negations (and, where the doc annotates speculation,
    the speculations) whose first cue token lies in it (parts outside the sentence are
    dropped), token attributes, the *SEM metadata and the doc's convention mark. A doc
    without a speculation span group gives sentences without one (speculation not
    annotated, as in CD-SCO), not sentences with an empty one.

    doc (Doc): the doc; without sentence boundaries it is one sentence.
    RETURNS (List[Doc]): the sentence docs (none for an empty doc).
    """
    if not len(doc):
        return []
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    negations = get_negations(doc)
    speculations = get_speculations(doc) if SPECULATIONS_KEY in doc.spans else None
    meta = doc.user_data.get(META_KEY)
    if not (isinstance(meta, dict) and len(meta.get("doc_ids", ())) == len(sents)
            and len(meta.get("parse", ())) == len(doc)):
        meta = None
    out: List[Doc] = []
    for k, sent in enumerate(sents):
        sent_doc = sent.as_doc()
        set_negations(sent_doc, _in_sentence(negations, sent.start, sent.end, ("cue", "scope", "event")))
        if speculations is not None:
            set_speculations(sent_doc, _in_sentence(speculations, sent.start, sent.end, ("cue", "scope")))
        set_convention(sent_doc, get_convention(doc))
        if meta is not None:
            sent_doc.user_data[META_KEY] = {
                "doc_ids": [meta["doc_ids"][k]],
                "sent_nos": [meta["sent_nos"][k]],
                "parse": list(meta["parse"][sent.start : sent.end]),
            }
        out.append(sent_doc)
    return out


def _in_sentence(instances: Sequence[Any], start: int, end: int, roles: Sequence[str]) -> List[Dict[str, Any]]:
    """The instances whose first cue token lies in the sentence [start, end), as dicts of
    parts relative to the sentence (parts outside it dropped)."""
    return [{role: [(p.i - start, p.start, p.end) for p in inst.parts(role) if start <= p.i < end]
             for role in roles}
            for inst in instances if start <= inst.cue[0].i < end]


@registry.readers("spacy-negation.SentenceCorpus.v1")
def create_sentence_corpus(
    path: Optional[Union[str, Path]],
    limit: int = 0,
    gold_tokens: bool = False,
    shuffle: bool = False,
    unnegated_ratio: Optional[float] = None,
    hard_negatives: Optional[float] = None,
    keep_speculated: bool = False,
) -> Callable[[Language], Iterator[Example]]:
    """Read .spacy files into one example per gold sentence, keeping the negations and
    the speculations.

    path (Optional[Union[str, Path]]): a .spacy file or a folder of them.
    limit (int): the most sentences to read (0: all).
    gold_tokens (bool): predicted docs get the gold tokens (else the pipeline's
        tokenizer runs on the sentence text, as at run time).
    shuffle (bool): shuffle the sentences (spaCy's training loop shuffles anyway).
    unnegated_ratio (Optional[float]): keep at most this many sentences without negation
        per sentence with one, drawn with Python's ``random`` (seeded by spaCy's
        training) on every call of the reader. spaCy's training calls it once when
        ``[training] max_epochs >= 0`` (one sample for the whole training) and once per
        epoch when ``max_epochs = -1`` (streamed: a new sample every epoch; set
        ``shuffle`` then, as spaCy does not shuffle streamed examples). For corpora where
        few sentences are negated (BioScope 14 %, SFU 18 %). None: keep all.
    hard_negatives (Optional[float]): with ``unnegated_ratio``, also keep every sentence
        without negation that contains a cue word: a word (lower-cased) that is a
        single-token cue in at least this fraction of its occurrences in the sentences
        read, e.g. *not* in "not only" or *absence* outside a negation (BioScope: 88 % and
        56 %), but not *negative* (1 of 149). The random sample is drawn from the other
        unnegated sentences. None: the sample alone, drawn exactly as before.
    keep_speculated (bool): with ``unnegated_ratio``, keep every sentence with a
        speculation as well (for components trained on both kinds); False: a sentence
        with a speculation and no negation is one of the sampled ones, as before.
    RETURNS (Callable[[Language], Iterator[Example]]): the reader.
    """
    if path is None:
        raise ValueError(SpacyErrors.E913)
    if unnegated_ratio is not None and unnegated_ratio < 0:
        raise ValueError(Errors.E345.format(value=unnegated_ratio))
    if hard_negatives is not None and not 0.0 <= hard_negatives <= 1.0:
        raise ValueError(Errors.E346.format(value=hard_negatives))
    return SentenceCorpus(path, limit=limit, gold_tokens=gold_tokens, shuffle=shuffle,
                          unnegated_ratio=unnegated_ratio, hard_negatives=hard_negatives,
                          keep_speculated=keep_speculated)


class SentenceCorpus:
    """Iterate one Example per gold sentence of .spacy files (see
    :func:`create_sentence_corpus`)."""

    def __init__(self, path: Union[str, Path], *, limit: int = 0, gold_tokens: bool = False,
                 shuffle: bool = False, unnegated_ratio: Optional[float] = None,
                 hard_negatives: Optional[float] = None, keep_speculated: bool = False) -> None:
        self.path = ensure_path(path)
        self.keep_speculated = keep_speculated
        self.unnegated_ratio = unnegated_ratio
        self.hard_negatives = hard_negatives
        self.limit = limit
        self.gold_tokens = gold_tokens
        self.shuffle = shuffle
        # The sentences of the last vocab read: initialization calls the reader many
        # times (every component, several passes each), and reading and splitting a large
        # corpus costs minutes. The sampling and shuffling still run on every call.
        self._cache: Optional[Tuple[Vocab, List[Doc]]] = None

    def __call__(self, nlp: Language) -> Iterator[Example]:
        """Yield the examples.

        nlp (Language): the pipeline (its vocab and tokenizer are used).
        YIELDS (Example): one example per sentence.
        """
        sents = list(self._sentences(nlp.vocab))
        if self.unnegated_ratio is not None:
            sents = _sample_unnegated(sents, self.unnegated_ratio, self.hard_negatives, self.keep_speculated)
        if self.shuffle:
            random.shuffle(sents)
        for ref in sents:
            if self.gold_tokens:
                pred = Doc(nlp.vocab, words=[t.text for t in ref],
                           spaces=[bool(t.whitespace_) for t in ref])
            else:
                pred = nlp.make_doc(ref.text)
            set_convention(pred, get_convention(ref))
            if len(pred):
                yield Example(pred, ref)

    def _sentences(self, vocab: Vocab) -> List[Doc]:
        """The gold sentences of the files (the first ``limit``), read once per vocab."""
        if self._cache is not None and self._cache[0] is vocab:
            return self._cache[1]
        locs = walk_corpus(self.path, ".spacy")
        if not locs:
            raise ValueError(Errors.E344.format(path=self.path))
        sents: List[Doc] = []
        for loc in locs:
            for doc in DocBin().from_disk(loc).get_docs(vocab):
                sents.extend(split_sentences(doc))
                if self.limit and len(sents) >= self.limit:
                    break
            if self.limit and len(sents) >= self.limit:
                break
        if self.limit:
            sents = sents[: self.limit]
        self._cache = (vocab, sents)
        return sents


def _sample_unnegated(sents: List[Doc], ratio: float, hard_negatives: Optional[float] = None,
                      keep_speculated: bool = False) -> List[Doc]:
    """All sentences with a negation (with ``keep_speculated`` also those with a
    speculation), a random sample of at most ``ratio`` times as many of the others and,
    with ``hard_negatives`` (a minimum cue rate), every other sentence that contains a
    negation cue word (see :func:`cue_words`), in corpus order."""
    negations = [get_negations(d) for d in sents]
    hedged = [keep_speculated and SPECULATIONS_KEY in d.spans and bool(get_speculations(d)) for d in sents]
    unnegated = [i for i, negs in enumerate(negations) if not negs and not hedged[i]]
    hard: Set[int] = set()
    if hard_negatives is not None:
        words = cue_words(sents, negations, hard_negatives)
        hard = {i for i in unnegated if any(t.lower_ in words for t in sents[i])}
    pool = [i for i in unnegated if i not in hard]
    n_keep = min(len(pool), int(round(ratio * (len(sents) - len(unnegated)))))
    keep = set(random.sample(pool, n_keep)) | hard
    return [d for i, d in enumerate(sents) if negations[i] or hedged[i] or i in keep]


def count_cue_words(docs: Sequence[Doc],
                    negations: Optional[Sequence[Sequence[Negation]]] = None) -> Dict[str, List[int]]:
    """The words (lower-cased) that are a single-token, whole-token cue in the docs
    (affixal and multiword cues do not count), with how often each is a cue and how
    often it occurs in the docs.

    docs (Sequence[Doc]): the docs.
    negations (Optional[Sequence[Sequence[Negation]]]): the negations of each doc, if
        already at hand (default: read from the docs; a doc without a negation span group
        has none).
    RETURNS (Dict[str, List[int]]): word -> [cues, occurrences], in word order.
    """
    if negations is None:
        negations = [get_negations(doc) if SPANS_KEY in doc.spans else [] for doc in docs]
    as_cue: Counter[str] = Counter(neg.cue_tokens[0].lower_ for negs in negations for neg in negs
                              if not neg.is_multiword and not neg.is_affixal)
    seen: Counter[str] = Counter(t.lower_ for doc in docs for t in doc if t.lower_ in as_cue)
    return {word: [n, seen[word]] for word, n in sorted(as_cue.items())}


def cue_words(docs: Sequence[Doc], negations: Sequence[Sequence[Negation]],
              min_rate: float) -> Set[str]:
    """The words (lower-cased) that are a single-token, whole-token cue in at least
    ``min_rate`` of their occurrences in the docs (see :func:`count_cue_words`).

    docs (Sequence[Doc]): the docs.
    negations (Sequence[Sequence[Negation]]): the negations of each doc.
    min_rate (float): the minimum share of a word's occurrences that are cues.
    RETURNS (Set[str]): the cue words.
    """
    return {word for word, (n, seen) in count_cue_words(docs, negations).items() if n >= min_rate * seen}
