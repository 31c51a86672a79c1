"""The command line (:mod:`spacy_negation.cli`): input and output files, languages and the
options the commands share.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E123``), which adds it.
"""


class CliErrors:
    """The error messages of the feature."""

    # --- input and output files -----------------------------------------------------------
    E123 = ("Cannot write {path}: {reason}.")
    E124 = ("Cannot write {path}: it exists and is not a regular file ({kind}); it is not "
            "replaced.")
    E125 = ("The output {output} is the input {input} (the same file on disk); the input is "
            "not overwritten. Choose another output path.")
    E130 = ("Input file not found: {path}")
    E210 = ("{path} is a directory; expected a file.")
    E970 = ("{path} is {kind}, not a regular file: an input is read from a regular file (a "
            "FIFO or a device may block or never end). Save the data to a file and pass that.")
    E972 = ("Cannot write {path}: {reason}: the disk (or the quota) is full. Nothing was written "
            "(the temporary file is removed); free some space and run the command again.")
    # --- languages and options (E704 also annotate's and the probe's) ---------------------
    E126 = ("Unknown language {lang!r}: spaCy has no language class for it ({reason}). Use a "
            "language code such as 'en' or 'es'.")
    E704 = ("{option} must be at least 1, got {value}.")
    E971 = ("{option} must be a whole number from {low} to {high}, got {value!r}.")
    E973 = ("{options} apply to `evaluate MODEL DATA.spacy` only (a trained pipeline run on a "
            "gold .spacy corpus); {system} is not a .spacy file.")
