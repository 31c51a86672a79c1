"""Annotations given as character offsets into a raw sentence text, put onto spaCy's tokens of
that text: what the NoReC_neg (:mod:`.norec`) and NUBes (:mod:`.nubes`) readers share.

- :func:`tokenize`: a text's tokens by the blank pipeline of a language (``spacy.blank(lang)``
  of spaCy 3.8), whitespace tokens left out (a run of several spaces, a tab), with each
  token's character span in the text; sentences of a doc are therefore joined and their
  whitespace runs written as one space, while the parts keep their characters.
- :func:`role_parts`: a role's characters as parts, a token all of whose characters are in
  the role a whole part, a token partly covered a part with the covered range (an affix such
  as Norwegian *u-*, the rest of its token in the scope; or a range that ends inside a token
  spaCy keeps whole, e.g. ``50.`` of ``50.Kamerasnarvei``). A part holds one range per
  token, so a role that covers two separate ranges of one token is refused
  (:class:`SplitToken`; the readers raise E467), never cut down to one of them.
"""
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, List, Set, Tuple

from .records import NegationRecord, PartTuple, chars_to_parts

#: A role's characters: offsets in the sentence text.
Chars = Set[int]


@dataclass
class Tokens:
    """The tokens of a sentence text.

    words (List[str]): the token texts (no whitespace token).
    spaces (List[bool]): whether whitespace follows each token in the text.
    spans (List[Tuple[int, int]]): each token's start and end offset in the text.
    """

    words: List[str]
    spaces: List[bool]
    spans: List[Tuple[int, int]]


class SplitToken(ValueError):
    """A role covers two separate character ranges of one token (a part holds one).

    role (str): the role.
    token (int): the token position.
    """

    def __init__(self, role: str, token: int) -> None:
        super().__init__(role, token)
        self.role = role
        self.token = token


@lru_cache(maxsize=4)
def _tokenizer(lang: str) -> Any:
    import spacy

    return spacy.blank(lang).tokenizer


def tokenize(text: str, lang: str) -> Tokens:
    """The tokens of a text by ``spacy.blank(lang)``'s tokenizer, whitespace tokens left out.

    text (str): the sentence text.
    lang (str): the language code, e.g. 'nb' or 'es'.
    RETURNS (Tokens): the tokens.
    """
    words: List[str] = []
    spans: List[Tuple[int, int]] = []
    for token in _tokenizer(lang)(text):
        if token.is_space:
            continue
        words.append(token.text)
        spans.append((token.idx, token.idx + len(token.text)))
    spaces = [end < len(text) and text[end].isspace() for _, end in spans]
    return Tokens(words, spaces, spans)


def _split_tokens(spans: List[Tuple[int, int]], chars: Chars) -> List[int]:
    """The positions of the tokens whose characters in ``chars`` form two or more runs."""
    split = []
    for pos, (start, end) in enumerate(spans):
        covered = [c in chars for c in range(start, end)]
        runs = sum(1 for k, inside in enumerate(covered) if inside and (k == 0 or not covered[k - 1]))
        if runs > 1:
            split.append(pos)
    return split


def role_parts(spans: List[Tuple[int, int]], chars: Chars, role: str) -> List[PartTuple]:
    """A role's characters as parts of the tokens (see the module docstring).

    spans (List[Tuple[int, int]]): the tokens' character spans.
    chars (Chars): the role's characters (whitespace between tokens is in no token).
    role (str): the role, for the error.
    RETURNS (List[PartTuple]): ``(token position, start, end)`` per covered token.
    RAISES (SplitToken): the role covers two separate ranges of one token.
    """
    split = _split_tokens(spans, chars)
    if split:
        raise SplitToken(role, split[0])
    return chars_to_parts(spans, chars)


def instance_parts(spans: List[Tuple[int, int]], roles: Iterable[Tuple[str, Chars]]) -> NegationRecord:
    """The parts of one instance, per role (:func:`role_parts`).

    spans (List[Tuple[int, int]]): the tokens' character spans.
    roles (Iterable[Tuple[str, Chars]]): (role, characters) pairs, e.g. cue, scope, event.
    RETURNS (NegationRecord): role -> parts.
    RAISES (SplitToken): a role covers two separate ranges of one token.
    """
    return {role: role_parts(spans, chars, role) for role, chars in roles}
