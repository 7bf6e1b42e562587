"""The Python module against seis-wave and against its own identities: a forward shot bitwise seis-wave's, Born and
its adjoint transposes of each other (the dot-product test), the adjoint of the residual the misfit's gradient (a
Taylor test), and the refusals."""
import subprocess

import numpy as np
import pytest

import seistencil as st


def random_model(rng, nx=28, ny=24, nz=22, h=10.0):
    grid = st.Grid(nx, ny, nz, h=h, ndamp=4)
    velocity = rng.uniform(1500.0, 3000.0, size=grid.shape).astype(np.float32)
    return grid, velocity


def shot():
    receivers = np.array([[45.0 + n * 30.0, 42.0 + n * 20.0, 48.0 + n * 18.0] for n in range(7)])
    return st.Acquisition(sources=[[121.3, 102.7, 60.1]], receivers=receivers, f0=40.0)


# With a density (1800 kg/m^3 over 2400 from 150 m down, a raw float32 file for seis-wave), the density form; with
# Thomsen's parameters and a tilted axis (degrees both sides), the TTI step and its source zone.
@pytest.mark.parametrize("top,layered_density,tilted", [("absorbing", False, False), ("free", False, False),
                                                        ("free", True, False), ("absorbing", False, True)])
def test_forward_is_seis_wave_bitwise(seis_wave, tmp_path, top, layered_density, tilted):
    out = tmp_path / "run"
    grid = st.Grid(40, 36, 32, h=10.0, ndamp=8)
    density, extra, anisotropy = None, [], {}
    if layered_density:
        density = np.where(np.arange(32)[:, None, None] < 15, 1800.0, 2400.0) * np.ones(grid.shape)
        density = density.astype(np.float32)
        density.tofile(tmp_path / "density.f32")
        extra = ["--density", str(tmp_path / "density.f32")]
    if tilted:
        values = {"epsilon": 0.2, "delta": 0.1, "tilt": 30.0, "azimuth": 20.0}
        anisotropy = {name: np.full(grid.shape, value, dtype=np.float32) for name, value in values.items()}
        extra = [arg for name, value in values.items() for arg in (f"--{name}", str(value))]
    subprocess.run([seis_wave, "--grid", "40x36x32", "--spacing", "10", "--model", "homogeneous:2000", "--ndamp", "8",
                    "--top", top, "--dt", "0.001", "--trace-dt", "0.001", "--duration", "0.2", "--source",
                    "200,180,120", "--receivers", "100,180,100:300,180,100:11", "--f0", "15", "--output", str(out),
                    "--benchmark", "--quiet", *extra], check=True)
    gather = st.read_gather(str(out / "seismogram.sgy"))
    medium = st.Medium(grid, np.full(grid.shape, 2000.0, dtype=np.float32), density=density, **anisotropy)
    ops = st.Acoustic(grid, medium, st.Numerics(steps=200, dt=0.001, top=top))
    # The layer added outside the model: on every face, or below and beside a free surface.
    assert ops.grid_shape == (32 + (8 if top == "free" else 16), 36 + 16, 40 + 16)
    receivers = np.column_stack([np.linspace(100.0, 300.0, 11), np.full(11, 180.0), np.full(11, 100.0)])
    data = ops.forward(st.Acquisition(sources=[[200.0, 180.0, 120.0]], receivers=receivers, f0=15.0))
    assert gather["dt"] == pytest.approx(0.001)
    assert data.shape == gather["traces"].shape == (11, 200)
    assert data.dtype == np.float32
    assert np.array_equal(data, gather["traces"])
    assert np.abs(data).max() > 0


# Thomsen's delta in [-0.2, 0.2], epsilon 0.05 to 0.35 above it, tilt and azimuth any angle, point by point.
def random_anisotropy(rng, grid):
    delta = rng.uniform(-0.2, 0.2, grid.shape).astype(np.float32)
    return dict(epsilon=(delta + rng.uniform(0.05, 0.35, grid.shape)).astype(np.float32), delta=delta,
                tilt=rng.uniform(-180, 180, grid.shape).astype(np.float32),
                azimuth=rng.uniform(-180, 180, grid.shape).astype(np.float32))


def dot(a, b):
    return float(np.dot(a.astype(np.float64).ravel(), b.astype(np.float64).ravel()))


# <J dv, r> = <dv, J^T r>: K = N (6R + 22) float32 roundings a point on either side (the engine's 6R + 20 and dv's
# and the image's scaling by 2 v dt^2), their difference's spread sqrt(2 K / 3) 2^-24 of the larger side; 5 of them.
# With a density drawn point by point the operator's 6R + 1 roundings are 6R (2R + 3) (tstBornEngine.hpp derives it),
# in a tilted medium (Thomsen's parameters and the axis random point by point) the TTI step's 12R + 1.
@pytest.mark.parametrize("radius,top,medium", [(2, "absorbing", "isotropic"), (4, "absorbing", "isotropic"),
                                               (4, "free", "isotropic"), (3, "free", "density"),
                                               (4, "absorbing", "tilted"), (2, "free", "tilted")])
def test_born_and_adjoint_are_transposes(radius, top, medium):
    rng = np.random.default_rng(radius)
    grid, velocity = random_model(rng)
    density = rng.uniform(1000.0, 3000.0, size=grid.shape).astype(np.float32) if medium == "density" else None
    ops = st.Acoustic(grid, st.Medium(grid, velocity, density=density,
                                      **(random_anisotropy(rng, grid) if medium == "tilted" else {})),
                      st.Numerics(steps=70, radius=radius, top=top))
    s = shot()
    dv = rng.standard_normal(grid.shape).astype(np.float32)
    r = rng.standard_normal((s.receiver_count, ops.steps)).astype(np.float32)
    jdv, jtr = ops.born(s, dv), ops.adjoint(s, r)
    assert jtr.shape == grid.shape and jdv.shape == r.shape
    operator = {"isotropic": 6 * radius + 1, "density": 6 * radius * (2 * radius + 3), "tilted": 12 * radius + 1}[medium]
    spread = np.sqrt(2.0 * ops.steps * (operator + 21) / 3.0) * 2.0**-24
    scale = np.sqrt(max(dot(jdv, jdv), dot(jtr, jtr)))
    assert scale > 0
    assert abs(dot(jdv, r) - dot(dv, jtr)) <= 5 * spread * scale


# The same in the density (dv zero, so that the velocity's part hides nothing): the density's source takes the
# operator's 6R (2R + 3) roundings a point to 6R (4R + 8) (tstBornEngine.hpp derives it); the velocity's gradient
# comes with it, bitwise adjoint's.
@pytest.mark.parametrize("radius,top", [(2, "absorbing"), (3, "free")])
def test_born_and_adjoint_in_the_density_are_transposes(radius, top):
    rng = np.random.default_rng(radius + 10)
    grid, velocity = random_model(rng)
    density = rng.uniform(1000.0, 3000.0, size=grid.shape).astype(np.float32)
    ops = st.Acoustic(grid, st.Medium(grid, velocity, density=density),
                      st.Numerics(steps=70, radius=radius, top=top))
    s = shot()
    drho = rng.standard_normal(grid.shape).astype(np.float32)
    r = rng.standard_normal((s.receiver_count, ops.steps)).astype(np.float32)
    jdrho = ops.born(s, np.zeros(grid.shape, np.float32), drho=drho)
    gv, grho = ops.adjoint(s, r, density=True)
    assert gv.shape == grid.shape and grho.shape == grid.shape
    np.testing.assert_array_equal(gv, ops.adjoint(s, r))
    operator = 6 * radius * (4 * radius + 8)
    spread = np.sqrt(2.0 * ops.steps * (operator + 21) / 3.0) * 2.0**-24
    scale = np.sqrt(max(dot(jdrho, jdrho), dot(grho, grho)))
    assert scale > 0
    assert abs(dot(jdrho, r) - dot(drho, grho)) <= 5 * spread * scale


# J(v) = 1/2 |F(v) - d|^2, g = adjoint(F(v) - d), dv a step towards the data's model: J(v + h dv) - J(v) - h <g, dv>
# falls as h^2 (ratio 4 as h halves, within the next Taylor term's share: 4 +- 0.6; tstOperators.hpp derives it), and
# the gradient explains most of J's change at the smallest h.
def test_adjoint_of_the_residual_is_the_gradient():
    rng = np.random.default_rng(7)
    grid, velocity = random_model(rng)
    s = shot()
    dt = st.Acoustic(grid, st.Medium(grid, velocity), st.Numerics(steps=70)).dt / 1.1

    def operators(v):
        return st.Acoustic(grid, st.Medium(grid, v), st.Numerics(steps=70, dt=dt))

    observed = operators(velocity * np.float32(1.02)).forward(s)

    def misfit(data):
        return 0.5 * float(np.sum((data.astype(np.float64) - observed) ** 2))

    ops = operators(velocity)
    data = ops.forward(s)
    g = ops.adjoint(s, data - observed)
    dv = (0.02 * velocity * (1.0 + 0.5 * rng.standard_normal(grid.shape))).astype(np.float32)
    j0, slope = misfit(data), dot(g, dv)
    first, second = [], []
    for h in [0.25, 0.125, 0.0625]:
        j = misfit(operators((velocity + h * dv).astype(np.float32)).forward(s))
        first.append(abs(j - j0))
        second.append(abs(j - j0 - h * slope))
    ratios = np.array(second[:-1]) / np.array(second[1:])
    assert np.all(np.abs(ratios - 4.0) <= 0.6), ratios
    assert second[-1] < 0.5 * first[-1]


# In a tilted medium (epsilon > delta, the sources' zones) each shot's zones move with it on both sides of its
# migration, whatever shot came before.
@pytest.mark.parametrize("tilted", [False, True])
def test_migrate_stacks_the_shots_images(tilted):
    rng = np.random.default_rng(3)
    grid, velocity = random_model(rng)
    anisotropy = random_anisotropy(rng, grid) if tilted else {}
    ops = st.Acoustic(grid, st.Medium(grid, velocity, **anisotropy), st.Numerics(steps=60))
    shots = [shot(), st.Acquisition(sources=[[60.0, 60.0, 60.0]], receivers=np.array([[100.0, 100.0, 60.0]]),
                                    f0=40.0)]
    observed = st.survey(ops, shots)
    image, illumination = st.migrate(ops, shots, observed)
    parts = [ops.rtm(one, data) for one, data in zip(shots, observed)]
    assert np.allclose(image, parts[0][0] + parts[1][0], rtol=0, atol=0)
    assert np.allclose(illumination, parts[0][1] + parts[1][1], rtol=0, atol=0)
    assert np.abs(image).max() > 0


# One Acoustic stepped through models by set_medium (its engine kept) is bitwise a new Acoustic of each; release
# frees the engine and the next call builds another, bitwise the same; a medium that would leave dt unstable is
# refused. In a tilted medium too (the anisotropy held, the velocity changed).
@pytest.mark.parametrize("tilted", [False, True])
def test_set_medium_is_a_new_acoustic_bitwise(tilted):
    rng = np.random.default_rng(5)
    grid, velocity = random_model(rng)
    anisotropy = random_anisotropy(rng, grid) if tilted else {}
    s = shot()
    numerics = st.Numerics(steps=60, dt=st.Acoustic(grid, st.Medium(grid, velocity, **anisotropy),
                                                    st.Numerics(steps=60)).dt)
    residual = rng.standard_normal((s.receiver_count, 60)).astype(np.float32)
    ops = st.Acoustic(grid, st.Medium(grid, velocity, **anisotropy), numerics)
    ops.adjoint(s, residual)
    for v in [velocity * np.float32(0.95), velocity]:
        ops.set_medium(st.Medium(grid, v, **anisotropy))
        fresh = st.Acoustic(grid, st.Medium(grid, v, **anisotropy), numerics)
        assert np.array_equal(ops.adjoint(s, residual), fresh.adjoint(s, residual))
        assert np.array_equal(ops.forward(s), fresh.forward(s))
    ops.release()
    assert np.array_equal(ops.forward(s),
                          st.Acoustic(grid, st.Medium(grid, velocity, **anisotropy), numerics).forward(s))
    with pytest.raises(ValueError, match="above the stability bound"):
        ops.set_medium(st.Medium(grid, velocity * np.float32(2.0), **anisotropy))


# Born is the modelling's derivative in a tilted medium: (F(v + dv) - F(v - dv)) / 2 against born(dv), dv up to 1% of
# v in a 30 m ball, epsilon, delta, tilt and azimuth random point by point. tstBornEngine.hpp derives the allowance: 1%
# for the central difference's Taylor term, and three times the two runs' float32 rounding (2^-24 sqrt(K / 2) of |F|,
# K = N (12R + 20)) over the difference's share of |F|. Measured 4.2e-4, allowed 1.4e-2.
def test_born_is_the_derivative_in_a_tilted_medium():
    rng = np.random.default_rng(13)
    grid, velocity = random_model(rng)
    anisotropy = random_anisotropy(rng, grid)
    z, y, x = np.meshgrid(*(np.arange(n) * grid.h for n in grid.shape), indexing="ij")
    r = np.sqrt((x - 140.0) ** 2 + (y - 110.0) ** 2 + (z - 120.0) ** 2)
    dv = np.where(r < 30, 0.01 * velocity * np.cos(np.pi * r / 60) ** 2, 0).astype(np.float32)
    s, steps = shot(), 90
    dt = st.Acoustic(grid, st.Medium(grid, velocity, vmax=3100.0, **anisotropy), st.Numerics(steps=steps)).dt

    def operators(v):
        return st.Acoustic(grid, st.Medium(grid, v, vmax=3100.0, **anisotropy), st.Numerics(steps=steps, dt=dt))

    plus, minus = (operators((velocity + sign * dv).astype(np.float32)).forward(s).astype(np.float64)
                   for sign in (1, -1))
    difference = (plus - minus) / 2
    linear = operators(velocity).born(s, dv)
    error = np.linalg.norm(linear - difference) / np.linalg.norm(difference)
    rounding = 2.0 ** -24 * np.sqrt(steps * (12 * 4 + 20) / 2) * np.linalg.norm(plus) / np.linalg.norm(difference)
    assert np.abs(difference).max() > 0
    assert error < 1e-2 + 3 * rounding, (error, rounding)


def test_refusals_name_the_value():
    rng = np.random.default_rng(1)
    grid, velocity = random_model(rng)
    with pytest.raises(ValueError, match=r"grid's shape \(nz, ny, nx\) = \(22, 24, 28\)"):
        st.Medium(grid, velocity.T)
    ops = st.Acoustic(grid, st.Medium(grid, velocity), st.Numerics(steps=10))
    with pytest.raises(ValueError, match=r"\(receivers, steps\) = \(7, 10\)"):
        ops.adjoint(shot(), np.zeros((7, 11), dtype=np.float32))
    with pytest.raises(ValueError, match="a density perturbation needs a density that varies"):
        ops.born(shot(), np.zeros(grid.shape, np.float32), drho=np.zeros(grid.shape, np.float32))
    with pytest.raises(ValueError, match="backend 'Fortran' is not in this build"):
        st.Acoustic(grid, st.Medium(grid, velocity), st.Numerics(steps=10), backend="Fortran")
    with pytest.raises(ValueError, match="source_zone is the zone of an anisotropic medium"):
        st.Medium(grid, velocity, source_zone=50.0)
    with pytest.raises(ValueError, match=r"tilt must have the grid's shape"):
        st.Medium(grid, velocity, tilt=velocity[:, :, :3])
    with pytest.raises(ValueError, match="unknown strategy 'fast'"):
        st.Numerics(steps=10, strategy="fast")
    assert st.backends()[0] in ("Cuda", "HIP", "OpenMP", "Serial")
