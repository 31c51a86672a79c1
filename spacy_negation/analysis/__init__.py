"""Analysis of negation-resolution results: file- and doc-level evaluation
(:mod:`.evaluation`), scores by gold scope length and cue type (:mod:`.breakdowns`),
ensembles of trained pipelines (:mod:`.ensemble`) and decoding ablation
(:mod:`.ablation`). The project's scripts load stored predictions, call these functions
and render the results.

The metrics are those of *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al. 2021) and
FairEval (Ortmann 2022).
"""
from .evaluation import evaluate, score_docs

__all__ = ["evaluate", "score_docs"]
