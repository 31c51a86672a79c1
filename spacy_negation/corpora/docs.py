"""Sentence records to spaCy ``Doc`` objects: the one builder every reader uses.

A doc gets the tokens, sentence starts, lemmas and tags (where the corpus has them), the
gold negations (:func:`spacy_negation.negation.set_negations`), the gold speculations of a
corpus that annotates them (:func:`spacy_negation.negation.set_speculations`; BioScope, SFU
Review: a speculation span group, empty when no sentence has one) and, in
``doc.user_data[META_KEY]``, the corpus's document ids and sentence ids in the shape the
*SEM writer uses (``{"doc_ids": per sentence, "sent_nos": per sentence, "parse": per
token}``), so every corpus can be written as *SEM CoNLL with its original ids and scored
by the same tools. Docs never cross document ids.
"""
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..negation import ROLES, SPECULATION_ROLES, Negation, Part, Speculation, register_extensions, set_negations
from ..negation import set_speculations
from ..util import blank_nlp
from .files import records_from_files
from .records import SentenceRecord, group_sentences

#: The ``doc.user_data`` key of the corpus ids and *SEM parse fragments.
META_KEY = "spacy_negation.starsem"


def build_doc(vocab: Vocab, sentences: Sequence[SentenceRecord]) -> Doc:
    """Build one doc from sentence records: tokens, sentence starts, lemmas and tags
    (where every sentence has them), gold negations, gold speculations (when a sentence's
    record has them, even none: ``speculations`` is not None) and the *SEM metadata (ids;
    parse fragments, ``_`` where a sentence has none).

    vocab (Vocab): the vocab.
    sentences (Sequence[SentenceRecord]): the sentences, in order, at least one.
    RETURNS (Doc): the doc.
    """
    register_extensions()
    words: List[str] = []
    spaces: List[bool] = []
    sent_starts: List[Union[bool, int, None]] = []  # the type spaCy's Doc() declares
    has_lemmas = all(s.lemmas is not None for s in sentences)
    has_tags = all(s.tags is not None for s in sentences)
    lemmas: List[str] = []
    tags: List[str] = []
    parse: List[str] = []
    for sent in sentences:
        words.extend(sent.words)
        spaces.extend(sent.spaces[:-1])
        spaces.append(True)  # sentences of a doc are separated by one space
        sent_starts.extend([True] + [False] * (len(sent.words) - 1))
        lemmas.extend(sent.lemmas or [])
        tags.extend(sent.tags or [])
        parse.extend(sent.parse if sent.parse is not None else ["_"] * len(sent.words))
    if spaces:
        spaces[-1] = False
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts,
              lemmas=lemmas if has_lemmas else None, tags=tags if has_tags else None)
    negations: List[Negation] = []
    speculations: List[Speculation] = []
    offset = 0
    for sent in sentences:
        for record in sent.negations:
            parts = {role: [Part(offset + i, start, end) for i, start, end in record.get(role, ())]
                     for role in ROLES}
            negations.append(Negation(doc, parts["cue"], parts["scope"], parts["event"],
                                      id=len(negations)))
        for record in sent.speculations or ():
            parts = {role: [Part(offset + i, start, end) for i, start, end in record.get(role, ())]
                     for role in SPECULATION_ROLES}
            speculations.append(Speculation(doc, parts["cue"], parts["scope"], id=len(speculations)))
        offset += len(sent.words)
    set_negations(doc, negations)
    if any(sent.speculations is not None for sent in sentences):
        set_speculations(doc, speculations)
    doc.user_data[META_KEY] = {
        "doc_ids": [s.doc_id for s in sentences],
        "sent_nos": [s.sent_id for s in sentences],
        "parse": parse,
    }
    return doc


def records_to_docs(sentences: Iterable[SentenceRecord], vocab: Optional[Vocab], n_sents: int,
                    lang: str = "en") -> Iterator[Doc]:
    """Turn sentence records into docs of at most n_sents sentences of one document.

    sentences (Iterable[SentenceRecord]): the sentences.
    vocab (Optional[Vocab]): the vocab; a blank ``lang`` pipeline's if None.
    n_sents (int): sentences per doc (0: whole documents).
    lang (str): the language of the default vocab.
    YIELDS (Doc): the docs.
    """
    if vocab is None:
        vocab = blank_nlp(lang).vocab
    for group in group_sentences(sentences, n_sents):
        yield build_doc(vocab, group)


def read_files(path: Union[str, Path], suffix: str, read_file: Callable[[Path], Iterable[SentenceRecord]],
               vocab: Optional[Vocab], n_sents: int, lang: str = "en") -> Iterator[Doc]:
    """The docs of a corpus file, or of every file ending in ``suffix`` below a folder
    (:func:`spacy_negation.corpora.files.records_from_files`), built as they are consumed.

    path (Union[str, Path]): a file or a folder.
    suffix (str): the file ending for folders.
    read_file (Callable[[Path], Iterable[SentenceRecord]]): reads one file's records.
    vocab (Optional[Vocab]): the vocab; a blank ``lang`` pipeline's if None.
    n_sents (int): sentences per doc (0: whole documents).
    lang (str): the language of the default vocab.
    RETURNS (Iterator[Doc]): the docs.
    """
    return records_to_docs(records_from_files(path, suffix, read_file), vocab, n_sents, lang)


def doc_ids(doc: Doc) -> List[str]:
    """The document ids of a doc's sentences (from the reader metadata).

    doc (Doc): a doc made by one of the readers.
    RETURNS (List[str]): one id per sentence; empty without metadata.
    """
    meta = doc.user_data.get(META_KEY)
    return list(meta.get("doc_ids", [])) if isinstance(meta, dict) else []


def document_ids(docs: Iterable[Doc]) -> List[str]:
    """The distinct document ids of docs, in order of first appearance.

    docs (Iterable[Doc]): the docs.
    RETURNS (List[str]): the ids.
    """
    seen: Dict[str, None] = {}
    for doc in docs:
        for d in doc_ids(doc):
            seen.setdefault(d, None)
    return list(seen)
