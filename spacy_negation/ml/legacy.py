"""Reading the weights of pipelines saved before the taggers were composed of layers.

Thinc stores a model as flat lists (one entry per node, in breadth-first order) and
reads them back by position, so a saved model only loads into a model of the same
layout. The window taggers were first written as one node holding the token-to-vector
model, two dropouts, the BiLSTM and the softmax layer (and, for the BiLSTM cue tagger,
one more node above it); they are now composed of the layers of :mod:`.windows`,
:mod:`.bilstm` and thinc's combinators. :class:`ReadsLegacyLayouts` recognizes the old
layouts and moves each stored node (its dimensions, attributes, parameters and PyTorch
state) to the node of the same role in the new layout, so that a pipeline trained with
the old layout loads and predicts as before. Saving it again writes the new layout.
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple

from thinc.api import Model

#: The roles of a window tagger's nodes, each a reference of the top node.
ROLES = ("tagger", "tok2vec", "in_dropout", "bilstm", "out_dropout", "output_layer")

#: The old layouts: the names of the nodes in storage order (the token-to-vector model
#: is unnamed: any name), its role per position, and where its descendants start.
LEGACY_LAYOUTS: Sequence[Tuple[Tuple[Optional[str], ...], Tuple[str, ...]]] = (
    (("scope_tagger", None, "dropout", "pytorch", "dropout", "softmax"),
     ("top", "tok2vec", "in_dropout", "bilstm", "out_dropout", "output_layer")),
    (("bilstm_cue_tagger", "scope_tagger", None, "dropout", "pytorch", "dropout", "softmax"),
     ("top", "tagger", "tok2vec", "in_dropout", "bilstm", "out_dropout", "output_layer")),
)


class ReadsLegacyLayouts(Model):
    """A Model that also loads the stored layouts of :data:`LEGACY_LAYOUTS`; the top
    node of a window tagger, whose references name the nodes of :data:`ROLES`."""

    def from_dict(self, msg: Dict) -> "ReadsLegacyLayouts":
        """Load a stored model (the new layout or an old one).

        msg (Dict): the stored model, as written by ``Model.to_dict``.
        RETURNS (ReadsLegacyLayouts): the model.
        """
        super().from_dict(relayout(self, msg))
        return self


def relayout(model: Model, msg: Dict) -> Dict:
    """A stored model of an old layout re-laid onto the layout of ``model``; any other
    stored model as it is.

    model (Model): a window tagger (its references name the nodes of :data:`ROLES`).
    msg (Dict): the stored model.
    RETURNS (Dict): the stored model in the layout of ``model``.
    """
    nodes = list(model.walk())
    names = [info["name"] for info in msg.get("nodes", [])]
    for layout, roles in LEGACY_LAYOUTS:
        if len(names) < len(layout) or any(n is not None and n != names[i] for i, n in enumerate(layout)):
            continue
        position = {node.id: i for i, node in enumerate(nodes)}
        mapping: Dict[int, int] = {}
        for old, role in enumerate(roles):
            node = model if role == "top" else model.get_ref(role)
            mapping[old] = position[node.id]
        tok2vec = list(model.get_ref("tok2vec").walk())
        descendants = list(range(len(layout), len(names)))
        if len(descendants) != len(tok2vec) - 1:
            continue
        for old, node in zip(descendants, tok2vec[1:]):
            mapping[old] = position[node.id]
        return _moved(msg, nodes, mapping)
    return msg


def _moved(msg: Dict, nodes: List[Model], mapping: Dict[int, int]) -> Dict:
    """The stored model with the entries of stored node i at node mapping[i] of
    ``nodes`` (the other nodes: nothing stored, they keep their state)."""
    out: Dict[str, List[Any]] = {
        "nodes": [{"index": i, "name": node.name, "dims": {}, "refs": {}} for i, node in enumerate(nodes)],
        "attrs": [{} for _ in nodes],
        "params": [{} for _ in nodes],
        "shims": [[] for _ in nodes],
    }
    for old, new in mapping.items():
        info = msg["nodes"][old]
        out["nodes"][new]["dims"] = dict(info["dims"])
        out["nodes"][new]["refs"] = {
            name: mapping[index] for name, index in info["refs"].items() if index in mapping
        }
        for key in ("attrs", "params", "shims"):
            out[key][new] = msg[key][old]
    return out
