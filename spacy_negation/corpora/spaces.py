"""Guessing the spaces between the tokens of a pre-tokenized sentence.

Corpora that come as token lists (CD-SCO, SFU Review, SFU ReviewSP-NEG) do not say which
tokens were followed by a space; the readers rebuild a plausible text with the
punctuation rules of the corpus's language.
"""
from dataclasses import dataclass
from typing import FrozenSet, List, Sequence


@dataclass(frozen=True)
class SpaceRules:
    """Punctuation rules of a language.

    no_space_before (FrozenSet[str]): tokens glued to the token before them (closing
        punctuation).
    no_space_after (FrozenSet[str]): tokens glued to the token after them (opening
        punctuation).
    no_space_around (FrozenSet[str]): tokens glued on both sides (the English em dash).
    clitics (FrozenSet[str]): lower-cased tokens glued to the token before them
        ("n't", "'s").
    """

    no_space_before: FrozenSet[str]
    no_space_after: FrozenSet[str]
    no_space_around: FrozenSet[str] = frozenset()
    clitics: FrozenSet[str] = frozenset()


ENGLISH = SpaceRules(
    no_space_before=frozenset({",", ".", ";", ":", "!", "?", ")", "]", "}", "”", "’", "''", "%", "…",
                               "-RRB-"}),
    no_space_after=frozenset({"(", "[", "{", "“", "‘", "``", "$", "-LRB-"}),
    no_space_around=frozenset({"—"}),
    clitics=frozenset({"n't", "n’t", "'s", "’s", "'re", "’re", "'ll", "’ll", "'ve", "’ve", "'d", "’d", "'m",
                       "’m"}),
)

SPANISH = SpaceRules(
    no_space_before=frozenset({",", ".", ";", ":", "!", "?", ")", "]", "}", "»", "”", "’", "%", "…", "..."}),
    no_space_after=frozenset({"(", "[", "{", "¿", "¡", "«", "“", "‘"}),
)


def guess_spaces(words: Sequence[str], rules: SpaceRules = ENGLISH) -> List[bool]:
    """Whether each word is followed by a space, by a language's punctuation rules.

    words (Sequence[str]): the words of one sentence.
    rules (SpaceRules): the rules (default: English).
    RETURNS (List[bool]): one flag per word; the last word gets a space (sentences of a
        doc are separated by one space).
    """
    spaces: List[bool] = []
    for word, nxt in zip(words, words[1:]):
        spaces.append(not (
            word in rules.no_space_after or word in rules.no_space_around
            or nxt in rules.no_space_before or nxt in rules.no_space_around
            or nxt.lower() in rules.clitics
        ))
    if words:
        spaces.append(True)
    return spaces
