#!/usr/bin/env python3
"""The imaging example of docs/imaging.md images the model it claims to: docs_check.py has run its two commands (a
modelling survey, then its migration) as the guide gives them, in its work directory; in columns of the image away
from the shots and the fast body

  - each interface of the built-in layered model (200, 450 and 700 m, where the velocity increases downwards) has a
    positive peak of the image within one grid spacing (10 m) of it,
  - the column's strongest positive peak lies within one spacing of an interface,
  - no positive peak farther than 100 m (about the wavelet's half-length at 2000 m/s and 12 Hz, where its side
    lobes end) from every interface reaches 0.6 of the column's strongest: nothing strong where the model has none,
  - the image holds the model's points alone (the absorbing layer lies outside them).

The same shots recorded on lines of receivers fail it (their image's phase is rotated: the strongest events lie
20-40 m off the interfaces), as does a patch of receivers narrower than the model (its corner columns image the
truncated aperture's swings), and as did the earlier example, whose acquisition lay inside the absorbing layer.

usage: imaging_example.py SOURCE_DIR DOCS_CHECK_WORKDIR
"""
import pathlib
import re
import sys

import numpy as np
import segyio

source, work = (pathlib.Path(a).resolve() for a in sys.argv[1:3])
# The guide's commands, as docs_check.py ran them: the ```sh block after "## An end-to-end example".
guide = (source / "docs/imaging.md").read_text()
block = re.search(r"## An end-to-end example.*?```sh\n(.*?)```", guide, re.S).group(1)
commands = block.replace("\\\n", " ").strip().splitlines()
assert len(commands) == 2 and "--migrate" in commands[1] and "--output rtm-image" in commands[1], commands

nx, ny, nz, h = 81, 81, 101, 10.0
failures = []
with segyio.open(work / "rtm-image/image.sgy", ignore_geometry=True) as f:
    if (f.tracecount, len(f.samples)) != (nx * ny, nz):
        sys.exit(f"FAIL: the image holds {f.tracecount} traces of {len(f.samples)} samples, the model {nx * ny} of {nz}")
    image = segyio.tools.collect(f.trace[:]).reshape(ny, nx, nz)  # trace i + nx j holds column (i, j)
interfaces = np.array([200.0, 450.0, 700.0])
top = 150.0  # the example's --image-top
# Columns between the shots (200 m apart), clear of the body (|(x, y) - (400, 400)| > 160 m).
columns = [(x, y) for x in (150, 300, 500, 650) for y in (150, 300, 500, 650)
           if np.hypot(x - 400, y - 400) > 160]
for x, y in columns:
    c = image[int(y / h), int(x / h), :]
    depth = np.arange(nz) * h
    inside = depth >= top
    peaks = [k for k in range(1, nz - 1)
             if inside[k] and c[k] > 0 and c[k] >= c[k - 1] and c[k] >= c[k + 1]]
    if not peaks:
        failures.append(f"column ({x}, {y}): no positive peak")
        continue
    strongest = max(c[k] for k in peaks)
    for z in interfaces:
        if not any(abs(depth[k] - z) <= h for k in peaks):
            failures.append(f"column ({x}, {y}): no positive peak within {h} m of the interface at {z} m "
                            f"(peaks at {[depth[k] for k in peaks]})")
    best = max(peaks, key=lambda k: c[k])
    if np.abs(interfaces - depth[best]).min() > h:
        failures.append(f"column ({x}, {y}): the strongest peak lies at {depth[best]} m, no interface there")
    for k in peaks:
        if np.abs(interfaces - depth[k]).min() > 100 and c[k] >= 0.6 * strongest:
            failures.append(f"column ({x}, {y}): a peak of {c[k] / strongest:.2f} of the strongest at {depth[k]} m, "
                            "where the model has no interface")
print(f"imaging example: {len(columns)} columns, each interface (200, 450, 700 m) imaged within {h} m, "
      f"nothing strong elsewhere" if not failures else "")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
