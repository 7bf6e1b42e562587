#!/usr/bin/env python3
"""Markdown table of the step kernels in ncu-wave.txt files (perf/device/h100.sh ncu-wave): per seis-wave run, the
first profiled launch's duration, DRAM and SM throughput, registers, achieved occupancy, what limits the blocks per
SM, cycles per issued instruction, and the stall that ncu names first.

usage: ncu_wave_table.py NCU_WAVE_TXT...
"""
import re
import sys

FIELDS = {
    "ms": r"Duration\s+ms\s+([\d.]+)",
    "DRAM %": r"DRAM Throughput\s+%\s+([\d.]+)",
    "SM %": r"Compute \(SM\) Throughput\s+%\s+([\d.]+)",
    "regs": r"Registers Per Thread\s+register/thread\s+(\d+)",
    "occupancy %": r"Achieved Occupancy\s+%\s+([\d.]+)",
    "blocks/SM (regs)": r"Block Limit Registers\s+block\s+(\d+)",
    "blocks/SM (smem)": r"Block Limit Shared Mem\s+block\s+(\d+)",
    "cycles/issue": r"Warp Cycles Per Issued Instruction\s+cycle\s+([\d.]+)",
}
STALL = re.compile(r"spends ([\d.]+) cycles being\s+stalled (.*?)\.", re.S)


def runs(text):
    for block in re.split(r"^== ", text, flags=re.M)[1:]:
        kernel = re.search(r"--kernel (\S+)", block)
        strategy = re.search(r"--strategy (\S+)", block)
        radius = re.search(r"--radius (\d+)", block)
        row = {"kernel": kernel.group(1) if kernel else "tile", "strategy": strategy.group(1) if strategy else "",
               "R": radius.group(1) if radius else ""}
        for name, pattern in FIELDS.items():
            m = re.search(pattern, block)
            row[name] = m.group(1) if m else ""
        stall = STALL.search(block)
        row["first stall"] = (f"{stall.group(1)} cycles {' '.join(stall.group(2).split())}" if stall else "none named")
        yield row


def main():
    rows = [row for path in sys.argv[1:] for row in runs(open(path).read())]
    columns = ["kernel", "strategy", "R"] + list(FIELDS) + ["first stall"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(row[c] for c in columns) + " |")


if __name__ == "__main__":
    main()
