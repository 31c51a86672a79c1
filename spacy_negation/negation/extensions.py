"""The ``doc._``, ``token._`` and ``span._`` extensions of the data model, answered from the
index of :mod:`.index`: for the negations (``doc._.negations``, ``token._.negated``,
``token._.negations``, ``token._.is_neg_cue``, ``span._.negated``, ``span._.negations``) and
the same for the speculations (``doc._.speculations``, ``token._.uncertain``,
``token._.speculations``, ``token._.is_spec_cue``, ``span._.uncertain``,
``span._.speculations``). When a span counts as negated or uncertain is the doc's span rule
(:mod:`.span_rule`), one rule for both kinds."""
from typing import Any, Dict, List, Sequence, Set, Tuple

from spacy.tokens import Doc, Span, Token

from ..errors import Errors
from .index import index_of
from .instance import Instance, Negation, Speculation
from .span_rule import get_span_rule
from .storage import NEGATIONS, SPECULATIONS, Kind, set_instances


def span_instance_ids(span: Span, rule: str, kind: Kind = NEGATIONS) -> List[int]:
    """The numbers of the instances of a kind that cover a span by a rule
    (:mod:`.span_rule`): the negations that negate it, the speculations that make it
    uncertain; in the order of their first cue token."""
    index = index_of(span.doc, kind)
    seen: Set[int] = set()
    for i in range(span.start, span.end):
        seen.update(index.scope.get(i, ()))
    if rule != "any":
        tokens = range(span.start, span.end)
        seen = {k for k in seen if not any(span.start <= p.i < span.end for p in index.parts[k][0])}
        if rule == "outside_all":
            alpha = [i for i in tokens if span.doc[i].is_alpha] or list(tokens)
            seen = {k for k in seen if all(k in index.scope.get(i, ()) for i in alpha)}
    return sorted(seen, key=lambda k: (index.parts[k][0][0].i, k))


def span_negation_ids(span: Span, rule: str) -> List[int]:
    """The numbers of the negations that negate a span by a rule (:func:`span_instance_ids`)."""
    return span_instance_ids(span, rule, NEGATIONS)


def _token_instances(token: Token, kind: Kind) -> List[Instance]:
    index = index_of(token.doc, kind)
    return [index.instance(token.doc, k) for k in index.scope.get(token.i, ())]


def _span_instances(span: Span, kind: Kind) -> List[Instance]:
    index = index_of(span.doc, kind)
    return [index.instance(span.doc, k) for k in span_instance_ids(span, get_span_rule(span.doc), kind)]


# --- negations ------------------------------------------------------------------------------
def _doc_negations(doc: Doc) -> List[Negation]:
    return index_of(doc, NEGATIONS).instances(doc)


def _doc_set_negations(doc: Doc, negations: Any) -> None:
    set_instances(doc, NEGATIONS, negations, scope_outside_cue=True)


def _token_negations(token: Token) -> List[Instance]:
    return _token_instances(token, NEGATIONS)


def _token_negated(token: Token) -> bool:
    return token.i in index_of(token.doc, NEGATIONS).scope


def _token_is_neg_cue(token: Token) -> bool:
    return token.i in index_of(token.doc, NEGATIONS).cues


def _span_negations(span: Span) -> List[Instance]:
    return _span_instances(span, NEGATIONS)


def _span_negated(span: Span) -> bool:
    return bool(span_instance_ids(span, get_span_rule(span.doc), NEGATIONS))


# --- speculations ---------------------------------------------------------------------------
def _doc_speculations(doc: Doc) -> List[Speculation]:
    return index_of(doc, SPECULATIONS).instances(doc)


def _doc_set_speculations(doc: Doc, speculations: Any) -> None:
    set_instances(doc, SPECULATIONS, speculations, scope_outside_cue=True)


def _token_speculations(token: Token) -> List[Instance]:
    return _token_instances(token, SPECULATIONS)


def _token_uncertain(token: Token) -> bool:
    return token.i in index_of(token.doc, SPECULATIONS).scope


def _token_is_spec_cue(token: Token) -> bool:
    return token.i in index_of(token.doc, SPECULATIONS).cues


def _span_speculations(span: Span) -> List[Instance]:
    return _span_instances(span, SPECULATIONS)


def _span_uncertain(span: Span) -> bool:
    return bool(span_instance_ids(span, get_span_rule(span.doc), SPECULATIONS))


_EXTENSIONS: Sequence[Tuple[Any, str, Dict[str, Any]]] = (
    (Doc, "negations", {"getter": _doc_negations, "setter": _doc_set_negations}),
    (Token, "negated", {"getter": _token_negated}),
    (Token, "negations", {"getter": _token_negations}),
    (Token, "is_neg_cue", {"getter": _token_is_neg_cue}),
    (Span, "negated", {"getter": _span_negated}),
    (Span, "negations", {"getter": _span_negations}),
    (Doc, "speculations", {"getter": _doc_speculations, "setter": _doc_set_speculations}),
    (Token, "uncertain", {"getter": _token_uncertain}),
    (Token, "speculations", {"getter": _token_speculations}),
    (Token, "is_spec_cue", {"getter": _token_is_spec_cue}),
    (Span, "uncertain", {"getter": _span_uncertain}),
    (Span, "speculations", {"getter": _span_speculations}),
)


def register_extensions() -> None:
    """Register the extensions of the negations (``doc._.negations``, ``token._.negated``,
    ``token._.negations``, ``token._.is_neg_cue``, ``span._.negated``,
    ``span._.negations``) and of the speculations (``doc._.speculations``,
    ``token._.uncertain``, ``token._.speculations``, ``token._.is_spec_cue``,
    ``span._.uncertain``, ``span._.speculations``). Idempotent; never overwrites an
    extension of the same name that another package registered.
    """
    for obj, name, kwargs in _EXTENSIONS:
        if obj.has_extension(name):
            getter = obj.get_extension(name)[2]
            ours = kwargs["getter"]
            if (getattr(getter, "__module__", None), getattr(getter, "__qualname__", None)) != (
                ours.__module__, ours.__qualname__
            ):
                raise ValueError(Errors.E009.format(obj=obj.__name__, name=name, getter=getter))
            continue
        obj.set_extension(name, **kwargs)
