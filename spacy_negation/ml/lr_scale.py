"""Learning rates per layer: a layer whose ``attrs`` hold ``lr_scale`` learns at that
multiple of its component's rate. The components' ``finish_update``
(``spacy_negation.pipeline.base``) passes the factors to the optimizer through
:func:`layer_lr_scales`; a layer without the attribute learns at the component's rate.
"""
from typing import Dict, Tuple

from thinc.api import Model

__all__ = ["LR_SCALE_ATTR", "layer_lr_scales"]

#: The ``attrs`` key of a layer's learning-rate factor.
LR_SCALE_ATTR = "lr_scale"


def layer_lr_scales(model: Model) -> Dict[Tuple[int, str], float]:
    """The learning-rate factors of the parameters of the layers of a model that set one.

    model (Model): the component's model.
    RETURNS (Dict[Tuple[int, str], float]): the optimizer's key of a parameter (layer id,
        parameter name) -> factor (empty: every layer at the component's rate). Keyed by
        parameter, not layer: the ids of layers and of PyTorch shims are counted apart.
    """
    return {(node.id, name): float(node.attrs[LR_SCALE_ATTR])
            for node in model.walk() if LR_SCALE_ATTR in node.attrs for name in node.param_names}
