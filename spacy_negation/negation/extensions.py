"""The ``doc._``, ``token._`` and ``span._`` extensions of the negation data model,
answered from the index of :mod:`.storage`; when a span counts as negated:
:mod:`.span_rule`."""
from typing import Any, Dict, List, Sequence, Set, Tuple

from spacy.tokens import Doc, Span, Token

from ..errors import Errors
from .instance import Negation
from .span_rule import get_span_rule
from .storage import index_of, set_negations


def _doc_negations(doc: Doc) -> List[Negation]:
    return index_of(doc).negations(doc)


def _doc_set_negations(doc: Doc, negations: Any) -> None:
    set_negations(doc, negations, scope_outside_cue=True)


def _token_negations(token: Token) -> List[Negation]:
    index = index_of(token.doc)
    return [index.negation(token.doc, k) for k in index.scope.get(token.i, ())]


def _token_negated(token: Token) -> bool:
    return token.i in index_of(token.doc).scope


def _token_is_neg_cue(token: Token) -> bool:
    return token.i in index_of(token.doc).cues


def span_negation_ids(span: Span, rule: str) -> List[int]:
    """The numbers of the negations that negate a span by a rule (:mod:`.span_rule`), in
    the order of their first cue token."""
    index = index_of(span.doc)
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


def _span_negations(span: Span) -> List[Negation]:
    index = index_of(span.doc)
    return [index.negation(span.doc, k) for k in span_negation_ids(span, get_span_rule(span.doc))]


def _span_negated(span: Span) -> bool:
    return bool(span_negation_ids(span, get_span_rule(span.doc)))


_EXTENSIONS: Sequence[Tuple[Any, str, Dict[str, Any]]] = (
    (Doc, "negations", {"getter": _doc_negations, "setter": _doc_set_negations}),
    (Token, "negated", {"getter": _token_negated}),
    (Token, "negations", {"getter": _token_negations}),
    (Token, "is_neg_cue", {"getter": _token_is_neg_cue}),
    (Span, "negated", {"getter": _span_negated}),
    (Span, "negations", {"getter": _span_negations}),
)


def register_extensions() -> None:
    """Register ``doc._.negations``, ``token._.negated``, ``token._.negations``,
    ``token._.is_neg_cue``, ``span._.negated`` and ``span._.negations``. Idempotent; never
    overwrites an extension of the same name that another package registered.
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
