"""The bounds of the counts a user can pass: the command line's options (checked when the
command line is parsed, see :mod:`spacy_negation.cli._args`) and the functions behind them
(checked again there, for callers from Python). A count beyond its bound gives no better
result, it only exhausts memory or time (``annotate --threads 100000`` asked torch for
100000 threads; ``challenge --sample 1000000000`` ran on for minutes), so it is refused
with a coded error (E971) naming the option and the range.

Light: nothing is imported beyond the error catalogue, so that ``--help`` and the
spaCy-free commands stay fast.
"""
from .errors import Errors

#: Torch threads per annotating process (``annotate --threads``, ``OMP_NUM_THREADS``).
MAX_THREADS = 256
#: Processes of the local engine (``annotate --n-process``).
MAX_PROCESSES = 256
#: Worker actors of the Ray engine (``annotate --workers``).
MAX_WORKERS = 4096
#: Restarts of a failed Ray worker and retries of its shards (``annotate --max-retries``).
MAX_RETRIES = 100
#: Records per shard (``annotate --shard-size``): a shard is held in memory.
MAX_SHARD_SIZE = 1_000_000
#: Docs or sentences per batch (``annotate``, ``evaluate`` and ``probe --batch-size``).
MAX_BATCH_SIZE = 10_000
#: Sentences per doc (``convert --n-sents``; 0 = whole documents).
MAX_N_SENTS = 1_000_000
#: Random seeds (``--seed``): what numpy's and Python's generators take alike.
MAX_SEED = 2**32 - 1
#: Bootstrap resamples and randomization shuffles (``compare``/``seeds --samples``,
#: ``--ar-samples``); the bootstrap keeps one value per sample and metric.
MAX_SAMPLES = 1_000_000
#: Files that must agree on an instance's cue (``vote --min-votes``; also at most the
#: number of files, E750).
MAX_VOTES = 10_000
#: Probability ranks of the probe's ACT tokens (``probe --ranks``; also below the number of
#: tokens the model predicts, E957, once it is loaded: vocabularies have up to ~250,000).
MAX_RANK = 1_000_000


def check_count(option: str, value: int, low: int, high: int) -> int:
    """A count checked to lie in its range.

    option (str): the option's name, for the message (e.g. '--threads').
    value (int): the count.
    low (int): the least value allowed.
    high (int): the greatest value allowed.
    RETURNS (int): the value.
    RAISES (ValueError): outside [low, high] (E971).
    """
    if not low <= value <= high:
        raise ValueError(Errors.E971.format(option=option, low=low, high=high, value=value))
    return value
