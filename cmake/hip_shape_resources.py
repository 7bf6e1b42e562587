#!/usr/bin/env python3
"""The gfx90a resources of seis-wave's code shapes (--kernel), and a gate: no shape may spill.

usage: hip_shape_resources.py SHAPE_HPP OUTPUT.md OBJECT...  (objects compiled with -save-temps=obj; the .s
files lie beside them)

For every kernel of BlockedStep, StreamingStep and TwoStepStreaming in the gfx90a assembly: VGPRs (architected and
accumulation), SGPRs, scratch per lane (private arrays and spills), the spill stores, the occupancy that the compiler reports (waves per SIMD, from
registers), and, for the shape's default tile (read from shape.hpp's shape_table), the team's LDS (Kokkos team
scratch, allocated at launch, so not in the assembly) and the occupancy that this LDS leaves (64 KB per CU, 4
SIMDs). The LDS formulas are those of the kernels' scratch_bytes (blocked.hpp, streaming.hpp, temporal.hpp).
Writes a Markdown table; exits non-zero if a shape spills registers ("Folded Spill" stores) or none is found.
"""
import math
import pathlib
import re
import subprocess
import sys

REGION = {"0": "inner", "1": "pml", "2": "both"}
BLOCKED = {("0", "0"): "gmem", ("1", "0"): "smem_u", ("0", "1"): "smem_eta_1", ("0", "2"): "smem_eta_3"}
ZWALK = {"0": "st_smem", "1": "st_reg_shft", "2": "st_reg_fixed", "3": "st_semi"}
# BlockedStep's last argument, its FixedTile, is not part of the shape's name.
FUNCTOR = re.compile(
    r"seis::wave::(BlockedStep|StreamingStep|TwoStepStreaming)<Kokkos::(?:Experimental::)?HIP, (\d+), "
    r"\(seis::wave::Region\)(\d)(?:, ([^<>]*?))?(?:, seis::wave::FixedTile<[^<>]*>)? ?>")


def shape_of(kind, args):
    parts = [a.strip() for a in args.split(",")] if args else []
    values = [re.sub(r"^\([^)]*\)", "", p) for p in parts]
    if kind == "BlockedStep":
        return BLOCKED[(values[0], values[1])]
    if kind == "StreamingStep":
        return ZWALK[values[0]] + ("_db" if values[1] == "true" else "")
    return "st_reg_shft_35d" if values[0] == "true" else "st_gmem_35d"


def default_tiles(shape_hpp):
    text = pathlib.Path(shape_hpp).read_text()
    return {m.group(1): tuple(int(v) for v in m.groups()[1:])
            for m in re.finditer(r'\{Shape::\w+, "(\w+)", ShapeFamily::\w+, (-?\d+), (-?\d+), (-?\d+)', text)}


def team(shape, R, region, tile):
    """Threads and LDS bytes of a team of the default tile (the kernels' threads() and scratch_bytes())."""
    tx, ty, tz = tile
    if shape.endswith("_35d"):
        wide = (tx + 2 * R) * (ty + 2 * R)
        star = (tx + 4 * R) * (ty + 4 * R) if "shft" in shape else 0
        return wide, 4 * ((2 * R + 1) * wide + star)
    if shape.startswith("st_"):
        ring = 2 * R + 1 if shape.startswith("st_smem") else 1
        slots = ring + (1 if shape.endswith("_db") else 0)
        return tx * ty, 4 * slots * (tx + 2 * R) * (ty + 2 * R)
    floats = 0
    if shape == "smem_u":
        floats = (tx + 2 * R) * ty * tz + tx * (ty + 2 * R) * tz + tx * ty * (tz + 2 * R)
    if shape.startswith("smem_eta") and region != "inner":
        floats = (tx + 2) * (ty + 2) * (tz + 2)
    # BlockedStep::depth: a thread computes four points along z (the inner launches that read u from global
    # memory, gmem's and smem_eta's, two; two or one where tz is not a multiple).
    most = 2 if region == "inner" and shape != "smem_u" else 4
    depth = most if tz % most == 0 else 2 if tz % 2 == 0 else 1
    return tx * ty * tz // depth, 4 * floats


def kernels(assembly):
    names = re.findall(r"^(_Z\S+):", assembly, re.M)
    if not names:
        return
    demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                               check=True).stdout.split("\n")
    for name, readable in zip(names, demangled):
        found = FUNCTOR.search(readable)
        if not found:
            continue
        start = assembly.index(name + ":")
        end = assembly.index(".Lfunc_end", start)
        tail = assembly[end:end + 6000]

        def field(key):
            m = re.search(r"; " + key + r": (\d+)", tail)
            return int(m.group(1)) if m else None

        body = assembly[start:end]
        yield found.group(1), found.group(2), found.group(3), found.group(4), {
            "vgpr": field("NumVgprs"), "agpr": field("NumAgprs"), "sgpr": field("NumSgprs"),
            "scratch": field("ScratchSize"), "occupancy": field("Occupancy"),
            "spills": len(re.findall(r"; \d+-byte Folded Spill", body))}


def main():
    shape_hpp, output, objects = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3:]
    tiles = default_tiles(shape_hpp)
    rows, spills = {}, []
    for obj in objects:
        for source in sorted(pathlib.Path(obj).parent.glob(pathlib.Path(obj).name.split(".")[0] + "*gfx90a.s")):
            for kind, R, region, args, r in kernels(source.read_text()):
                shape = shape_of(kind, args)
                key = (shape, int(R), REGION[region])
                rows[key] = r
                if r["spills"]:
                    spills.append(f"{shape} R={R} {REGION[region]}: {r['spills']} spill stores, scratch "
                                  f"{r['scratch']} bytes/lane")
    order = list(tiles)
    missing = [s for s in order if s != "tile" and not any(key[0] == s for key in rows)]
    if missing:
        sys.exit("hip_shape_resources: no gfx90a kernel found for " + ", ".join(missing))
    lines = ["| kernel | R | launch | VGPR | AGPR | SGPR | scratch B/lane | spill stores | occupancy (regs) | "
             "default tile | threads | LDS B/team | occupancy (regs, LDS) |", "|" + "---|" * 13]
    for (shape, R, region), r in sorted(rows.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1], kv[0][2])):
        tile = tiles[shape]
        threads, lds = team(shape, R, region, tile)
        waves = math.ceil(threads / 64)
        by_lds = 8 if lds == 0 else (65536 // lds) * waves / 4
        both = f"{min(r['occupancy'] or 0, by_lds):g}" if lds <= 65536 else "-"
        shown = "x".join(str(v) if v > 0 else "NZ" if v < 0 else "64" for v in tile)
        lines.append(f"| {shape} | {R} | {region} | {r['vgpr']} | {r['agpr']} | {r['sgpr']} | {r['scratch']} | {r['spills']} | "
                     f"{r['occupancy']} | {shown} | {threads} | {lds}{' (over 64 KB: shrinks)' if lds > 65536 else ''}"
                     f" | {both} |")
    output.write_text("\n".join(lines) + "\n")
    print(f"hip_shape_resources: {len(rows)} code-shape kernels for gfx90a, table in {output}")
    if spills:
        sys.exit("hip_shape_resources: FAILED, spills:\n  " + "\n  ".join(spills))


if __name__ == "__main__":
    main()
