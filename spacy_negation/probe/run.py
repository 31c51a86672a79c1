"""Running the pragmatic negation probe (Gubelmann & Handschuh 2022) on one masked
language model, and the %-ACT-repetition by experiment, template feature and rank.

For each sampled (name, profession) pair the model fills "NAME is PROF and she/he likes to
MASK."; its predictions of probability ranks r, r+1, r+2 become ACT1-ACT3 (section 4.3).
The model then fills the final MASK of every template filled with that name, profession
and those ACT tokens. **%-ACT-repetition** is the percentage of filled sentences whose
top-1 prediction is one of the template's ACT tokens (section 6): exactly wrong after a
negation, fine after a positive context. We compare the predicted and the ACT token
case-insensitively as whole tokens (the paper's script also counted inflected forms).
"""
import random
import warnings
from collections import Counter
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import Errors, Warnings
from . import templates as tpl
from .templates import Template

#: The probability ranks of the paper's experiment 1.
DEFAULT_RANKS: Tuple[int, ...] = (0, 50, 100, 200)
#: The ranks the paper's Figures 1 and 3 average over.
HEADLINE_RANKS: Tuple[int, ...] = (0, 50)
#: (name, profession, gender)
Pair = Tuple[str, str, str]


def n_pairs(gender: str) -> int:
    """The number of (name, profession) pairs of a gender: the most ``--sample`` can take.

    gender (str): "m" or "f".
    RETURNS (int): names of the gender times professions.
    """
    return len(tpl.names(gender)) * len(tpl.professions())


def sample_pairs(gender: str, n: int, seed: int) -> List[Pair]:
    """A seeded sample of ``n`` (name, profession) pairs of a gender, without repetition.

    gender (str): "m" or "f".
    n (int): the sample size (all pairs if larger than their number, with W601).
    seed (int): the random seed.
    RETURNS (List[Pair]): (name, profession, gender) triples.
    """
    if n < 1:
        raise ValueError(Errors.E704.format(option="--sample", value=n))
    pairs = [(name, prof, gender) for name in tpl.names(gender) for prof in tpl.professions()]
    if n > len(pairs):
        warnings.warn(Warnings.W601.format(n=n, available=len(pairs), gender=gender))
        return pairs
    return random.Random(f"{seed}-{gender}").sample(pairs, n)


def extract_acts(mlm: Any, pairs: Sequence[Pair], ranks: Sequence[int], n_acts: int = 3,
                 progress: Optional[Callable[[int], None]] = None) -> Dict[Pair, Dict[int, List[str]]]:
    """The rank-tailored ACT tokens of each pair (the paper's step 3).

    mlm (MaskedLM): the model.
    pairs (Sequence[Pair]): the (name, profession, gender) triples.
    ranks (Sequence[int]): the probability ranks (0 = the model's best prediction).
    n_acts (int): tokens per rank (ACT1 at the rank, ACT2 at rank + 1, ...).
    progress (Optional[Callable[[int], None]]): called with the number of sentences done.
    RETURNS (Dict[Pair, Dict[int, List[str]]]): pair -> rank -> [ACT1, ACT2, ...].
    """
    from .mlm import rank_tokens

    for r in ranks:
        if r < 0:
            raise ValueError(Errors.E606.format(rank=r, n=n_acts, k="model's"))
    sentences = [tpl.extraction_sentence(n, p, g, mlm.mask_token) for n, p, g in pairs]
    k = max(ranks) + n_acts
    ranked = _predict(mlm, sentences, k, progress)
    return {pair: {r: [mlm.decode(t) for t in rank_tokens(ids, r, n_acts)] for r in ranks}
            for pair, ids in zip(pairs, ranked)}


def _predict(mlm: Any, sentences: Sequence[str], k: int,
             progress: Optional[Callable[[int], None]]) -> List[List[int]]:
    out: List[List[int]] = []
    step = mlm.batch_size
    for start in range(0, len(sentences), step):
        chunk = sentences[start:start + step]
        out.extend(mlm.topk(chunk, k))
        if progress is not None:
            progress(len(chunk))
    return out


def is_repetition(predicted: str, acts: Sequence[str]) -> bool:
    """Whether a prediction repeats one of the ACT tokens (case-insensitive, whole token).

    predicted (str): the model's top-1 token at the final MASK.
    acts (Sequence[str]): the ACT tokens used in the sentence.
    """
    return predicted.lower() in {a.lower() for a in acts}


def act_repetition(hits: int, n: int) -> float:
    """%-ACT-repetition: the percentage of the ``n`` filled sentences whose prediction
    repeats an ACT token (Gubelmann & Handschuh 2022, section 6)."""
    return round(100.0 * hits / n, 2) if n else 0.0


def run_probe(mlm: Any, sample: int = 100, ranks: Sequence[int] = DEFAULT_RANKS, seed: int = 0,
              templates: Optional[Sequence[Template]] = None, show_progress: bool = True,
              name: Optional[str] = None) -> Dict[str, Any]:
    """Run the probe on one model.

    mlm (MaskedLM): the model.
    sample (int): (name, profession) pairs per gender (the paper used all 9.1k).
    ranks (Sequence[int]): the probability ranks of the ACT tokens.
    seed (int): the sampling seed.
    templates (Optional[Sequence[Template]]): the templates (default: the 43).
    show_progress (bool): a progress bar on stderr.
    name (Optional[str]): the model's name on the progress bar (default: its folder).
    RETURNS (Dict[str, Any]): the model's results (see :func:`summarize`).
    """
    from tqdm import tqdm

    templates = list(templates) if templates is not None else tpl.build_templates()
    genders = sorted({t.gender for t in templates})
    pairs = {g: sample_pairs(g, sample, seed) for g in genders}
    all_pairs = [p for g in genders for p in pairs[g]]
    jobs: List[Tuple[Template, int, Pair, List[str], str]] = []
    total = len(all_pairs) + sum(len(pairs[t.gender]) for t in templates) * len(ranks)
    with tqdm(total=total, desc=f"probe {name or mlm.name}", unit="sent", disable=not show_progress) as bar:
        acts = extract_acts(mlm, all_pairs, ranks, progress=bar.update)
        for t in templates:
            for r in ranks:
                for pair in pairs[t.gender]:
                    a = acts[pair][r][:t.n_acts]
                    jobs.append((t, r, pair, a, tpl.fill(t, pair[0], pair[1], acts[pair][r], mlm.mask_token)))
        preds = _predict(mlm, [j[4] for j in jobs], 1, bar.update)
    rows = [{"template": t.id, "rank": r, "acts": a, "prediction": mlm.decode(p[0]),
             "hit": is_repetition(mlm.decode(p[0]), a)}
            for (t, r, _pair, a, _text), p in zip(jobs, preds)]
    result = summarize(rows, templates, ranks)
    from .mlm import is_word

    act_tokens = [a for pair in all_pairs for r in ranks for a in acts[pair][r]]
    pred_counts = Counter(r["prediction"] for r in rows)
    result["meta"] = {
        "model": str(mlm.path), "tied_head": mlm.tied_head, "sample_per_gender": sample,
        "seed": seed, "ranks": list(ranks), "n_sentences": len(rows),
        "n_pairs": {g: len(pairs[g]) for g in genders},
        "grammaticality": {
            "act_tokens_words_pct": act_repetition(sum(map(is_word, act_tokens)), len(act_tokens)),
            "predictions_words_pct": act_repetition(sum(is_word(r["prediction"]) for r in rows), len(rows)),
            # a model that ignores the context predicts the same few tokens everywhere
            "distinct_predictions": len(pred_counts),
            "top_prediction_pct": act_repetition(pred_counts.most_common(1)[0][1] if rows else 0, len(rows)),
        },
        "top_act1_rank0": _top(acts[p][min(ranks)][0] for p in all_pairs),
        "top_predictions": [[tok, c] for tok, c in pred_counts.most_common(10)],
        "examples": [{"text": j[4], "prediction": row["prediction"], "acts": row["acts"]}
                     for j, row in list(zip(jobs, rows))[:: max(1, len(rows) // 8)][:8]],
    }
    return result


def _top(tokens: Iterable[str], n: int = 10) -> List[List[Any]]:
    return [[tok, c] for tok, c in Counter(tokens).most_common(n)]


def _cell(rows: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    hits = sum(1 for r in rows if r["hit"])
    return {"n": len(rows), "hits": hits, "act_repetition": act_repetition(hits, len(rows))}


def _group(rows: Sequence[Dict[str, Any]], key: Callable[[Dict[str, Any]], str]) -> Dict[str, Dict[str, Any]]:
    groups: Dict[str, List[Dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    return {k: _cell(v) for k, v in sorted(groups.items())}


def summarize(rows: Sequence[Dict[str, Any]], templates: Sequence[Template],
              ranks: Sequence[int]) -> Dict[str, Any]:
    """%-ACT-repetition by experiment, template feature and rank.

    rows (Sequence[Dict[str, Any]]): one per filled sentence: ``template`` (id), ``rank``,
        ``hit`` (the prediction repeats an ACT token).
    templates (Sequence[Template]): the templates of the rows.
    ranks (Sequence[int]): the ranks run.
    RETURNS (Dict[str, Any]): ``{"experiment_N": {...}}``; the feature tables
        (``by_negation``, ``by_conjunction``, ``by_negation_conjunction``, ``by_n_acts``,
        ``by_added``, ``by_gender``) average the headline ranks 0 and 50 as the paper's
        Figures 1 and 3 (all ranks run if neither was), ``by_rank`` and
        ``by_negation_rank`` every rank (Figure 2), ``templates`` each template.
    """
    by_id = {t.id: t for t in templates}
    headline = [r for r in ranks if r in HEADLINE_RANKS] or list(ranks)
    out: Dict[str, Any] = {}
    for exp in sorted({t.experiment for t in templates}):
        exp_rows = [r for r in rows if by_id[r["template"]].experiment == exp]
        head = [r for r in exp_rows if r["rank"] in headline]
        feat = lambda name: (lambda r: str(getattr(by_id[r["template"]], name)))  # noqa: E731
        out[f"experiment_{exp}"] = {
            "headline_ranks": headline,
            "overall": _cell(head),
            "by_negation": _group(head, feat("negation")),
            "by_conjunction": _group(head, feat("conjunction")),
            "by_negation_conjunction": _group(
                head, lambda r: f"{by_id[r['template']].negation}/{by_id[r['template']].conjunction}"),
            "by_n_acts": _group(head, feat("n_acts")),
            "by_added": _group(head, feat("added")),
            "by_gender": _group(head, feat("gender")),
            "by_rank": _group(exp_rows, lambda r: str(r["rank"])),
            "by_negation_rank": _group(exp_rows, lambda r: f"{by_id[r['template']].negation}/{r['rank']}"),
            "templates": {
                t.id: {"text": t.text, **t.features,
                       "by_rank": _group([r for r in exp_rows if r["template"] == t.id],
                                         lambda r: str(r["rank"]))}
                for t in templates if t.experiment == exp
            },
        }
    return out
