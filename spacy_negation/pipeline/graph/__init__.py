"""The graph parser, ``negation_graph``, in one folder:

* :mod:`.component`: the component (factory ``negation_graph``);
* :mod:`.decoding`: the scores to the labels of the graph's arcs
  (``spacy-negation.graph_decoder.v1``);
* :mod:`.encoding`: negation instances to a dependency graph and back (``direct`` and
  ``nested``);
* :mod:`.labels`: the edge labels of the graph.

The Thinc model is :mod:`spacy_negation.ml.biaffine` (``spacy-negation.GraphParser.v1``).
"""
from .component import (DEFAULT_GRAPH_MODEL, NegationGraph, gold_instances, make_negation_graph,
                        negations_as_instances)
from .decoding import CUE_DECODINGS, GRAPH_DECODER_DEFAULTS, GraphDecoder, make_graph_decoder

__all__ = ["CUE_DECODINGS", "DEFAULT_GRAPH_MODEL", "GRAPH_DECODER_DEFAULTS", "GraphDecoder", "NegationGraph",
           "gold_instances", "make_graph_decoder", "make_negation_graph", "negations_as_instances"]
