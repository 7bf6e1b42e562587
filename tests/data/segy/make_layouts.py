#!/usr/bin/python3
"""Writes the SEG-Y files of other layouts that the gather reader is tested on (tstGather.cpp), with segyio's
Python writer: nothing of the project's own SEG-Y code is involved. The files are committed; run this again only
to change them (/usr/bin/python3 make_layouts.py in this folder).

Every file holds the same shot: source at (120, 80, 30) m, receiver r (run order, r = 0..4) at
(50 + 20 r, 40 + 10 r, 10 + 5 r) m, 12 samples at 2 ms, sample t of receiver r = (t - 3 r) / 8 (exact in IBM and
IEEE floats), field record 7. The layouts differ in sample format, byte order, extended textual headers, the
coordinate and elevation scalars (distinct in every file, so that one used for the other is seen), and trace order.
"""
import numpy as np
import segyio

SOURCE = (120, 80, 30)
RECEIVERS = [(50 + 20 * r, 40 + 10 * r, 10 + 5 * r) for r in range(5)]
SAMPLES, INTERVAL_US = 12, 2000

LAYOUTS = {
    # name: (sample format, byte order, extended textual headers, coordinate scalar, elevation scalar, trace order)
    "ibm-big-endian.sgy": (1, "big", 0, -100, -10, [0, 1, 2, 3, 4]),
    "ieee-little-endian.sgy": (5, "little", 0, 2, -1000, [0, 1, 2, 3, 4]),
    "extended-textual-headers.sgy": (5, "big", 2, -10, 5, [0, 1, 2, 3, 4]),
    "traces-reordered.sgy": (5, "big", 0, 0, -100, [3, 0, 4, 1, 2]),
}


def stored(metres, scalar):
    """The integer SEG-Y holds for `metres` under `scalar` (negative divides, positive multiplies, 0 is 1)."""
    if scalar < 0:
        return int(round(metres * -scalar))
    if scalar > 0:
        assert metres % scalar == 0
        return metres // scalar
    return metres


for name, (fmt, endian, extended, xy, elevation, order) in LAYOUTS.items():
    spec = segyio.spec()
    spec.samples = list(range(SAMPLES))
    spec.tracecount = len(order)
    spec.format = fmt
    spec.ext_headers = extended
    spec.endian = endian
    with segyio.create(name, spec) as f:
        f.bin.update({segyio.BinField.Interval: INTERVAL_US, segyio.BinField.Samples: SAMPLES,
                      segyio.BinField.ExtendedHeaders: extended})
        for e in range(extended):
            f.text[1 + e] = "extended textual header %d of %s" % (e + 1, name)
        for position, r in enumerate(order):
            x, y, depth = RECEIVERS[r]
            f.header[position] = {
                segyio.TraceField.FieldRecord: 7,
                segyio.TraceField.TRACE_SAMPLE_COUNT: SAMPLES,
                segyio.TraceField.TRACE_SAMPLE_INTERVAL: INTERVAL_US,
                segyio.TraceField.CoordinateUnits: 1,
                segyio.TraceField.SourceGroupScalar: xy,
                segyio.TraceField.ElevationScalar: elevation,
                segyio.TraceField.SourceX: stored(SOURCE[0], xy),
                segyio.TraceField.SourceY: stored(SOURCE[1], xy),
                segyio.TraceField.SourceDepth: stored(SOURCE[2], elevation),
                segyio.TraceField.GroupX: stored(x, xy),
                segyio.TraceField.GroupY: stored(y, xy),
                segyio.TraceField.ReceiverGroupElevation: -stored(depth, elevation),
            }
            f.trace[position] = np.array([(t - 3 * r) / 8 for t in range(SAMPLES)], dtype=np.float32)

# A velocity model, little-endian IBM floats: trace j * NX + i holds column (i, j), sample k its depth k, the value
# 1500 + 100 i + 10 j + k m/s (exact in IBM floats).
NX, NY, NZ = 2, 3, 4
spec = segyio.spec()
spec.samples = list(range(NZ))
spec.tracecount = NX * NY
spec.format = 1
spec.endian = "little"
with segyio.create("velocity-ibm-little-endian.sgy", spec) as f:
    f.bin.update({segyio.BinField.Interval: 1000, segyio.BinField.Samples: NZ})
    for j in range(NY):
        for i in range(NX):
            f.header[j * NX + i] = {segyio.TraceField.TRACE_SAMPLE_COUNT: NZ}
            f.trace[j * NX + i] = np.array([1500 + 100 * i + 10 * j + k for k in range(NZ)], dtype=np.float32)
