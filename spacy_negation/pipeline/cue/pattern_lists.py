"""The cue pattern lists: their entries, the shipped lists, reading and checking
them (:func:`load_cue_patterns`). Matching the entries on docs and applying them to
the cues is :mod:`.patterns`.

User cue lists: negation triggers, pseudo-negations and terminations given as word
and phrase patterns, in the style of the rule-based clinical negation tools NegEx
(Chapman et al. 2001) and ConText (Harkema et al. 2009).

A pattern entry is a JSON object: ``{"pattern": "denies", "kind": "preceding"}``. The
``pattern`` is a phrase (tokenized with the pipeline's tokenizer and matched on lower
case words, or on exact words with ``"attr": "ORTH"``) or a list of spaCy ``Matcher``
token patterns (``[{"LOWER": "ruled"}, {"LOWER": "out"}]``) on the attributes a doc
has without any other component (text, lower case, norm, shape, affixes, length, the
lexical flags). A phrase matches its words literally: one that looks like a regular
expression (``deni(es|ed)``, ``no.*``, ``not?``) is refused, since it would never match;
write a token pattern with ``REGEX`` instead (``[{"LOWER": {"REGEX": "^deni(es|ed)$"}}]``).
A token pattern must constrain what it matches: at least one of its tokens must be
required (no ``OP``, or ``+``, ``1``, ``{n}`` with n >= 1) and given by an attribute that
can fail (``{}`` matches any token, so ``[{}]`` would make every token a cue; ``[{"OP":
"*"}]`` matches no token at all; ``{"REGEX": ".*"}`` matches every token). Optional keys: ``id`` (a name of the entry) and ``source`` (where it
comes from). The kinds:

- ``preceding``: a trigger that negates what follows it (*denies* chest pain),
- ``following``: a trigger that negates what precedes it (pneumonia *was ruled out*),
- ``bidirectional``: a trigger that may negate either side (*absent*),
- ``pseudo``: a phrase that contains a trigger but does not negate (*no increase*,
  *not only*, *gram negative*): it is not a cue, and no model cue or trigger inside it
  is one,
- ``termination``: a word or phrase where a scope stops (*but*, *however*).

A setting (``cue_patterns`` of ``negation_cue`` and of ``negation``) is None, the name
of a list shipped with the package (``"en_clinical"``), the path of a JSONL file (one
entry per line), or a list whose items are entries, names or paths. An entry of a later
item replaces an earlier entry with the same pattern (to change one entry of a shipped
list); within one item a pattern may appear only once with one kind.
"""
import os
import re
import stat
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import srsly
from spacy.matcher import Matcher
from spacy.tokens import Doc

from ...errors import Errors, NegationFormatError, Warnings
from ...util import read_utf8

#: The kinds of cue pattern entries.
TRIGGER_KINDS = ("preceding", "following", "bidirectional")
KINDS = TRIGGER_KINDS + ("pseudo", "termination")
#: The token attributes a pattern may use: those of a doc without other components.
TOKEN_ATTRS = (
    "ORTH", "TEXT", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX", "LENGTH", "OP",
    "IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER", "IS_UPPER", "IS_TITLE", "IS_PUNCT",
    "IS_SPACE", "IS_STOP", "IS_BRACKET", "IS_QUOTE", "IS_LEFT_PUNCT", "IS_RIGHT_PUNCT",
    "IS_CURRENCY", "LIKE_NUM", "LIKE_URL", "LIKE_EMAIL", "SPACY",
)
PHRASE_ATTRS = ("LOWER", "ORTH")
ENTRY_KEYS = ("pattern", "kind", "attr", "id", "source")
#: The folder of the shipped lists (``NAME.jsonl``).
LISTS_DIR = Path(__file__).resolve().parents[2] / "patterns"

Setting = Union[None, str, Sequence[Union[str, Dict[str, Any]]]]
MakeDoc = Callable[[str], Doc]


def shipped_lists() -> List[str]:
    """The names of the cue lists shipped with the package.

    RETURNS (List[str]): the names (``en_clinical``, ...).
    """
    return sorted(path.stem for path in LISTS_DIR.glob("*.jsonl"))


def load_cue_patterns(setting: Setting, make_doc: MakeDoc) -> List[Dict[str, Any]]:
    """Read and validate a ``cue_patterns`` setting into normalized entries.

    setting (Setting): None, a shipped list's name, a JSONL file path, or a list of
        entries, names and paths.
    make_doc (Callable[[str], Doc]): the tokenizer that splits phrase patterns into
        words (the pipeline's ``make_doc``).
    RETURNS (List[Dict[str, Any]]): the entries, each with its ``kind``, the
        ``tokens`` the Matcher uses and the given ``pattern`` (plus ``attr``, ``id``,
        ``source`` where given), in setting order.
    RAISES (ValueError): a coded error naming the file and line (or list item); E350
        for a setting or list item of another type (a number, a dict outside a list,
        None in a list).
    """
    if setting is None:
        return []
    if isinstance(setting, os.PathLike):
        setting = os.fspath(setting)
    items: Sequence[Union[str, Dict[str, Any]]] = [setting] if isinstance(setting, str) else setting
    if not isinstance(items, (list, tuple)):
        hint = "; put an entry in a list: [{...}]" if isinstance(setting, dict) else ""
        raise ValueError(Errors.E350.format(what=f"{_described(setting)}{hint}"))
    merged: Dict[str, Dict[str, Any]] = {}
    for n, item in enumerate(items):
        if isinstance(item, os.PathLike):
            item = os.fspath(item)
        if isinstance(item, str):
            entries = read_cue_patterns(resolve_list(item), make_doc)
        elif isinstance(item, dict):
            entries = [normalize_entry(item, f"cue_patterns[{n}]", make_doc)]
        else:
            raise ValueError(Errors.E350.format(what=f"a list whose item {n} is {_described(item)}"))
        for entry in entries:
            key = _entry_key(entry)
            merged.pop(key, None)  # a later item's entry replaces an earlier one
            merged[key] = entry
    return list(merged.values())


def resolve_list(name_or_path: str) -> Path:
    """The file of a shipped list's name or of a path.

    name_or_path (str): ``en_clinical`` or a path to a JSONL file.
    RETURNS (Path): the file.
    RAISES (ValueError): E351 if it is neither; E373 for a path that is not a regular
        file (a folder, ``/dev/null``, a pipe).
    """
    if name_or_path in shipped_lists():
        return LISTS_DIR / f"{name_or_path}.jsonl"
    path = Path(name_or_path)
    if path.exists() and not path.is_file():
        raise ValueError(Errors.E373.format(value=name_or_path, what=_file_kind(path)))
    if path.is_file():
        if not path.is_absolute():
            warnings.warn(Warnings.W302.format(path=name_or_path))
        return path
    raise ValueError(Errors.E351.format(value=name_or_path, names=", ".join(shipped_lists())))


def _described(value: Any) -> str:
    """A setting's value for E350: its type and (shortened) value."""
    return f"{value!r:.60} ({type(value).__name__})"


def _file_kind(path: Path) -> str:
    """What a path that exists but is not a regular file is."""
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    return "not a regular file"


def read_cue_patterns(path: Union[str, Path], make_doc: MakeDoc) -> List[Dict[str, Any]]:
    """Read and validate a JSONL file of cue pattern entries (one JSON object per
    line; blank lines are skipped).

    path (Union[str, Path]): the file.
    make_doc (Callable[[str], Doc]): the tokenizer of phrase patterns.
    RETURNS (List[Dict[str, Any]]): the normalized entries, in file order.
    RAISES (NegationFormatError): a coded error naming the file and line.
    """
    text = read_utf8(path)
    entries: List[Dict[str, Any]] = []
    seen: Dict[str, Tuple[int, str]] = {}
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_no}"
        try:
            obj = srsly.json_loads(line)
        except ValueError as err:
            raise NegationFormatError(Errors.E352.format(where=where, reason=err), path, line_no) from err
        try:
            entry = normalize_entry(obj, where, make_doc)
        except ValueError as err:
            raise NegationFormatError(str(err), path, line_no) from err
        key = _entry_key(entry)
        if key in seen:
            first_line, first_kind = seen[key]
            if first_kind != entry["kind"]:
                raise NegationFormatError(Errors.E357.format(
                    where=where, first=first_line, kind=entry["kind"], first_kind=first_kind), path, line_no)
            warnings.warn(Warnings.W303.format(where=where, first=first_line))
            continue
        seen[key] = (line_no, entry["kind"])
        entries.append(entry)
    if not entries:
        raise NegationFormatError(Errors.E358.format(path=path), path)
    return entries


def normalize_entry(obj: Any, where: str, make_doc: MakeDoc) -> Dict[str, Any]:
    """Validate one entry and add the Matcher's token patterns.

    obj (Any): the entry as read.
    where (str): where it comes from (``file:line`` or ``cue_patterns[n]``).
    make_doc (Callable[[str], Doc]): the tokenizer of phrase patterns.
    RETURNS (Dict[str, Any]): the entry with ``tokens``.
    RAISES (ValueError): E353-E356 with ``where``.
    """
    if not isinstance(obj, dict):
        raise ValueError(Errors.E353.format(where=where, reason=f"expected a JSON object, got {obj!r}"))
    unknown = sorted(set(obj) - set(ENTRY_KEYS))
    if unknown:
        raise ValueError(Errors.E353.format(where=where, reason=f"unknown key(s) {unknown}; "
                                            f"allowed: {', '.join(ENTRY_KEYS)}"))
    for key in ("pattern", "kind"):
        if key not in obj:
            raise ValueError(Errors.E353.format(where=where, reason=f"the key {key!r} is missing"))
    kind = obj["kind"]
    if kind not in KINDS:
        raise ValueError(Errors.E354.format(where=where, kind=kind, kinds=", ".join(KINDS)))
    for key in ("id", "source"):
        if key in obj and not isinstance(obj[key], str):
            raise ValueError(Errors.E353.format(where=where, reason=f"{key!r} must be a string"))
    pattern = obj["pattern"]
    if isinstance(pattern, str):
        attr = obj.get("attr", "LOWER")
        if attr not in PHRASE_ATTRS:
            raise ValueError(Errors.E353.format(where=where, reason=f"'attr' must be one of "
                                                f"{', '.join(PHRASE_ATTRS)}, got {attr!r}"))
        looks = _regex_looking(pattern)
        if looks is not None:
            raise ValueError(Errors.E962.format(where=where, pattern=pattern, what=looks))
        words = [t.text for t in make_doc(pattern) if not t.is_space]
        if not words:
            raise ValueError(Errors.E355.format(where=where, pattern=pattern, reason="it has no words"))
        tokens = [{attr: word.lower() if attr == "LOWER" else word} for word in words]
    elif isinstance(pattern, list) and pattern and all(isinstance(t, dict) for t in pattern):
        if "attr" in obj:
            raise ValueError(Errors.E353.format(where=where, reason="'attr' applies to phrase "
                                                "patterns only; a token pattern names its attributes"))
        for token in pattern:
            bad = sorted(str(a) for a in token if str(a).upper() not in TOKEN_ATTRS)
            if bad:
                raise ValueError(Errors.E356.format(where=where, attrs=bad, allowed=", ".join(TOKEN_ATTRS)))
        tokens = [dict(token) for token in pattern]
    else:
        raise ValueError(Errors.E355.format(where=where, pattern=pattern,
                                            reason="expected a phrase or a non-empty list of token patterns"))
    try:
        Matcher(make_doc("").vocab, validate=True).add("negation_cue_pattern_check", [tokens])
    except ValueError as err:
        raise ValueError(Errors.E355.format(where=where, pattern=pattern, reason=err)) from err
    if not isinstance(pattern, str):  # checked after the Matcher's own validation
        for token in tokens:
            regex = _empty_matching_regex(token)
            if regex is not None:
                raise ValueError(Errors.E963.format(where=where, pattern=pattern, regex=regex))
        if not any(_required(token) and _constrains(token) for token in tokens):
            raise ValueError(Errors.E964.format(where=where, pattern=pattern))
    entry: Dict[str, Any] = {key: obj[key] for key in ENTRY_KEYS if key in obj}
    entry["tokens"] = tokens
    return entry


#: What makes a phrase look like a regular expression: a backslash escape, alternation,
#: a group or character class, a quantifier after a character, or an anchor.
_REGEX_SIGNS = (
    (re.compile(r"\\[A-Za-z.()\[\]{}|?*+^$\\]"), "a backslash escape"),
    (re.compile(r"\|"), "an alternation '|'"),
    (re.compile(r"\(.*\)|\[.*\]"), "a group '(...)' or character class '[...]'"),
    (re.compile(r"[A-Za-z.)\]][*+?]|\{\d+(,\d*)?\}"), "a quantifier ('*', '+', '?' or '{n}' "
                                                        "after a letter, '.' or a group)"),
    (re.compile(r"^\^|\$$"), "an anchor '^' or '$'"),
)
#: Operators that require at least one token.
_REQUIRED_OPS = ("1", "+")


def _regex_looking(phrase: str) -> Optional[str]:
    """What makes a phrase look like a regular expression, or None."""
    for sign, what in _REGEX_SIGNS:
        if sign.search(phrase):
            return what
    return None


def _required(token: Dict[str, Any]) -> bool:
    """Whether a token pattern must match at least one token (by its operator)."""
    op = token.get("OP")
    if op is None or op in _REQUIRED_OPS:
        return True
    match = re.fullmatch(r"\{(\d+)(,\d*)?\}", str(op))
    return match is not None and int(match.group(1)) >= 1


def _constrains(token: Dict[str, Any]) -> bool:
    """Whether a token pattern says something about the token (an attribute besides
    ``OP``)."""
    return any(str(key).upper() != "OP" for key in token)


def _empty_matching_regex(token: Dict[str, Any]) -> Optional[str]:
    """A ``REGEX`` of the token pattern that matches every token (it matches the empty
    string, and spaCy searches it in the attribute), or None."""
    for value in token.values():
        if isinstance(value, dict):
            for key, regex in value.items():
                if str(key).upper() == "REGEX" and isinstance(regex, str):
                    try:
                        if re.search(regex, "") is not None:
                            return regex
                    except re.error:
                        return None  # the Matcher's validation names it
    return None


def _entry_key(entry: Dict[str, Any]) -> str:
    return srsly.json_dumps(entry["tokens"], sort_keys=True)
