"""Thinc models of the negation components and the pieces their configs use."""
from .models import CueWindow, build_cue_tagger, build_scope_tagger

__all__ = ["CueWindow", "build_cue_tagger", "build_scope_tagger"]
