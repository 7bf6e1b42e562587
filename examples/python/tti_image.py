"""Migrating below a tilted anisotropic overburden with seistencil: a dipping reflector under 300 m of TTI rock,
three shots modelled in it, and their reverse-time migration with the overburden's anisotropy and without it (the
same velocity along the symmetry axis, the same data). Prints where each image puts the reflector and draws both
side by side. Usage: python3 tti_image.py [OUTPUT_DIR]"""
import sys
from pathlib import Path

import matplotlib
matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np
from scipy.signal import hilbert

import seistencil as st

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

# A 2D line in a thin 3D grid: 101 x 5 x 61 points of 10 m, the absorbing layer's 8 points outside each face.
grid = st.Grid(101, 5, 61, h=10.0, ndamp=8)
z = np.arange(grid.nz)[:, None, None] * grid.h
x = np.arange(grid.nx)[None, None, :] * grid.h
y_line = 20.0

# The overburden (z < 300 m): epsilon = delta = 0.2, its symmetry axis tilted 40 degrees towards +x: 2000 m/s along
# the axis, 2366 across it, 2158 vertically. Elliptical, so the pseudo-acoustic equations carry no S mode in it,
# which the receivers' injection would start where epsilon > delta (only sources have a zone). Isotropic below; the
# reflector dips 15 degrees, 440 m deep at x = 500 m, 2800 m/s below it.
overburden = np.broadcast_to(z < 300.0, grid.shape)
anisotropy = dict(epsilon=np.where(overburden, 0.2, 0.0), delta=np.where(overburden, 0.2, 0.0),
                  tilt=np.where(overburden, 40.0, 0.0), azimuth=np.zeros(grid.shape))
reflector = 440.0 + np.tan(np.radians(15.0)) * (x - 500.0)
true_model = np.where(z < reflector, 2000.0, 2800.0) * np.ones(grid.shape)
background = np.full(grid.shape, 2000.0)  # the migration model: the reflector unknown

# Three shots 10 m deep, each recorded by a line of receivers along x at the same depth.
receivers = np.column_stack([np.arange(0.0, 1001.0, 10.0), np.full(101, y_line), np.full(101, 10.0)])
shots = [st.Acquisition(sources=[[sx, y_line, 10.0]], receivers=receivers, f0=15.0) for sx in (300.0, 500.0, 700.0)]

# Every model steps with the same layer (vmax: the fastest velocity of any of them, the overburden's horizontal
# 2000 sqrt(1 + 2 epsilon) below the reflector's 2800) and the same dt, the TTI step's (whose stability bound is the
# lower): the isotropic migration reads the data on their own time axis.
def operators(velocity, anisotropic, dt=0.0):
    medium = st.Medium(grid, velocity, vmax=2800.0, **(anisotropy if anisotropic else {}))
    return st.Acoustic(grid, medium, st.Numerics(steps=620, dt=dt))

# The reflection alone: the true model's data less the background's, both in the anisotropic overburden.
true_ops, tti_ops = operators(true_model, True), operators(background, True)
iso_ops = operators(background, False, dt=tti_ops.dt)
observed = [true_ops.forward(s) - tti_ops.forward(s) for s in shots]
images = {}
for name, ops in (("TTI", tti_ops), ("isotropic", iso_ops)):
    image, illumination = st.migrate(ops, shots, observed)
    images[name] = st.laplacian_filter(st.illumination_normalised(image, illumination))

# Where each image puts the reflector: the depth shift of the true reflector's line (its dip known) that best fits
# the image's envelope in the columns the shots light (x 100 to 500 m).
columns = np.arange(10, 51)
depths = z[:, 0, 0]
for name, image in images.items():
    envelope = np.abs(hilbert(image[:, 2, :], axis=0))
    shifts = np.arange(-60.0, 61.0)
    fit = [sum(np.interp(reflector[0, 0, i] + shift, depths, envelope[:, i]) for i in columns) for shift in shifts]
    shift = shifts[np.argmax(fit)]
    print(f"{name} image: the reflector {abs(shift):.0f} m {'above' if shift < 0 else 'below'} its depth "
          f"(the grid spacing {grid.h:.0f} m)")

extent = [0.0, (grid.nx - 1) * grid.h, (grid.nz - 1) * grid.h, 0.0]
fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), constrained_layout=True)
shown = axes[0].imshow(true_model[:, 2, :], extent=extent, cmap="viridis")
axes[0].contour(np.arange(grid.nx) * grid.h, z[:, 0, 0], overburden[:, 2, :].astype(float), levels=[0.5],
                colors="white", linewidths=0.8)
axes[0].set(title="true model (TTI above the white line)", xlabel="x (m)", ylabel="depth (m)")
fig.colorbar(shown, ax=axes[0], label="velocity along the axis (m/s)")
for axis, (name, image) in zip(axes[1:], images.items()):
    clip = np.abs(image[depths > 330.0]).max()
    axis.imshow(image[:, 2, :], extent=extent, cmap="gray", vmin=-clip, vmax=clip)
    axis.plot(x[0, 0], reflector[0, 0], color="tab:red", lw=0.8, ls="--", label="true reflector")
    axis.set(title=f"{name} migration (y = {y_line:.0f} m)", xlabel="x (m)", ylabel="depth (m)",
             ylim=(extent[2], extent[3]))
    axis.legend(loc="lower left")
fig.savefig(out / "tti_image.png", dpi=100)
print(f"wrote {out / 'tti_image.png'}")
