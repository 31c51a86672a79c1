"""When is a span negated? The rule behind ``span._.negated`` and ``span._.negations``.

A scope says which tokens a cue negates; an entity (a clinical concept, a product aspect) is
a span, and whether the span counts as negated is a choice. The rule tools answer it the
NegEx way (Chapman et al. 2001; Harkema et al. 2009, ConText): only a trigger *outside* the
concept negates it, so "lungs show no opacities" as one concept is affirmed. The rules:

- ``"outside_all"`` (the default): a negation negates the span when its cue lies wholly
  outside the span and its scope covers every alphabetic token of the span (every token
  when none is alphabetic): "no chest pain" negates *chest pain*, "no pain in the chest"
  negates neither *chest* nor *pain in the chest* unless the scope takes all of it;
- ``"outside_any"``: the cue lies outside the span and its scope covers some token of it;
- ``"any"``: some token of the span lies in the scope of any negation, its cue inside the
  span or not (the data model's token view, lifted to spans).

A doc's rule lives in ``doc.user_data`` (msgpack-safe; the ``negation`` component's
``span_negated`` setting writes it to the docs it annotates); a doc without one follows the
default.
"""
from typing import Optional, Tuple

from spacy.tokens import Doc

from ..errors import Errors

#: The key of a doc's span rule in ``doc.user_data``.
SPAN_RULE_KEY = "negation_span_rule"
#: The rules, the default first.
SPAN_RULES: Tuple[str, ...] = ("outside_all", "outside_any", "any")
DEFAULT_SPAN_RULE = SPAN_RULES[0]


def check_span_rule(rule: str) -> str:
    """The rule, or E331 if it is not one of :data:`SPAN_RULES`."""
    if rule not in SPAN_RULES:
        raise ValueError(Errors.E331.format(value=repr(rule), rules=", ".join(SPAN_RULES)))
    return rule


def get_span_rule(doc: Doc) -> str:
    """The span rule of a doc (the default when it has none)."""
    value = doc.user_data.get(SPAN_RULE_KEY)
    return value if isinstance(value, str) and value in SPAN_RULES else DEFAULT_SPAN_RULE


def set_span_rule(doc: Doc, rule: Optional[str]) -> None:
    """Set the span rule of a doc (None or the default: remove the setting).

    doc (Doc): the doc.
    rule (Optional[str]): one of :data:`SPAN_RULES`, or None.
    """
    if rule is None or check_span_rule(rule) == DEFAULT_SPAN_RULE:
        doc.user_data.pop(SPAN_RULE_KEY, None)
    else:
        doc.user_data[SPAN_RULE_KEY] = rule
