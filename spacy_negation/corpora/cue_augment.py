"""Affixal cue augmentation: copies of training docs whose affixal cue word ("unhappy",
"careless") is replaced by another word with a negative affix from a lexicon.

An affixal cue is the part of a word that negates the rest of it (*un* in *unhappy*,
*less* in *careless*); ConanDoyle-neg (Morante and Daelemans 2012) puts the rest of the word
(*happy*, *care*) in the scope and, where the negation is factual, in the event. A model
trained on CD-SCO sees about 100 distinct affixal words, and recall on affixal cues of words
it never saw is low (Sineva et al. 2021 report the affixal cues as the hardest cue type).
:func:`affixal_copies` rewrites one affixal cue word of a doc into a word of the same
affix position (prefix or the suffix *less*) and word class from :data:`LEXICON_PATH`,
moving the cue, scope and event parts inside that token to the new word's affix and rest;
each copy is the one sentence of the cue (as the models are trained, one sentence at a
time: ``spacy-negation.SentenceCorpus.v1``) with every other token, index and annotation
kept (the negations, tags, lemmas, the convention mark and the *SEM metadata).

The lexicon is written from general English, not from a corpus; ``exclude`` leaves out
every word that is, extends or is extended by a given word (the affixal cue words of the
held-out splits, :func:`affixal_cue_words`), so that an evaluation on those splits
measures words the augmentation never showed.
"""
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from spacy.tokens import Doc, Token

from ..alignment import Part
from ..errors import Errors
from ..negation import get_convention, get_negations, set_convention, set_negations
from ..ml.training_corpus import split_sentences
from ..util import recase
from .docs import META_KEY

#: The lexicon shipped with the package (WORD, AFFIX, CLASS per tab-separated row).
LEXICON_PATH = Path(__file__).parent / "data" / "lexicons" / "en_affixal_cues.tsv"
PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")
SUFFIX = "less"
CLASSES = ("adj", "adv", "noun")


@dataclass(frozen=True)
class AffixalWord:
    """A word with a negative affix.

    word (str): the word, lower case.
    affix (str): its negative affix (a prefix of :data:`PREFIXES` or :data:`SUFFIX`).
    cls (str): its word class (one of :data:`CLASSES`).
    """

    word: str
    affix: str
    cls: str

    @property
    def is_prefix(self) -> bool:
        return self.affix != SUFFIX

    @property
    def cue(self) -> Tuple[int, int]:
        """The character range of the affix in the word."""
        if self.is_prefix:
            return 0, len(self.affix)
        at = self.word.rindex(SUFFIX)
        return at, at + len(SUFFIX)

    @property
    def rest(self) -> Tuple[int, int]:
        """The character range that ConanDoyle-neg puts in the scope: the word after a
        prefix, the stem before the suffix (*care* of *carelessly*)."""
        start, end = self.cue
        return (end, len(self.word)) if self.is_prefix else (0, start)


def load_affixal_lexicon(path: Union[str, Path] = LEXICON_PATH) -> List[AffixalWord]:
    """The affixal words of a lexicon file (``#`` starts a comment line).

    path (Union[str, Path]): a tab-separated file of WORD, AFFIX, CLASS rows.
    RETURNS (List[AffixalWord]): its words, in file order.
    RAISES ValueError: a bad row (E148, with file and line).
    """
    path = Path(path)
    words: List[AffixalWord] = []
    seen: Set[str] = set()
    with path.open(encoding="utf-8-sig") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split("\t")

            def bad(reason: str) -> ValueError:
                return ValueError(Errors.E148.format(path=path, line=number, reason=reason,
                                                     affixes=", ".join(PREFIXES + (SUFFIX,)),
                                                     classes=", ".join(CLASSES)))

            if len(fields) != 3:
                raise bad(f"{len(fields)} fields")
            word, affix, cls = (field.strip() for field in fields)
            if word != word.lower() or not word.isalpha():
                raise bad(f"the word {word!r} is not one lower-case word")
            if affix not in PREFIXES + (SUFFIX,):
                raise bad(f"unknown affix {affix!r}")
            if cls not in CLASSES:
                raise bad(f"unknown class {cls!r}")
            if (affix != SUFFIX and (not word.startswith(affix) or len(word) < len(affix) + 3)) or (
                    affix == SUFFIX and SUFFIX not in word[1:]):
                raise bad(f"{word!r} does not carry the affix {affix!r} with a rest")
            if word in seen:
                raise bad(f"{word!r} twice")
            seen.add(word)
            words.append(AffixalWord(word, affix, cls))
    return words


def word_class(token: Token) -> str:
    """A token's word class for choosing a replacement: from its Penn tag where it has
    one (RB: adv, NN: noun, else adj), otherwise from its ending."""
    tag = token.tag_
    if tag:
        return "adv" if tag.startswith("RB") else "noun" if tag.startswith("NN") else "adj"
    lower = token.lower_
    if lower.endswith("ly"):
        return "adv"
    return "noun" if lower.endswith(("ness", "ity", "ance", "ence", "ion")) else "adj"


def affixal_cue(doc: Doc, cue: Sequence[Part]) -> Optional[AffixalWord]:
    """The affixal word of a one-part cue inside one token, if it is a prefix of
    :data:`PREFIXES` at the token's start or :data:`SUFFIX` inside it (None otherwise)."""
    if len(cue) != 1:
        return None
    part = cue[0]
    token = doc[part.i]
    if not part.is_partial(doc):
        return None
    affix = token.text[part.start:part.end].lower()
    if part.start == 0 and affix in PREFIXES and part.end < len(token.text):
        return AffixalWord(token.text.lower(), affix, word_class(token))
    if affix == SUFFIX and part.start > 0 and token.text.lower().rindex(SUFFIX) == part.start:
        return AffixalWord(token.text.lower(), affix, word_class(token))
    return None


def affixal_cue_words(docs: Iterable[Doc]) -> Set[str]:
    """The lower-case words of the affixal cues of docs (:func:`affixal_cue`)."""
    words = set()
    for doc in docs:
        for neg in get_negations(doc):
            word = affixal_cue(doc, neg.cue)
            if word is not None:
                words.add(word.word)
    return words


def is_excluded(word: str, exclude: Iterable[str]) -> bool:
    """Whether a word is, extends or is extended by one of ``exclude`` (*unusually* and
    *unusual*)."""
    return any(word.startswith(other) or other.startswith(word) for other in exclude)


def substitute(doc: Doc, i: int, old: AffixalWord, new: AffixalWord) -> Optional[Doc]:
    """A copy of the doc with token ``i`` (the affixal word ``old``) replaced by ``new``,
    every negation part on that token moved: the affix to the new affix, the rest to the
    new rest, the whole token to the whole new token. None if a part on the token is none
    of these (it cannot be moved faithfully).
    """
    text = recase(new.word, doc[i].text)
    moves: Dict[Tuple[int, int], Tuple[int, int]] = {
        old.cue: new.cue, old.rest: new.rest, (0, len(doc[i].text)): (0, len(text))}
    negations = get_negations(doc)
    for neg in negations:
        for role in ("cue", "scope", "event"):
            for p in neg.parts(role):
                if p.i == i and (p.start, p.end) not in moves:
                    return None
    words = [t.text for t in doc]
    words[i] = text
    has = {attr: doc.has_annotation(attr) for attr in ("TAG", "LEMMA", "SENT_START")}
    new_doc = Doc(doc.vocab, words=words, spaces=[bool(t.whitespace_) for t in doc],
                  tags=[t.tag_ for t in doc] if has["TAG"] else None,
                  lemmas=[new.word if t.i == i else t.lemma_ for t in doc] if has["LEMMA"] else None,
                  sent_starts=[bool(t.is_sent_start) for t in doc] if has["SENT_START"] else None)

    def moved(parts: Tuple[Part, ...]) -> List[Tuple[int, int, int]]:
        return [(p.i, *moves[(p.start, p.end)]) if p.i == i else (p.i, p.start, p.end) for p in parts]

    set_negations(new_doc, [{"cue": moved(n.cue), "scope": moved(n.scope), "event": moved(n.event)}
                            for n in negations])
    set_convention(new_doc, get_convention(doc))
    if META_KEY in doc.user_data:
        new_doc.user_data[META_KEY] = doc.user_data[META_KEY]
    return new_doc


def affixal_copies(docs: Iterable[Doc], lexicon: Sequence[AffixalWord], copies: int = 1, seed: int = 0,
                   exclude: Iterable[str] = ()) -> Iterator[Doc]:
    """For every sentence of the docs with an affixal cue, ``copies`` copies of the sentence
    alone, each with one of its affixal cue words (chosen at random) replaced by a lexicon word of the same affix position and
    word class (chosen at random, never the word itself, none of ``exclude``:
    :func:`is_excluded`).

    docs (Iterable[Doc]): the docs.
    lexicon (Sequence[AffixalWord]): the replacements (:func:`load_affixal_lexicon`).
    copies (int): copies per doc (≥ 1).
    seed (int): the seed of the random choices.
    exclude (Iterable[str]): words never used as replacements.
    YIELDS (Doc): the copies (one sentence each), in the docs' order.
    RAISES ValueError: copies below 1 (E149).
    """
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
        raise ValueError(Errors.E149.format(value=copies))
    excluded = {w.lower() for w in exclude}
    pools: Dict[Tuple[bool, str], List[AffixalWord]] = {}
    for entry in lexicon:
        if not is_excluded(entry.word, excluded):
            pools.setdefault((entry.is_prefix, entry.cls), []).append(entry)
    rng = random.Random(seed)
    for doc in (sent for whole in docs for sent in split_sentences(whole)):
        found = []
        for neg in get_negations(doc):
            word = affixal_cue(doc, neg.cue)
            if word is not None:
                found.append((neg.cue[0].i, word))
        if not found:
            continue
        for _ in range(copies):
            i, old = rng.choice(found)
            pool = [e for e in pools.get((old.is_prefix, old.cls), []) if e.word != old.word]
            if not pool:
                continue
            copy = substitute(doc, i, old, rng.choice(pool))
            if copy is not None:
                yield copy
