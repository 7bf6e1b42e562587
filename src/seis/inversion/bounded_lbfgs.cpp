#include "seis/inversion/bounded_lbfgs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "seis/core/error.hpp"

// The library's driver (lbfgsb.f, version 3.0), Fortran: every argument by reference, logicals as 4-byte integers,
// the two character arguments' lengths appended by value.
extern "C" void setulb_(const int* n, const int* m, double* x, const double* l, const double* u, const int* nbd,
                        double* f, double* g, const double* factr, const double* pgtol, double* wa, int* iwa,
                        char* task, const int* iprint, char* csave, int* lsave, int* isave, double* dsave,
                        std::size_t task_length, std::size_t csave_length);

namespace seis::inversion {
namespace {

constexpr std::size_t text_length = 60;  // character*60 task, csave
// Version 3 leaves out the bounds and their kinds (20 bytes a point), which the library only reads: restore takes
// them from the run. Version 2 leaves out, at an iterate, the workspace the library rewrites before it reads
// (kept_segments). Versions 1 (every array) and 2 are still read.
constexpr char state_magic[] = "seistencil L-BFGS-B state 3\n", state_magic_2[] = "seistencil L-BFGS-B state 2\n",
               state_magic_1[] = "seistencil L-BFGS-B state 1\n";

std::string padded(const std::string& text) {
  std::string out(text_length, ' ');
  out.replace(0, text.size(), text);
  return out;
}
bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// nbd: 0 unbounded, 1 lower only, 2 both, 3 upper only.
int bound_kind(double lower, double upper) {
  const bool has_lower = std::isfinite(lower), has_upper = std::isfinite(upper);
  return has_lower ? (has_upper ? 2 : 1) : (has_upper ? 3 : 0);
}

class Writer {
 public:
  template <class T>
  void scalar(const T& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  template <class T>
  void array(const T* values, std::size_t count) {
    scalar(std::uint64_t(count));
    bytes.append(reinterpret_cast<const char*>(values), count * sizeof(T));
  }
  template <class T>
  void array(const std::vector<T>& values) {
    array(values.data(), values.size());
  }
  void text(const std::string& value) { array(std::vector<char>(value.begin(), value.end())); }
  std::string bytes;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  T scalar() {
    T value;
    take(&value, sizeof(T));
    return value;
  }
  template <class T>
  void array(T* out, std::size_t expected) {
    const auto count = scalar<std::uint64_t>();
    require(count == expected, "L-BFGS-B state: an array of ", count, " values where ", expected, " belong");
    take(out, count * sizeof(T));
  }
  template <class T>
  std::vector<T> array(std::size_t expected) {
    std::vector<T> values(expected);
    array(values.data(), expected);
    return values;
  }
  std::string text() {
    const auto chars = array<char>(text_length);
    return std::string(chars.begin(), chars.end());
  }
  bool at_end() const { return at_ == bytes_.size(); }

 private:
  void take(void* out, std::size_t size) {
    require(size <= bytes_.size() - at_, "L-BFGS-B state: ", bytes_.size(), " bytes end before their contents");
    std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

std::size_t workspace(int n, int m) {
  return std::size_t(2 * m + 5) * std::size_t(n) + std::size_t(11 * m * m + 8 * m);
}

// The workspace's parts a state written at an iterate holds, as (first, count): setulb lays it out as ws, wy (m n
// each), sy, ss, wt (m^2), wn, snd (4 m^2), then z, r, d, t, xp (n each) and 8 m. From an iterate (NEW_X) mainlb reads
// r and d (the last step's gradient and move, for the update of the corrections) before it writes them, and writes
// z (the Cauchy point, or x), t (the break points, then x before the line search) and xp (subsm's copy of z) before
// it reads them: those three are n doubles a point each that a restart does without (zeros), 24 of the 168 bytes.
std::array<std::pair<std::size_t, std::size_t>, 3> kept_segments(int n, int m) {
  const std::size_t N = std::size_t(n), z = 2 * std::size_t(m) * N + std::size_t(11 * m * m);
  return {{{0, z}, {z + N, 2 * N}, {z + 5 * N, std::size_t(8 * m)}}};
}

}  // namespace

BoundedLbfgs::BoundedLbfgs(std::vector<double> x0, std::vector<double> lower, std::vector<double> upper,
                           Options options)
    : n_(static_cast<int>(x0.size())),
      m_(options.memory),
      x_(std::move(x0)),
      factr_(options.factr),
      pgtol_(options.pgtol) {
  require(n_ > 0 && x_.size() < std::size_t(1) << 31, "L-BFGS-B: ", x_.size(),
          " unknowns: from 1 to 2^31 - 1 are possible");
  require(m_ >= 1 && m_ <= 100, "L-BFGS-B: memory ", m_, " corrections: from 1 to 100 are possible");
  require(factr_ >= 0 && pgtol_ >= 0, "L-BFGS-B: factr ", factr_, " and pgtol ", pgtol_, " must not be negative");
  set_bounds(std::move(lower), std::move(upper));
  for (std::size_t i = 0; i < x_.size(); ++i)
    x_[i] =
        std::clamp(x_[i], std::isfinite(lower_[i]) ? lower_[i] : x_[i], std::isfinite(upper_[i]) ? upper_[i] : x_[i]);
  g_.assign(x_.size(), 0.0);
  wa_.assign(workspace(n_, m_), 0.0);
  iwa_.assign(3 * x_.size(), 0);
  lsave_.assign(4, 0);
  isave_.assign(44, 0);
  dsave_.assign(29, 0.0);
  task_ = padded("START");
  csave_ = padded("");
  call();
}

void BoundedLbfgs::set_bounds(std::vector<double> lower, std::vector<double> upper) {
  require(lower.size() == x_.size() && upper.size() == x_.size(), "L-BFGS-B: ", x_.size(), " unknowns but ",
          lower.size(), " lower and ", upper.size(), " upper bounds");
  lower_ = std::move(lower), upper_ = std::move(upper);
  bound_kind_.resize(x_.size());
  for (std::size_t i = 0; i < x_.size(); ++i) {
    require(!(lower_[i] > upper_[i]), "L-BFGS-B: unknown ", i, "'s lower bound ", lower_[i], " is above its upper ",
            upper_[i]);
    bound_kind_[i] = bound_kind(lower_[i], upper_[i]);
  }
}

BoundedLbfgs::Want BoundedLbfgs::call() {
  const int iprint = -1;
  setulb_(&n_, &m_, x_.data(), lower_.data(), upper_.data(), bound_kind_.data(), &f_, g_.data(), &factr_, &pgtol_,
          wa_.data(), iwa_.data(), task_.data(), &iprint, csave_.data(), lsave_.data(), isave_.data(), dsave_.data(),
          text_length, text_length);
  if (starts_with(task_, "FG")) return want_ = Want::evaluate;
  if (starts_with(task_, "NEW_X")) return want_ = Want::iterated;
  if (starts_with(task_, "CONV")) return want_ = Want::converged;
  return want_ = Want::stopped;
}

BoundedLbfgs::Want BoundedLbfgs::tell(double f, const std::vector<double>& gradient) {
  require(want_ == Want::evaluate, "L-BFGS-B: told f where no evaluation was wanted");
  require(gradient.size() == x_.size(), "L-BFGS-B: a gradient of ", gradient.size(), " values for ", x_.size(),
          " unknowns");
  require(std::isfinite(f), "L-BFGS-B: f = ", f, " at evaluation ", evaluations() + 1, ": not a number");
  f_ = f;
  g_ = gradient;
  return call();
}

BoundedLbfgs::Want BoundedLbfgs::next() {
  require(want_ == Want::iterated, "L-BFGS-B: next() wanted after an iterate only");
  return call();
}

int BoundedLbfgs::iterations() const { return isave_[29]; }
int BoundedLbfgs::evaluations() const { return isave_[33]; }
double BoundedLbfgs::step() const { return dsave_[13]; }

std::string BoundedLbfgs::message() const {
  const auto end = task_.find_last_not_of(' ');
  return end == std::string::npos ? std::string() : task_.substr(0, end + 1);
}

std::string BoundedLbfgs::state() const {
  Writer w;
  // Its size first: grown by doubling, the string's 144 bytes a point would be copied and faulted in again and again.
  const bool at_iterate = want_ == Want::iterated;
  std::size_t size = sizeof(state_magic) + 64 + 2 * (8 + task_.size() + csave_.size());
  for (const auto* v : {&x_, &g_, &dsave_}) size += 8 + v->size() * sizeof(double);
  if (at_iterate)
    for (const auto& segment : kept_segments(n_, m_)) size += 8 + segment.second * sizeof(double);
  else
    size += 8 + wa_.size() * sizeof(double);
  for (const auto* v : {&iwa_, &lsave_, &isave_}) size += 8 + v->size() * sizeof(int);
  w.bytes.reserve(size);
  w.bytes.append(state_magic);
  w.scalar(n_);
  w.scalar(m_);
  w.scalar(f_);
  w.scalar(factr_);
  w.scalar(pgtol_);
  w.scalar(static_cast<int>(want_));
  for (const auto* v : {&x_, &g_}) w.array(*v);
  if (at_iterate)
    for (const auto& [first, count] : kept_segments(n_, m_)) w.array(wa_.data() + first, count);
  else
    w.array(wa_);
  w.array(dsave_);
  for (const auto* v : {&iwa_, &lsave_, &isave_}) w.array(*v);
  w.text(task_);
  w.text(csave_);
  return w.bytes;
}

BoundedLbfgs BoundedLbfgs::restore(const std::string& state, std::vector<double> lower, std::vector<double> upper) {
  const std::size_t magic = sizeof(state_magic) - 1;
  static_assert(sizeof(state_magic) == sizeof(state_magic_1) && sizeof(state_magic) == sizeof(state_magic_2));
  const bool version_1 = state.compare(0, magic, state_magic_1) == 0,
             version_2 = state.compare(0, magic, state_magic_2) == 0;
  require(version_1 || version_2 || state.compare(0, magic, state_magic) == 0,
          "L-BFGS-B state: not one (its first bytes are not '", std::string(state_magic, magic - 1), "')");
  const std::string contents = state.substr(magic);
  Reader r(contents);
  BoundedLbfgs o;
  o.n_ = r.scalar<int>();
  o.m_ = r.scalar<int>();
  require(o.n_ > 0 && o.m_ >= 1 && o.m_ <= 100, "L-BFGS-B state: ", o.n_, " unknowns and memory ", o.m_);
  o.f_ = r.scalar<double>();
  o.factr_ = r.scalar<double>();
  o.pgtol_ = r.scalar<double>();
  const int want = r.scalar<int>();
  require(want >= 0 && want <= static_cast<int>(Want::stopped), "L-BFGS-B state: want ", want);
  o.want_ = static_cast<Want>(want);
  const std::size_t n = o.n_;
  o.x_ = r.array<double>(n);
  std::vector<double> held_lower, held_upper;
  if (version_1 || version_2) held_lower = r.array<double>(n), held_upper = r.array<double>(n);
  o.g_ = r.array<double>(n);
  if (o.want_ == Want::iterated && !version_1) {
    o.wa_.assign(workspace(o.n_, o.m_), 0.0);
    for (const auto& [first, count] : kept_segments(o.n_, o.m_)) r.array(o.wa_.data() + first, count);
  } else {
    o.wa_ = r.array<double>(workspace(o.n_, o.m_));
  }
  o.dsave_ = r.array<double>(29);
  if (version_1 || version_2) r.array<int>(n);  // the bounds' kinds, rebuilt from the bounds
  o.iwa_ = r.array<int>(3 * n);
  o.lsave_ = r.array<int>(4);
  o.isave_ = r.array<int>(44);
  o.task_ = r.text();
  o.csave_ = r.text();
  require(r.at_end(), "L-BFGS-B state: bytes beyond its contents");
  o.set_bounds(std::move(lower), std::move(upper));
  for (std::size_t i = 0; i < n; ++i) {
    // The library keeps x within the bounds throughout (its line search too): a point outside them, or bounds that
    // differ from those an older state holds, are another problem's.
    require(!(o.x_[i] < o.lower_[i]) && !(o.x_[i] > o.upper_[i]), "L-BFGS-B state: unknown ", i, " at ", o.x_[i],
            " lies outside the bounds given, ", o.lower_[i], " to ", o.upper_[i], ": not its problem's");
    if (!held_lower.empty())
      require(held_lower[i] == o.lower_[i] && held_upper[i] == o.upper_[i], "L-BFGS-B state: unknown ", i,
              "'s bounds were ", held_lower[i], " to ", held_upper[i], ", the bounds given ", o.lower_[i], " to ",
              o.upper_[i]);
  }
  return o;
}

}  // namespace seis::inversion
