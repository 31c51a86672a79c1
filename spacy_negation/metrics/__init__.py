"""Negation-resolution metrics: *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al.
2021) and FairEval (Ortmann 2022).

Every family counts on the plain per-sentence records of :mod:`.records` (built from
*SEM files by :mod:`.starsem.io`, from spaCy docs by :mod:`spacy_negation.scoring.scorers`);
counting is separate from division (:mod:`.core`). Nothing here imports spaCy.
"""
