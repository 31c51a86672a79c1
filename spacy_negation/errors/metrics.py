"""Evaluation (:mod:`spacy_negation.metrics`, :mod:`spacy_negation.scoring`,
:mod:`spacy_negation.analysis`): the *SEM and NIS metrics and the scorers, FairEval,
comparisons of systems and the bootstrap, means over seeds, and the analyses (breakdowns,
ensembles, decoding ablation, votes).

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E200``), which adds it.
"""


class MetricErrors:
    """The error messages of the feature."""

    # --- *SEM, NIS, evaluate and the scorers ----------------------------------------------
    E200 = ("Gold and system files are not token-aligned (columns 0-3 must agree): "
            "first mismatch at {gold_path}:{gold_line} ({gold}) and "
            "{system_path}:{system_line} ({system}).")
    E213 = ("Unknown label(s) {unknown} in --labels; the target and system files hold: "
            "{known}.")
    E214 = ("The FairEval span scorer found no spans_key {key!r} in any reference doc "
            "(doc.spans keys present: {present}); set spans_key to one of them, or None for "
            "doc.ents.")
    E215 = ("Unknown metric family {name!r} in --metrics; choose any of: {options}.")
    # --- FairEval -------------------------------------------------------------------------
    E250 = ("Invalid FairEval span {span!r}: needs a label, 1 <= begin <= end and a non-empty "
            "token set inside [begin, end].")
    E251 = ("Unknown FairEval focus {focus!r}; expected one of: {options}.")
    E252 = ("Malformed FairEval weight formula {part!r}: {reason}. Expected comma-separated "
            "'ERR = a TP + b FP + c FN', e.g. 'LE = 0.5 FP + 0.5 FN'.")
    E253 = ("Unknown FairEval error type {err!r} in the weights; expected one of: {options}.")
    E254 = ("Repeated {what} in the FairEval weights ({part!r}).")
    E255 = ("Target and system have different numbers of sentences: {n_target} vs "
            "{n_system} ({where}).")
    E256 = ("Invalid FairEval weights for {err!r}: {value!r}; expected a dict with keys among "
            "TP, FP, FN and numeric values.")
    E257 = ("{path}:{line}: neither a FairEval span line (label TAB begin TAB end TAB tokens) "
            "nor a CoNLL2000 line (form POS tag): {content!r}")
    E258 = ("{path}:{line}: a {found} line inside a sentence in {fmt} format (the sentence "
            "starts at line {first_line}); a sentence uses one format.")
    E259 = ("{path}:{line}: empty span label.")
    E260 = ("{path}:{line}: {what} {value!r} is not a token index (an integer >= 1).")
    E261 = ("{path}:{line}: token list entry {value!r} is not an integer.")
    E262 = ("{path}:{line}: token {value} lies outside the span's range {begin}..{end}.")
    E263 = ("{path}:{line}: bad BIO tag {tag!r}; expected O, _, or B-LABEL / I-LABEL "
            "(stacked annotations separated by '|').")
    E264 = ("CoNLL2000 sentences differ in length: {target_path}:{target_line} has "
            "{n_target} tokens, {system_path}:{system_line} has {n_system}.")
    E265 = ("Target and system folders hold different file names: only in {target}: "
            "{only_target}; only in {system}: {only_system}.")
    E266 = ("Target and system must both be files or both be folders: {target}, {system}.")
    E267 = ("{path}: the folder holds no files to evaluate.")
    E955 = ("--labels {value!r} names no label: give comma-separated labels, or leave the "
            "option out to evaluate every label.")
    E956 = ("{path}:{line}: the span {begin}..{end} with an empty token list covers more "
            "than {limit} tokens; list its tokens, or check the indices.")
    # --- comparing systems and the bootstrap ----------------------------------------------
    E700 = ("Unknown metric {name!r}. Metrics are named FAMILY.ROW.VALUE as in the JSON of "
            "'evaluate --json' (VALUE p, r or f), e.g. nis.nis_tok.f, "
            "starsem.scopes_cue_match_b.f, faireval.fair.f; the rows: {options}.")
    E701 = ("The metric {name!r} has no value {value!r}: a metric ends in .p, .r or .f "
            "(FAMILY.ROW.VALUE).")
    E702 = ("Comparing needs at least two systems, got {n}.")
    E703 = ("The per-sentence counts of {name!r} cover {n} sentences, those of {first!r} "
            "{m}: every system must be counted on the same gold sentences.")
    E705 = ("The confidence must lie strictly between 0 and 1, got {value}.")
    E711 = ("The metric {name!r} needs the {family!r} counts, which were not computed "
            "(counted: {families}).")
    E954 = ("{option} is {value}; at most {limit} bootstrap samples or randomization "
            "shuffles are taken (the bootstrap keeps one value per sample and metric, and the "
            "run time grows with the number).")
    # --- means over seeds -----------------------------------------------------------------
    E706 = ("{path}:{line}: not a JSON file: {reason}")
    E707 = ("{path}: no {name!r} in this metrics JSON (expected the document of "
            "'evaluate --json', at the top or under 'detail').")
    E708 = ("{path}: {name!r} is {value!r}, not a number.")
    E709 = ("A mean and standard deviation over runs need at least two metrics JSON files "
            "(one per run), got {n}.")
    E710 = ("{n} system files for {m} metrics JSON files: give one system file per run, in "
            "the same order, or none.")
    E712 = ("--gold and --system go together: the pooled interval needs the gold file and "
            "the runs' system files.")
    E952 = ("{path}: {name!r} is {value!r}, not a finite fraction in [0, 1] (metrics JSON "
            "documents hold P, R and F1 as fractions).")
    E953 = ("The system file {system} gives {name} = {counted:.4f}, its run's metrics JSON "
            "{json} holds {value:.4f}: the system files are not those of the runs (give "
            "--system files in the order of the JSON files).")
    # --- analysis: breakdowns, ensembles, decoding ablation, votes ------------------------
    E740 = ("{path}: {n} sentences, but the gold ({gold}) has {n_gold}; the system file "
            "belongs to another split or run.")
    E741 = ("{path}:{line}: sentence {k} differs from the gold ({gold}, sentence {k}) at token "
            "{j}: system {system_form!r}, gold {gold_form!r}; the system file belongs to another "
            "split or run.")
    E742 = ("Invalid scope length {length}: a scope length is 0 or more.")
    E743 = ("{scores} does not match {system} re-scored against the gold (reported vs "
            "re-scored): {diffs}. Are the files from the same run? Re-run the command that "
            "writes them.")
    E744 = ("The pipeline {name!r} has no component {component!r}; every pipeline of an "
            "ensemble needs {components}.")
    E745 = ("The pipelines' {component!r} labels differ: cannot average them (train the "
            "ensemble's pipelines on the same data).")
    E746 = ("An ensemble needs at least two pipelines, got {n}.")
    E747 = ("Decoding setting {text!r}: expected COMPONENT.SETTING=VALUE.")
    E748 = ("Decoding setting {text!r}: VALUE is not JSON (e.g. 0.6, true, null).")
    E749 = ("A vote needs at least two system files, got {n}.")
    E750 = ("--min-votes must lie between 1 and the number of system files ({n}), got {value}.")
    E751 = ("{path}: {n} sentences, but {first} has {n_first}; the files of a vote hold the "
            "same sentences (the same split).")
    E752 = ("{path}:{line}: sentence {k} differs from {first} (line {line_first}) in its token "
            "columns 0-3; the files of a vote hold the same sentences in the same order.")


class MetricWarnings:
    """The warning messages of the feature."""

    # --- scorers --------------------------------------------------------------------------
    W002 = ("Prediction and reference docs differ in text; negation parts that cannot "
            "be projected onto the reference tokens are dropped ({n} dropped).")
