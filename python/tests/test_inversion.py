"""Full-waveform inversion from Python: the objective's gradient is its misfit's derivative (central differences
extrapolated by Richardson, as the C++ tests), an inversion lowers the misfit within its bounds and holds its mask,
one smoothed moves smoothly, one in bands counts its iterates through them, one in a density held lowers its misfit,
the density's gradient is its derivative too, one inverting the density keeps it within its bounds, and the refusals."""
import numpy as np
import pytest

import seistencil as st


def survey(rng):
    """A random 1500-3000 m/s model, two shots of seven receivers, their data from a model 2% faster (one vmax and
    dt for every model, so that every model steps the same scheme)."""
    grid = st.Grid(28, 24, 22, h=10.0, ndamp=4)
    velocity = rng.uniform(1500.0, 3000.0, size=grid.shape).astype(np.float32)
    receivers = np.array([[45.0 + n * 30.0, 42.0 + n * 20.0, 48.0 + n * 18.0] for n in range(7)])
    shots = [st.Acquisition(sources=[source], receivers=receivers, f0=40.0)
             for source in ([121.3, 102.7, 60.1], [70.2, 150.4, 90.0])]
    dt = st.Acoustic(grid, st.Medium(grid, velocity, vmax=3200.0), st.Numerics(steps=70)).dt / 1.1
    numerics = st.Numerics(steps=70, dt=dt)
    truth = st.Acoustic(grid, st.Medium(grid, velocity * 1.02, vmax=3200.0), numerics)
    return grid, numerics, velocity, shots, [truth.forward(s) for s in shots]


def operators(grid, numerics, velocity):
    return st.Acoustic(grid, st.Medium(grid, velocity, vmax=3200.0), numerics)


# D(h) = (J(v + h dv) - J(v - h dv)) / 2h is J's derivative plus b h^2 + d h^4 whatever its curvature; S(h) = (4
# D(h/2) - D(h)) / 3 leaves -d h^4 / 4, so S(1/8)'s error is (S(1/4) - S(1/8)) / 15: the gradient may differ from it
# by twice that, by 1e-3 of it (the gradient's float rounding), or by S(1/8)'s share of J's own rounding, which does
# not shrink with the slope: each J carries rho |J| (rho = 1e-5), D(h) rho |J| / h, S(1/8) (4 16 + 8) / 3 = 24 rho
# |J|. A gradient 5% off misses by 50 x the 1e-3 floor.
def assert_slope(gradient, step, misfit_at):
    """<gradient, step> is the derivative of misfit_at(h), the misfit at h x step, at 0."""
    values = {h: (misfit_at(h), misfit_at(-h)) for h in (0.25, 0.125, 0.0625)}
    central = [(ahead - behind) / (2 * h) for h, (ahead, behind) in values.items()]
    size = max(abs(j) for pair in values.values() for j in pair)
    s4, s8 = (4 * central[1] - central[0]) / 3, (4 * central[2] - central[1]) / 3
    allowed = max(2 * abs(s4 - s8) / 15, 1e-3 * abs(s8), 24 * 1e-5 * size)
    slope = float(np.sum(gradient.astype(np.float64) * step))
    assert slope == pytest.approx(s8, abs=allowed), f"central differences {central}"


# With each shot's source estimated (a filter of 7 taps), J is its minimum over the filter: the same holds.
@pytest.mark.parametrize("misfit,taps", [("l2", 0), ("normalised", 0), ("l2", 7)])
def test_objective_gradient_is_the_misfits_derivative(misfit, taps):
    rng = np.random.default_rng(7)
    grid, numerics, velocity, shots, observed = survey(rng)
    estimate = (taps // 2) * numerics.dt
    at = st.objective(operators(grid, numerics, velocity), shots, observed, misfit=misfit, source_estimate=estimate)
    assert at["gradient"].shape == grid.shape and at["illumination"].shape == grid.shape
    assert [len(f) for f in at.get("source_filters", [])] == ([taps] * len(shots) if taps else [])
    assert at["misfit"] == pytest.approx(sum(at["shot_misfits"]), rel=1e-15)
    dv = 0.02 * velocity * (1.0 + 0.5 * rng.standard_normal(grid.shape))

    def misfit_at(h):
        moved = (velocity + h * dv).astype(np.float32)
        return st.objective(operators(grid, numerics, moved), shots, observed, misfit=misfit, gradient=False,
                            source_estimate=estimate)["misfit"]

    assert_slope(at["gradient"], dv, misfit_at)


def test_invert_lowers_the_misfit_within_its_bounds_and_holds_its_mask():
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(3))
    mask = np.ones(grid.shape, dtype=np.float32)
    mask[: grid.nz // 3] = 0.0
    seen = []
    result = st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, iterations=3,
                       precondition=0.01, mask=mask,
                       callback=lambda iteration, misfit, v: seen.append((iteration, misfit, v.copy())))
    assert result["iterations"] == 3 and result["stop"] == "iterations"
    assert [s[0] for s in seen] == [1, 2, 3]
    assert result["misfits"][1:] == [s[1] for s in seen]
    assert all(later < earlier for earlier, later in zip(result["misfits"], result["misfits"][1:]))
    inverted = result["velocity"]
    assert inverted.min() >= 1400.0 and inverted.max() <= 3200.0
    assert np.array_equal(inverted[mask == 0], velocity[mask == 0])
    assert not np.array_equal(inverted[mask == 1], velocity[mask == 1])
    assert np.array_equal(seen[-1][2], inverted)


def test_invert_with_a_smoothed_gradient_moves_smoothly_within_its_bounds():
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(6))
    start = np.full(grid.shape, 2200.0, dtype=np.float32)
    runs = {length: st.invert(grid, numerics, start, shots, observed, vmin=1400.0, vmax=3200.0, iterations=2,
                              smoothing=length) for length in (0.0, 30.0)}
    for r in runs.values():
        assert r["misfits"][-1] < r["misfits"][0]
        assert r["velocity"].min() >= 1400.0 and r["velocity"].max() <= 3200.0
    # The smoothed change's roughness (its differences between neighbours against its size) is the smaller.
    rough = {length: np.abs(np.diff(r["velocity"] - start, axis=2)).mean() / np.abs(r["velocity"] - start).mean()
             for length, r in runs.items()}
    assert rough[30.0] < 0.5 * rough[0.0], rough


def test_invert_in_bands_counts_its_iterates_through_them():
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(4))
    seen = []
    result = st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, iterations=2,
                       bands=[0.08 / numerics.dt, 0.15 / numerics.dt],
                       callback=lambda iteration, misfit, v: seen.append(iteration))
    assert seen == [1, 2, 3, 4] and result["iterations"] == 4 and len(result["misfits"]) == 5
    with pytest.raises(st.InvalidArgument, match="the bands' corner frequencies must rise"):
        st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, bands=[20.0, 10.0])


def test_invert_in_a_density_lowers_the_misfit_and_is_not_the_constant_densitys():
    """The density form with the density held (smooth in depth, so that the survey's dt stays stable)."""
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(4))
    depth = np.arange(grid.nz, dtype=np.float32)[:, None, None] / (grid.nz - 1)
    density = np.broadcast_to(1800.0 + 600.0 * depth, grid.shape).astype(np.float32)
    dense = st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, iterations=2,
                      density=density)
    constant = st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, iterations=1)
    assert all(later < earlier for earlier, later in zip(dense["misfits"], dense["misfits"][1:]))
    assert dense["misfits"][0] != constant["misfits"][0]
    with pytest.raises(st.InvalidArgument, match=r"density must have the grid's shape"):
        st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, density=density[1:])


def test_objective_gradient_in_the_density_is_the_misfits_derivative():
    """As the velocity's, along a density step of 2% (varied by half point by point) in a density that varies."""
    rng = np.random.default_rng(9)
    grid, numerics, velocity, shots, observed = survey(rng)
    depth = np.arange(grid.nz, dtype=np.float32)[:, None, None] / (grid.nz - 1)
    density = np.broadcast_to(1800.0 + 600.0 * depth, grid.shape).astype(np.float32)

    def model(rho):
        return st.Acoustic(grid, st.Medium(grid, velocity, vmax=3200.0, density=rho), numerics)

    at = st.objective(model(density), shots, observed, density=True)
    assert at["density_gradient"].shape == grid.shape
    drho = 0.02 * density * (1.0 + 0.5 * rng.standard_normal(grid.shape))

    def misfit_at(h):
        moved = (density + h * drho).astype(np.float32)
        return st.objective(model(moved), shots, observed, gradient=False)["misfit"]

    assert_slope(at["density_gradient"], drho, misfit_at)


def test_invert_the_density_too_keeps_both_within_their_bounds():
    """Both parameters inverted: the misfit falls, both move and stay within their bounds; bad bounds refused."""
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(4))
    depth = np.arange(grid.nz, dtype=np.float32)[:, None, None] / (grid.nz - 1)
    density = np.broadcast_to(1800.0 + 600.0 * depth, grid.shape).astype(np.float32)
    both = st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, iterations=2,
                     density=density, density_bounds=(1700.0, 2500.0))
    assert all(later < earlier for earlier, later in zip(both["misfits"], both["misfits"][1:]))
    assert both["density"].shape == grid.shape
    assert 1700.0 <= both["density"].min() and both["density"].max() <= 2500.0
    assert np.abs(both["density"] - density).max() > 0 and np.abs(both["velocity"] - velocity).max() > 0
    with pytest.raises(st.InvalidArgument, match=r"inverting the density needs 0 < rhomin < rhomax and a start"):
        st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, density_bounds=(1700.0, 2500.0))
    with pytest.raises(st.InvalidArgument, match=r"the starting density 1800 kg/m\^3 at point 0 lies outside"):
        st.invert(grid, numerics, velocity, shots, observed, vmin=1400.0, vmax=3200.0, density=density,
                  density_bounds=(1900.0, 2500.0))


def test_inversion_refusals_name_the_value():
    grid, numerics, velocity, shots, observed = survey(np.random.default_rng(5))
    ops = operators(grid, numerics, velocity)
    with pytest.raises(st.InvalidArgument, match=r"shot 1: the observed data must have the shape \(receivers, "
                                                 r"steps\) = \(7, 70\)"):
        st.objective(ops, shots, [observed[0], observed[1][:, :60]])
    with pytest.raises(st.InvalidArgument, match="misfit 'l1': the choices are l2"):
        st.objective(ops, shots, observed, misfit="l1")
    with pytest.raises(st.InvalidArgument, match="a source estimate fits the l2 misfit"):
        st.objective(ops, shots, observed, misfit="normalised", source_estimate=0.01)
    start = velocity.copy()
    start[5, 6, 7] = 1300.0
    point = (5 * grid.ny + 6) * grid.nx + 7
    with pytest.raises(st.InvalidArgument, match=f"starting velocity 1300 m/s at point {point} lies outside the "
                                                 "bounds 1400 to 3200"):
        st.invert(grid, numerics, start, shots, observed, vmin=1400.0, vmax=3200.0)
