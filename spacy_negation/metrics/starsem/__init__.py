"""The *SEM 2012 CD-SCO metrics (Morante & Blanco 2012) in one folder:

* :mod:`.io`: streaming reading of two token-aligned *SEM files into sentence records;
* :mod:`.evaluation`: the counting, with the semantics of ``eval.cd-sco.pl`` v2.2;
* :mod:`.counts`: the count records and their division into P, R and F1;
* :mod:`.table`: the perl scorer's printout.

NIS (:mod:`spacy_negation.metrics.nis`) and FairEval (:mod:`spacy_negation.metrics.faireval`)
count on the same sentence records (:mod:`spacy_negation.metrics.records`).
"""
