"""``annotate --engine ray``: the same output as the local engine, and a worker killed
mid-run loses or duplicates nothing (a local Ray cluster of 2 CPUs, no dashboard, no
usage statistics)."""
import os
import signal
import subprocess
import sys
from typing import List

import pytest

from spacy_negation.annotate import annotate
from spacy_negation.annotate.core import ShardDone

from util import corpus_texts, read_jsonl, write_text

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray cluster of 2 CPUs for the module, shut down at its end."""
    mp = pytest.MonkeyPatch()
    mp.setenv("RAY_USAGE_STATS_ENABLED", "0")
    mp.delenv("OMP_NUM_THREADS", raising=False)  # 1 thread (CPU) per worker: 2 workers fit
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        mp.undo()


def test_ray_output_equals_local(trained_cnn_dir, ray_cluster, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(60))
    annotate(inp, tmp_path / "local.jsonl", str(trained_cnn_dir), shard_size=7, progress=False)
    pids = set()
    summary = annotate(inp, tmp_path / "ray.jsonl", str(trained_cnn_dir), shard_size=7,
                       engine="ray", progress=False,
                       on_shard=lambda r: pids.add(r.pid))
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    # two worker processes annotated (the cluster's 2 CPUs / 1 thread per worker)
    assert len(pids) == 2 and os.getpid() not in pids
    assert set(summary.workers) == pids and all(mb > 0 for mb in summary.workers.values())


def test_killed_worker_loses_and_duplicates_nothing(trained_cnn_dir, ray_cluster, tmp_path):
    """SIGKILL the worker process that finished the first shard: Ray restarts the actor,
    retries its unfinished shards, and the output equals the local engine's."""
    n = 300
    inp = write_text(tmp_path / "in.txt", corpus_texts(n))
    annotate(inp, tmp_path / "local.jsonl", str(trained_cnn_dir), shard_size=10, progress=False)
    results: List[ShardDone] = []
    killed: List[int] = []

    def on_shard(result: ShardDone) -> None:
        results.append(result)
        if not killed:
            killed.append(result.pid)
            os.kill(result.pid, signal.SIGKILL)

    annotate(inp, tmp_path / "ray.jsonl", str(trained_cnn_dir), shard_size=10, engine="ray",
             workers=2, progress=False, on_shard=on_shard)
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    later = {r.pid for r in results[len(results) // 2:]}
    assert killed[0] not in later and len({r.pid for r in results}) >= 3  # restarted actor
    assert sorted(r.shard.index for r in results) == list(range(n // 10))
    assert [r["id"] for r in read_jsonl(tmp_path / "ray.jsonl")] == list(range(1, n + 1))
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_cli_joins_a_running_cluster_with_address(trained_cnn_dir, ray_cluster, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(20))
    address = ray.get_runtime_context().gcs_address
    cmd = [sys.executable, "-m", "spacy_negation", "annotate", str(inp), str(tmp_path / "out.jsonl"),
           "--model", str(trained_cnn_dir), "--engine", "ray", "--address", address,
           "--shard-size", "5", "--no-progress"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Started a local Ray instance" not in out.stderr and "wrote 20 documents" in out.stderr
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == list(range(1, 21))


@pytest.mark.slow
def test_cli_starts_and_stops_its_own_cluster(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(20))
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    cmd = [sys.executable, "-m", "spacy_negation", "annotate", str(inp), str(tmp_path / "out.jsonl"),
           "--model", str(trained_cnn_dir), "--engine", "ray", "--workers", "2", "--shard-size", "5",
           "--no-progress"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Started a local Ray instance" in out.stderr and "wrote 20 documents" in out.stderr
    assert [r["id"] for r in read_jsonl(tmp_path / "out.jsonl")] == list(range(1, 21))
