#!/usr/bin/env python3
"""Fails the HIP build when the fused xyz kernel's gfx90a code loses what it was written for.

usage: check_hip_isa.py OBJECT...  (the library's objects; the fused one compiled with -save-temps=obj, its .s
files beside it)

For every xyz_fused instantiation with VEC = 4 (TileStencil<HIP, R, 4, Sources<laplacian, scratch, window>>) the
gfx90a assembly must contain 128-bit global loads (global_load_dwordx4), no flat loads (generic-pointer
accesses), a nontemporal store (global_store_dwordx4 ... glc slc), 128-bit LDS reads, and no scratch: no spill
and a ScratchSize of 0.
"""
import pathlib
import re
import sys

FUSED_VEC4 = re.compile(r"TileStencilINS0_3HIPELi(\d)ELi4ENS\d+_7SourcesILNS\d+_8OperatorE7ELNS\d+_7YSourceE1ELNS\d+_7ZSourceE1")


def kernels(assembly):
    for match in re.finditer(r"^(_Z\S+):", assembly, re.M):
        name = match.group(1)
        found = FUSED_VEC4.search(name)
        if not found:
            continue
        body = assembly[match.end():]
        end = body.index(".Lfunc_end")
        tail = body[end:end + 4000]
        yield int(found.group(1)), body[:end], tail


def main():
    folders = sorted({pathlib.Path(obj).parent for obj in sys.argv[1:]})
    sources = sorted(source for folder in folders for source in folder.glob("fused_xyz*gfx90a.s"))
    if not sources:
        sys.exit(f"check_hip_isa: no fused_xyz gfx90a .s beside {sys.argv[1:]} (was it built with -save-temps=obj?)")
    failures, checked = [], 0
    for source in sources:
        for radius, body, tail in kernels(source.read_text()):
            checked += 1
            scratch = re.search(r"; ScratchSize: (\d+)", tail)
            checks = {
                "128-bit global loads (global_load_dwordx4)": "global_load_dwordx4" in body,
                "no flat loads": "flat_load" not in body,
                "nontemporal 128-bit store (global_store_dwordx4 ... glc slc)":
                    re.search(r"global_store_dwordx4[^\n]*glc slc", body) is not None,
                "128-bit LDS reads (ds_read_b128)": "ds_read_b128" in body,
                "no register spills": "Spill" not in body,
                "ScratchSize 0": scratch is not None and scratch.group(1) == "0",
            }
            for what, ok in checks.items():
                if not ok:
                    failures.append(f"xyz_fused R={radius} VEC=4 (gfx90a): missing {what}")
    if checked == 0:
        sys.exit("check_hip_isa: no xyz_fused VEC=4 kernel found in the gfx90a assembly")
    if failures:
        sys.exit("check_hip_isa: FAILED\n  " + "\n  ".join(failures))
    print(f"check_hip_isa: {checked} xyz_fused VEC=4 kernels for gfx90a: 128-bit global and LDS accesses, "
          "nontemporal stores, no scratch")


if __name__ == "__main__":
    main()
