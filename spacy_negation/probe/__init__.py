"""The pragmatic masked-LM negation probe of Gubelmann & Handschuh (2022): templates with
micro-contexts, rank-tailored ACT tokens chosen by each model, and %-ACT-repetition.

Importing this package imports neither torch nor transformers; :mod:`.mlm` does, when a
model is loaded.
"""
