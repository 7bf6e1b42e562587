#!/usr/bin/env python3
"""Scaling model of seis-wave's MPI decomposition to many GPUs (perf/NOTES.md entry 19, README).

A rank holds nx x ly x lz points (x whole, y and z split). Each step it computes its points at the measured
single-GPU rate, and moves the R planes of its four shared faces out and in: packing and unpacking on the GPU,
optionally staging through the host (PCIe, each way), and the network. The core of the part is updated while the
halos travel; the face layers after. Inputs are named below with their sources; change them on the command line.
"""
import argparse


def step_time(n, py, pz, radius, ps_per_point, net_gbs, pcie_gbs, staged):
    nx, ly, lz = n, n / py, n / pz
    points = nx * ly * lz
    compute = points * ps_per_point * 1e-12
    faces = 2 * radius * nx * (lz * (py > 1) + ly * (pz > 1))  # points in the face layers (interior rank)
    halo_bytes = 4 * faces  # sent (and as many received) per step
    transfer = halo_bytes / (net_gbs * 1e9)
    if staged:
        transfer += 2 * halo_bytes / (pcie_gbs * 1e9)  # device -> host before, host -> device after
    core = compute * (1 - faces / points)
    step = max(core, transfer) + compute * faces / points
    return step, compute, halo_bytes, transfer


def main():
    p = argparse.ArgumentParser(description=__doc__)
    # 9.867 ms per step for 1024^3 on the H100 (seven-domain, R = 4, README's table): 9.19 ps per point.
    p.add_argument("--ps-per-point", type=float, default=9.867e-3 / 1024**3 * 1e12)
    p.add_argument("--radius", type=int, default=4)
    p.add_argument("--net", type=float, default=50.0, help="GB/s per GPU and direction (NDR InfiniBand, 400 Gb/s)")
    p.add_argument("--pcie", type=float, default=25.0, help="GB/s host <-> device per GPU (PCIe 5 x16, achieved)")
    a = p.parse_args()
    print(f"inputs: {a.ps_per_point:.2f} ps/point (H100, 1024^3), R = {a.radius}, network {a.net} GB/s per GPU, "
          f"PCIe {a.pcie} GB/s")
    print("| grid | GPUs (y x z) | points/GPU | compute ms | halo MB/step/GPU | GPU-aware: step ms, eff | "
          "host-staged: step ms, eff |")
    print("|---|---|---|---|---|---|---|")
    cases = [(1024, 2, 1), (1024, 2, 2), (2048, 4, 4), (2048, 8, 8), (4000, 20, 25), (4000, 25, 40), (4000, 40, 50)]
    for n, py, pz in cases:
        aware, compute, halo, _ = step_time(n, py, pz, a.radius, a.ps_per_point, a.net, a.pcie, False)
        staged, *_ = step_time(n, py, pz, a.radius, a.ps_per_point, a.net, a.pcie, True)
        gpus = py * pz
        print(f"| {n}^3 | {gpus} ({py}x{pz}) | {n**3 / gpus / 1e6:.0f}e6 | {compute * 1e3:.2f} | {halo / 1e6:.1f} | "
              f"{aware * 1e3:.2f}, {compute / aware:.0%} | {staged * 1e3:.2f}, {compute / staged:.0%} |")


if __name__ == "__main__":
    main()
