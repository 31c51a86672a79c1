"""What the benchmarks share for timing: the fastest of repeated runs of a callable."""
import time
from typing import Any, Callable


def best_of(run: Callable[[], Any], repeat: int, warm_up: bool = False) -> float:
    """The fastest of ``repeat`` runs, in seconds (wall clock).

    run (Callable[[], Any]): what to time.
    repeat (int): the timed runs.
    warm_up (bool): one untimed run first (the first call of an input shape pays for
        allocations and kernel selection, which a long-running application pays once).
    RETURNS (float): the seconds of the fastest run.
    """
    if warm_up:
        run()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best
