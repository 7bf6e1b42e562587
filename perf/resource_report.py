#!/usr/bin/env python3
"""One table of per-kernel resources: CUDA (sm_90) and HIP (gfx90a).

usage: perf/resource_report.py --cuda CUOBJDUMP.txt --hip-build build/hip [--out FILE.md]

--cuda:      the output of `cuobjdump --dump-resource-usage build/cuda/perf/seis-bench` (registers, stack,
             shared and local memory per function; LOCAL or STACK > 0 means local memory, i.e. spills or
             run-time-indexed arrays). perf/device/h100.sh's `resources` stage writes it on the H100 machine.
--hip-build: a configured `hip` preset build tree; every kernel translation unit in it is compiled once more
             for gfx90a only with -Rpass-analysis=kernel-resource-usage (VGPRs, SGPRs, scratch, occupancy, LDS).
Kernels are named by their template: family (the tile engine's sources), R and VEC.
"""
import argparse
import json
import pathlib
import re
import shlex
import subprocess

SOURCES = {  # (operator, y source, z source) of TileStencil -> the variants built on it
    ("1", "0", "0"): "x, x_vec", ("2", "0", "0"): "y, y_vec", ("4", "0", "0"): "z",
    ("4", "0", "1"): "z_window, z_window_vec, y_window_vec", ("2", "1", "0"): "y_scratch", ("3", "1", "0"): "xy_fused",
    ("7", "1", "1"): "xyz_fused, tb_register_tiling", ("7", "0", "1"): "xyz_fused_cached", ("7", "2", "1"): "xyz_fused_async",
}


def describe(mangled):
    m = re.search(r"TileStencilIN[^E]*E(?:Li(\d+)E)(?:Li(\d+)E)N\w*?7SourcesILN\w*?8OperatorE(\d)ELN\w*?7YSourceE(\d)"
                  r"ELN\w*?7ZSourceE(\d)", mangled)
    if m:
        r, vec, op, y, z = m.groups()
        family = SOURCES.get((op, y, z), "tile engine")
        if "HighOccupancy" in mangled:
            family = "xyz_fused_occupancy"
        return (family, int(r), int(vec))
    for pattern, name in [(r"NaiveStarStencilILi(\d+)E", "naive"), (r"Laplacian7TiledIN\w+?ELi(\d+)ELi(\d+)E", "lap7"),
                          (r"TextbookTiledIN\w+?ELb(\d)E", "textbook"), (r"VectorCopy", "vector_copy")]:
        m = re.search(pattern, mangled)
        if m:
            if name == "naive":
                return ("naive", int(m.group(1)), 1)
            if name == "lap7":
                bounds = "_lb" if m.group(2) != "0" else ""
                return (f"lap7_m{m.group(1)}{bounds}", 1, 1)
            if name == "textbook":
                return ("tb_coarsened_z" if m.group(1) == "1" else "tb_scratch_tiling", 1, 1)
            return (name, 0, 4)
    if "spmv" in mangled.lower() or "KokkosSparse" in mangled:
        return ("spmv (Kokkos Kernels)", 0, 1)
    return None


def cuda_table(path):
    rows = {}
    text = pathlib.Path(path).read_text()
    for name, usage in re.findall(r"Function (\S+):\n\s+(REG:.*)", text):
        key = describe(name)
        if key:
            fields = dict(re.findall(r"(\w+):(\d+)", usage))
            rows[key] = {"cuda_reg": fields["REG"], "cuda_stack": fields["STACK"], "cuda_local": fields["LOCAL"],
                         "cuda_shared": fields["SHARED"]}
    return rows


def hip_table(build):
    rows = {}
    commands = json.loads((pathlib.Path(build) / "compile_commands.json").read_text())
    for entry in commands:
        if "/generated/" not in entry["file"] or "seis_hip_isa" in entry.get("output", entry["command"]):
            continue
        args = [a for a in shlex.split(entry["command"]) if not a.startswith("--amdgpu-target")]
        out = args.index("-o")
        args[out + 1] = "/dev/null"
        args += ["--cuda-device-only", "--offload-arch=gfx90a", "-Rpass-analysis=kernel-resource-usage"]
        result = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
        current = None
        for line in result.stderr.splitlines():
            m = re.search(r"Function Name: (\S+)", line)
            if m:
                current = describe(m.group(1))
                if current:
                    rows.setdefault(current, {})
                continue
            m = re.search(r"remark:\s+([A-Za-z][\w ]*?)(?: \[[^\]]*\])?: (\d+) \[-Rpass", line)
            if current and m:
                rows[current][m.group(1).strip()] = m.group(2)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda")
    parser.add_argument("--hip-build")
    parser.add_argument("--out")
    args = parser.parse_args()
    cuda = cuda_table(args.cuda) if args.cuda else {}
    hip = hip_table(args.hip_build) if args.hip_build else {}
    lines = ["| kernel (variants) | R | VEC | CUDA regs | CUDA stack/local B | CUDA static smem B | gfx90a VGPRs | "
             "SGPRs | VGPR spill | scratch B/lane | occupancy waves/SIMD | static LDS B |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(set(cuda) | set(hip), key=lambda k: (k[0], k[1], k[2])):
        c, h = cuda.get(key, {}), hip.get(key, {})
        lines.append(f"| {key[0]} | {key[1] or '-'} | {key[2]} | {c.get('cuda_reg', '')} | "
                     f"{c.get('cuda_stack', '')}/{c.get('cuda_local', '')} | {c.get('cuda_shared', '')} | "
                     f"{h.get('VGPRs', '')} | {h.get('SGPRs', '')} | {h.get('VGPRs Spill', '')} | "
                     f"{h.get('ScratchSize', '')} | {h.get('Occupancy', '')} | {h.get('LDS Size', '')} |")
    table = "\n".join(lines) + "\n"
    if args.out:
        pathlib.Path(args.out).write_text(table)
    print(table)


if __name__ == "__main__":
    main()
