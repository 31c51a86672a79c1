"""Corpus readers and writers (:mod:`spacy_negation.corpora`): *SEM CoNLL, BioScope and its
clinical merge, SFU Review, NEGES 2018 and 2019, the synthetic clinical sentences, DocBin
files, document splits and the augmentation of training data.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E111``), which adds it.
"""


class ReaderErrors:
    """The error messages of the feature."""

    # --- text files (also the metrics' inputs) --------------------------------------------
    E111 = ("{path}:{line}: the file is not valid UTF-8 ({reason}).")
    E112 = ("{path}: cannot read the file: {reason}")
    E113 = ("{path}:{line}: carriage return (CR) without a line feed: the file uses CR-only "
            "line endings (classic Mac OS) or holds a stray CR. Save it with LF or CRLF line "
            "endings.")
    # --- *SEM CoNLL reading (file and line are always given; E108 also the other readers) ---
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
    E114 = ("{path}:{line}: empty {role} cell (column {col}); a token outside the {role} is "
            "marked '_'.")
    E958 = ("{path}:{line}: the scope cell {cell!r} of negation instance {k} overlaps its own "
            "cue {cue!r} in the token {form!r}; a scope never holds its cue (the data model "
            "refuses it, E015).")
    E959 = ("{path}:{line}: document {doc!r} sentence {sent!r} was read before, at line "
            "{first} in the same document: a repeated sentence.")
    # --- lenient reading and documents ----------------------------------------------------
    E115 = ("on_error must be 'raise' (stop at the first bad sentence) or 'skip' (skip it and "
            "warn), got {value!r}.")
    E116 = ("n_sents must be 0 (whole documents) or a positive number of sentences per doc, "
            "got {value!r}.")
    # --- *SEM CoNLL writing ---------------------------------------------------------------
    E120 = ("Doc {doc} token {i} ({text!r}) contains whitespace; the *SEM format has one "
            "token per line and cannot hold it.")
    E121 = ("Doc {doc}: negation {id} has a {role} part on token {i} that is not in the "
            "sentence of its cue.")
    E127 = ("{path}: its docs cannot be written as *SEM CoNLL: {reason}")
    E961 = ("Doc {doc}: the cue of negation {id} lies on the whitespace token {i} ({text!r}); "
            "the *SEM format has no whitespace tokens, so the negation cannot be written. "
            "Put the cue on a word token.")
    # --- corpus formats and DocBin files --------------------------------------------------
    E131 = ("Unknown {what} {name!r}; available: {available}.")
    E132 = ("{path}: not a .spacy (DocBin) file: {reason}")
    # --- XML corpora: BioScope, SFU Review, NEGES 2019 ------------------------------------
    E400 = ("{path}:{line}: not well-formed XML: {reason}.")
    E402 = ("{path}: the folder holds no '*{suffix}' file to read.")
    E404 = ("{path}:{line}: the root element is <{tag}>, expected <{expected}>; is this the "
            "right --format?")
    E405 = ("{path}:{line}: token {form!r} is empty or contains whitespace or a control "
            "character; the *SEM format needs one non-empty token without whitespace or control "
            "characters per line.")
    E406 = ("{path}:{line}: <{tag}> element without the required attribute {attr!r}.")
    E407 = ("{path}:{line}: {kind} cue refers to scope {ref!r}, but its sentence has no "
            "<xcope id={ref!r}>.")
    E408 = ("{path}:{line}: document without a usable <DocID> (missing, empty or containing "
            "whitespace: {value!r}).")
    E409 = ("{path}:{line}: {kind} cue {id!r} holds no token.")
    E417 = ("{path}:{line}: <{tag}> element outside a <{parent}> element.")
    E450 = ("{path}:{line}: <SENTENCE> inside another <SENTENCE> (line {outer}); sentences "
            "cannot nest.")
    E451 = ("{path}:{line}: <ref SRC={src!r}> links a scope to the negation cue {id!r} of "
            "another sentence (line {cue_line}); a scope must lie in the sentence of its cue.")
    # --- NEGES 2018 -----------------------------------------------------------------------
    E411 = ("{path}:{line}: expected 7 columns (no annotation), 8 ('***') or 7 + 3*k columns "
            "(a trailing tab allowed), found {n}: {content!r}")
    E413 = ("{path}:{line}: token number {value!r} is not a positive integer.")
    # --- document splits ------------------------------------------------------------------
    E432 = ("{path}: not a valid split file: {reason}")
    E433 = ("{path}: {n} document id(s) of split {name}/{split} are not in the corpus "
            "(e.g. {examples}); wrong corpus file or stale split file?")
    E434 = ("Cannot split documents: {n} document id(s) occur more than once.")
    # --- BioScope clinical merge ----------------------------------------------------------
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
    # --- synthetic clinical sentences -----------------------------------------------------
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
    # --- augmentation: contracted and affixal copies --------------------------------------
    E147 = ("The share of docs given contracted copies must lie between 0 and 1, not {value!r}.")
    E148 = ("{path}:{line}: {reason}; a row of the affixal cue lexicon is WORD, AFFIX and CLASS "
            "separated by tabs (AFFIX one of {affixes}, at the start of WORD, or 'less' inside it; "
            "CLASS one of {classes}).")
    E149 = ("The number of affixal copies per doc must be a whole number of at least 1, not {value!r}.")
    # --- NoReC_neg JSON (#63) -------------------------------------------------------------
    E460 = ("{path}:{line}: not valid JSON: {reason}.")
    E461 = ("{path}:{line}: the file holds a JSON {type}, expected a list of sentence objects "
            "(NoReC_neg: [{{\"sent_id\", \"text\", \"negations\"}}, ...]).")
    E462 = ("{path}:{line}: sentence record {k}: {field} is missing or invalid: {reason}.")
    E463 = ("{path}:{line}: sentence {sent!r}, negation {k}: the {role} range {range!r} is "
            "empty or outside the text (length {n}).")
    E464 = ("{path}:{line}: sentence {sent!r}, negation {k}: the {role} range {range!r} holds "
            "{found!r}, but the record gives {given!r}.")
    E465 = ("{path}:{line}: sentence {sent!r}, negation {k} has no cue (no cue range, or "
            "one on whitespace only).")
    E466 = ("{path}:{line}: the sentence id {id!r} was already used on line {first}.")
    E467 = ("{path}:{line}: sentence {sent!r}, {kind} {k}: its {role} covers two separate "
            "character ranges of the token {token!r}; a part holds one range per token.")
    # --- NUBes brat standoff (#63) ---------------------------------------------------------
    E470 = ("{path}:{line}: the line does not parse as a brat entity (T) or relation (R) "
            "line ({reason}): {content!r}")
    E471 = ("{path}:{line}: entity {id} ({type}): the range {range} is empty or outside the "
            "text of {txt} (length {n}).")
    E472 = ("{path}:{line}: entity {id} ({type}): the text {given!r} differs from the "
            "characters {found!r} of {txt} at {range}.")
    E473 = ("{path}:{line}: entity {id} ({type}) spans the lines {first} and {last} of {txt}; "
            "a sentence is one line.")
    E474 = ("{path}:{line}: entity {id}: unknown type {type!r}; the NUBes types are {types}.")
    E475 = ("{path}:{line}: relation {id}: unknown type {type!r}; the NUBes relations are "
            "{types}.")
    E476 = ("{path}:{line}: relation {id} ({type}) names the entity {arg!r}, which the file "
            "does not define.")
    E477 = ("{path}:{line}: relation {id} ({type}) links a {a} to a {b}; expected {expected}.")
    E478 = ("{path}:{line}: the annotation id {id!r} was already used on line {first}; an id "
            "names one entity or relation of the .ann file.")
    E479 = ("{path}: no {other} beside it; a brat document is a .txt file and its .ann file.")
    E480 = ("{path}:{line}: relation {id} ({type}) links entities on the lines {first} and "
            "{last} of {txt}; a sentence is one line.")


class ReaderWarnings:
    """The warning messages of the feature."""

    # --- lenient reading (on_error="skip") and *SEM quirks --------------------------------
    W402 = ("{path}:{line}: skipped the sentence starting at this line: {reason}")
    W403 = ("{path}:{line}: repaired the {role} cell {cell!r} to {fixed!r}: the token {form!r} "
            "holds it once, in another letter case.")
    W951 = ("{path}:{line}: the scope cell {cell!r} of negation instance {k} holds its own "
            "affixal cue {cue!r} (a known quirk of the CD-SCO training file): kept as annotated, "
            "so that the file converts back byte for byte; the scope meant is {rest!r}.")
    # --- XML corpora and NEGES ------------------------------------------------------------
    W400 = ("{path}:{line}: negation instance {k} (columns {cols}) of the sentence has no "
            "cue word; the instance is dropped (a known quirk of the NEGES 2018 data).")
    W401 = ("{path}:{line}: <neg_structure value={value!r}> without a <negexp> token; it is "
            "not a negation instance of the data model and is dropped.")
    W404 = ("{path}:{line}: <ref SRC={src!r}> names {id!r}, which is no cue of its sentence nor "
            "the only cue with that ID in the file; this scope link is ignored.")
    W150 = ("{path}:{line}: <ref SRC={src!r}> links a scope to the speculation cue {id!r} of "
            "another sentence (line {cue_line}); a scope lies in the sentence of its cue, so this "
            "scope link is dropped and the speculation keeps its cue (the same link to a negation "
            "cue is E451).")
    # --- BioScope clinical merge ----------------------------------------------------------
    W140 = ("{path}:{line}: document {doc_id}, sentence {sent_id}: the report text has "
            "punctuation the masked sentence lacks (masked vs report: {differences}); its words are "
            "restored by their count and the sentence is kept with the report's text.")
    # --- NoReC_neg and NUBes (#63) ---------------------------------------------------------
    W410 = ("{path}:{line}: sentence {sent!r}, {kind} {k}: the scope holds characters of its "
            "own cue ({cue!r}); they are left out of the scope (a cue is never part of its "
            "scope).")
    W411 = ("{path}:{line}: entity {id} ({type}, {text!r}) is linked to no cue and lies in "
            "no linked scope; it is not read.")
