#!/usr/bin/env python3
"""Benchmarks the budget rule: one stay of N detours whose faster sides are all dearer, under a
budget of half their extra cost, with minutes saved per euro within a few per cent of each other
(hard for branch and bound). Prints, for each N, the median seconds to plan the stay without a
budget (the baseline, same run) and with it, whether the choice is proven optimal, the planned
minutes and, when not proven, the proven lower bound on minutes.

    python3 bench/bench_budget.py          # N = 40, 1000, 10000; BENCH_RUNS=3
"""
import os
import subprocess

from bench import build_release


def main():
    runs = os.environ.get("BENCH_RUNS", "3")
    binary = build_release("detour-bench")
    print(f"{'detours':>8} {'no budget s':>12} {'budget s':>10} {'result':>9} {'minutes':>10} {'bound':>10}")
    for count in (40, 1000, 10000):
        out = subprocess.run([binary, "budget", str(count), runs], check=True, capture_output=True, text=True)
        n, baseline, seconds, result, minutes, bound = out.stdout.split()
        print(f"{n:>8} {baseline:>12} {seconds:>10} {result:>9} {minutes:>10} {bound:>10}")


if __name__ == "__main__":
    main()
