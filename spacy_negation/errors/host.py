"""The host component ``negation`` (:mod:`spacy_negation.pipeline.negation`; its models:
:mod:`spacy_negation.pipeline.model_loading`): a trained negation model run in any pipeline.

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E320``), which adds it.
"""


class HostErrors:
    """The error messages of the feature."""

    # --- loading and running the negation model -------------------------------------------
    E320 = ("Cannot load the negation model {model!r} ({reason}). The 'negation' component "
            "needs a trained negation pipeline: {build} in the spacy-negation project; or "
            "pass the path of a trained pipeline: nlp.add_pipe('negation', config={{'model': "
            "PATH}}).")
    E321 = ("{model!r} is not a negation pipeline: it lacks {missing} "
            "(its pipeline: {pipes}).")
    E374 = ("Cannot load the negation model {model!r}: its file {file} (in {folder}) cannot be "
            "read ({reason}). The file is damaged (truncated, altered) or was written by other "
            "code (another version of spacy-negation, spaCy or spacy-transformers): reinstall "
            "the model package, or train the model again.")
    E375 = ("The negation model {model!r}: the file {file} has the sha256 {got}, but the model's "
            "meta.json records {want}: the file was altered or damaged after the model was "
            "packaged (a changed byte, a truncated copy). Reinstall the model package.")
    E322 = ("Cannot copy negations between docs with different tokens ({n_source} vs "
            "{n_target} tokens, or different token texts).")
    E323 = ("The 'negation' component has no default model for the language {lang!r} of the host "
            "pipeline; the languages with one: {langs}. Pass a trained negation pipeline of "
            "your language with nlp.add_pipe('negation', config={{'model': NAME_OR_PATH}}).")
    E330 = ("The 'negation' component's batch_size must be a whole number of at least 1, "
            "got {value!r}.")
    E332 = ("The negation model {model!r} has no negation_cue component to take a cue "
            "list (its pipeline: {pipes}); cue_patterns work with cue-tagger pipelines.")
    E901 = ("The negation model {model!r} has no components for the convention {convention!r}; "
            "its conventions: {available}.")


class HostWarnings:
    """The warning messages of the feature."""

    # --- the negation model ---------------------------------------------------------------
    W300 = ("The negation model path {model!r} is relative; a host pipeline stores it as "
            "given and resolves it against the working directory when it is loaded. Pass "
            "an absolute path or an installed package name for a portable pipeline.")
    W301 = ("The negation model {model!r} is a {model_lang!r} pipeline, the host pipeline is "
            "{host_lang!r}: the negations will be those of a model trained on another "
            "language. Pass a {host_lang!r} model with config={{'model': ...}}.")
