"""The trained negation pipelines of the ``negation`` component (:mod:`.negation`): the
default model of each host language (:data:`DEFAULT_MODELS`), the project's workflow that
builds and installs each model package (:data:`MODEL_WORKFLOWS`), and loading one with
coded errors (:func:`load_negation_model`; the files of a packaged model are checked by
:mod:`.model_files`)."""
from typing import Dict

from spacy.language import Language

from ..errors import Errors
from .model_files import describe_failure, model_folder, verify_checksums

#: The package name the project's main workflow (``spacy project run all``) trains and
#: installs the general English negation pipeline under.
DEFAULT_MODEL = "en_negation_general"
#: The model the component loads by default, by the host pipeline's language (``nlp.lang``);
#: the Spanish reviews model ``es_negation_sfu`` stays available with ``model``.
DEFAULT_MODELS: Dict[str, str] = {
    "en": DEFAULT_MODEL,
    "nb": "nb_negation_norec",
    "es": "es_negation_clinical",
}
#: The project's workflows that build and install each model package (after ``all``).
MODEL_WORKFLOWS: Dict[str, str] = {
    DEFAULT_MODEL: "`make project` (`spacy project run all`)",
    "en_negation_cdsco": "`spacy project run cdsco`",
    "en_negation_bioscope": "`spacy project run cross-domain`, then `neges` and `applications`",
    "en_negation_sfu": "`spacy project run cross-domain`, then `neges` and `applications`",
    "es_negation_sfu": "`spacy project run cross-domain`, then `neges` and `applications`",
    "en_negation_clinical": "`spacy project run cross-domain`, then `clinical`",
    "en_negation_fast": "`spacy project run general-fast`",
    "en_negation_speculation": "`spacy project run general-speculation`",
    "nb_negation_norec": "`spacy project run norec`",
    "es_negation_clinical": "`spacy project run nubes`",
}


def default_model(lang: str) -> str:
    """The model the ``negation`` component loads by default in a host pipeline of a
    language (:data:`DEFAULT_MODELS`; E323 for a language without one).

    lang (str): the host pipeline's language code (``nlp.lang``).
    RETURNS (str): the model's package name.
    """
    model = DEFAULT_MODELS.get(lang)
    if model is None:
        langs = ", ".join(f"{code!r} ({name})" for code, name in sorted(DEFAULT_MODELS.items()))
        raise ValueError(Errors.E323.format(lang=lang, langs=langs))
    return model


def load_negation_model(model: str) -> Language:
    """Load a trained negation pipeline, with a coded error explaining how to get one
    (E320), naming the file that failed to load (E374), or naming the file that differs
    from the sha256 a packaged model's meta.json records (E375, checked before loading;
    :mod:`.model_files`).

    model (str): a package name or a path.
    RETURNS (Language): the pipeline.
    """
    import spacy

    folder = model_folder(model)
    if folder is not None:
        verify_checksums(model, folder)
    try:
        nlp = spacy.load(model)
    except Exception as err:
        damaged = describe_failure(model, folder, err) if folder is not None else None
        if damaged is not None:
            raise ValueError(damaged) from err
        if not isinstance(err, OSError):
            raise
        build = MODEL_WORKFLOWS.get(model, f"{MODEL_WORKFLOWS[DEFAULT_MODEL]} builds and installs the default "
                                           f"model {DEFAULT_MODEL!r}")
        if model in MODEL_WORKFLOWS:
            build = f"{build} builds and installs it"
        raise OSError(Errors.E320.format(model=model, build=build, reason=err)) from err
    from .cue.component import NegationCue
    from .graph.component import NegationGraph
    from .scope.component import NegationScope

    pipes = [pipe for _, pipe in nlp.pipeline]
    roles = {"a cue component (negation_cue or negation_graph)": (NegationCue, NegationGraph),
             "a scope component (negation_scope or negation_graph)": (NegationScope, NegationGraph)}
    missing = [role for role, kinds in roles.items() if not any(isinstance(pipe, kinds) for pipe in pipes)]
    if missing:
        raise ValueError(Errors.E321.format(model=model, missing=" and ".join(missing),
                                            pipes=", ".join(nlp.pipe_names)))
    return nlp
