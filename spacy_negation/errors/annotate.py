"""The ``annotate`` command (:mod:`spacy_negation.annotate`): record sources and sinks, the
work folder, threads and the Ray engine.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E500``), which adds it.
"""


class AnnotateErrors:
    """The error messages of the feature."""

    # --- records, formats and the work folder ---------------------------------------------
    E500 = ("{path}:{line}: bad record: {reason} (use --on-error skip to skip bad records "
            "and report them).")
    E501 = ("Unknown {what} format of {path}: {fmt!r}; available: {available}.")
    E502 = ("{path}: the input holds no records.")
    E503 = ("{path}: the Parquet file has no column {column!r} (its columns: {columns}).")
    E504 = ("The work folder {work_dir} belongs to another run ({key} was {old!r}, now "
            "{new!r}); its finished shards cannot be reused. Delete the folder (or pass "
            "another --work-dir) to start again.")
    E505 = ("{path}: not a work-folder file written by this command: {reason}")
    E508 = ("The Ray engine needs the optional dependency ray: pip install "
            "spacy-negation[ray] ({reason}).")
    E509 = ("The {fmt} format needs the optional dependency pyarrow: pip install "
            "spacy-negation[ray] ({reason}).")
    E510 = ("A Ray worker failed on shard {shard} (records {start}-{end}) after its "
            "retries: {reason}. The finished shards are kept; run the command again to "
            "resume.")
    E512 = ("{path}: not a Parquet file: {reason}")
    E513 = ("A worker process failed on shard {shard} (records {start}-{end}): {reason}. "
            "The finished shards are kept; run the command again to resume.")
    E520 = ("The work folder {path} {what}; --work-dir is a folder, or a path where one can "
            "be made (default: OUTPUT.shards).")
    E521 = ("Ray cannot join or start the cluster ({where}): {reason}. Check the address "
            "(ray status on the head node), or leave out --address to start a local cluster.")
    # --- threads and output ---------------------------------------------------------------
    E950 = ("OMP_NUM_THREADS must be a whole number from 1 to {high} to set the torch threads "
            "of annotate, got {value!r}; unset it or pass --threads N.")
    E951 = ("--keep-user-data applies to .spacy (DocBin) output only; the {fmt} output "
            "holds no user data.")


class AnnotateWarnings:
    """The warning messages of the feature."""

    # --- records and the work folder ------------------------------------------------------
    W500 = ("{path}:{line}: bad record skipped (--on-error skip): {reason}")
    W950 = ("{path}: a shard finished by an earlier run is annotated again: {reason}.")
