__title__ = "spacy-negation"
__version__ = "0.1.0"
