"""Decoding ablation: a trained pipeline scored end to end with each decoding setting of its
components switched off in turn. The settings are those of the components' decoders,
load-time config, so one trained model serves every row.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc

from ..errors import Errors
from ..pipeline.base import decoder_overrides, decoder_settings
from .evaluation import blank_copy

#: A decoding setting: (component, setting of its decoder, value).
Setting = Tuple[str, str, Any]
#: The decoding settings and the value that switches each off, in row order.
SETTINGS: Tuple[Setting, ...] = (
    ("negation_cue", "affix_over_whole", False),
    ("negation_cue", "affix_threshold", None),
    ("negation_cue", "multiword_cues", False),
    ("negation_scope", "split_at_other_cues", False),
    ("negation_cue", "min_word_precision", None),
    ("negation_scope", "contiguous", False),
    ("negation_scope", "scope_bias", 0.0),
)


def settings_on(components: Dict[str, Dict[str, Any]]) -> List[Setting]:
    """The settings of SETTINGS that a pipeline's config switches on in the decoders (a
    model trained before a setting existed has it off), each with the value that switches
    it off (the decoders' settings as ``spacy_negation.pipeline.base.decoder_settings``
    reads them).

    components (Dict[str, Dict[str, Any]]): the config's "components" section.
    RETURNS (List[Setting]): the rows to ablate.
    """
    decoders = {name: decoder_settings(components[name]) for name in {row[0] for row in SETTINGS}
                if name in components}
    return [row for row in SETTINGS if decoders.get(row[0], {}).get(row[1], row[2]) != row[2]]


def parse_setting(text: str) -> Setting:
    """The setting of a ``COMPONENT.SETTING=VALUE`` string (VALUE as JSON), SETTING a
    setting of the component's decoder (also written ``decoder.SETTING``).

    text (str): e.g. "negation_cue.multiword_min_precision=0.6".
    RETURNS (Setting): (component, setting, value).
    RAISES (ValueError): not of that form (E747) or VALUE is not JSON (E748).
    """
    key, sep, value = text.partition("=")
    component, dot, setting = key.partition(".")
    setting = setting[len("decoder."):] if setting.startswith("decoder.") else setting
    if not sep or not dot or not component or not setting:
        raise ValueError(Errors.E747.format(text=text))
    try:
        return component, setting, json.loads(value)
    except json.JSONDecodeError as err:
        raise ValueError(Errors.E748.format(text=text)) from err


def ablate(model: Union[str, Path], gold: Sequence[Doc], rows: Sequence[Setting],
           batch_size: int = 32) -> Iterator[Tuple[Optional[Setting], Dict[str, Any]]]:
    """Score the pipeline as configured, then with each row's setting, end to end on the
    gold tokens (see :func:`spacy_negation.analysis.evaluation.blank_copy`).

    model (Union[str, Path]): the pipeline's path or package name.
    gold (Sequence[Doc]): the gold docs.
    rows (Sequence[Setting]): the settings to score, one pipeline load each.
    batch_size (int): the batch size of ``nlp.pipe``.
    YIELDS (Tuple[Optional[Setting], Dict[str, Any]]): (None for the configured pipeline,
        else the row; the flat ``neg_*`` scores of
        :func:`spacy_negation.scoring.scorers.score_negations`).
    """
    import spacy
    from spacy.training import Example

    from ..scoring.scorers import score_negations

    components: Dict[str, Any] = {}
    for row in [None, *rows]:
        # the whole decoder block: it holds whether or not the saved config has one
        overrides = {} if row is None else decoder_overrides(components, {row[0]: {row[1]: row[2]}})
        nlp = spacy.load(model, config=overrides)
        components = components or nlp.config["components"]
        system = list(nlp.pipe([blank_copy(nlp.vocab, doc, False) for doc in gold],
                               batch_size=batch_size))
        yield row, score_negations([Example(p, g) for p, g in zip(system, gold)])
