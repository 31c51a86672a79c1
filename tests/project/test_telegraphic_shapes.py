"""scripts/telegraphic_shapes.py: the list and post-concept shapes of gold negations and
the counts of a system's predictions on them (hand-made docs; the real measure runs on
BioScope clinical)."""
import spacy

from util import REPO, load_module, make_reference

shapes = load_module(REPO / "scripts" / "telegraphic_shapes.py", "telegraphic_shapes")

LIST = "No murmurs , rubs , or gallops .".split()
POST = "Blood culture was negative .".split()
PLAIN = "He did not come .".split()


def W(words, *idx):
    return [(i, 0, len(words[i])) for i in idx]


def doc(vocab, words, *negs):
    return make_reference(vocab, words, [{"cue": W(words, *c), "scope": W(words, *s)} for c, s in negs])


def test_shapes_of_gold_negations():
    lower = [w.lower() for w in LIST]
    assert shapes.shapes_of([0], [1, 2, 3, 4, 5, 6], lower) == ["list"]
    assert shapes.shapes_of([3], [0, 1, 2], [w.lower() for w in POST]) == ["post"]
    assert shapes.shapes_of([2], [3], [w.lower() for w in PLAIN]) == []
    assert shapes.shapes_of([0], [], lower) == []
    assert shapes.later_items([0], [1, 2, 3, 4, 5, 6], lower) == {3, 4, 5, 6}


def test_counts_and_rates_of_a_scope_cut_after_the_first_item():
    vocab = spacy.blank("en").vocab
    gold = [doc(vocab, LIST, ([0], [1, 2, 3, 4, 5, 6])), doc(vocab, POST, ([3], [0, 1, 2])),
            doc(vocab, PLAIN, ([2], [3]))]
    system = [doc(vocab, LIST, ([0], [1])), doc(vocab, POST), doc(vocab, PLAIN, ([2], [3]))]
    counts = shapes.count_shapes(gold, system)
    assert counts["list"] == {"n": 1, "cue_found": 1, "exact_scope": 0, "tp": 1, "fp": 0, "fn": 5,
                              "later_gold": 4, "later_found": 0}
    assert counts["post"] == {"n": 1, "cue_found": 0, "exact_scope": 0, "tp": 0, "fp": 0, "fn": 3,
                              "later_gold": 0, "later_found": 0}
    r = shapes.rates(counts)
    assert r["list"]["scope_p"] == 100.0 and r["list"]["scope_r"] == 16.67 and r["list"]["later_items_recall"] == 0.0
    assert r["post"]["cue_found_pct"] == 0.0 and r["post"]["scope_p"] is None and "later_items_recall" not in r["post"]
    full = shapes.rates(shapes.count_shapes(gold, gold))
    assert full["list"]["exact_scope_pct"] == full["post"]["exact_scope_pct"] == 100.0
    assert full["list"]["later_items_recall"] == full["list"]["scope_f1"] == 100.0
