#!/usr/bin/env python3
"""Achieved DRAM traffic per kernel under Nsight Compute (the lab notes' "memory / cube ratio" table).

usage: perf/ncu_report.py SEIS_BENCH --kernels K1,K2,... --radius R --grid N [--out DIR]

Runs `seis-bench -k K` once per kernel under `ncu` (one timed launch, no verification) and reads, for every
launch of a seistencil kernel (and of the vector copy, the yardstick): DRAM bytes read and written, duration,
registers per thread and achieved occupancy. Prints a Markdown table and writes it to --out/ncu-R<R>.md:
  read/cube and write/cube = DRAM bytes / (4 bytes * nx*ny*nz): 1.00 each is compulsory traffic;
  achieved GB/s = (read + write) / duration, the bandwidth the DRAM really delivered.
Needs ncu on PATH (Nsight Compute, as on the H100 machine). rocprof equivalent (not runnable here):
  rocprof --pmc FETCH_SIZE WRITE_SIZE -o out.csv seis-bench -k K -r R -g N --samples 1 --warmup 0 --batch 1
"""
import argparse
import csv
import io
import pathlib
import subprocess
import statistics

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum",
           "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active"]
KERNELS = r"regex:seis::(TileStencil|NaiveStarStencil|Laplacian7Tiled|TextbookTiled|VectorCopy)"


def profile(bench, kernel, radius, grid):
    command = ["ncu", "--csv", "--page", "raw", "--print-units", "base", "--kernel-name-base", "demangled", "--kernel-name", KERNELS,
               "--metrics", ",".join(METRICS), bench, "-q", "-k", kernel, "-r", str(radius), "-g", str(grid),
               "--samples", "1", "--warmup", "0", "--batch", "1", "--verify", "off", "--nontemporal", "on"]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    text = result.stdout[result.stdout.index('"ID"'):]
    rows = list(csv.DictReader(io.StringIO(text)))
    return [r for r in rows[1:] if r.get("Kernel Name")]  # the first row holds units


def to_bytes(value, unit):
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}[unit]
    return float(value.replace(",", "")) * scale


def to_seconds(value, unit):
    scale = {"nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0}[unit]
    return float(value.replace(",", "")) * scale


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--radius", type=int, default=4)
    parser.add_argument("--grid", type=int, default=512)
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    cube = 4.0 * args.grid ** 3
    table = []
    for kernel in args.kernels.split(","):
        rows = profile(args.bench, kernel, args.radius, args.grid)
        groups = {}
        for row in rows:
            name = "vector_copy" if "VectorCopy" in row["Kernel Name"] else kernel
            groups.setdefault(name, []).append(row)
        for name, launches in groups.items():
            if name == "vector_copy" and any(t[0] == "vector_copy" for t in table):
                continue
            read = statistics.median(to_bytes(r["dram__bytes_read.sum"], "byte") for r in launches)
            write = statistics.median(to_bytes(r["dram__bytes_write.sum"], "byte") for r in launches)
            seconds = statistics.median(to_seconds(r["gpu__time_duration.sum"], "nsecond") for r in launches)
            registers = launches[0]["launch__registers_per_thread"]
            occupancy = statistics.median(float(r["sm__warps_active.avg.pct_of_peak_sustained_active"])
                                          for r in launches)
            table.append((name, read / cube, write / cube, (read + write) / seconds / 1e9, seconds * 1e3,
                          registers, occupancy))
    header = ("| kernel | DRAM read / cube | DRAM write / cube | achieved GB/s (DRAM) | time [ms] | registers "
              "| achieved occupancy % |\n|---|---|---|---|---|---|---|")
    lines = [header] + [f"| {n} | {r:.3f} | {w:.3f} | {bw:.0f} | {t:.3f} | {reg} | {occ:.1f} |"
                        for n, r, w, bw, t, reg, occ in table]
    report = (f"ncu, R = {args.radius}, {args.grid}^3 float32 (cube = {cube / 1e6:.0f} MB; the vector copy "
              f"moves the padded field)\n\n" + "\n".join(lines) + "\n")
    print(report)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"ncu-R{args.radius}.md").write_text(report)


if __name__ == "__main__":
    main()
