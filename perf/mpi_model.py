#!/usr/bin/env python3
"""Scaling model of seis-wave's domain decomposition to thousands of GPUs (docs/multi-gpu.md, perf/NOTES.md).

A rank holds nx/px x ny/py x nz/pz points of an N^3 grid. Each step it updates them at the one-GPU rate measured on
the H100 (512^3, R = 4, unified: 0.941 ms, perf/NOTES.md 95), and trades the R planes of each shared face with its
neighbour. The core of the part is updated while the halos travel; the face layers after, at the core's rate (they
are as deep as its tiles), and each shared face costs the step a time per byte of its R planes that no transfer
hides (--face-cost: packs, unpacks, their launches and waits; measured on four H100s). Nodes hold G GPUs as a gx x gy x gz block of the rank grid:
faces inside a node travel GPU to GPU over NVLink (CUDA IPC writes, the direct transport), faces between nodes over
the network (GPU-aware MPI: GPUDirect RDMA at the NIC's rate), or, host-staged, through PCIe twice as well. The
slowest rank, an interior one, sets the pace: its sends leave through one NIC and one NVLink fabric, each a queue.
"""
import argparse


def parts(text):
    return [int(v) for v in text.split("x")]


def step_time(n, p, node, a, staged):
    local = [n / p[0], n / p[1], n / p[2]]
    points = local[0] * local[1] * local[2]
    compute = points * a.ps_per_point * 1e-12
    nvlink = network = 0.0  # bytes sent per step through each path
    faces = 0.0  # bytes of the shared faces' R planes
    for axis in range(3):
        if p[axis] == 1:
            continue
        face = 4.0 * a.radius * points / local[axis]  # bytes of one face's R planes
        faces += 2 * face
        inside = node[axis] > 1  # an interior rank has one neighbour in its node along this axis, or none
        nvlink += face * (1 if inside else 0)
        network += face * (1 if inside else 2)
    transfer = max(nvlink / (a.nvlink * 1e9), network / (a.net * 1e9))
    if staged:
        transfer += 2 * (nvlink + network) / (a.pcie * 1e9)  # device -> host before, host -> device after
    step = max(compute, transfer) + faces / 1e6 * a.face_cost * 1e-6
    return step, compute, nvlink + network


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ps-per-point", type=float, default=0.941e-3 / 512**3 * 1e12,
                   help="one GPU's time per point and step (H100 512^3 R = 4 unified: 7.0 ps)")
    p.add_argument("--radius", type=int, default=4)
    p.add_argument("--nvlink", type=float, default=367.0,
                   help="GB/s GPU to GPU inside a node (CUDA IPC copy of a 16.8 MB halo between two H100s)")
    p.add_argument("--net", type=float, default=50.0, help="GB/s per GPU and direction between nodes (NDR, 400 Gb/s)")
    p.add_argument("--pcie", type=float, default=25.0, help="GB/s host <-> device per GPU (staged transport)")
    p.add_argument("--face-cost", type=float, default=5.0,
                   help="us per MB of a shared face's R planes that the step pays beyond one GPU's (four H100s, R = 4: "
                   "4.5 at 512^3 on two and 768^3 on four, 6.2-8.1 at 512^3 on four; perf/NOTES.md 107)")
    p.add_argument("--gpus-per-node", default="2x2x2", help="a node's block of the rank grid, GXxGYxGZ")
    a = p.parse_args()
    g = parts(a.gpus_per_node)
    print(f"inputs: {a.ps_per_point:.2f} ps/point, R = {a.radius}, NVLink {a.nvlink} GB/s, network {a.net} GB/s "
          f"per GPU, PCIe {a.pcie} GB/s, {a.face_cost} us per MB of face, nodes of {a.gpus_per_node} GPUs")
    print("| grid | GPUs (x y z) | points/GPU | compute ms | halo MB/step/GPU | direct + GPU-aware: step ms, eff | "
          "host-staged: step ms, eff |")
    print("|---|---|---|---|---|---|---|")
    cases = [(1024, "1x2x1"), (1024, "1x2x2"), (2048, "2x2x2"), (2048, "4x4x4"), (4000, "1x25x40"),
             (4000, "10x10x10"), (4000, "8x16x16"), (8000, "16x16x16")]
    for n, text in cases:
        d = parts(text)
        node = [min(g[i], d[i]) for i in range(3)]
        gpus = d[0] * d[1] * d[2]
        direct, compute, halo = step_time(n, d, node, a, False)
        staged, *_ = step_time(n, d, node, a, True)
        print(f"| {n}^3 | {gpus} ({text}) | {n**3 / gpus / 1e6:.0f}e6 | {compute * 1e3:.2f} | {halo / 1e6:.1f} | "
              f"{direct * 1e3:.2f}, {compute / direct:.0%} | {staged * 1e3:.2f}, {compute / staged:.0%} |")


if __name__ == "__main__":
    main()
