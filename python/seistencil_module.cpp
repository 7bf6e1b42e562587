// The Python module seistencil._core: the operators over numpy arrays. Host-only (pybind11): the engines run on the
// build's backends behind seis/operators/acoustic.hpp, which holds no Kokkos type. Arrays are float32 in C order:
// a model or image is indexed [z, y, x] (x fastest, as the library stores it), data [receiver, sample].
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "seis/core/error.hpp"
#include "seis/imaging/shot_data.hpp"
#include "seis/inversion/inversion.hpp"
#include "seis/io/gather.hpp"
#include "seis/io/outputs.hpp"
#include "seis/operators/acoustic.hpp"

namespace py = pybind11;
using seis::operators::Acoustic;
using seis::wave::Acquisition;
using seis::wave::Grid;
using seis::wave::Medium;
using seis::wave::Numerics;
using seis::wave::Point;

namespace {

using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;

std::vector<float> flat(const Floats& a) { return {a.data(), a.data() + a.size()}; }

Floats shaped(const std::vector<float>& values, std::vector<py::ssize_t> shape) {
  Floats out(shape);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

Floats volume(const Acoustic& a, const std::vector<float>& values) {
  const Grid& g = a.grid();
  return shaped(values, {g.nz, g.ny, g.nx});
}

Floats traces(const Acoustic& a, const Acquisition& shot, const std::vector<float>& values) {
  return shaped(values, {py::ssize_t(shot.receivers.size()), a.setup().steps});
}

// A model-sized array as the grid holds it: [z, y, x].
std::vector<float> model_values(const Grid& g, const Floats& a, const char* what) {
  seis::require(a.ndim() == 3 && a.shape(0) == g.nz && a.shape(1) == g.ny && a.shape(2) == g.nx, what,
                " must have the grid's shape (nz, ny, nx) = (", g.nz, ", ", g.ny, ", ", g.nx, ")");
  return flat(a);
}

std::vector<float> data_values(const Acoustic& a, const Acquisition& shot, const Floats& d, const char* what) {
  const py::ssize_t receivers = py::ssize_t(shot.receivers.size()), steps = a.setup().steps;
  seis::require(d.ndim() == 2 && d.shape(0) == receivers && d.shape(1) == steps, what,
                " must have the shape (receivers, steps) = (", receivers, ", ", steps, ")");
  return flat(d);
}

// The observed data (and weights) of each shot, (receivers, steps) arrays, as the inversion takes them.
std::vector<seis::inversion::ObservedShot> observed_shots(const std::vector<Acquisition>& shots, int steps,
                                                          const std::vector<Floats>& observed,
                                                          const std::optional<std::vector<Floats>>& weights) {
  seis::require(observed.size() == shots.size(), "observed data for ", observed.size(), " shots, ", shots.size(),
                " shots");
  seis::require(!weights || weights->size() == shots.size(), "weights for ", weights ? weights->size() : 0, " shots, ",
                shots.size(), " shots");
  std::vector<seis::inversion::ObservedShot> out;
  for (std::size_t n = 0; n < shots.size(); ++n) {
    const py::ssize_t receivers = py::ssize_t(shots[n].receivers.size());
    const auto check = [&](const Floats& a, const char* what) {
      seis::require(a.ndim() == 2 && a.shape(0) == receivers && a.shape(1) == steps, "shot ", n, ": ", what,
                    " must have the shape (receivers, steps) = (", receivers, ", ", steps, ")");
      return flat(a);
    };
    out.push_back({shots[n], check(observed[n], "the observed data"),
                   weights ? check((*weights)[n], "the weights") : std::vector<float>{}});
  }
  return out;
}

std::vector<Point> points(const py::object& positions) {
  const auto xyz = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(positions);
  seis::require(xyz && (xyz.ndim() == 2 && xyz.shape(1) == 3), "positions must be an (n, 3) array of x, y, z in m");
  std::vector<Point> out;
  for (py::ssize_t n = 0; n < xyz.shape(0); ++n) out.push_back({xyz.at(n, 0), xyz.at(n, 1), xyz.at(n, 2)});
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "seistencil's acoustic operators (forward, Born, adjoint, reverse-time migration) over numpy arrays";
  py::register_exception<seis::InvalidArgument>(m, "InvalidArgument", PyExc_ValueError);

  py::class_<Grid>(m, "Grid",
                   "the model's grid: points per axis, spacing h (m), and the absorbing layer's points, added outside "
                   "the model on each face")
      .def(py::init([](int nx, int ny, int nz, double h, int ndamp) {
             return Grid{nx, ny, nz, h, ndamp};
           }),
           py::arg("nx"), py::arg("ny"), py::arg("nz"), py::arg("h") = Grid{}.h, py::arg("ndamp") = Grid{}.ndamp)
      .def_readwrite("nx", &Grid::nx)
      .def_readwrite("ny", &Grid::ny)
      .def_readwrite("nz", &Grid::nz)
      .def_readwrite("h", &Grid::h)
      .def_readwrite("ndamp", &Grid::ndamp)
      .def_property_readonly("shape", [](const Grid& g) { return py::make_tuple(g.nz, g.ny, g.nx); });

  py::class_<Medium>(m, "Medium",
                     "the velocity model (m/s), an array of the grid's shape (nz, ny, nx); vmax: the velocity the "
                     "time step and the absorbing layer's damping follow (0: the model's largest; models whose data "
                     "are compared must share it); density (kg/m^3, the same shape, or None: constant density): "
                     "where it varies the operators step the density form; epsilon, delta (Thomsen's), tilt and "
                     "azimuth (the symmetry axis', degrees), each the same shape or None for 0: any of them makes the "
                     "medium tilted transversely isotropic (the pseudo-acoustic TTI step; velocity along the axis), "
                     "source_zone the radius (m) around each source where epsilon is taken to delta (None: 1.5 "
                     "wavelengths; 0: none); every operator runs there (invert takes an isotropic starting model)")
      .def(py::init([](const Grid& g, const Floats& velocity, float vmax, const std::optional<Floats>& density,
                       const std::optional<Floats>& epsilon, const std::optional<Floats>& delta,
                       const std::optional<Floats>& tilt, const std::optional<Floats>& azimuth,
                       std::optional<double> source_zone) {
             Medium medium;
             medium.velocity = model_values(g, velocity, "velocity");
             if (density) medium.density = model_values(g, *density, "density");
             medium.vmax = vmax;
             // Degrees to radians as seis-wave converts them (the same floats, so the same step).
             const double degrees = std::acos(-1.0) / 180;
             const auto parameter = [&](const std::optional<Floats>& a, const char* what, double scale) {
               if (!a) return std::vector<float>{};
               std::vector<float> values = model_values(g, *a, what);
               for (float& v : values) v = static_cast<float>(v * scale);
               medium.anisotropic = true;
               return values;
             };
             medium.anisotropy.epsilon = parameter(epsilon, "epsilon", 1.0);
             medium.anisotropy.delta = parameter(delta, "delta", 1.0);
             medium.anisotropy.tilt = parameter(tilt, "tilt", degrees);
             medium.anisotropy.azimuth = parameter(azimuth, "azimuth", degrees);
             seis::require(!source_zone || medium.anisotropic,
                           "source_zone is the zone of an anisotropic medium (epsilon, delta, tilt or azimuth)");
             if (source_zone) medium.anisotropy.source_zone = *source_zone;
             return medium;
           }),
           py::arg("grid"), py::arg("velocity"), py::arg("vmax") = 0.0f, py::arg("density") = py::none(),
           py::arg("epsilon") = py::none(), py::arg("delta") = py::none(), py::arg("tilt") = py::none(),
           py::arg("azimuth") = py::none(), py::arg("source_zone") = py::none());

  py::class_<Numerics>(m, "Numerics", "the scheme: steps, dt (s; 0: 0.8 of the stability bound), radius R, ...")
      .def(py::init([](int steps, double dt, int radius, const std::string& boundary, const std::string& strategy,
                       const std::string& kernel, const std::string& top) {
             Numerics n;
             n.steps = steps, n.dt = dt, n.radius = radius;
             n.boundary = seis::wave::parse_boundary(boundary);
             n.top = seis::wave::parse_top(top);
             n.strategy = seis::wave::parse_strategy(strategy);
             n.shape = seis::wave::parse_shape(kernel);
             return n;
           }),
           py::arg("steps"), py::arg("dt") = 0.0, py::arg("radius") = Numerics{}.radius,
           py::arg("boundary") = seis::wave::to_string(Numerics{}.boundary),
           py::arg("strategy") = seis::wave::to_string(Numerics{}.strategy),
           py::arg("kernel") = seis::wave::to_string(Numerics{}.shape),
           py::arg("top") = seis::wave::to_string(Numerics{}.top))
      .def_readwrite("steps", &Numerics::steps)
      .def_readwrite("dt", &Numerics::dt)
      .def_readwrite("radius", &Numerics::radius);

  py::class_<Acquisition>(m, "Acquisition", "a shot: sources and receivers ((n, 3) arrays of x, y, z in m), wavelet")
      .def(py::init([](const py::object& sources, const py::object& receivers, const std::string& wavelet, double f0) {
             return Acquisition{points(sources), points(receivers), seis::wave::parse_wavelet(wavelet), f0};
           }),
           py::arg("sources"), py::arg("receivers"), py::arg("wavelet") = seis::wave::to_string(Acquisition{}.wavelet),
           py::arg("f0") = Acquisition{}.f0)
      .def_property_readonly("receiver_count", [](const Acquisition& a) { return a.receivers.size(); })
      .def_readwrite("f0", &Acquisition::f0);

  py::class_<Acoustic>(m, "Acoustic", "the acoustic operators of one model, for any shot")
      .def(py::init([](const Grid& g, const Medium& medium, const Numerics& n, const std::string& backend) {
             return std::make_unique<Acoustic>(g, medium, n, backend);
           }),
           py::arg("grid"), py::arg("medium"), py::arg("numerics"), py::arg("backend") = "")
      .def_property_readonly("dt", [](const Acoustic& a) { return a.setup().dt; })
      .def_property_readonly(
          "grid_shape", [](const Acoustic& a) { return py::make_tuple(a.setup().nz, a.setup().ny, a.setup().nx); },
          "the grid stepped, (nz, ny, nx): the model's with the absorbing layer around it")
      .def_property_readonly("steps", [](const Acoustic& a) { return a.setup().steps; })
      .def_property_readonly("backend", &Acoustic::backend)
      .def(
          "set_medium",
          [](Acoustic& a, const Medium& medium) {
            py::gil_scoped_release free;
            a.set_medium(medium);
          },
          py::arg("medium"),
          "another model of the same grid in place of this one (the same dt, which must stay stable; the density "
          "form kept): the engine forward and adjoint keep is kept too")
      .def("release", &Acoustic::release,
           "frees the engine forward and adjoint keep between calls (the fields, the adjoint's kept states)")
      .def(
          "forward",
          [](const Acoustic& a, const Acquisition& shot) {
            std::vector<float> d;
            {
              py::gil_scoped_release free;
              d = a.forward(shot);
            }
            return traces(a, shot, d);
          },
          py::arg("shot"), "the shot's data, (receivers, steps): sample n is u at t = n dt")
      .def(
          "born",
          [](const Acoustic& a, const Acquisition& shot, const Floats& dv, const std::optional<Floats>& drho) {
            const auto x = model_values(a.grid(), dv, "dv");
            const auto y = drho ? model_values(a.grid(), *drho, "drho") : std::vector<float>{};
            std::vector<float> d;
            {
              py::gil_scoped_release free;
              d = a.born(shot, x, y);
            }
            return traces(a, shot, d);
          },
          py::arg("shot"), py::arg("dv"), py::arg("drho") = py::none(),
          "the data's first-order change from dv (m/s) and, where the density varies, drho (kg/m^3), (receivers, "
          "steps)")
      .def(
          "adjoint",
          [](const Acoustic& a, const Acquisition& shot, const Floats& residual, bool density) -> py::object {
            const auto r = data_values(a, shot, residual, "the residual");
            Acoustic::Gradient g;
            {
              py::gil_scoped_release free;
              if (density)
                g = a.adjoint_with_density(shot, r);
              else
                g.velocity = a.adjoint(shot, r);
            }
            if (!density) return volume(a, g.velocity);
            return py::make_tuple(volume(a, g.velocity), volume(a, g.density));
          },
          py::arg("shot"), py::arg("residual"), py::arg("density") = false,
          "born's exact transpose: the gradient in v, (nz, ny, nx); with density=True the pair (in v, in rho)")
      .def(
          "rtm",
          [](const Acoustic& a, const Acquisition& shot, const Floats& observed) {
            const auto d = data_values(a, shot, observed, "the observed data");
            Acoustic::Image image;
            {
              py::gil_scoped_release free;
              image = a.rtm(shot, d);
            }
            return py::make_tuple(volume(a, image.image), volume(a, image.illumination));
          },
          py::arg("shot"), py::arg("observed"), "reverse-time migration: (image, illumination), each (nz, ny, nx)")
      .def(
          "survey",
          [](const Acoustic& a, const std::vector<Acquisition>& shots) {
            std::vector<std::vector<float>> data;
            {
              py::gil_scoped_release free;
              data = a.survey(shots);
            }
            py::list out;
            for (std::size_t n = 0; n < shots.size(); ++n) out.append(traces(a, shots[n], data[n]));
            return out;
          },
          py::arg("shots"), "forward for every shot, in order: a list of (receivers, steps) arrays")
      .def(
          "migrate",
          [](const Acoustic& a, const std::vector<Acquisition>& shots, const std::vector<Floats>& observed) {
            seis::require(observed.size() == shots.size(), "observed data for ", observed.size(), " shots, ",
                          shots.size(), " shots to migrate");
            std::vector<std::vector<float>> d;
            for (std::size_t n = 0; n < shots.size(); ++n)
              d.push_back(data_values(a, shots[n], observed[n], "the observed data"));
            Acoustic::Image image;
            {
              py::gil_scoped_release free;
              image = a.migrate(shots, d);
            }
            return py::make_tuple(volume(a, image.image), volume(a, image.illumination));
          },
          py::arg("shots"), py::arg("observed"),
          "rtm over every shot, stacked by one migration engine: (image, illumination), each (nz, ny, nx)");

  m.def(
      "objective",
      [](const Acoustic& a, const std::vector<Acquisition>& shots, const std::vector<Floats>& observed,
         const std::string& misfit, const std::optional<std::vector<Floats>>& weights, bool gradient,
         double source_estimate, bool density) {
        const auto data = observed_shots(shots, a.setup().steps, observed, weights);
        const auto kind = seis::inversion::misfit_kind(misfit);
        seis::require(std::isfinite(source_estimate) && source_estimate >= 0, "source_estimate ", source_estimate,
                      " s must be finite and >= 0 (0: the wavelet as given)");
        const int half = source_estimate > 0 ? std::max(1, int(std::lround(source_estimate / a.setup().dt))) : -1;
        seis::inversion::Evaluation e;
        {
          py::gil_scoped_release free;
          e = seis::inversion::evaluate(a, data, {kind, nullptr, half},
                                        seis::inversion::Wanted{gradient, gradient, gradient && density});
        }
        py::dict out;
        out["misfit"] = e.misfit;
        out["shot_misfits"] = e.shot_misfits;
        if (half >= 0) out["source_filters"] = e.source_filters;
        if (gradient) {
          out["gradient"] = volume(a, e.gradient);
          out["illumination"] = volume(a, e.illumination);
          if (density) out["density_gradient"] = volume(a, e.density_gradient);
        }
        return out;
      },
      py::arg("acoustic"), py::arg("shots"), py::arg("observed"), py::arg("misfit") = "l2",
      py::arg("weights") = py::none(), py::arg("gradient") = true, py::arg("source_estimate") = 0.0,
      py::arg("density") = false,
      "full-waveform inversion's objective over the shots: misfit, shot_misfits and (gradient=True) the gradient in "
      "v and the shots' illumination, (nz, ny, nx), with density=True the gradient in the density too "
      "(density_gradient, per kg/m^3: a density that varies); source_estimate > 0 (s): each shot's source "
      "estimated by least squares, a filter reaching that far each way (the l2 misfit's), its taps in "
      "source_filters");
  m.def(
      "invert",
      [](const Grid& grid, const Numerics& numerics, const Floats& start, const std::vector<Acquisition>& shots,
         const std::vector<Floats>& observed, double vmin, double vmax, int iterations, const std::string& misfit,
         double precondition, const std::optional<Floats>& mask, int memory,
         const std::optional<std::vector<Floats>>& weights, const py::object& callback, const std::string& backend,
         const std::vector<double>& bands, double smoothing, double source_estimate,
         const std::optional<Floats>& density, const std::optional<std::array<double, 2>>& density_bounds) {
        const auto data = observed_shots(shots, numerics.steps, observed, weights);
        seis::inversion::InversionOptions options;
        options.misfit = seis::inversion::misfit_kind(misfit);
        options.vmin = vmin, options.vmax = vmax;
        options.iterations = iterations, options.memory = memory, options.precondition = precondition;
        options.bands = bands, options.smoothing = smoothing, options.source_estimate = source_estimate;
        if (mask) options.mask = model_values(grid, *mask, "mask");
        if (density) options.density = model_values(grid, *density, "density");
        if (density_bounds) options.rhomin = (*density_bounds)[0], options.rhomax = (*density_bounds)[1];
        const auto model = model_values(grid, start, "start");
        int made = 0;  // iterates, counted through the bands
        const auto report = [&](const seis::inversion::Iterate& it) {
          ++made;
          if (callback.is_none()) return;
          py::gil_scoped_acquire held;
          callback(made, it.misfit, shaped(it.velocity, {grid.nz, grid.ny, grid.nx}));
        };
        seis::inversion::InversionResult r;
        {
          py::gil_scoped_release free;
          r = seis::inversion::invert(grid, numerics, model, data, options, report, backend);
        }
        py::dict out;
        out["velocity"] = shaped(r.velocity, {grid.nz, grid.ny, grid.nx});
        if (!r.density.empty()) out["density"] = shaped(r.density, {grid.nz, grid.ny, grid.nx});
        out["misfits"] = r.misfits;
        out["iterations"] = r.iterations;
        out["evaluations"] = r.evaluations;
        out["stop"] = r.stop;
        return out;
      },
      py::arg("grid"), py::arg("numerics"), py::arg("start"), py::arg("shots"), py::arg("observed"), py::arg("vmin"),
      py::arg("vmax"), py::arg("iterations") = 10, py::arg("misfit") = "l2", py::arg("precondition") = 0.0,
      py::arg("mask") = py::none(), py::arg("memory") = 5, py::arg("weights") = py::none(),
      py::arg("callback") = py::none(), py::arg("backend") = "", py::arg("bands") = std::vector<double>{},
      py::arg("smoothing") = 0.0, py::arg("source_estimate") = 0.0, py::arg("density") = py::none(),
      py::arg("density_bounds") = py::none(),
      "full-waveform inversion (L-BFGS-B, the velocity between vmin and vmax m/s) from `start`: a dict of the "
      "velocity, the misfits (the start's and each iterate's, in its band's misfit), iterations, evaluations and why "
      "it stopped; callback(iteration, misfit, velocity) after each iterate (counted through the bands); bands: "
      "the low-pass corner frequencies (Hz, rising) of a multi-scale inversion, iterations in each; smoothing: the "
      "gradient smoothed by a Gaussian of this standard deviation (m); source_estimate: each shot's source estimated "
      "by "
      "least squares, a filter reaching this far (s) each way; density (kg/m^3, as start): the density form, the "
      "density held, or with density_bounds (min, max kg/m^3) inverted too from there (then in the dict's "
      "density)");

  m.def("backends", &seis::operators::backends, "the backends of this build, its default first");
  m.def("start_runtime", &seis::operators::start_runtime, py::arg("threads") = 0);
  m.def("stop_runtime", &seis::operators::stop_runtime);

  m.def(
      "read_gather",
      [](const std::string& path) {
        const seis::io::Gather g = seis::io::read_gather(path);
        py::array_t<double> receivers({py::ssize_t(g.receivers.size()), py::ssize_t(3)});
        for (std::size_t n = 0; n < g.receivers.size(); ++n) {
          receivers.mutable_at(n, 0) = g.receivers[n].x;
          receivers.mutable_at(n, 1) = g.receivers[n].y;
          receivers.mutable_at(n, 2) = g.receivers[n].z;
        }
        py::dict out;
        out["traces"] = shaped(g.traces, {py::ssize_t(g.receivers.size()), g.samples});
        out["dt"] = g.dt;
        out["source"] = py::make_tuple(g.source.x, g.source.y, g.source.z);
        out["receivers"] = receivers;
        out["record"] = g.record;
        return out;
      },
      py::arg("path"), "a SEG-Y shot gather: traces (receivers, samples), dt, source, receivers (n, 3), record");
  m.def(
      "read_velocity",
      [](const std::string& path, const Grid& g) {
        return shaped(seis::io::read_velocity_segy(path, g.nx, g.ny, g.nz), {g.nz, g.ny, g.nx});
      },
      py::arg("path"), py::arg("grid"), "a SEG-Y velocity model (nx ny traces of nz samples) as (nz, ny, nx)");
  m.def(
      "illumination_normalised",
      [](const Floats& image, const Floats& illumination) {
        std::vector<py::ssize_t> shape(image.shape(), image.shape() + image.ndim());
        return shaped(seis::imaging::normalise_by_illumination(flat(image), flat(illumination)), shape);
      },
      py::arg("image"), py::arg("illumination"), "the image divided by its (stabilised) source illumination");
  m.def(
      "laplacian_filter",
      [](const Floats& image) {
        seis::require(image.ndim() == 3, "the image must be (nz, ny, nx)");
        return shaped(
            seis::imaging::laplacian_filter(flat(image), int(image.shape(2)), int(image.shape(1)), int(image.shape(0))),
            {image.shape(0), image.shape(1), image.shape(2)});
      },
      py::arg("image"), "minus the 7-point Laplacian (times h^2): low wavenumbers of the correlation removed");
}
