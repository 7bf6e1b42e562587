"""seistencil: high-order finite-difference acoustic wave operators on Kokkos (CPU or GPU).

Units are SI (m, s, m/s, Hz). Arrays are float32 in C order: a model, perturbation or image is indexed
[z, y, x] with shape (nz, ny, nx); data are [receiver, sample] with shape (receivers, steps), sample n being the
wavefield at t = n dt. Other dtypes or orders are accepted and converted (a copy).
"""
import atexit

from ._core import (Acoustic, Acquisition, Grid, InvalidArgument, Medium, Numerics, backends,
                    illumination_normalised, invert, laplacian_filter, objective, read_gather, read_velocity,
                    start_runtime, stop_runtime)

__all__ = ["Acoustic", "Acquisition", "Grid", "InvalidArgument", "Medium", "Numerics", "backends",
           "illumination_normalised", "invert", "laplacian_filter", "migrate", "objective", "read_gather",
           "read_velocity", "survey"]

# Kokkos starts with the module (unless the program has started it) and stops at exit; the operators hold no
# device memory between calls, so nothing outlives it.
start_runtime()
atexit.register(stop_runtime)


def survey(acoustic, shots):
    """Each shot's data, (receivers, steps), in the order of `shots` (every shot checked before the first runs)."""
    return acoustic.survey(list(shots))


def migrate(acoustic, shots, observed):
    """The stacked reverse-time migration of `observed` (one array per shot): (image, illumination)."""
    return acoustic.migrate(list(shots), list(observed))
