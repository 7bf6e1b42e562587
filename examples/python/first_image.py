"""A first image with seistencil from Python: a two-layer model built in numpy, one shot, its reverse-time
migration, and pictures. Usage: python3 first_image.py [OUTPUT_DIR]"""
import sys
from pathlib import Path

import matplotlib
matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np

import seistencil as st

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

# The grid: 61 x 31 x 51 points of 10 m, the outer 10 of each face the absorbing layer. Arrays are [z, y, x].
grid = st.Grid(61, 31, 51, h=10.0, ndamp=10)
z = np.arange(grid.nz) * grid.h
true_model = np.where(z < 300.0, 2000.0, 2600.0)[:, None, None] * np.ones(grid.shape)
background = np.full(grid.shape, 2000.0)  # the migration model: the reflector unknown

# One shot at the centre, a line of receivers along x, both 110 m deep (below the layer's 100 m).
receivers = np.column_stack([np.arange(110.0, 500.0, 10.0), np.full(39, 150.0), np.full(39, 110.0)])
shot = st.Acquisition(sources=[[300.0, 150.0, 110.0]], receivers=receivers, f0=15.0)

# Both models step with the same dt and absorbing layer, which follow the largest velocity (vmax): their data differ
# only by the reflection.
numerics = st.Numerics(steps=260)
true_ops = st.Acoustic(grid, st.Medium(grid, true_model, vmax=2600.0), numerics)
migration_ops = st.Acoustic(grid, st.Medium(grid, background, vmax=2600.0), numerics)

# The reflection alone: the true model's data less the background's (its direct wave).
observed = true_ops.forward(shot) - migration_ops.forward(shot)
image, illumination = migration_ops.rtm(shot, observed)
image = st.laplacian_filter(st.illumination_normalised(image, illumination))

# Where the image is strongest under the source: the reflector's depth.
column = np.abs(image[:, grid.ny // 2, grid.nx // 2])
inner = slice(grid.ndamp + 15, grid.nz - grid.ndamp)  # below the acquisition's own footprint
depth = z[inner][np.argmax(column[inner])]
print(f"dt {true_ops.dt * 1e3:.3f} ms, {true_ops.steps} steps on {true_ops.backend}; reflector imaged at {depth:.0f} m")

x = np.arange(grid.nx) * grid.h
t = np.arange(true_ops.steps) * true_ops.dt
fig, axes = plt.subplots(1, 3, figsize=(13, 4), constrained_layout=True)
shown = axes[0].imshow(true_model[:, grid.ny // 2, :], extent=[x[0], x[-1], z[-1], z[0]], cmap="viridis")
axes[0].set(title="true model (y = 150 m)", xlabel="x (m)", ylabel="depth (m)")
fig.colorbar(shown, ax=axes[0], label="velocity (m/s)")
clip = np.percentile(np.abs(observed), 99)
axes[1].imshow(observed.T, aspect="auto", cmap="gray", vmin=-clip, vmax=clip,
               extent=[receivers[0, 0], receivers[-1, 0], t[-1], t[0]])
axes[1].set(title="reflection data", xlabel="receiver x (m)", ylabel="time (s)")
clip = np.abs(image[inner]).max()
axes[2].imshow(image[:, grid.ny // 2, :], extent=[x[0], x[-1], z[-1], z[0]], cmap="gray", vmin=-clip, vmax=clip)
axes[2].axhline(300.0, color="tab:red", lw=0.8, ls="--", label="true reflector")
axes[2].set(title="migrated image (y = 150 m)", xlabel="x (m)", ylabel="depth (m)")
axes[2].legend(loc="lower right")
fig.savefig(out / "first_image.png", dpi=100)
print(f"wrote {out / 'first_image.png'}")
