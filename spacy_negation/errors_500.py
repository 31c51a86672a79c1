"""The error catalogue, codes E500-E999 (annotate, probe and challenge set, compare and
seeds, synthetic clinical sentences, analysis, the NegBERT and graph components, the second
reliability round): messages only. Import the catalogue from :mod:`spacy_negation.errors`,
whose :class:`~spacy_negation.errors.Errors` holds these codes and E000-E499; a code is
defined once across both files (``tests/test_errors.py``).
"""


class ErrorsFrom500:
    """The messages of codes E500-E999, without their code: read them as ``Errors.E500``."""

    # --- annotate (E500-E549) -----------------------------------------------------------
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
    # --- negation probe and challenge set (E600-E649) ----------------------------------
    E600 = ("Masked language model folder not found: {path} (a local Hugging Face folder "
            "with config.json, the weights and the tokenizer files).")
    E601 = ("Cannot load a masked language model from {path}: {reason}")
    E602 = ("{path} holds no masked-LM head weights (missing: {keys}, ...): it is an encoder "
            "(e.g. a sentence-embedding model), not a fill-mask model. Pass --tied-head to "
            "build the head from its tied word embeddings.")
    E603 = ("The tokenizer of {path} has no mask token; the probe needs a masked language "
            "model ([MASK] or <mask>).")
    E604 = ("--tied-head cannot be used with {path}: {reason}.")
    E605 = ("The probe sentence has {n} {mask} tokens after tokenization, expected one: "
            "{text!r}")
    E606 = ("Probability rank {rank} (+{n} tokens) is outside the {k} predictions; ranks "
            "are 0 or more.")
    E608 = ("{path}: not a results file of this command ({reason}); remove it or pass "
            "another --output.")
    E609 = ("{n_names} --name values for {n_models} model folders; give one name per model "
            "or none.")
    E620 = ("Cannot load the negation pipeline {model!r}: {reason}")
    E621 = ("{model!r} is neither a negation pipeline (negation_cue and negation_scope) nor "
            "a pipeline with the 'negation' component (its components: {pipes}).")
    E622 = ("Unknown annotation convention {convention!r} for the challenge set; known: {known}.")
    # --- compare and seeds (E700-E719) -------------------------------------------------
    E700 = ("Unknown metric {name!r}. Metrics are named FAMILY.ROW.VALUE as in the JSON of "
            "'evaluate --json' (VALUE p, r or f), e.g. nis.nis_tok.f, "
            "starsem.scopes_cue_match_b.f, faireval.fair.f; the rows: {options}.")
    E701 = ("The metric {name!r} has no value {value!r}: a metric ends in .p, .r or .f "
            "(FAMILY.ROW.VALUE).")
    E702 = ("Comparing needs at least two systems, got {n}.")
    E703 = ("The per-sentence counts of {name!r} cover {n} sentences, those of {first!r} "
            "{m}: every system must be counted on the same gold sentences.")
    E704 = ("{option} must be at least 1, got {value}.")  # also annotate and probe options
    E705 = ("The confidence must lie strictly between 0 and 1, got {value}.")
    E706 = ("{path}:{line}: not a JSON file: {reason}")
    E707 = ("{path}: no {name!r} in this metrics JSON (expected the document of "
            "'evaluate --json', at the top or under 'detail').")
    E708 = ("{path}: {name!r} is {value!r}, not a number.")
    E709 = ("A mean and standard deviation over runs need at least two metrics JSON files "
            "(one per run), got {n}.")
    E710 = ("{n} system files for {m} metrics JSON files: give one system file per run, in "
            "the same order, or none.")
    E711 = ("The metric {name!r} needs the {family!r} counts, which were not computed "
            "(counted: {families}).")
    E712 = ("--gold and --system go together: the pooled interval needs the gold file and "
            "the runs' system files.")
    # --- synthetic clinical training sentences (E720-E739) ----------------------------
    E720 = ("{path}:{line}: not a JSON object: {reason}")
    E721 = ("{path}:{line}: the field {field!r} is missing or invalid: {reason}")
    E722 = ("{path}:{line}: negation {k}: the {role} range {range} is empty or outside the text "
            "(length {n}).")
    E723 = ("{path}:{line}: negation {k}: the {role} range {range} ({text!r}) does not start and "
            "end on token boundaries of spaCy's English tokenizer (tokens: {tokens}).")
    E724 = ("{path}:{line}: negation {k} has no cue.")
    E725 = ("{path}:{line}: negation {k}: the token {token!r} is both cue and scope; the cue is "
            "not part of its scope in this layout.")
    E727 = ("{path}:{line}: the id {id!r} was already used on line {first}.")
    # --- analysis: breakdowns, ensembles, decoding ablation (E740-E759) ---------------
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
    # --- negation_scope_negbert: NegBERT-style scope resolver (E830-E859) -------------
    E830 = ("The NegBERT scope model needs three distinct cue-type markers (whole-word cue, "
            "affixal cue, word of a multiword cue), got {markers}.")
    E831 = ("max_pieces of the NegBERT scope model must be at least 1, got {value}.")
    E832 = ("The NegBERT scope model needs a fast tokenizer (word-to-piece alignment), the "
            "transformer has a {tokenizer}; set tokenizer_config.use_fast = true.")
    E833 = ("The cue marker {marker!r} is not in the vocabulary of the transformer's "
            "tokenizer ({tokenizer}); choose unused vocabulary entries in the model's "
            "markers setting.")
    E834 = ("classifier_lr_scale of the NegBERT scope model must be positive, got {value}.")
    # Annotation conventions (E900-E919)
    E900 = ("A convention is a non-empty string (or None for no mark), got {value}.")
    E901 = ("The negation model {model!r} has no components for the convention {convention!r}; "
            "its conventions: {available}.")
    # Graph-parsing resolver (negation_graph, pipeline/graph/, ml/biaffine.py).
    E860 = ("Unknown negation graph encoding {encoding!r}; expected one of: {encodings}.")
    E861 = ("Negation instance {k}: the {role} part {part} is not inside the sentence of {n} "
            "tokens (parts are (token, start, end) with characters of the token).")
    E862 = ("Malformed negation graph label {label!r}: expected '_' or roles joined by '+' "
            "(C, C:un-, C:-less, C:-less-, S, S~, E, E~), each at most once.")
    E863 = ("Negation instance {k} has no cue part.")
    E864 = ("The negation graph arc {arc} is outside the sentence of {n} tokens (heads 0..n "
            "with the root 0, dependents 1..n).")
    E865 = ("{n_labels} pair labels for a sentence of {n} tokens; expected (n + 1) * n = "
            "{expected}.")
    E866 = ("'{name}' found no negation in the training examples: the graph parser needs "
            "examples with gold negations to learn its labels.")
    E867 = ("'{name}': {n_scores} score arrays for {n_truths} sentences.")
    E868 = ("'{name}': the model gave scores of shape {shape} for a sentence of {n} tokens; "
            "expected ({expected}, {n_labels}).")
    E869 = ("The graph parser model {name!r} has no number of labels (nO): initialize it with "
            "label samples or set nO.")
    E870 = ("Cannot infer the token-vector width of the graph parser: initialize it with "
            "sample docs or a tok2vec layer of known width.")
    E871 = ("Unknown cue decoding {value!r} of the negation graph; expected one of: {values}.")
    E872 = ("'{name}': scope_bias must be a finite number, got {value!r}.")
    # --- reliability, second round (E950-E989) -------------------------------------------
    E950 = ("OMP_NUM_THREADS must be a positive integer to set the torch threads of "
            "annotate, got {value!r}; unset it or pass --threads N.")
    E951 = ("--keep-user-data applies to .spacy (DocBin) output only; the {fmt} output "
            "holds no user data.")
    E952 = ("{path}: {name!r} is {value!r}, not a finite fraction in [0, 1] (metrics JSON "
            "documents hold P, R and F1 as fractions).")
    E953 = ("The system file {system} gives {name} = {counted:.4f}, its run's metrics JSON "
            "{json} holds {value:.4f}: the system files are not those of the runs (give "
            "--system files in the order of the JSON files).")
    E954 = ("{option} is {value}; at most {limit} bootstrap samples or randomization "
            "shuffles are taken (the bootstrap keeps one value per sample and metric, and the "
            "run time grows with the number).")
    E955 = ("--labels {value!r} names no label: give comma-separated labels, or leave the "
            "option out to evaluate every label.")
    E956 = ("{path}:{line}: the span {begin}..{end} with an empty token list covers more "
            "than {limit} tokens; list its tokens, or check the indices.")
    E957 = ("--ranks: {k} predictions per mask (the highest rank plus the ACT tokens) are "
            "more than the {n} tokens the model {path} can predict (its vocabulary less the "
            "special tokens); give lower ranks.")
    E958 = ("{path}:{line}: the scope cell {cell!r} of negation instance {k} overlaps its own "
            "cue {cue!r} in the token {form!r}; a scope never holds its cue (the data model "
            "refuses it, E015).")
    E959 = ("{path}:{line}: document {doc!r} sentence {sent!r} was read before, at line "
            "{first} in the same document: a repeated sentence.")
    E960 = ("{path}:{line}: the last line has no line end: the file may have been cut inside "
            "its last cell (which would still read as a shorter cell). Add a line end if the "
            "file is complete.")
    E961 = ("Doc {doc}: the cue of negation {id} lies on the whitespace token {i} ({text!r}); "
            "the *SEM format has no whitespace tokens, so the negation cannot be written. "
            "Put the cue on a word token.")
    E962 = ("{where}: the phrase pattern {pattern!r} looks like a regular expression ({what}); "
            "a phrase matches its words literally, so it would never match. Write a token "
            "pattern with REGEX, e.g. [{{\"LOWER\": {{\"REGEX\": \"^deni(es|ed)$\"}}}}], or a "
            "token pattern with ORTH for literal punctuation.")
    E963 = ("{where}: the token pattern {pattern!r} has the REGEX {regex!r}, which matches the "
            "empty string and so every token; anchor it (^...$) or make it require a character.")
    E964 = ("{where}: the token pattern {pattern!r} constrains no token: every token of it is "
            "empty ({{}} matches any token) or optional (OP '?', '*', '!' or '{{0,m}}'), so it "
            "would make every token a cue or match nothing. Give at least one required token "
            "an attribute, e.g. {{\"LOWER\": \"no\"}}.")
