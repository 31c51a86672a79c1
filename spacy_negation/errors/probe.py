"""The negation probe of masked language models (:mod:`spacy_negation.probe`) and the
challenge set (:mod:`spacy_negation.challenge`).

Messages only, without their code: read them through :mod:`spacy_negation.errors`
(``Errors.E600``), which adds it.
"""


class ProbeErrors:
    """The error messages of the feature."""

    # --- masked-LM probe ------------------------------------------------------------------
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
    E957 = ("--ranks: {k} predictions per mask (the highest rank plus the ACT tokens) are "
            "more than the {n} tokens the model {path} can predict (its vocabulary less the "
            "special tokens); give lower ranks.")
    # --- challenge set --------------------------------------------------------------------
    E620 = ("Cannot load the negation pipeline {model!r}: {reason}")
    E621 = ("{model!r} is neither a negation pipeline (negation_cue and negation_scope) nor "
            "a pipeline with the 'negation' component (its components: {pipes}).")
    E622 = ("Unknown annotation convention {convention!r} for the challenge set; known: {known}.")


class ProbeWarnings:
    """The warning messages of the feature."""

    # --- masked-LM probe ------------------------------------------------------------------
    W600 = ("{path}: the folder has no masked-LM head weights ({n} parameters missing); the "
            "head is built from the tied word embeddings with an identity transform "
            "(--tied-head), so its predictions are not those of a trained masked LM.")
    W601 = ("The sample size {n} is larger than the {available} name-profession pairs of "
            "gender {gender!r}; all {available} pairs are used.")
