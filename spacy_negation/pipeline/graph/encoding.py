"""Negation instances as dependency graphs, and back (Kurtz et al. 2020; the nested
encoding of Sineva et al. 2021, their Figure 2).

The graph of a sentence has one node per token plus an artificial root (node 0; token
``k`` is node ``k + 1``). Each negation instance is one *cue head* (its first cue part)
attached to the root; the further parts of a multiword or discontinuous cue (``nor`` of
*neither … nor*) and the instance's scope and event tokens are dependents of its cue
head. The graph is *unfactorized* (Dozat and Manning 2018): one label per (head,
dependent) pair, ``NO_EDGE`` where there is no arc, and a label names every role that
pair carries, joined by ``+``:

- ``C`` a whole-token cue part; ``C:un-``, ``C:-less``, ``C:-less-`` an affixal cue part
  (prefix, suffix, infix; the affix in lower case), so that affixal cues keep their
  character ranges;
- ``S`` / ``E`` the token is in the scope / is the negated event; ``S~`` / ``E~`` only
  the rest of the token beside an affixal cue on it (``happy`` of *un*\\ happy), which
  an arc from a cue head to itself carries for its own token.

Two encodings:

- ``direct`` (Kurtz et al. 2020): every scope token is linked to every cue head whose
  scope it is in.
- ``nested`` (Sineva et al. 2021): where an instance's cue lies in another's scope (it
  is *embedded*), the outer cue head links to the inner cue, and the scope parts the two
  share are linked to the inner cue head only; decoding gives the outer instance the
  inner one's whole scope back. It loses the instances whose embedded scope reaches
  outside the outer one (:func:`round_trip_counts` counts them).

Plain tuples only: a part is ``(token, start, end)`` with sentence-relative token
positions and character offsets in the token; no spaCy objects.
"""
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from ...alignment import Part
from ...errors import Errors
from .._util import find_affix, remainder
from .labels import (CUE, ENCODINGS, EVENT, NO_EDGE, REST, SCOPE, Label, PartTuple, _affix_of_form,
                           _cue_form, affix_kind_of, parse_label)

#: (head node, dependent node) -> label; node 0 is the root, token k is node k + 1.
Graph = Dict[Tuple[int, int], str]

class Instance(NamedTuple):
    """A negation instance of one sentence: cue, scope and event parts, each sorted."""

    cue: Tuple[PartTuple, ...]
    scope: Tuple[PartTuple, ...] = ()
    event: Tuple[PartTuple, ...] = ()


def check_instances(words: Sequence[str], instances: Iterable[Instance]) -> List[Instance]:
    """The instances with sorted parts, checked against the sentence.

    words (Sequence[str]): the sentence's tokens.
    instances (Iterable[Instance]): the instances.
    RETURNS (List[Instance]): the instances, parts sorted.
    RAISES (ValueError): an instance without cue (E863) or a part outside the sentence
        or its token (E861).
    """
    out: List[Instance] = []
    for k, inst in enumerate(instances):
        if not inst.cue:
            raise ValueError(Errors.E863.format(k=k))
        for role, parts in zip(("cue", "scope", "event"), inst):
            for i, start, end in parts:
                if not (0 <= i < len(words) and 0 <= start < end <= len(words[i])):
                    raise ValueError(Errors.E861.format(k=k, role=role, part=(i, start, end), n=len(words)))
        out.append(Instance(*(tuple(sorted(parts)) for parts in inst)))
    return out


def encode(words: Sequence[str], instances: Iterable[Instance], encoding: str = "nested") -> Graph:
    """The graph of a sentence's negation instances.

    words (Sequence[str]): the sentence's tokens.
    instances (Iterable[Instance]): its negation instances (sentence-relative parts).
    encoding (str): 'direct' or 'nested'.
    RETURNS (Graph): the labelled arcs (pairs without an arc are left out). A scope or
        event part the labels cannot express (a part of a token other than the rest
        beside an affixal cue) is encoded as its whole token; :func:`round_trip_counts`
        counts what is lost.
    RAISES (ValueError): an unknown encoding (E860), bad instances (E861, E863).
    """
    _check_encoding(encoding)
    insts = check_instances(words, instances)
    affixal = _affixal_cue_parts(words, [inst.cue for inst in insts])
    scopes = [{p[0]: p for p in inst.scope} for inst in insts]
    kept = [dict(s) for s in scopes]
    if encoding == "nested":
        for a, inst in enumerate(insts):
            for b in _embedded(insts, scopes, a):
                for i, q in scopes[b].items():
                    p = kept[a].get(i)
                    if p is not None and q[1] <= p[1] and p[2] <= q[2] and not _is_head_of_other(insts, a, i, kept[a]):
                        del kept[a][i]
    labels: Dict[Tuple[int, int], Dict[str, object]] = {}

    def put(arc: Tuple[int, int], role: str, value: object) -> None:
        labels.setdefault(arc, {}).setdefault(role, value)

    for a, inst in enumerate(insts):
        head = inst.cue[0][0] + 1
        put((0, head), "cue", _cue_form(inst.cue[0], words))
        for part in inst.cue[1:]:
            put((head, part[0] + 1), "cue", _cue_form(part, words))
        for role, parts in (("scope", list(kept[a].values())), ("event", list(inst.event))):
            for part in parts:
                put((head, part[0] + 1), role, _is_rest(part, words, affixal))
    return {arc: str(Label(roles.get("cue"), roles.get("scope"), roles.get("event")))  # type: ignore[arg-type]
            for arc, roles in labels.items()}


def _is_head_of_other(insts: Sequence[Instance], a: int, i: int, kept: Dict[int, PartTuple]) -> bool:
    """Whether token i holds the cue head of an instance embedded in instance a: the
    one arc from the outer cue head to the inner cue that the nested encoding keeps."""
    part = kept[i]
    return any(b != a and inst.cue[0][0] == i and _overlap(inst.cue[0], part) for b, inst in enumerate(insts))


def _embedded(insts: Sequence[Instance], scopes: Sequence[Dict[int, PartTuple]], a: int) -> List[int]:
    """The instances whose cue head lies in the scope of instance a (and not the other
    way round)."""
    out: List[int] = []
    for b, inst in enumerate(insts):
        if b == a:
            continue
        p = scopes[a].get(inst.cue[0][0])
        if p is None or not _overlap(p, inst.cue[0]):
            continue
        q = scopes[b].get(insts[a].cue[0][0])
        if q is not None and _overlap(q, insts[a].cue[0]):
            continue  # each in the other's scope: no nesting
        out.append(b)
    return out


def _overlap(p: PartTuple, q: PartTuple) -> bool:
    return p[0] == q[0] and p[1] < q[2] and q[1] < p[2]


def _affixal_cue_parts(words: Sequence[str], cues: Iterable[Sequence[PartTuple]]) -> Dict[int, PartTuple]:
    """The first affixal cue part on each token (the one whose rest ``~`` means)."""
    out: Dict[int, PartTuple] = {}
    for cue in cues:
        for part in cue:
            if affix_kind_of(part, words) is not None:
                out.setdefault(part[0], part)
    return out


def _rest(part: PartTuple, words: Sequence[str]) -> Optional[PartTuple]:
    """The rest of a token beside an affixal cue part (None for a whole token)."""
    rng = remainder(Part(*part), words[part[0]])
    return None if rng is None else (part[0], rng[0], rng[1])


def _is_rest(part: PartTuple, words: Sequence[str], affixal: Dict[int, PartTuple]) -> Optional[bool]:
    """False for a whole token, True for the rest beside the token's affixal cue (the
    only partial scope or event parts the labels express; others become whole)."""
    if affix_kind_of(part, words) is None:
        return False
    cue = affixal.get(part[0])
    return cue is not None and _rest(cue, words) == part


def decode(words: Sequence[str], graph: Graph, encoding: str = "nested") -> List[Instance]:
    """The negation instances of a sentence's graph (the inverse of :func:`encode`).

    An arc that cannot be read is left out: a root arc whose label is not a cue label,
    an arc from a token that is not a cue head, an affixal cue label whose affix is not
    in its token, a rest (``~``) on a token without an affixal cue.

    words (Sequence[str]): the sentence's tokens.
    graph (Graph): the labelled arcs.
    encoding (str): 'direct' or 'nested'.
    RETURNS (List[Instance]): the instances, in the order of their cue heads.
    RAISES (ValueError): an unknown encoding (E860), a node outside the sentence
        (E864), a malformed label (E862).
    """
    _check_encoding(encoding)
    n = len(words)
    by_head: Dict[int, List[Tuple[int, Label]]] = {}
    heads: Dict[int, PartTuple] = {}
    for (h, d), text in sorted(graph.items()):
        if not (0 <= h <= n and 1 <= d <= n):
            raise ValueError(Errors.E864.format(arc=(h, d), n=n))
        label = parse_label(text)
        if h == 0:
            if label.cue is not None and label.is_root_label:
                part = _cue_part(d - 1, label.cue, words)
                if part is not None:
                    heads[d - 1] = part
        else:
            by_head.setdefault(h - 1, []).append((d - 1, label))
    cues: Dict[int, List[PartTuple]] = {}
    for h, head_part in heads.items():
        cue = [head_part]
        for d, label in by_head.get(h, []):
            if label.cue is not None and d != h:
                part = _cue_part(d, label.cue, words)
                if part is not None:
                    cue.append(part)
        cues[h] = sorted(cue)
    affixal = _affixal_cue_parts(words, cues.values())
    direct: Dict[int, Dict[str, Dict[int, PartTuple]]] = {}
    for h, cue in cues.items():
        own = {p[0]: p for p in cue}
        roles: Dict[str, Dict[int, PartTuple]] = {"scope": {}, "event": {}}
        for d, label in by_head.get(h, []):
            for role, rest in (("scope", label.scope), ("event", label.event)):
                if rest is None:
                    continue
                part = _role_part(d, rest, words, affixal, own)
                if part is not None:
                    roles[role][d] = part
        direct[h] = roles
    scopes = {h: roles["scope"] for h, roles in direct.items()}
    if encoding == "nested":
        scopes = {h: _inherited(h, direct, cues, {h}) for h in cues}
    return [
        Instance(tuple(cues[h]), tuple(sorted(scopes[h].values())), tuple(sorted(direct[h]["event"].values())))
        for h in sorted(cues)
    ]


def _inherited(h: int, direct: Dict[int, Dict[str, Dict[int, PartTuple]]], cues: Dict[int, List[PartTuple]],
               seen: Set[int]) -> Dict[int, PartTuple]:
    """The scope of the cue head h: its own scope arcs and the whole scope of every
    instance whose cue head lies in it (recursively; each head once on a path)."""
    scope = dict(direct[h]["scope"])
    own = {p[0]: p for p in cues[h]}
    for g, part in list(direct[h]["scope"].items()):
        if g in seen or g not in cues or not _overlap(part, cues[g][0]):
            continue
        for i, q in _inherited(g, direct, cues, seen | {g}).items():
            p = scope.get(i)
            merged = q if p is None else (i, min(p[1], q[1]), max(p[2], q[2]))
            cue = own.get(i)
            if cue is not None and _overlap(merged, cue):
                continue  # never the instance's own cue characters
            scope[i] = merged
    return scope


def affix_fits(form: str, word: str) -> bool:
    """Whether a cue component's affix form is in a word where it says ('un-' at the
    start of 'unhappy'; '' , a whole-word cue, fits every word).

    form (str): '' or an affix form ('un-', '-less', '-less-').
    word (str): the token's text.
    RETURNS (bool): whether decoding keeps the cue part.
    """
    return _cue_part(0, form, [word]) is not None


def _cue_part(i: int, form: str, words: Sequence[str]) -> Optional[PartTuple]:
    """The cue part of a cue component on token i, None if its affix is not there."""
    if not form:
        return (i, 0, len(words[i]))
    kind_affix = _affix_of_form(form)
    if kind_affix is None:
        return None
    rng = find_affix(words[i], *kind_affix)
    return None if rng is None else (i, rng[0], rng[1])


def _role_part(d: int, rest: bool, words: Sequence[str], affixal: Dict[int, PartTuple],
               own: Dict[int, PartTuple]) -> Optional[PartTuple]:
    """The scope or event part of an arc to token d: the whole token, or the rest
    beside the affixal cue on it; None where there is no such part (a rest without an
    affixal cue; a whole-token cue of the instance itself)."""
    cue = own.get(d)
    if rest or (cue is not None and cue[1:] != (0, len(words[d]))):
        anchor = cue if cue is not None else affixal.get(d)
        return None if anchor is None else _rest(anchor, words)
    if cue is not None:
        return None
    return (d, 0, len(words[d]))


def _check_encoding(encoding: str) -> None:
    if encoding not in ENCODINGS:
        raise ValueError(Errors.E860.format(encoding=encoding, encodings=", ".join(ENCODINGS)))


# --- the model's view: one label per (head, dependent) pair ----------------------------------

def pair_labels(graph: Graph, n: int) -> List[str]:
    """The label of every (head, dependent) pair of a sentence of n tokens, row
    ``head * n + dependent - 1`` (heads 0..n with the root, dependents 1..n).

    graph (Graph): the arcs.
    n (int): the number of tokens.
    RETURNS (List[str]): (n + 1) * n labels, ``NO_EDGE`` where there is no arc.
    """
    out = [NO_EDGE] * ((n + 1) * n)
    for (h, d), label in graph.items():
        if not (0 <= h <= n and 1 <= d <= n):
            raise ValueError(Errors.E864.format(arc=(h, d), n=n))
        out[h * n + d - 1] = label
    return out


def graph_of_pairs(labels: Sequence[str], n: int) -> Graph:
    """The graph of pair labels as :func:`pair_labels` orders them.

    labels (Sequence[str]): (n + 1) * n labels.
    n (int): the number of tokens.
    RETURNS (Graph): the arcs (pairs labelled ``NO_EDGE`` left out).
    """
    if len(labels) != (n + 1) * n:
        raise ValueError(Errors.E865.format(n_labels=len(labels), n=n, expected=(n + 1) * n))
    return {(k // n, k % n + 1): label for k, label in enumerate(labels) if label != NO_EDGE}


def round_trip_counts(sentences: Iterable[Tuple[Sequence[str], Sequence[Instance]]],
                      encoding: str) -> Dict[str, int]:
    """How many sentences and instances survive encode -> decode unchanged.

    sentences (Iterable[Tuple[Sequence[str], Sequence[Instance]]]): words and instances.
    encoding (str): 'direct' or 'nested'.
    RETURNS (Dict[str, int]): ``sentences``, ``sentences_ok``, ``instances``,
        ``instances_ok`` (an instance is ok if the decoded sentence holds it unchanged).
    """
    counts = {"sentences": 0, "sentences_ok": 0, "instances": 0, "instances_ok": 0}
    for words, instances in sentences:
        gold = check_instances(words, instances)
        back = set(decode(words, encode(words, gold, encoding), encoding))
        counts["sentences"] += 1
        counts["instances"] += len(gold)
        ok = sum(inst in back for inst in gold)
        counts["instances_ok"] += ok
        counts["sentences_ok"] += int(ok == len(gold) and len(back) == len(set(gold)))
    return counts
