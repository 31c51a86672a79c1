"""The graph parser, ``negation_graph``, in one folder:

* :mod:`.component`: the component (factory ``negation_graph``);
* :mod:`.encoding`: negation instances to a dependency graph and back (``direct`` and
  ``nested``);
* :mod:`.labels`: the edge labels of the graph.

The Thinc model is :mod:`spacy_negation.ml.biaffine` (``spacy-negation.GraphParser.v1``).
"""
from .component import (CUE_DECODINGS, DEFAULT_GRAPH_MODEL, NegationGraph, gold_instances,
                        make_negation_graph, negations_as_instances)

__all__ = ["CUE_DECODINGS", "DEFAULT_GRAPH_MODEL", "NegationGraph", "gold_instances",
           "make_negation_graph", "negations_as_instances"]
