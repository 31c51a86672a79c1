"""*SEM 2012 / CD-SCO sentences to spaCy ``Doc`` objects and back (the ``starsem`` format).

The reader keeps the gold tokenization (spaces between words are reconstructed with
English punctuation rules), sentence boundaries, lemmas (``token.lemma_``), POS tags
(``token.tag_``), the gold negations (``doc._.negations``) and, in
``doc.user_data[META_KEY]``, the document ids, sentence numbers and parse fragments, so
that writing the docs gives back the original file.
"""
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors
from ..negation import ROLES, get_negations, register_extensions
from .blocks import Instance, instance_record
from .docs import META_KEY, build_doc, records_to_docs
from .records import SentenceRecord, check_n_sents
from .registry import formats
from .spaces import guess_spaces
from .starsem import Sentence, TokenRow, read_starsem, write_starsem

#: The official *SEM 2012 CD-SCO release files, by split.
CDSCO_FILES = {
    "training": "SEM-2012-SharedTask-CD-SCO-training-09032012.txt",
    "dev": "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt",
    "cardboard": "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
    "circle": "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt",
}


def sentence_record(sent: Sentence) -> SentenceRecord:
    """A *SEM sentence as a sentence record (spaces guessed with English rules).

    sent (Sentence): the sentence.
    RETURNS (SentenceRecord): the record with lemmas, tags, parse fragments and negations.
    """
    forms = sent.forms
    return SentenceRecord(
        doc_id=sent.doc_id, sent_id=sent.sent_no, words=forms, spaces=guess_spaces(forms),
        negations=[instance_record(forms, inst) for inst in sent.instances],
        lemmas=[r.lemma for r in sent.rows], tags=[r.pos for r in sent.rows],
        parse=[r.parse for r in sent.rows], line=sent.line,
    )


def sentences_to_doc(vocab: Vocab, sentences: Sequence[Sentence]) -> Doc:
    """Build one doc from *SEM sentences.

    vocab (Vocab): the vocab.
    sentences (Sequence[Sentence]): the sentences, in order.
    RETURNS (Doc): the doc with tokens, sentence starts, lemmas, tags and negations.
    """
    return build_doc(vocab, [sentence_record(s) for s in sentences])


@formats.register("starsem")
def read_starsem_docs(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                      on_error: str = "raise") -> List[Doc]:
    """Read a *SEM CoNLL file into docs. Word forms that the *SEM format cannot write
    back (whitespace, control characters) are refused, and so is what a gold corpus must
    not hold: a scope cell overlapping its own cue (E958; the CD-SCO training file's
    ``infinite`` is repaired, W951) and a repeated sentence (E959); see
    :func:`~spacy_negation.corpora.starsem.parse_starsem`. A last line without a line end
    is read as ``evaluate`` reads it.

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
    sentences = read_starsem(path, check_forms=True, on_error=on_error, check_corpus=True)
    return list(records_to_docs((sentence_record(s) for s in sentences), vocab, n_sents))


def doc_to_sentences(doc: Doc, doc_index: int = 0) -> List[Sentence]:
    """Turn a doc into *SEM sentences with the negations it carries.

    Whitespace tokens are skipped (the format cannot hold them; a negation whose cue
    lies on one cannot be written, E961). Ids, sentence numbers
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
        blank = [p.i for p in neg.cue if p.i not in position]
        if blank:
            raise ValueError(Errors.E961.format(doc=doc_index, id=neg.id, i=blank[0],
                                                text=doc[blank[0]].text))
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
