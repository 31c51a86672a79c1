"""*SEM 2012 / CD-SCO sentences to spaCy ``Doc`` objects and back.

The reader keeps the gold tokenization (spaces between words are reconstructed with
English punctuation rules), sentence boundaries, lemmas (``token.lemma_``), POS tags
(``token.tag_``), the gold negations (``doc._.negations``) and, in
``doc.user_data["spacy_negation.starsem"]``, the document ids, sentence numbers and parse
fragments, so that writing the docs gives back the original file.
"""
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc, Token
from spacy.vocab import Vocab

from .errors import Errors, NegationFormatError
from .negation import Negation, Part, ROLES, get_negations, register_extensions, set_negations
from .starsem import Instance, Sentence, TokenRow, locate, read_starsem, write_starsem

META_KEY = "spacy_negation.starsem"

#: The official *SEM 2012 CD-SCO release files, by split.
CDSCO_FILES = {
    "training": "SEM-2012-SharedTask-CD-SCO-training-09032012.txt",
    "dev": "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt",
    "cardboard": "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
    "circle": "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt",
}

_NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "}", "”", "’", "''", "%", "…", "-RRB-"}
_NO_SPACE_AFTER = {"(", "[", "{", "“", "‘", "``", "$", "-LRB-"}
_CLITICS = {"n't", "n’t", "'s", "’s", "'re", "’re", "'ll", "’ll", "'ve", "’ve", "'d", "’d", "'m", "’m"}


def guess_spaces(words: Sequence[str]) -> List[bool]:
    """Whether each word is followed by a space, by English punctuation rules.

    words (Sequence[str]): the words of one sentence.
    RETURNS (List[bool]): one flag per word; the last word gets a space (sentences of a
        doc are separated by one space).
    """
    spaces: List[bool] = []
    for i, word in enumerate(words):
        if i + 1 == len(words):
            spaces.append(True)
            break
        nxt = words[i + 1]
        space = not (
            word in _NO_SPACE_AFTER
            or nxt in _NO_SPACE_BEFORE
            or nxt.lower() in _CLITICS
            or word in ("—",) or nxt in ("—",)
        )
        spaces.append(space)
    return spaces


def sentences_to_doc(vocab: Vocab, sentences: Sequence[Sentence]) -> Doc:
    """Build one doc from *SEM sentences.

    vocab (Vocab): the vocab.
    sentences (Sequence[Sentence]): the sentences, in order.
    RETURNS (Doc): the doc with tokens, sentence starts, lemmas, tags and negations.
    """
    register_extensions()
    words: List[str] = []
    spaces: List[bool] = []
    lemmas: List[str] = []
    tags: List[str] = []
    sent_starts: List[bool] = []
    for sent in sentences:
        forms = sent.forms
        words.extend(forms)
        spaces.extend(guess_spaces(forms))
        lemmas.extend(r.lemma for r in sent.rows)
        tags.extend(r.pos for r in sent.rows)
        sent_starts.extend([True] + [False] * (len(forms) - 1))
    if spaces:
        spaces[-1] = False
    doc = Doc(vocab, words=words, spaces=spaces, lemmas=lemmas, tags=tags, sent_starts=sent_starts)
    negations: List[Negation] = []
    offset = 0
    for sent in sentences:
        for inst in sent.instances:
            negations.append(_instance_to_negation(doc, sent, inst, offset, len(negations)))
        offset += len(sent.rows)
    set_negations(doc, negations)
    doc.user_data[META_KEY] = {
        "doc_ids": [s.doc_id for s in sentences],
        "sent_nos": [s.sent_no for s in sentences],
        "parse": [r.parse for s in sentences for r in s.rows],
    }
    return doc


def _instance_to_negation(doc: Doc, sent: Sentence, inst: Instance, offset: int, k: int) -> Negation:
    cue_ranges: Dict[int, Tuple[int, int]] = {}
    parts: Dict[str, List[Part]] = {}
    for role in ROLES:
        parts[role] = []
        for pos, cell in getattr(inst, role):
            form = sent.rows[pos].form
            start, end = locate(form, cell, None if role == "cue" else cue_ranges.get(pos))
            if role == "cue":
                cue_ranges[pos] = (start, end)
            parts[role].append(Part(offset + pos, start, end))
    return Negation(doc, parts["cue"], parts["scope"], parts["event"], id=k)


def group_sentences(sentences: Iterable[Sentence], n_sents: int) -> Iterator[List[Sentence]]:
    """Group consecutive sentences of one document id into chunks of at most n_sents.

    sentences (Iterable[Sentence]): the sentences.
    n_sents (int): the maximum number of sentences per group (0: one group per document id).
    YIELDS (List[Sentence]): the groups.
    """
    check_n_sents(n_sents)
    group: List[Sentence] = []
    for sent in sentences:
        if group and (sent.doc_id != group[-1].doc_id or (n_sents and len(group) >= n_sents)):
            yield group
            group = []
        group.append(sent)
    if group:
        yield group


def check_n_sents(n_sents: int) -> int:
    """Validate a number of sentences per doc.

    n_sents (int): 0 (whole documents) or a positive number.
    RETURNS (int): n_sents.
    RAISES (ValueError): anything else (E116).
    """
    if isinstance(n_sents, bool) or not isinstance(n_sents, int) or n_sents < 0:
        raise ValueError(Errors.E116.format(value=n_sents))
    return n_sents


def read_starsem_docs(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                      on_error: str = "raise") -> List[Doc]:
    """Read a *SEM CoNLL file into docs. Word forms that the *SEM format cannot write
    back (whitespace, control characters) are refused.

    path (Union[str, Path]): the file.
    vocab (Optional[Vocab]): the vocab; a blank English pipeline's if None (so that
        lexical attributes such as ``token.is_punct`` are set).
    n_sents (int): sentences per doc (docs never cross document ids); 0 = whole documents.
    on_error (str): 'raise' (default): a bad sentence stops reading with a coded error;
        'skip': each bad sentence is skipped with warning W402 naming file, line and
        reason, and a cell its token holds once in another letter case is repaired
        (warning W403).
    RETURNS (List[Doc]): the docs.
    """
    check_n_sents(n_sents)
    if vocab is None:
        import spacy

        vocab = spacy.blank("en").vocab
    sentences = read_starsem(path, check_forms=True, on_error=on_error)
    return [sentences_to_doc(vocab, g) for g in group_sentences(sentences, n_sents)]


def doc_to_sentences(doc: Doc, doc_index: int = 0) -> List[Sentence]:
    """Turn a doc into *SEM sentences with the negations it carries.

    Whitespace tokens are skipped (the format cannot hold them). Ids, sentence numbers
    and parse fragments come from the doc's *SEM metadata when it has matching metadata,
    else the doc id is ``doc{doc_index}``, sentences are numbered from 0 and the parse
    fragment is ``_``. Empty lemmas and tags are written as ``_``.

    doc (Doc): the doc.
    doc_index (int): the doc's position, for default ids.
    RETURNS (List[Sentence]): the sentences.
    """
    register_extensions()
    if doc.has_annotation("SENT_START"):
        sent_spans = list(doc.sents)
    else:
        sent_spans = [doc[:]] if len(doc) else []
    meta = doc.user_data.get(META_KEY)
    if not (isinstance(meta, dict) and len(meta.get("doc_ids", ())) == len(sent_spans)
            and len(meta.get("parse", ())) == len(doc)):
        meta = None
    sentences: List[Sentence] = []
    position: Dict[int, Tuple[int, int]] = {}  # token index -> (sentence, position)
    for s, span in enumerate(sent_spans):
        rows: List[TokenRow] = []
        doc_id = meta["doc_ids"][s] if meta else f"doc{doc_index}"
        sent_no = meta["sent_nos"][s] if meta else str(s)
        for token in span:
            if token.is_space:
                continue
            if any(c.isspace() for c in token.text):
                raise ValueError(Errors.E120.format(doc=doc_index, i=token.i, text=token.text))
            position[token.i] = (s, len(rows))
            rows.append(TokenRow(
                doc_id, sent_no, len(rows), token.text, token.lemma_ or "_", token.tag_ or "_",
                meta["parse"][token.i] if meta else "_",
            ))
        sentences.append(Sentence(rows=rows, instances=[]))
    for neg in sorted(get_negations(doc), key=lambda n: n.id):
        if neg.cue[0].i not in position:
            continue
        s = position[neg.cue[0].i][0]
        inst = Instance()
        for role in ROLES:
            cells = getattr(inst, role)
            for p in neg.parts(role):
                if p.i not in position:
                    continue  # a whitespace token
                ps, pos = position[p.i]
                if ps != s:
                    raise ValueError(Errors.E121.format(doc=doc_index, id=neg.id, role=role, i=p.i))
                cells.append((pos, p.text(doc)))
        if inst.cue:
            sentences[s].instances.append(inst)
    return [s for s in sentences if s.rows]


def write_starsem_docs(docs: Iterable[Doc], output: Union[str, Path, Any]) -> int:
    """Write docs to a *SEM CoNLL file, atomically.

    docs (Iterable[Doc]): the docs (gold or predicted negations).
    output (Union[str, Path, TextIO]): a path or a text stream.
    RETURNS (int): the number of sentences written.
    """
    sentences: List[Sentence] = []
    for d, doc in enumerate(docs):
        sentences.extend(doc_to_sentences(doc, d))
    return write_starsem(sentences, output)
