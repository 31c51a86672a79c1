"""The negation cue lexicon of lexical cue substitution (:mod:`.cue_substitute`): its cue
words, each with its syntactic class, split and lemma, read from a tab-separated file
(:func:`load_negation_lexicon`; the shipped English lexicon: :data:`LEXICON_PATH`).

A row is WORD, CLASS, SPLIT, LEMMA. The class (``verb_obj.3sg``: a verb with a noun object,
third person singular) is what a cue may be replaced by: a word of the same class. The
split says whether the substitution may write the word (``train``) or keeps it apart to
test whether what the train words teach reaches words the model never saw (``heldout``);
the loader refuses a lemma or a cue in both. Words in square brackets follow the cue
outside it ("free [of]")."""
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple, Union

from ..errors import Errors

#: The lexicon shipped with the package (WORD, CLASS, SPLIT, LEMMA per tab-separated row).
LEXICON_PATH = Path(__file__).parent / "data" / "lexicons" / "en_negation_cues.tsv"
#: The splits of the lexicon: words the substitution may write, and words kept apart.
SPLITS = ("train", "heldout")
#: The verb forms of the verb classes (``verb_obj.3sg``).
VERB_FORMS = ("base", "3sg", "past", "ing")
#: The word classes: a cue is replaced only by a word of the same class.
CLASSES = (("det", "pron", "adv", "conj", "prep", "adj", "noun", "contrast", "except")
           + tuple(f"{verb}.{form}" for verb in ("verb_obj", "verb_inf") for form in VERB_FORMS))
_WORD = re.compile(r"[a-z][a-z'-]*")


@dataclass(frozen=True)
class CueWord:
    """A cue word (or words) of the lexicon.

    words (Tuple[str, ...]): the words of the phrase, lower case: the cue's words, then the
        words that follow the cue outside it (the lexicon's square brackets).
    n_cue (int): how many of ``words`` are the cue.
    cls (str): its class (one of :data:`CLASSES`).
    split (str): ``train`` or ``heldout``.
    lemma (str): its lemma (every form of a lemma is in one split).
    """

    words: Tuple[str, ...]
    n_cue: int
    cls: str
    split: str
    lemma: str

    @property
    def cue_words(self) -> Tuple[str, ...]:
        return self.words[: self.n_cue]

    @property
    def after(self) -> Tuple[str, ...]:
        """The words after the cue that are not part of it ("of" of "absence [of]")."""
        return self.words[self.n_cue:]

    @property
    def key(self) -> str:
        """The cue's words joined by spaces ("ruled out")."""
        return " ".join(self.cue_words)

    @property
    def text(self) -> str:
        """As the lexicon writes it ("free [of]")."""
        return " ".join(self.cue_words + tuple(f"[{w}]" for w in self.after))


def parse_word(text: str) -> Optional[Tuple[Tuple[str, ...], int]]:
    """The words of a lexicon WORD field and how many are the cue ("free [of]": (("free",
    "of"), 1)), or None if it is not one or more lower-case words with the bracketed ones
    last."""
    cue: List[str] = []
    after: List[str] = []
    for token in text.split():
        bracketed = token.startswith("[") and token.endswith("]")
        word = token[1:-1] if bracketed else token
        if not _WORD.fullmatch(word) or (not bracketed and after):
            return None
        (after if bracketed else cue).append(word)
    return (tuple(cue + after), len(cue)) if cue else None


def load_negation_lexicon(path: Union[str, Path] = LEXICON_PATH) -> List[CueWord]:
    """The cue words of a lexicon file (``#`` starts a comment line).

    path (Union[str, Path]): a tab-separated file of WORD, CLASS, SPLIT, LEMMA rows.
    RETURNS (List[CueWord]): its words, in file order.
    RAISES ValueError: a bad row (E980, with file and line); a lemma or a cue with rows in
        both splits (E981).
    """
    path = Path(path)
    words: List[CueWord] = []
    lines: Dict[Tuple[str, str], Dict[str, List[int]]] = {}
    seen: Set[Tuple[Tuple[str, ...], str]] = set()
    with path.open(encoding="utf-8-sig") as f:
        for number, line in enumerate(f, start=1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = [field.strip() for field in line.split("\t")]

            def bad(reason: str) -> ValueError:
                return ValueError(Errors.E980.format(path=path, line=number, reason=reason,
                                                     classes=", ".join(CLASSES)))

            if len(fields) != 4:
                raise bad(f"{len(fields)} fields")
            word, cls, split, lemma = fields
            parsed = parse_word(word)
            if parsed is None:
                raise bad(f"the word {word!r} is not lower-case words with the bracketed ones last")
            if cls not in CLASSES:
                raise bad(f"unknown class {cls!r}")
            if split not in SPLITS:
                raise bad(f"unknown split {split!r} (train or heldout)")
            if not lemma or lemma != lemma.lower():
                raise bad(f"the lemma {lemma!r} is not lower case")
            if (parsed[0], cls) in seen:
                raise bad(f"{word!r} of the class {cls!r} twice")
            seen.add((parsed[0], cls))
            entry = CueWord(parsed[0], parsed[1], cls, split, lemma)
            for what, name in (("lemma", lemma), ("cue", entry.key)):
                lines.setdefault((what, name), {}).setdefault(split, []).append(number)
            words.append(entry)
    for (what, name), by_split in lines.items():
        if len(by_split) > 1:
            numbers = sorted(n for ns in by_split.values() for n in ns)
            raise ValueError(Errors.E981.format(path=path, what=what, name=name,
                                                lines=", ".join(map(str, numbers))))
    return words


def lexicon_keys(lexicon: Iterable[CueWord], split: str) -> Set[str]:
    """The cue keys (:attr:`CueWord.key`) of a split of the lexicon."""
    return {entry.key for entry in lexicon if entry.split == split}


__all__ = ["CLASSES", "CueWord", "LEXICON_PATH", "SPLITS", "lexicon_keys", "load_negation_lexicon", "parse_word"]
