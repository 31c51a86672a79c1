"""The cue vocabulary: the negation cue lexicon (:mod:`spacy_negation.corpora.cue_lexicon`) and
its substitution (:mod:`spacy_negation.corpora.cue_substitute`, ``scripts/substitute_cues.py``), the
leave-cues-out evaluation (``scripts/leave_cues_out.py``) and the families of the challenge
set built apart from the probe's templates (:mod:`spacy_negation.challenge_telegraphic`).

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E980``), which adds it.
"""


class VocabularyErrors:
    """The error messages of the feature."""

    # --- the negation cue lexicon and its substitution -----------------------------------
    E980 = ("{path}:{line}: {reason}; a row of the negation cue lexicon is WORD, CLASS, SPLIT "
            "(train or heldout) and LEMMA, tab-separated, WORD one or more lower-case words with "
            "the words outside the cue in square brackets after it (classes: {classes}).")
    E981 = ("{path}: the {what} {name!r} has rows in both splits (lines {lines}); every row of a "
            "lemma and of one cue is train or every one is heldout, so that the substitution never "
            "writes a held-out word.")
    E982 = ("The cue substitution needs a whole number of copies of at least 1, a ratio above 0 "
            "and at most 1 and a limit per word of at least 1 (or none), got copies={copies!r}, "
            "ratio={ratio!r} and max_per_word={limit!r}.")
    # --- leave-cues-out evaluation -----------------------------------------------------------
    E983 = ("Cannot deal {n} cue words into {k} folds: the number of folds is a whole number from "
            "2 to the number of cue words.")
    E984 = ("{path}: not a folds file of scripts/leave_cues_out.py folds ({reason}).")
    E985 = ("Fold {fold} does not exist: the folds file {path} has folds 0 to {last}.")
    E986 = ("{path}: its docs are not predictions on the fold's test file {test} ({reason}); "
            "predict on the test file that `leave_cues_out.py filter` wrote for the fold.")
    E987 = ("No score files {pattern} under {path}: score each fold of each seed with "
            "`leave_cues_out.py score` first.")
    # --- challenge families ------------------------------------------------------------------
    E988 = ("Unknown challenge family {name!r}; the families built apart from the probe's "
            "templates: {known}.")
