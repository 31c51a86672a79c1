"""The threads and memory of the annotating processes: torch's threads in this process
and in the worker processes, the ``--threads`` option, the peak memory a worker reports
with each shard."""
import os
import resource
from typing import Optional

from ..errors import Errors
from ..limits import MAX_THREADS, check_count


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (getrusage)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def set_torch_threads(n: int) -> Optional[int]:
    """Set this process's torch threads (when torch is installed: a CNN pipeline needs
    none); returns the previous number, or None without torch."""
    try:
        import torch
    except ImportError:
        return None
    old = torch.get_num_threads()
    torch.set_num_threads(n)
    return old


def torch_threads() -> int:
    """This process's torch threads (0 without torch)."""
    try:
        import torch
    except ImportError:
        return 0
    return int(torch.get_num_threads())


def resolve_threads(threads: Optional[int]) -> int:
    """The torch threads of each annotating process: ``threads`` if given, else
    ``OMP_NUM_THREADS`` if set, else 1. One thread per process by default: with more busy
    threads than free cores, OpenMP spinning makes a small LSTM many times slower (a
    250-word sentence took 8-9 s with torch's default 2 threads beside another job on 2
    cores, 0.26 s with 1); ask for more with ``--threads`` on an idle machine.

    threads (Optional[int]): the ``--threads`` option (None: not given).
    RETURNS (int): the number of threads.
    RAISES (ValueError): ``threads`` outside 1 to MAX_THREADS (E971), ``OMP_NUM_THREADS``
        not a whole number in that range (E950).
    """
    if threads is not None:
        return check_count("--threads", threads, 1, MAX_THREADS)
    env = os.environ.get("OMP_NUM_THREADS", "").strip()
    if not env:
        return 1
    try:
        value = int(env)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_THREADS:
        raise ValueError(Errors.E950.format(value=env, high=MAX_THREADS))
    return value
