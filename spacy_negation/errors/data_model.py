"""The negation data model (:mod:`spacy_negation.negation`): negation and speculation
instances and their parts, their storage in a doc, the doc extensions, annotation conventions and the
span rule.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E001``), which adds it.
"""


class DataModelErrors:
    """The error messages of the feature."""

    # --- instances (negations, speculations) and parts; {kind} is 'negation' or
    # 'speculation', {Kind} the same capitalized ------------------------------------------
    E001 = ("A {kind} needs at least one cue part; got an instance without cue "
            "(id {id}).")
    E002 = ("Invalid {kind} part: token index {i} out of range for a doc of "
            "{n} tokens.")
    E003 = ("Invalid {kind} part on token {i} ({text!r}): character range "
            "[{start}, {end}) is not inside the token (length {length}).")
    E004 = ("Unknown {kind} role {role!r}; expected one of {roles}.")
    E005 = ("Cannot build a {kind} part from {obj!r} (type {type}); expected a Token, "
            "a Span, a Part, or a (token index, start, end) tuple.")
    E007 = ("{Kind} parts belong to a different doc than the {kind}.")
    E008 = ("{Kind} {id} has two different {role} parts on token {i} ({a} and {b}); "
            "a role holds at most one part per token.")
    E012 = ("The {role} of {kind} {id} must be a list of parts (tokens, spans, Parts or "
            "(token index, start, end) tuples); got {obj!r} (type {type}).")
    E014 = ("Invalid {kind} part {obj!r}: token index, start and end must be integers, "
            "not booleans.")
    E015 = ("{Kind} {id}: its scope part {scope} on token {i} ({text!r}) overlaps its own "
            "cue part {cue}; a scope never contains its cue (for an affixal cue, give the "
            "rest of the token, e.g. (i, 2, 7) for 'happy' of 'unhappy').")
    E018 = ("Speculation {id} has an event: a speculation has a cue and a scope only "
            "(neither BioScope nor SFU Review annotates an event of speculation).")
    # --- storage and extensions -----------------------------------------------------------
    E006 = ("The span group {key!r} holds a span with label {label!r}, which is not a "
            "{kind} role ({labels}).")
    E009 = ("The extension {obj}._.{name} is already registered by another package "
            "(getter {getter!r}); spacy-negation does not overwrite it. Remove it before "
            "using spacy-negation.")
    E010 = ("doc._.{key} must be set to a list of {key} ({Kind} objects or dicts "
            "with the keys {roles}); got {obj} (type {type}).")
    E011 = ("{Kind} {id} is {obj} (type {type}); expected a {Kind} or a dict with the "
            "keys {roles}.")
    E013 = ("{Kind} {id} has unknown key(s) {unknown}; the keys are {keys}.")
    E017 = ("The span group {key!r} holds a span whose kb_id {kb_id!r} is not 'k@anchor' or "
            "'k@anchor:start-end': it was stored in {kind} storage version {version}, this "
            "version reads version {current}. Convert the corpus again with this version.")
    E016 = ("Corrupt {kind} storage entry {entry!r} in doc.user_data; expected 'LABEL "
            "k@anchor' or 'LABEL k@anchor:start-end'.")
    # --- annotation conventions and the span rule -----------------------------------------
    E331 = ("span_negated must be one of {rules}, got {value} (when a span counts as "
            "negated: spacy_negation.negation.span_rule).")
    E900 = ("A convention is a non-empty string (or None for no mark), got {value}.")


class DataModelWarnings:
    """The warning messages of the feature."""

    # --- merged tokens (retokenization) ---------------------------------------------------
    W003 = ("{Kind} {id}: a merge joined its cue {cue!r} with other tokens into {text!r}; "
            "the cue keeps its characters as a character range of the merged token "
            "(so it now reads as an affixal cue).")
    W004 = ("{Kind} {id}: a merge joined two {role} parts with other text into the token "
            "{text!r}; the {role} part is now the range covering both, {part!r}.")
