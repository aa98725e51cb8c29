"""`benchmarks.run_all` runs every benchmark module there is (without running any here)."""

from __future__ import annotations

from benchmarks.run_all import BENCHMARKS, unlisted


def test_run_all_names_every_benchmark_module_and_no_other() -> None:
    assert unlisted() == []
    assert len(BENCHMARKS) == len(set(BENCHMARKS))
