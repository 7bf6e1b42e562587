"""What the shell tests read back from seis-wave's SEG-Y files (on PYTHONPATH there)."""
import numpy as np
import segyio


def traces(path):
    """Every trace of a gather or volume, one row a trace, in double."""
    with segyio.open(path, ignore_geometry=True) as f:
        return segyio.tools.collect(f.trace[:]).astype(np.float64)


def volume(path, shape):
    """A volume written by seis-wave (a trace a column, x fastest), as an array of shape (nz, ny, nx)."""
    nz, ny, nx = shape
    return traces(path).reshape(ny, nx, nz).transpose(2, 0, 1)
