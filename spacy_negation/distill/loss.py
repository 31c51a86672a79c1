"""The loss of a student against gold labels and a teacher's distributions, on plain
arrays: with weight ``w``, ``(1 - w) * CE(gold) + w * CE(teacher)`` summed over the rows
(Hinton et al. 2015, at temperature 1); a row without a gold label (unknown) learns
nothing, or, with ``unlabelled``, from the teacher alone. The value reported is what thinc
reports for its cross-entropy, the sum of the squared gradient, so that training logs
compare with and without a teacher."""
from typing import List, Optional, Sequence, Tuple

import numpy
from thinc.types import Floats2d


def distilled_loss(scores: Sequence[Floats2d], gold: Sequence[Sequence[Optional[int]]],
                   soft: Sequence[Floats2d], weight: float, unlabelled: bool = False) -> Tuple[float, List[Floats2d]]:
    """The loss and its gradient with respect to the softmax's input, per sequence.

    scores (Sequence[Floats2d]): the student's label distributions, one (rows, labels)
        array per sequence (softmax outputs).
    gold (Sequence[Sequence[Optional[int]]]): the gold label index of each row (None:
        unknown).
    soft (Sequence[Floats2d]): the teacher's distributions, the same shapes as ``scores``.
    weight (float): the teacher's weight ``w``, from 0 (gold only) to 1 (teacher only).
    unlabelled (bool): rows without a gold label learn from the teacher (gradient ``w *
        (p - q)``); else they learn nothing (zero gradient), as without a teacher.
    RETURNS (Tuple[float, List[Floats2d]]): the loss value (the summed squared gradient)
        and the gradient ``(1 - w) * (p - onehot) + w * (p - q)`` (rows with a gold label)
        per sequence.
    """
    loss = 0.0
    grads: List[Floats2d] = []
    for p, labels, q in zip(scores, gold, soft):
        p_np = numpy.asarray(p, dtype="float32")
        q_np = numpy.asarray(q, dtype="float32")
        d = weight * (p_np - q_np)
        if not unlabelled:
            d[[i is None for i in labels]] = 0.0
        rows = [r for r, i in enumerate(labels) if i is not None]
        d[rows] += (1.0 - weight) * p_np[rows]
        d[rows, [labels[r] for r in rows]] -= 1.0 - weight
        loss += float((d ** 2).sum())
        grads.append(d)
    return loss, grads
