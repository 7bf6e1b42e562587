#!/usr/bin/env python3
"""Turns seis-bench JSON reports into PNGs (Debian's python3-matplotlib).

usage: perf/plot.py OUTDIR REPORT.json [REPORT.json ...]

Writes, from the cases found in the reports:
  bandwidth-R<R>-<grid>.png  effective GB/s per variant (best VEC/nw/tile/NT per variant), the same run's vector
                             copy bandwidth as a line;
  nw-sweep-R<R>.png          the fused kernel's bandwidth against its window nw (cases with several nw values);
  grid-sweep-R<R>.png        bandwidth against grid size for every variant run at several sizes;
  roofline-R<R>.png          arithmetic intensity (flops per compulsory byte) against GFLOP/s, under the
                             measured copy-bandwidth roof.
"""
import json
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(paths):
    cases, runs = [], []
    for path in paths:
        report = json.loads(pathlib.Path(path).read_text())
        runs.append(report["run"])
        for case in report.get("cases", []):
            case["run"] = report["run"]
            cases.append(case)
    return cases, runs


def caption(cases):
    """Device and every commit whose cases a chart shows."""
    runs = {(c["run"]["git_commit"] + (" (dirty)" if c["run"]["git_dirty"] else ""), c["run"]["date"][:10])
            for c in cases}
    first = cases[0]["run"]
    commits = ", ".join(f"{commit} ({date})" for commit, date in sorted(runs))
    return f"{first['device']}, {first['backend']}, commit {commits}"


def finish(fig, ax, title, path):
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def best_per_variant(cases):
    best = {}
    for c in cases:
        if c["kernel"] not in best or c["effective_gbs"] > best[c["kernel"]]["effective_gbs"]:
            best[c["kernel"]] = c
    return best


def bandwidth_chart(out, cases):
    by_key = defaultdict(list)
    for c in cases:
        by_key[(c["radius"], tuple(c["grid"]))].append(c)
    for (radius, grid), group in by_key.items():
        best = best_per_variant(group)
        names = sorted(best, key=lambda n: best[n]["effective_gbs"])
        copy = max(c["copy_gbs"] for c in group)
        fig, ax = plt.subplots(figsize=(9, 0.32 * len(names) + 1.8))
        ax.barh(names, [best[n]["effective_gbs"] for n in names], color="#4477aa")
        ax.axvline(copy, color="#cc3311", linestyle="--",
                   label=f"vector copy (each run measures its own; % is of it): {copy:.0f} GB/s")
        for i, n in enumerate(names):
            ax.text(best[n]["effective_gbs"], i, f" {best[n]['percent_of_copy']:.0f}%", va="center", fontsize=8)
        ax.set_xlabel("effective bandwidth [GB/s] (8 bytes per interior point)")
        ax.set_title(f"R = {radius}, {grid[0]}x{grid[1]}x{grid[2]} float32\n{caption(list(best.values()))}", fontsize=9)
        ax.legend(loc="lower right", fontsize=8)
        fig.tight_layout()
        fig.savefig(out / f"bandwidth-R{radius}-{grid[0]}.png", dpi=120)
        plt.close(fig)


def sweep_chart(out, cases, field, name, xlabel, select):
    by_radius = defaultdict(lambda: defaultdict(list))
    for c in cases:
        if select(c):
            by_radius[c["radius"]][c["kernel"]].append(c)
    for radius, kernels in by_radius.items():
        series = {k: v for k, v in kernels.items() if len({field(c) for c in v}) > 1}
        if not series:
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for kernel, group in sorted(series.items()):
            points = defaultdict(float)
            for c in group:
                points[field(c)] = max(points[field(c)], c["effective_gbs"])
            xs = sorted(points)
            ax.plot(xs, [points[x] for x in xs], marker="o", label=kernel)
        copy = max(c["copy_gbs"] for g in series.values() for c in g)
        ax.axhline(copy, color="#cc3311", linestyle="--", label=f"vector copy {copy:.0f} GB/s")
        ax.set_xscale("log", base=2)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("effective bandwidth [GB/s]")
        finish(fig, ax, f"R = {radius}\n{caption([c for g in series.values() for c in g])}",
               out / f"{name}-R{radius}.png")


def roofline(out, cases):
    by_radius = defaultdict(list)
    for c in cases:
        by_radius[c["radius"]].append(c)
    for radius, group in by_radius.items():
        best = best_per_variant(group)
        copy = max(c["copy_gbs"] for c in group)
        fig, ax = plt.subplots(figsize=(7, 5))
        intensities = [c["flops"] / c["bytes"] for c in best.values()]
        lo, hi = min(intensities) / 2, max(intensities) * 2
        ax.plot([lo, hi], [copy * lo, copy * hi], color="#cc3311", label=f"bandwidth roof {copy:.0f} GB/s (copy)")
        for name, c in best.items():
            ax.scatter(c["flops"] / c["bytes"], c["gflops"], s=18)
            ax.annotate(name, (c["flops"] / c["bytes"], c["gflops"]), fontsize=7)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity [flop / compulsory byte]")
        ax.set_ylabel("GFLOP/s")
        finish(fig, ax, f"roofline, R = {radius}\n{caption(list(best.values()))}", out / f"roofline-R{radius}.png")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    cases, _ = load(sys.argv[2:])
    if not cases:
        sys.exit("plot.py: no cases in the reports")
    bandwidth_chart(out, cases)
    sweep_chart(out, cases, lambda c: c["window"], "nw-sweep", "window nw (planes per thread)",
                lambda c: c["kernel"].startswith("xyz_fused") and c["window"] > 0)
    sweep_chart(out, cases, lambda c: c["grid"][0], "grid-sweep", "grid size N (N^3 points)", lambda c: True)
    roofline(out, cases)
    print("\n".join(str(p) for p in sorted(out.glob("*.png"))))


if __name__ == "__main__":
    main()
