"""Unmasking a BioScope clinical sentence: where a masked sentence (every run of letters
and digits one ``*``) lies in its report's text (:func:`align_sentence`), and the sentence
with the report's words and its annotation moved onto them (:func:`restore_sentence`). The
rules are those of :mod:`.bioscope_clinical`, which reads the files.
"""
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Dict, List, Set, Tuple

from .bioscope import BioScopeNegation, BioScopeSentence, normalize_space

#: The character BioScope puts in place of each run of letters and digits.
MASK = "*"
#: How much report text an error message quotes.
QUOTE_CHARS = 80


@dataclass
class Alignment:
    """Where a masked sentence lies in its report text.

    start (int): the offset of its first character in the report text.
    end (int): the offset after its last character.
    owner (List[int]): per report character in ``[start, end)``, the masked character it was
        matched with (-1: a space, or a character the masked sentence lacks).
    differs (List[Tuple[str, str]]): the stretches of punctuation where the report has
        characters the masked sentence lacks, as (masked, report).
    """

    start: int
    end: int
    owner: List[int]
    differs: List[Tuple[str, str]] = field(default_factory=list)


class MaskMismatch(ValueError):
    """A masked sentence does not match the report text at its position (the message says
    why); the reader turns it into error E140 with file, line and document id."""


def word_runs(text: str) -> List[Tuple[int, int]]:
    """The maximal runs of letters and digits of a text: what BioScope masks as one ``*``.

    text (str): the text.
    RETURNS (List[Tuple[int, int]]): (start, end) of each run, in order.
    """
    runs: List[Tuple[int, int]] = []
    start = -1
    for i, ch in enumerate(text):
        if ch.isalnum():
            if start < 0:
                start = i
        elif start >= 0:
            runs.append((start, i))
            start = -1
    if start >= 0:
        runs.append((start, len(text)))
    return runs


def align_sentence(masked: str, text: str, runs: List[Tuple[int, int]], pos: int,
                   last: bool = False) -> Alignment:
    """Match one masked sentence against a report text from a position (see the module
    docstring).

    masked (str): the masked sentence text (whitespace normalised).
    text (str): the report text of the part.
    runs (List[Tuple[int, int]]): its runs of letters and digits (:func:`word_runs`).
    pos (int): where the previous sentence ended (0 for the first).
    last (bool): whether it is the last sentence of the part (the text must end with it).
    RETURNS (Alignment): where it lies.
    RAISES (MaskMismatch): it does not match.
    """
    start = pos
    while start < len(text) and text[start].isspace():
        start += 1
    stars = [i for i, ch in enumerate(masked) if ch == MASK]
    k = bisect_left(runs, (start, start))
    if k + len(stars) > len(runs):
        raise MaskMismatch(f"{len(stars)} masked word(s), but the report text has {len(runs) - k} left")
    owner: Dict[int, int] = {}
    differs: List[Tuple[str, str]] = []
    words = runs[k:k + len(stars)]
    for star, (w_start, w_end) in zip(stars, words):
        owner.update((t, star) for t in range(w_start, w_end))
    # the stretches before and between the words: both ends fixed by the words
    bounds = [-1, *stars]
    region_start = start
    for j, (w_start, w_end) in enumerate(words):
        _match_punctuation(masked, bounds[j] + 1, stars[j], text, region_start, w_start, owner, differs)
        region_start = w_end
    # after the last word: the shortest stretch up to the next word that holds the punctuation;
    # the last sentence of a part takes what is left when no word is
    limit = runs[k + len(stars)][0] if k + len(stars) < len(runs) else len(text)
    to_the_end = last and k + len(stars) == len(runs)
    end = _match_punctuation(masked, bounds[-1] + 1, len(masked), text, region_start, limit, owner, differs,
                             shortest=not to_the_end)
    if last and text[end:].strip():
        raise MaskMismatch(f"{len(stars)} masked word(s), but the report part has {len(runs) - k} from here: it goes "
                           f"on after its last sentence: {text[end:end + QUOTE_CHARS]!r}")
    return Alignment(start, end, [owner.get(t, -1) for t in range(start, end)], differs)


def _match_punctuation(masked: str, m_start: int, m_end: int, text: str, t_start: int, t_end: int,
                       owner: Dict[int, int], differs: List[Tuple[str, str]], shortest: bool = False) -> int:
    """Match the punctuation of a masked stretch with that of a report stretch (spaces
    ignored), as a subsequence; record the matched report characters in ``owner`` and a
    difference in ``differs``.

    RETURNS (int): the end of the matched report stretch (``t_end`` unless ``shortest``).
    RAISES (MaskMismatch): the masked punctuation is not a subsequence of the report's.
    """
    wanted = [i for i in range(m_start, m_end) if not masked[i].isspace()]
    k = 0
    end = t_start
    for t in range(t_start, t_end):
        if k == len(wanted) and shortest:
            break
        if text[t].isspace():
            continue
        if k < len(wanted) and text[t] == masked[wanted[k]]:
            owner[t] = wanted[k]
            k += 1
        end = t + 1
    if k < len(wanted):
        where = "after the last word" if shortest else "before or between the words"
        raise MaskMismatch(f"punctuation {masked[m_start:m_end]!r} {where} where the report has "
                           f"{text[t_start:t_end]!r}")
    end = end if shortest else t_end
    report = "".join(ch for ch in text[t_start:end] if not ch.isspace())
    if len(report) != len(wanted):
        differs.append((masked[m_start:m_end].strip(), text[t_start:end].strip()))
    return end


def restore_sentence(masked: BioScopeSentence, text: str, alignment: Alignment) -> BioScopeSentence:
    """The masked sentence with the report's words: its text and the characters of its cues
    and scopes in that text.

    masked (BioScopeSentence): the masked sentence (from :func:`.bioscope.parse_sentence`).
    text (str): the report text of its part.
    alignment (Alignment): where it lies in the text (:func:`align_sentence`).
    RETURNS (BioScopeSentence): the restored sentence.
    """
    raw = text[alignment.start:alignment.end]
    restored, mapping = normalize_space(raw)
    owner = alignment.owner
    before: List[int] = []
    seen = -1
    for o in owner:
        before.append(seen)
        seen = o if o >= 0 else seen
    after = [-1] * len(owner)
    seen = -1
    for i in range(len(owner) - 1, -1, -1):
        after[i] = seen
        seen = owner[i] if owner[i] >= 0 else seen

    def move(chars: Set[int]) -> Set[int]:
        out: Set[int] = set()
        for i, o in enumerate(owner):
            if mapping[i] < 0:
                continue
            if o >= 0:
                inside = o in chars
            else:  # a report character the masked sentence lacks: inside if its neighbours are
                sides = [s for s in (before[i], after[i]) if s >= 0]
                inside = bool(sides) and all(s in chars for s in sides)
            if inside:
                out.add(mapping[i])
        return out

    def moved(instances: List[BioScopeNegation]) -> List[BioScopeNegation]:
        return [BioScopeNegation(inst.ref, move(inst.cue), move(inst.scope), inst.n_cue_elements, inst.line)
                for inst in instances]

    return BioScopeSentence(masked.doc_id, masked.sent_id, restored, moved(masked.negations), masked.line,
                            moved(masked.speculations))
