"""The spaCy side of the metrics, in one place: the metric families of
:mod:`spacy_negation.metrics` (which import no spaCy) applied to ``Doc`` objects.

* :mod:`.doc_records`: docs and examples to the metrics' sentence records and spans;
* :mod:`.counts`: :class:`~.counts.NegationCounter`, every family's counts at once (no
  spaCy import);
* :mod:`.scorers`: the registered scorers (``spacy-negation.negation_scorer.v1`` and the
  others), :func:`~.scorers.score_negations` and friends.

Nothing is imported here, so that :mod:`.counts` stays free of spaCy.
"""
