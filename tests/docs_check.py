#!/usr/bin/env python3
"""Docs that stay true: every flag of seis-wave's and seis-bench's --help appears in its guide's options table and
the other way round, and every quick-start command of README.md and docs/*.md that runs the OpenMP build
(`build/openmp/app/seis-wave ...`, `build/openmp/perf/seis-bench ...` in a ```sh block) and every ```python block
(run by Debian's /usr/bin/python3, which the guides name) runs and exits 0, in the order each page gives them.

usage: docs_check.py SOURCE_DIR SEIS_WAVE SEIS_BENCH WORKDIR
"""
import pathlib
import re
import shutil
import subprocess
import sys
import time

source, seis_wave, seis_bench, work = (pathlib.Path(a).resolve() for a in sys.argv[1:5])
failures = []


def help_flags(exe):
    text = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=True).stdout
    flags = set()
    for line in text.splitlines():
        if line.startswith("  -"):
            flags.update(re.findall(r"--[a-z][a-z0-9-]*", line.split("  ")[1]))
    return flags


def table_flags(guide):
    flags = set()
    for line in guide.read_text().splitlines():
        if line.startswith("| `-"):
            flags.update(re.findall(r"`(--[a-z][a-z0-9-]*)", line.split("|")[1]))
    return flags


for exe, guide in ((seis_wave, source / "docs/seis-wave.md"), (seis_bench, source / "docs/seis-bench.md")):
    in_help, in_guide = help_flags(exe), table_flags(guide)
    for flag in sorted(in_help - in_guide):
        failures.append(f"{exe.name} --help has {flag}, the options table of {guide.name} does not")
    for flag in sorted(in_guide - in_help):
        failures.append(f"{guide.name}'s options table names {flag}, which {exe.name} --help does not")
    print(f"{exe.name}: {len(in_help)} flags, each in {guide.name}'s table and back")

programs = {"build/openmp/app/seis-wave": str(seis_wave), "build/openmp/perf/seis-bench": str(seis_bench)}
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
(work / "docs").symlink_to(source / "docs")
commands = []
for page in [source / "README.md", *sorted((source / "docs").glob("*.md"))]:
    block = None
    python = []
    joined = []
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            if block == "python":
                joined.append(("python", "\n".join(python)))
            block = line.strip()[3:] if block is None else None
            python = []
            continue
        if block == "python":
            python.append(line)
        elif block == "sh":
            if joined and joined[-1][0] == "sh" and joined[-1][1].endswith("\\"):
                joined[-1] = ("sh", joined[-1][1][:-1] + " " + line.strip())
            else:
                joined.append(("sh", line))
    for kind, text in joined:
        if kind == "python":
            commands.append((page.relative_to(source), "python", text))
            continue
        command = text.split("  #")[0].strip()
        if any(command.startswith(p + " ") or command == p for p in programs):
            commands.append((page.relative_to(source), "sh", command))

for page, kind, command in commands:
    started = time.monotonic()
    if kind == "python":
        result = subprocess.run(["/usr/bin/python3", "-c", command], cwd=work, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"{page}: a python block exited {result.returncode}: {result.stderr.strip()[-300:]}")
        print(f"{time.monotonic() - started:7.1f} s  {page}: a python block")
        continue
    program = next(p for p in programs if command.startswith(p))
    run = programs[program] + command[len(program):]
    result = subprocess.run(run, shell=True, cwd=work, capture_output=True, text=True)
    if result.returncode != 0:
        failures.append(f"{page}: `{command}` exited {result.returncode}: {result.stderr.strip()[-300:]}")
    print(f"{time.monotonic() - started:7.1f} s  {page}: {command[:100]}")
print(f"{len(commands)} quick-start commands and python blocks of README.md and docs/ run")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
