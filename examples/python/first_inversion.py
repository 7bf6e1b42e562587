"""A first full-waveform inversion with seistencil from Python: a sphere 8% faster than its surroundings, seen in
transmission by two shots and 49 receivers, recovered from a homogeneous start; pictures of the true, starting and
inverted models and of the misfit. Usage: python3 first_inversion.py [OUTPUT_DIR]"""
import sys
import time
from pathlib import Path

import matplotlib
matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np

import seistencil as st

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
out.mkdir(parents=True, exist_ok=True)

# 30 x 30 x 24 points of 10 m (the absorbing layer's 6 points added outside); arrays are [z, y, x].
grid = st.Grid(30, 30, 24, h=10.0, ndamp=6)
z, y, x = (np.arange(n) * grid.h for n in grid.shape)
inside = (x[None, None, :] - 145) ** 2 + (y[None, :, None] - 145) ** 2 + (z[:, None, None] - 115) ** 2 <= 50.0 ** 2
true_model = np.where(inside, 2160.0, 2000.0).astype(np.float32)
start = np.full(grid.shape, 2000.0, dtype=np.float32)

# Shots near the top at two corners, receivers on a 7 x 7 grid near the bottom: the sphere lies between them.
receivers = np.array([[25.0 + 40.0 * a, 25.0 + 40.0 * b, 210.0] for b in range(7) for a in range(7)])
shots = [st.Acquisition(sources=[[c, c, 20.0]], receivers=receivers, f0=15.0) for c in (50.0, 240.0)]

# Every model steps the scheme of the bounds' largest velocity (vmax): the same dt and absorbing layer.
vmin, vmax = 1800.0, 2400.0
dt = 0.5 * grid.h / vmax / np.sqrt(3)  # well inside the stability bound at R = 4 for vmax
numerics = st.Numerics(steps=int(0.26 / dt), dt=dt, radius=4)
observed = [st.Acoustic(grid, st.Medium(grid, true_model, vmax=vmax), numerics).forward(s) for s in shots]

began = time.perf_counter()
history = []
result = st.invert(grid, numerics, start, shots, observed, vmin=vmin, vmax=vmax, iterations=6, precondition=0.01,
                   callback=lambda iteration, misfit, v: history.append(misfit))
seconds = time.perf_counter() - began


def error(v):
    return float(np.sqrt(np.sum((v[inside].astype(np.float64) - true_model[inside]) ** 2)))


fall = result["misfits"][0] / result["misfits"][-1]
print(f"{result['iterations']} iterations, {result['evaluations']} evaluations in {seconds:.1f} s: misfit "
      f"{fall:.0f} x smaller, the sphere's model error {100 * (1 - error(result['velocity']) / error(start)):.0f}% "
      f"smaller")

section = grid.ny // 2 - 1  # y = 140 m, through the sphere
fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), constrained_layout=True)
for ax, model, title in zip(axes, (true_model, start, result["velocity"]),
                            ("true model", "starting model", f"inverted, {result['iterations']} iterations")):
    shown = ax.imshow(model[:, section, :], extent=[x[0], x[-1], z[-1], z[0]], cmap="viridis", vmin=2000, vmax=2160)
    ax.set(title=f"{title} (y = {y[section]:.0f} m)", xlabel="x (m)", ylabel="depth (m)")
    fig.colorbar(shown, ax=ax, label="velocity (m/s)")
axes[3].semilogy(range(len(result["misfits"])), result["misfits"], "o-")
axes[3].set(title="misfit", xlabel="iteration", ylabel="J (l2)")
fig.savefig(out / "first_inversion.png", dpi=100)
print(f"wrote {out / 'first_inversion.png'}")
