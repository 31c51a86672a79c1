"""Negation-resolution metrics: *SEM 2012, NIS (Sineva et al. 2021) and FairEval
(Ortmann 2022). Counting is separate from division; see :mod:`.core`."""
