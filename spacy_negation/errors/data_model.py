"""The negation data model (:mod:`spacy_negation.negation`): negation instances and
their parts, their storage in a doc, the doc extensions, annotation conventions and the
span rule.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E001``), which adds it.
"""


class DataModelErrors:
    """The error messages of the feature."""

    # --- negation instances and parts -----------------------------------------------------
    E001 = ("A negation needs at least one cue part; got an instance without cue "
            "(id {id}).")
    E002 = ("Invalid negation part: token index {i} out of range for a doc of "
            "{n} tokens.")
    E003 = ("Invalid negation part on token {i} ({text!r}): character range "
            "[{start}, {end}) is not inside the token (length {length}).")
    E004 = ("Unknown negation role {role!r}; expected one of 'cue', 'scope', 'event'.")
    E005 = ("Cannot build a negation part from {obj!r} (type {type}); expected a Token, "
            "a Span, a Part, or a (token index, start, end) tuple.")
    E007 = ("Negation parts belong to a different doc than the negation.")
    E008 = ("Negation {id} has two different {role} parts on token {i} ({a} and {b}); "
            "a role holds at most one part per token.")
    E012 = ("The {role} of negation {id} must be a list of parts (tokens, spans, Parts or "
            "(token index, start, end) tuples); got {obj!r} (type {type}).")
    E014 = ("Invalid negation part {obj!r}: token index, start and end must be integers, "
            "not booleans.")
    E015 = ("Negation {id}: its scope part {scope} on token {i} ({text!r}) overlaps its own "
            "cue part {cue}; a scope never contains its cue (for an affixal cue, give the "
            "rest of the token, e.g. (i, 2, 7) for 'happy' of 'unhappy').")
    # --- storage and extensions -----------------------------------------------------------
    E006 = ("The span group {key!r} holds a span with label {label!r}, which is not a "
            "negation role (CUE, SCOPE, EVENT).")
    E009 = ("The extension {obj}._.{name} is already registered by another package "
            "(getter {getter!r}); spacy-negation does not overwrite it. Remove it before "
            "using spacy-negation.")
    E010 = ("doc._.negations must be set to a list of negations (Negation objects or dicts "
            "with the keys 'cue', 'scope', 'event'); got {obj} (type {type}).")
    E011 = ("Negation {id} is {obj} (type {type}); expected a Negation or a dict with the "
            "keys 'cue', 'scope', 'event'.")
    E013 = ("Negation {id} has unknown key(s) {keys}; the keys are 'cue', 'scope' and "
            "'event'.")
    E017 = ("The span group {key!r} holds a span whose kb_id {kb_id!r} is not 'k@anchor' or "
            "'k@anchor:start-end': it was stored in negation storage version {version}, this "
            "version reads version {current}. Convert the corpus again with this version.")
    E016 = ("Corrupt negation storage entry {entry!r} in doc.user_data; expected 'LABEL "
            "k@anchor' or 'LABEL k@anchor:start-end'.")
    # --- annotation conventions and the span rule -----------------------------------------
    E331 = ("span_negated must be one of {rules}, got {value} (when a span counts as "
            "negated: spacy_negation.negation.span_rule).")
    E900 = ("A convention is a non-empty string (or None for no mark), got {value}.")


class DataModelWarnings:
    """The warning messages of the feature."""

    # --- merged tokens (retokenization) ---------------------------------------------------
    W003 = ("Negation {id}: a merge joined its cue {cue!r} with other tokens into {text!r}; "
            "the cue keeps its characters as a character range of the merged token "
            "(so it now reads as an affixal cue).")
    W004 = ("Negation {id}: a merge joined two {role} parts with other text into the token "
            "{text!r}; the {role} part is now the range covering both, {part!r}.")
