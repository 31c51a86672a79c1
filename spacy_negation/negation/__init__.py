"""The negation data model: negation instances with cue, scope and event parts, and
speculation instances with cue and scope parts beside them.

A *part* (:class:`~spacy_negation.alignment.Part`) is one token, or a character range
inside one token (the affix ``un`` of ``unhappy`` as a cue, the rest ``happy`` in the
scope). A :class:`Negation` (:mod:`.instance`) holds its cue (one or more parts), scope
and negated event (zero or more parts each); cues may be discontinuous (``neither …
nor``) and scopes usually are.

Storage (:mod:`.storage`): the instances live in the span group
``doc.spans["negations"]`` (one span per contiguous run of whole tokens or per partial
part, labelled ``CUE``, ``SCOPE`` or ``EVENT``); each span's instance and affix range
are kept in its ``Span.kb_id``, counted in characters from the span's start. The parts
are therefore character ranges: they survive ``Doc.to_bytes``, ``DocBin`` (with and
without user data), pickling, multiprocessing, ``Doc.to_json``/``from_json`` and
``Doc.from_docs``, and they follow retokenization (``merge_entities``,
``retokenize().merge``/``.split``): spaCy does not move a span group's token indices when
it retokenizes, so the first read after it stores the group again on the current tokens. ``Span.as_doc`` copies no span group; a mirror in
``doc.user_data`` (msgpack-safe) lets ``span.as_doc(copy_user_data=True)`` keep the
instances whose cue lies in the span (it is read only when the doc has no ``negations``
span group: clear a doc's negations with ``doc._.negations = []``, not by deleting the
group).

Extensions (:mod:`.extensions`): ``doc._.negations`` reads and writes them; the token and
span conveniences use an index (:mod:`.index`) built once per doc and rebuilt when the
storage changes. When a span (an entity) counts as negated is a rule of the doc
(:mod:`.span_rule`): by default, a cue outside the span whose scope covers all its words.

Speculations (hedge cues such as ``may``, ``suggest``, ``either … or`` and their scopes,
as BioScope and SFU Review annotate them): a :class:`Speculation` has the cue and scope of
a :class:`Negation` and no event. They are stored the same way, by kind (:class:`Kind`:
:data:`NEGATIONS`, :data:`SPECULATIONS`), in the span group ``doc.spans["speculations"]``
with their own user-data mirror and index, and survive everything negations survive.
``doc._.speculations``, ``token._.uncertain``, ``token._.speculations``,
``token._.is_spec_cue``, ``span._.uncertain`` and ``span._.speculations`` answer as the
negations' extensions do, with the same span rule (``ent._.uncertain`` as
``ent._.negated``).
"""
from ..alignment import Part
from .convention import CONVENTION_KEY, get_convention, set_convention
from .extensions import register_extensions
from .index import get_instances, get_negations, get_speculations
from .instance import ROLES, SPECULATION_ROLES, Instance, Negation, PartLike, Speculation
from .span_rule import DEFAULT_SPAN_RULE, SPAN_RULE_KEY, SPAN_RULES, get_span_rule, set_span_rule
from .storage import (KINDS, LABELS, MIRROR, NEGATIONS, ROLE_OF_LABEL, SPANS_KEY, SPECULATION_MIRROR, SPECULATIONS,
                      SPECULATIONS_KEY, STORAGE_VERSION, Kind, set_instances, set_negations, set_speculations)

__all__ = ["CONVENTION_KEY", "DEFAULT_SPAN_RULE", "KINDS", "LABELS", "MIRROR", "NEGATIONS", "ROLES", "ROLE_OF_LABEL",
           "SPANS_KEY", "SPAN_RULES", "SPAN_RULE_KEY", "SPECULATIONS", "SPECULATIONS_KEY", "SPECULATION_MIRROR",
           "SPECULATION_ROLES", "STORAGE_VERSION", "Instance", "Kind", "Negation", "Part", "PartLike", "Speculation",
           "get_convention", "get_instances", "get_negations", "get_span_rule", "get_speculations",
           "register_extensions", "set_convention", "set_instances", "set_negations", "set_span_rule",
           "set_speculations"]
