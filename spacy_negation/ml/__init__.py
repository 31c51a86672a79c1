"""Thinc models of the negation components: the architectures (:mod:`.models`), composed
of the window-extraction layer (:mod:`.windows`) and the BiLSTM-over-windows layer
(:mod:`.bilstm`); the transformer backbone (:mod:`.transformer`) with its length
bucketing (:mod:`.bucketing`); and the training corpus reader (:mod:`.training_corpus`).
spaCy finds the registered functions through the package's entry points; nothing is
imported to register it.
"""
