"""Synthetic clinical-style training sentences (data/clinical_synth/train.jsonl) as docs.

Input: JSON Lines, one sentence a line, as ``data/clinical_synth/generate.py`` writes them:
``{"id", "note", "text", "negations": [{"cue": [[start, end], ...], "scope": [[start, end],
...]}], ...}`` with character offsets into ``text``; other fields (``template``,
``concepts``) are ignored. Blank lines are skipped.

What the reader does:

- **Tokens and parts** as the BioScope reader does (Vincze et al. 2008 annotate characters
  too): each text is tokenized on its own with spaCy's English tokenizer and every cue and
  scope character range becomes the whole tokens it covers. Here a range must start and
  end on token boundaries (the generator builds sentences from whole words), else E723.
- **Layout.** The annotation is already in the CD-SCO layout of the package: the cue is
  not part of its scope (E725), a negation may have no scope (a bare "None" after a
  header), no events.
- **Ids.** ``note`` is the document id and ``id`` the sentence id, stored in
  ``doc.user_data[spacy_negation.corpus.META_KEY]`` like every reader's; docs never cross
  notes.

``python -m spacy_negation.corpora.clinical_synth data/clinical_synth/train.jsonl
corpus/clinical_synth/train.spacy`` writes the docs as a ``.spacy`` file.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError
from ..util import atomic_write_bytes, blank_nlp, check_on_error, check_output, read_utf8, skip_or_raise
from .docs import records_to_docs
from .records import SentenceRecord
from .bioscope import BioScopeNegation, BioScopeSentence, sentence_record

ROLES = ("cue", "scope")


def _error(template: str, path: Path, line: int, **kwargs: Any) -> NegationFormatError:
    return NegationFormatError(template.format(path=path, line=line, **kwargs), path, line)


def _ranges(value: Any, path: Path, line: int, k: int, role: str, text: str) -> Set[int]:
    """The character offsets of a list of [start, end] ranges, checked against the text."""
    if not isinstance(value, list):
        raise _error(Errors.E721, path, line, field=f"negations[{k}].{role}",
                     reason="expected a list of [start, end] ranges")
    chars: Set[int] = set()
    for rng in value:
        ok = (isinstance(rng, list) and len(rng) == 2
              and all(isinstance(x, int) and not isinstance(x, bool) for x in rng))
        if not ok:
            raise _error(Errors.E721, path, line, field=f"negations[{k}].{role}",
                         reason=f"{rng!r} is not a [start, end] pair of integers")
        start, end = rng
        if not 0 <= start < end <= len(text):
            raise _error(Errors.E722, path, line, k=k, role=role, range=rng, n=len(text))
        chars.update(range(start, end))
    return chars


def parse_sentence(obj: Any, path: Path, line: int) -> BioScopeSentence:
    """Check one decoded line and return it as a sentence with character-range negations.

    obj (Any): the decoded JSON value.
    path (Path): the file, for messages.
    line (int): the 1-based line, for messages.
    RETURNS (BioScopeSentence): the sentence (the BioScope reader's record of character
        ranges, which :func:`~spacy_negation.corpora.bioscope.sentence_record` tokenizes).
    RAISES (NegationFormatError): a missing or invalid field, a bad range (E720-E725).
    """
    if not isinstance(obj, dict):
        raise _error(Errors.E720, path, line, reason=f"got {type(obj).__name__}")
    for key in ("id", "note", "text"):
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip() or (key != "text" and any(c.isspace() for c in value)):
            raise _error(Errors.E721, path, line, field=key, reason="a non-empty string (ids without whitespace)")
    text = obj["text"]
    if text != " ".join(text.split()):
        raise _error(Errors.E721, path, line, field="text",
                     reason="whitespace other than single spaces between words")
    negations = obj.get("negations")
    if not isinstance(negations, list) or not all(isinstance(n, dict) for n in negations):
        raise _error(Errors.E721, path, line, field="negations", reason="a list of objects")
    out: List[BioScopeNegation] = []
    for k, neg in enumerate(negations):
        cue = _ranges(neg.get("cue"), path, line, k, "cue", text)
        scope = _ranges(neg.get("scope", []), path, line, k, "scope", text)
        if not cue:
            raise _error(Errors.E724, path, line, k=k)
        both = cue & scope
        if both:
            raise _error(Errors.E725, path, line, k=k, token=text[min(both)])
        out.append(BioScopeNegation(ref=str(k), cue=cue, scope=scope, n_cue_elements=len(neg["cue"]), line=line))
    return BioScopeSentence(doc_id=obj["note"], sent_id=obj["id"], text=text, negations=out, line=line)


def to_record(sent: BioScopeSentence, path: Path) -> SentenceRecord:
    """Tokenize a sentence and turn its character ranges into whole-token parts.

    sent (BioScopeSentence): the parsed sentence.
    path (Path): the file, for messages.
    RETURNS (SentenceRecord): the sentence record.
    RAISES (NegationFormatError): a range that cuts a token (E723).
    """
    record = sentence_record(sent)
    for k, neg in enumerate(record.negations):
        for role in ROLES:
            for pos, start, end in neg[role]:
                word = record.words[pos]
                if (start, end) != (0, len(word)):
                    chars = sent.negations[k].cue if role == "cue" else sent.negations[k].scope
                    raise _error(Errors.E723, path, sent.line, k=k, role=role,
                                 range=[min(chars), max(chars) + 1],
                                 text=sent.text[min(chars):max(chars) + 1], tokens=record.words)
    return record


def iter_records(path: Union[str, Path], on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of a synthetic clinical JSONL file.

    path (Union[str, Path]): the file.
    on_error (str): 'raise' stops at the first bad line; 'skip' skips it with warning W402.
    YIELDS (SentenceRecord): the sentences in file order.
    RAISES (NegationFormatError): a bad line (E720-E725, E727) or a file without sentences
        (E108).
    """
    lenient = check_on_error(on_error)
    path = Path(path)
    seen: Dict[str, int] = {}
    n = 0
    for line, raw in enumerate(read_utf8(path).splitlines(), 1):
        if not raw.strip():
            continue
        n += 1
        try:
            try:
                obj = json.loads(raw)
            except ValueError as err:
                raise _error(Errors.E720, path, line, reason=err) from err
            sent = parse_sentence(obj, path, line)
            if sent.sent_id in seen:
                raise _error(Errors.E727, path, line, id=sent.sent_id, first=seen[sent.sent_id])
            record = to_record(sent, path)
        except NegationFormatError as err:
            skip_or_raise(err, lenient, path, line)
            continue
        seen[sent.sent_id] = line
        yield record
    if not n:
        raise NegationFormatError(Errors.E108.format(path=path), path)


def read_clinical_synth(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                        on_error: str = "raise") -> Iterator[Doc]:
    """Read the synthetic clinical sentences into docs with gold negations (a reader with
    the signature of the ``convert`` formats).

    path (Union[str, Path]): the JSONL file.
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (docs never cross notes); 0 = whole notes.
    on_error (str): 'raise' (default) or 'skip': skip each bad line with warning W402.
    YIELDS (Doc): the docs.
    """
    if vocab is None:
        vocab = blank_nlp("en").vocab
    yield from records_to_docs(iter_records(path, on_error), vocab, n_sents)


def convert(input_path: Path, output_path: Path, n_sents: int = 10) -> Tuple[int, int]:
    """Write the docs of a JSONL file as a ``.spacy`` file (all or nothing).

    input_path (Path): the JSONL file.
    output_path (Path): the ``.spacy`` file.
    n_sents (int): sentences per doc.
    RETURNS (Tuple[int, int]): the number of docs and of sentences written.
    """
    from spacy.tokens import DocBin

    check_output(output_path, [input_path])
    db = DocBin(store_user_data=True)
    n_sentences = 0
    for doc in read_clinical_synth(input_path, n_sents=n_sents):
        db.add(doc)
        n_sentences += len(list(doc.sents))
    atomic_write_bytes(output_path, db.to_bytes())
    return len(db), n_sentences


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Convert synthetic clinical sentences (JSONL) to .spacy.")
    parser.add_argument("input", type=Path, help="the JSONL file (data/clinical_synth/train.jsonl)")
    parser.add_argument("output", type=Path, help="the .spacy file to write")
    parser.add_argument("--n-sents", type=int, default=10, help="sentences per doc (default: 10)")
    args = parser.parse_args(argv)
    try:
        n_docs, n_sentences = convert(args.input, args.output, args.n_sents)
    except (NegationFormatError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"wrote {n_docs} docs ({n_sentences} sentences) to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
