"""Errors and warnings of spacy-negation, with codes (spaCy's ``ErrorsWithCodes`` style).

Tests match on the code: ``pytest.raises(StarsemFormatError, match=r"\\[E101\\]")``.
"""
from typing import Optional, Union
from pathlib import Path


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):  # python system attributes like __class__
            return msg
        return f"[{code}] {msg}"


class Warnings(metaclass=ErrorsWithCodes):
    W001 = ("Sentence {sent} has no sentence boundaries set; the whole doc is treated "
            "as one sentence.")
    W002 = ("Prediction and reference docs differ in text; negation parts that cannot "
            "be projected onto the reference tokens are dropped ({n} dropped).")


class Errors(metaclass=ErrorsWithCodes):
    # --- data model -------------------------------------------------------------------
    E001 = ("A negation needs at least one cue part; got an instance without cue "
            "(id {id}).")
    E002 = ("Invalid negation part: token index {i} out of range for a doc of "
            "{n} tokens.")
    E003 = ("Invalid negation part on token {i} ({text!r}): character range "
            "[{start}, {end}) is not inside the token (length {length}).")
    E004 = ("Unknown negation role {role!r}; expected one of 'cue', 'scope', 'event'.")
    E005 = ("Cannot build a negation part from {obj!r} (type {type}); expected a Token, "
            "a Span, a Part, or a (token index, start, end) tuple.")
    E006 = ("The span group {key!r} holds a span with label {label!r}, which is not a "
            "negation role (CUE, SCOPE, EVENT).")
    E007 = ("Negation parts belong to a different doc than the negation.")
    E008 = ("Negation {id} has two different {role} parts on token {i} ({a} and {b}); "
            "a role holds at most one part per token.")
    E009 = ("The extension {obj}._.{name} is already registered by another package "
            "(getter {getter!r}); spacy-negation does not overwrite it. Remove it before "
            "using spacy-negation.")
    # --- *SEM CoNLL reading (file and line are always given) --------------------------
    E101 = ("{path}:{line}: expected 8 columns ('***') or 7 + 3*k columns, found {n}: "
            "{content!r}")
    E102 = ("{path}:{line}: this token has {n} columns but the sentence's first token "
            "(line {first_line}) has {m}; every token of a sentence must have the same "
            "number of negation columns.")
    E103 = ("{path}:{line}: negation instance {k} (column {col}) of the sentence starting "
            "at line {first_line} has no cue cell; every instance needs at least one cue.")
    E104 = ("{path}:{line}: '***' mixed with negation annotations in one sentence "
            "(sentence starting at line {first_line}).")
    E105 = ("{path}:{line}: token number {value!r} is not a non-negative integer.")
    E106 = ("{path}:{line}: token number {value} out of sequence; expected {expected} "
            "(token numbers start at 0 and increase by one within a sentence).")
    E107 = ("{path}:{line}: {role} cell {cell!r} is not a substring of the token "
            "{form!r}.")
    E108 = ("{path}: the file is empty (no sentences).")
    E109 = ("{path}:{line}: the sentence starting at line {first_line} mixes document "
            "ids or sentence numbers ({a!r} vs {b!r}).")
    E110 = ("{path}:{line}: empty word form.")
    E111 = ("{path}:{line}: the file is not valid UTF-8 ({reason}).")
    E112 = ("{path}: cannot read the file: {reason}")
    # --- *SEM CoNLL writing -----------------------------------------------------------
    E120 = ("Doc {doc} token {i} ({text!r}) contains whitespace; the *SEM format has one "
            "token per line and cannot hold it.")
    E121 = ("Doc {doc}: negation {id} has a {role} part on token {i} that is not in the "
            "sentence of its cue.")
    E122 = ("Doc {doc}: negation {id} has two {role} parts on token {i}; the *SEM format "
            "holds one cell per token and instance.")
    # --- command line -----------------------------------------------------------------
    E130 = ("Input file not found: {path}")
    E131 = ("Unknown input format {fmt!r}; available: {available}.")
    E132 = ("{path}: not a .spacy (DocBin) file: {reason}")


class NegationFormatError(ValueError):
    """A malformed input file. Carries the path and the 1-based line number."""

    def __init__(self, message: str, path: Union[str, Path, None] = None,
                 line: Optional[int] = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None
        self.line = line


# Backwards-friendly alias used across the package.
StarsemFormatError = NegationFormatError
