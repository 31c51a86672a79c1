"""Lexical cue substitution: copies of training sentences whose lexical negation cue
("lacks", "never", "no longer", "absence of") is replaced by another cue word of the same
syntactic class from a negation lexicon.

A model learns the cue words its corpora contain: the default English model, trained on
CD-SCO, BioScope and SFU Review, misses "denies", "negative for", "nobody", "free of" and
"ruled out". :func:`substituted_copies` shows it other words in the slots the corpora fill:
each copy is one sentence of the training docs (the models learn one sentence at a time:
``spacy-negation.SentenceCorpus.v1``) with one of its cues that the lexicon knows replaced
by another ``train`` word of the lexicon's class, every negation moved onto the new tokens
(the cue onto the new cue words, a scope or event part after it shifted by the difference
in length, a scope that held the replaced words holding the new ones), with the tags,
lemmas, sentence starts, the convention mark and the *SEM metadata kept, as the affixal
augmentation (:mod:`spacy_negation.corpora.cue_augment`) does for affixes.

The lexicon (:mod:`.cue_lexicon`: :data:`~.cue_lexicon.LEXICON_PATH`,
:func:`~.cue_lexicon.load_negation_lexicon`) lists each cue with its class
(``verb_obj.3sg``: a verb with a noun object, third person singular, so "lacks"
becomes "excludes" and inflection stays as it was), a ``split`` (``train`` words may be
written by the substitution; ``heldout`` words never are, to test whether what the train
words teach reaches words the model never saw; the loader refuses a lemma or a cue in both)
and a lemma. Words in square brackets follow the cue outside it: BioScope annotates
"negative [for the markers]" and "absence [of ...]", so "free [of]" replacing "without"
puts "of" in the scope when the words after the cue are in it.

Only whole-token cues of contiguous tokens are replaced (no affixal cue, no "neither ...
nor"); a copy whose other annotation cannot be moved faithfully (a part inside a replaced
token, another cue on the replaced words) is not made. A verb form needing do-support keeps
its cue: after *do*, *does* or *did* an adverb is not replaced ("did never go").
"""
import random
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc

from ..errors import Errors
from ..ml.training_corpus import split_sentences
from ..negation import (SPECULATIONS_KEY, PartLike, get_convention, get_negations, get_speculations,
                        set_convention, set_negations, set_speculations)
from ..util import recase
from .cue_lexicon import CueWord
from .docs import META_KEY

#: The forms of *do* after which a negation adverb is not replaced (only *not* takes do-support).
DO_SUPPORT = frozenset({"do", "does", "did"})
#: Words before a noun: a cue after one of them is not read as a verb ("a lack").
DETERMINERS = frozenset({"a", "an", "the", "no", "any", "this", "that", "its", "their", "his", "her"})
#: The Penn tag prefixes and the classes they allow, to tell apart entries with the same words.
TAG_CLASSES = {"NN": ("noun", "pron"), "PRP": ("pron",), "VB": ("verb_",), "JJ": ("adj",), "RB": ("adv",),
               "IN": ("prep", "except", "contrast"), "DT": ("det", "pron"), "CC": ("conj",)}
#: The key in a copy's ``user_data`` of what it replaced: {"old": cue words, "new": cue words}.
SUBSTITUTION_KEY = "negation_cue_substitution"


def normalize(text: str) -> str:
    """A token's text as the lexicon spells it: lower case, typographic apostrophes straight."""
    return text.lower().replace("\u2019", "'").replace("\u2018", "'")


@dataclass(frozen=True)
class Match:
    """A cue of a doc that the lexicon knows.

    neg (int): the negation's position in ``get_negations(doc)``.
    start (int): its first cue token.
    end (int): the end (exclusive) of the phrase: the cue tokens and the words after it.
    entry (CueWord): the lexicon's word.
    """

    neg: int
    start: int
    end: int
    entry: CueWord


def _contains(words: Sequence[str], seq: Sequence[str]) -> bool:
    n = len(seq)
    return any(tuple(words[i : i + n]) == tuple(seq) for i in range(len(words) - n + 1))


def lexical_cues(doc: Doc, lexicon: Sequence[CueWord]) -> List[Match]:
    """The negation cues of a doc that are lexicon words: whole tokens, contiguous, their
    words (:func:`normalize`) a lexicon cue followed by its bracketed words (none of them a
    cue token). Of entries with the same words, the one with the most bracketed words that
    fit; then the one the token's Penn tag allows (if tagged), else the first in the
    lexicon. A verb after a determiner is no match ("a lack": a noun the lexicon has only
    with "of").

    doc (Doc): the doc (a sentence).
    lexicon (Sequence[CueWord]): the lexicon.
    RETURNS (List[Match]): the matches, in the order of the negations.
    """
    by_cue: Dict[Tuple[str, ...], List[CueWord]] = {}
    for entry in lexicon:
        by_cue.setdefault(entry.cue_words, []).append(entry)
    negations = get_negations(doc)
    cue_tokens = {p.i for neg in negations for p in neg.cue}
    words = [normalize(t.text) for t in doc]
    tagged = doc.has_annotation("TAG")
    out: List[Match] = []
    for k, neg in enumerate(negations):
        idx = [p.i for p in neg.cue]
        if neg.is_affixal or idx != list(range(idx[0], idx[0] + len(idx))):
            continue
        start, end = idx[0], idx[-1] + 1
        fitting = [e for e in by_cue.get(tuple(words[start:end]), [])
                   if tuple(words[end : end + len(e.after)]) == e.after
                   and not cue_tokens & set(range(end, end + len(e.after)))]
        if not fitting:
            continue
        longest = max(len(e.after) for e in fitting)
        fitting = [e for e in fitting if len(e.after) == longest]
        tag = doc[start].tag_ if tagged else ""
        allowed = next((classes for prefix, classes in TAG_CLASSES.items() if tag.startswith(prefix)), None)
        entry = next((e for e in fitting if allowed and e.cls.startswith(allowed)), fitting[0])
        if entry.cls.startswith("verb_") and start > 0 and words[start - 1] in DETERMINERS:
            continue
        out.append(Match(k, start, end + len(entry.after), entry))
    return out


def _parse_bits(bits: Sequence[str], n: int) -> Optional[List[str]]:
    """The *SEM syntax column of replaced tokens for ``n`` new tokens: the same bits for as
    many tokens, the opening brackets on the first new token and the closing ones on the
    last (the tree stays balanced). None for bits without exactly one ``*``."""
    if len(bits) == n:
        return list(bits)
    if all(bit == "_" for bit in bits):
        return ["_"] * n
    if any(bit.count("*") != 1 for bit in bits):
        return None
    heads = "".join(bit.split("*")[0] for bit in bits)
    tails = "".join(bit.split("*")[1] for bit in bits)
    if n == 1:
        return [f"{heads}*{tails}"]
    return [f"{heads}*"] + ["*"] * (n - 2) + [f"*{tails}"]


def substitute(doc: Doc, match: Match, new: CueWord) -> Optional[Doc]:
    """A copy of the doc with the phrase of ``match`` (its cue and the words after it)
    replaced by ``new``'s words, every instance moved: the matched negation's cue onto the
    new cue words, its scope holding the new words after the cue when it held the old ones
    (or, with none, the token after the phrase); another instance's scope or event that held
    any replaced word holds every new word; parts after the phrase shifted. The first new
    word takes the letter case of the replaced one. None if an instance cannot be moved
    faithfully: a part inside a replaced token, another cue or the matched negation's event
    on a replaced word. The copy's ``user_data[SUBSTITUTION_KEY]`` says what was replaced.

    doc (Doc): the doc (a sentence).
    match (Match): a cue of the doc (:func:`lexical_cues`).
    new (CueWord): the replacement.
    RETURNS (Optional[Doc]): the copy, or None.
    """
    a, b = match.start, match.end
    n_new = len(new.words)
    delta = n_new - (b - a)
    upper = doc[a].text.isupper() and len(doc[a].text) > 1
    texts = [recase(new.words[0], doc[a].text)] + [w.upper() if upper else w for w in new.words[1:]]

    def whole(indices: Iterable[int]) -> List[Tuple[int, int, int]]:
        return [(i, 0, len(texts[i - a])) for i in indices]

    new_span = range(a, a + n_new)
    new_cue, new_after = range(a, a + new.n_cue), range(a + new.n_cue, a + n_new)
    old_after = range(a + match.entry.n_cue, b)
    negations = get_negations(doc)
    target = negations[match.neg]
    if match.entry.after:
        after_in_scope = any(p.i in old_after for p in target.scope)
    else:
        after_in_scope = any(p.i == b for p in target.scope)

    def move(inst: Any, is_target: bool) -> Optional[Dict[str, Iterable[PartLike]]]:
        out: Dict[str, Iterable[PartLike]] = {}
        for role in inst.ROLES:
            parts: List[Tuple[int, int, int]] = []
            hit = False
            for p in inst.parts(role):
                if a <= p.i < b:
                    if p.is_partial(doc):
                        return None
                    hit = True
                else:
                    parts.append((p.i if p.i < a else p.i + delta, p.start, p.end))
            if is_target and role == "cue":
                parts = whole(new_cue)
            elif is_target and role == "scope":
                parts += whole(new_after) if after_in_scope else []
            elif hit:
                if role == "cue" or is_target:
                    return None
                parts += whole(new_span)
            out[role] = sorted(parts)
        return out

    moved_negations = [move(neg, k == match.neg) for k, neg in enumerate(negations)]
    moved_speculations = [move(spec, False) for spec in get_speculations(doc)]
    if any(m is None for m in moved_negations + moved_speculations):
        return None
    words = [t.text for t in doc[:a]] + texts + [t.text for t in doc[b:]]
    spaces = ([bool(t.whitespace_) for t in doc[:a]] + [True] * (n_new - 1) + [bool(doc[b - 1].whitespace_)]
              + [bool(t.whitespace_) for t in doc[b:]])
    old = range(a, b)

    def spread(values: Sequence[Any]) -> List[Any]:
        """Per-token values with the replaced tokens' values spread over the new ones."""
        inner = [values[old[min(k, len(old) - 1)]] for k in range(n_new)]
        return list(values[:a]) + inner + list(values[b:])

    lemmas = None
    if doc.has_annotation("LEMMA"):
        new_lemmas = [new.lemma] if n_new == 1 else list(new.words)
        lemmas = [t.lemma_ for t in doc[:a]] + new_lemmas + [t.lemma_ for t in doc[b:]]
    sent_starts: Optional[List[Union[bool, int, None]]] = None
    if doc.has_annotation("SENT_START"):
        starts: List[Union[bool, int, None]] = [bool(t.is_sent_start) for t in doc[:a]]
        starts += [bool(doc[a].is_sent_start)] + [False] * (n_new - 1) + [bool(t.is_sent_start) for t in doc[b:]]
        sent_starts = starts
    new_doc = Doc(doc.vocab, words=words, spaces=spaces,
                  tags=spread([t.tag_ for t in doc]) if doc.has_annotation("TAG") else None,
                  lemmas=lemmas, sent_starts=sent_starts)
    set_negations(new_doc, [m for m in moved_negations if m is not None])
    if SPECULATIONS_KEY in doc.spans:  # none annotated stays apart from not annotated
        set_speculations(new_doc, [m for m in moved_speculations if m is not None])
    set_convention(new_doc, get_convention(doc))
    new_doc.user_data[SUBSTITUTION_KEY] = {"old": match.entry.key, "new": new.key}
    meta = doc.user_data.get(META_KEY)
    if isinstance(meta, dict) and len(meta.get("parse", ())) == len(doc):
        bits = list(meta["parse"])
        parse = _parse_bits(bits[a:b], n_new)
        if parse is not None:
            new_doc.user_data[META_KEY] = {**meta, "parse": bits[:a] + parse + bits[b:]}
    return new_doc


def is_excluded(entry: CueWord, exclude: Iterable[str]) -> bool:
    """Whether a lexicon word holds one of ``exclude`` (cue keys, words joined by spaces) as
    a run of its cue words ("no" excludes "no longer" and "by no means")."""
    return any(_contains(entry.cue_words, key.split()) for key in exclude if key.split())


def replacement_pools(lexicon: Iterable[CueWord], exclude: Iterable[str] = ()) -> Dict[str, List[CueWord]]:
    """Per class, the words the substitution may write: the ``train`` words, none of
    ``exclude`` (:func:`is_excluded`)."""
    excluded = {normalize(key) for key in exclude}
    pools: Dict[str, List[CueWord]] = {}
    for entry in lexicon:
        if entry.split == "train" and not is_excluded(entry, excluded):
            pools.setdefault(entry.cls, []).append(entry)
    return pools


def _replaceable(doc: Doc, match: Match, pools: Dict[str, List[CueWord]]) -> List[CueWord]:
    """The words that may replace a match: its class's pool without the match's own cue
    words; none for an adverb after do-support."""
    if match.entry.cls == "adv" and match.start > 0 and normalize(doc[match.start - 1].text) in DO_SUPPORT:
        return []
    return [e for e in pools.get(match.entry.cls, []) if e.cue_words != match.entry.cue_words]


def substituted_copies(docs: Iterable[Doc], lexicon: Sequence[CueWord], copies: int = 1, ratio: float = 1.0,
                       seed: int = 0, exclude: Iterable[str] = (), max_per_word: Optional[int] = None) -> Iterator[Doc]:
    """For a share of the sentences of the docs with a cue the lexicon knows and can
    replace, ``copies`` copies of the sentence alone, each with one of those cues (chosen
    at random) replaced by a ``train`` word of the lexicon of the same class (chosen at
    random, never the cue's own words, none of ``exclude``). The sentences are visited in
    a random order (so that ``max_per_word`` does not favour the first docs) and the copies
    come out in the docs' order.

    docs (Iterable[Doc]): the docs.
    lexicon (Sequence[CueWord]): the lexicon (:func:`.cue_lexicon.load_negation_lexicon`).
    copies (int): copies per sentence (≥ 1).
    ratio (float): the share of those sentences that get copies (0 < ratio ≤ 1), drawn at
        random.
    seed (int): the seed of the random choices.
    exclude (Iterable[str]): cue keys never written (e.g. the held-out cue words of a fold
        of ``scripts/leave_cues_out.py``): :func:`is_excluded`.
    max_per_word (Optional[int]): write each lexicon word into at most this many copies
        (None: no limit). *not* is the cue of about 40% of the corpora's negations, so
        without a limit its class's rare words ("by no means") fill most copies.
    YIELDS (Doc): the copies (one sentence each), in the docs' order.
    RAISES ValueError: copies below 1, a ratio outside (0, 1] or a limit below 1 (E982).
    """
    if (isinstance(copies, bool) or not isinstance(copies, int) or copies < 1
            or isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0.0 < ratio <= 1.0
            or (max_per_word is not None and (isinstance(max_per_word, bool) or not isinstance(max_per_word, int)
                                              or max_per_word < 1))):
        raise ValueError(Errors.E982.format(copies=copies, ratio=ratio, limit=max_per_word))
    pools = replacement_pools(lexicon, exclude)
    rng = random.Random(seed)
    sents = [sent for whole in docs for sent in split_sentences(whole)]
    order = list(range(len(sents)))
    rng.shuffle(order)
    written: Dict[CueWord, int] = {}
    out: Dict[int, List[Doc]] = {}
    for i in order:
        doc = sents[i]
        options = [(m, pool) for m in lexical_cues(doc, lexicon) for pool in [_replaceable(doc, m, pools)] if pool]
        if not options or (ratio < 1.0 and rng.random() >= ratio):
            continue
        for _ in range(copies):
            if max_per_word is not None:
                options = [(m, kept) for m, pool in options
                           for kept in [[e for e in pool if written.get(e, 0) < max_per_word]] if kept]
                if not options:
                    break
            match, pool = rng.choice(options)
            new = rng.choice(pool)
            copy = substitute(doc, match, new)
            if copy is not None:
                written[new] = written.get(new, 0) + 1
                out.setdefault(i, []).append(copy)
    for i in sorted(out):
        yield from out[i]


__all__ = ["Match", "SUBSTITUTION_KEY", "lexical_cues", "substitute", "substituted_copies", "replacement_pools",
           "is_excluded", "normalize"]
