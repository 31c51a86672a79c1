"""Characters a reader does not see: the default-ignorable format characters of Unicode
(category Cf: the zero-width space U+200B, the zero-width (non-)joiners U+200C and
U+200D, the word joiner U+2060, the byte order mark U+FEFF, the soft hyphen U+00AD, the
bidirectional marks and embeddings) and ANSI terminal escape sequences (colours
``\\x1b[31m`` ... ``\\x1b[0m`` and the other CSI sequences, OSC sequences, a lone ESC).

Glued to a word they change its text but not what it says: spaCy keeps ``not\\u200b``
as one token, and ``not\\x1b[0m`` as ``not\\x1b[0`` and ``m``; a model trained on clean
text then misses the cue (its word lexicons and the prefilter do not know the word, the
network reads other features). The ``negation`` component therefore gives its model the
*visible* text of the host's tokens (:class:`~.host_docs.VisibleTokens`) and maps the
negations back onto the host's own tokens and characters; the cue component's prefilter
and the decoder's word look-ups read a token's visible text too (:func:`visible`).
"""
import re
from typing import List, Tuple

#: The default-ignorable format characters (Unicode category Cf that are also
#: Default_Ignorable_Code_Point): soft hyphen, Arabic letter mark, Mongolian vowel
#: separator, zero-width space, (non-)joiners, directional marks, embeddings and
#: isolates, word joiner, invisible operators, byte order mark, shorthand format
#: controls, musical symbol formatting, tags.
FORMAT_CHARS = ("\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
                "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
#: An ANSI escape sequence: CSI (``ESC [`` parameters, intermediates and a final byte, which
#: may be missing at the end of a token), OSC (``ESC ]`` ... BEL or ``ESC \\``), a
#: two-character escape, or a lone ESC.
ANSI_ESCAPE = r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])?"
#: What :func:`visible` removes.
HIDDEN = re.compile(f"{ANSI_ESCAPE}|[{FORMAT_CHARS}]+")


def has_hidden(text: str) -> bool:
    """Whether a text holds a format character or an ANSI escape sequence.

    text (str): the text.
    RETURNS (bool): the answer.
    """
    return HIDDEN.search(text) is not None


def visible(text: str) -> str:
    """A text without its format characters and ANSI escape sequences.

    text (str): e.g. a token's text, ``"not\\u200b"``.
    RETURNS (str): e.g. ``"not"`` (the text itself when it has none).
    """
    return HIDDEN.sub("", text) if HIDDEN.search(text) is not None else text


def hidden_spans(text: str) -> List[Tuple[int, int]]:
    """The character ranges of a text that :func:`visible` removes (an ANSI sequence is
    found whole across the tokens spaCy cuts it into: ``\\x1b[0`` and ``m``).

    text (str): the text, e.g. a doc's.
    RETURNS (List[Tuple[int, int]]): the ranges, in order.
    """
    return [match.span() for match in HIDDEN.finditer(text)]
