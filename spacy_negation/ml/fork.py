"""Fork safety of the torch layers (the transformer backbone and the BiLSTMs).

``nlp.pipe(texts, n_process=2)`` starts its worker processes with
``multiprocessing.Process`` in the default start method, which is ``fork`` on Linux
(Python < 3.14). PyTorch's CPU build runs its intra-op parallelism on an OpenMP thread
pool (GNU libgomp), and libgomp is not fork-safe: a forked child inherits the pool's
state but not its threads, so the child's first parallel torch operation waits forever
on a futex. Calling ``torch.set_num_threads(1)`` in the child before its first torch
operation avoids the pool altogether (a parallel region of one thread does not touch it).

:func:`register_fork_hook` registers that call as an ``os.register_at_fork`` hook.
``spacy-negation.TransformerModel.v1`` and the BiLSTM layer (:mod:`.bilstm`: the scope
tagger of every pipeline, CNN ones included) call it, so it is in place as soon as a
pipeline with a torch layer exists, never at import. Each worker process then runs torch with
one thread: the worker processes are the parallelism. Processes started with ``spawn``
or ``forkserver`` start afresh and are not affected.
"""
import os

_REGISTERED = False


def _one_torch_thread_in_child() -> None:
    """The at-fork hook: one torch intra-op thread in the forked child."""
    from thinc.compat import torch

    if torch is not None:
        torch.set_num_threads(1)


def register_fork_hook() -> None:
    """Register :func:`_one_torch_thread_in_child` to run in every child forked from
    this process (once per process; idempotent)."""
    global _REGISTERED
    if _REGISTERED or not hasattr(os, "register_at_fork"):
        return
    os.register_at_fork(after_in_child=_one_torch_thread_in_child)
    _REGISTERED = True
