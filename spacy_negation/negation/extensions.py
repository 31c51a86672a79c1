"""The ``doc._``, ``token._`` and ``span._`` extensions of the negation data model,
answered from the index of :mod:`.storage`."""
from typing import Any, Dict, List, Sequence, Set, Tuple

from spacy.tokens import Doc, Span, Token

from ..errors import Errors
from .instance import Negation
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


def _span_ids(span: Span) -> List[int]:
    index = index_of(span.doc)
    seen: Set[int] = set()
    for i in range(span.start, span.end):
        seen.update(index.scope.get(i, ()))
    return sorted(seen, key=lambda k: (index.parts[k][0][0].i, k))


def _span_negations(span: Span) -> List[Negation]:
    index = index_of(span.doc)
    return [index.negation(span.doc, k) for k in _span_ids(span)]


def _span_negated(span: Span) -> bool:
    index = index_of(span.doc)
    return any(i in index.scope for i in range(span.start, span.end))


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
