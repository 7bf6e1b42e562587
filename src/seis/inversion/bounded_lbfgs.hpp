#pragma once
// L-BFGS-B (Byrd, Lu, Nocedal and Zhu; Morales and Nocedal's version 3.0, Debian's liblbfgsb): a minimum of f(x)
// over lower <= x <= upper from f and its gradient alone, by reverse communication: the caller evaluates f and its
// gradient wherever x() says, as often as asked, so that an evaluation may be a survey's modelling over many ranks.
// Its whole state can be written after any iteration and read back: the run continued from it ends bit for bit
// where the uninterrupted run ends. Host-only.
#include <cstdint>
#include <string>
#include <vector>

namespace seis::inversion {

class BoundedLbfgs {
 public:
  struct Options {
    int memory = 5;       // corrections kept (the workspace is (2 memory + 5) n + 11 memory^2 + 8 memory doubles)
    double factr = 1e7;   // stops when the relative reduction of f is below factr times the machine's epsilon
    double pgtol = 1e-5;  // stops when the largest projected gradient component is below this
  };
  // What the optimiser wants next. evaluate: f and its gradient at x(), given to tell(). iterated: x() is a new
  // iterate (f and the gradient there were the last told), a point to write the state; then next(). converged
  // and stopped end it (message() says why; stopped: the line search failed or the input was wrong).
  enum class Want { evaluate, iterated, converged, stopped };

  // lower and upper as long as x0; -inf or +inf where a side is unbounded. x0 is projected onto the bounds.
  BoundedLbfgs(std::vector<double> x0, std::vector<double> lower, std::vector<double> upper, Options options);
  // The state written by state(), of the problem with these bounds (those it was constructed with: a state does not
  // hold them, its run rebuilds them from its options). Refuses bytes that are not a state, and bounds that are not
  // its problem's where it can tell: a point outside them, or bounds an older state holds that differ (naming what
  // is wrong).
  static BoundedLbfgs restore(const std::string& state, std::vector<double> lower, std::vector<double> upper);

  const std::vector<double>& x() const { return x_; }
  Want want() const { return want_; }
  // f and its gradient at x(), when evaluate was wanted.
  Want tell(double f, const std::vector<double>& gradient);
  // Goes on from an iterate.
  Want next();

  int iterations() const;   // iterates made
  int evaluations() const;  // f and gradients told
  // The last line search's step, relative to its direction (1: the whole quasi-Newton step; the library's dsave(14)).
  double step() const;
  double f() const { return f_; }
  const std::vector<double>& gradient() const { return g_; }
  std::string message() const;  // the library's last task text
  // The library's state as bytes: every array and scalar but the bounds (the problem's, which the library only
  // reads), and at an iterate the workspace it rewrites before it reads (bounded_lbfgs.cpp).
  std::string state() const;

 private:
  BoundedLbfgs() = default;
  Want call();
  // The bounds and the library's kind of each (nbd), checked against each other and x's size.
  void set_bounds(std::vector<double> lower, std::vector<double> upper);

  int n_ = 0, m_ = 0;
  std::vector<double> x_, lower_, upper_, g_, wa_, dsave_;
  std::vector<int> bound_kind_, iwa_, lsave_, isave_;
  double f_ = 0, factr_ = 0, pgtol_ = 0;
  std::string task_, csave_;
  Want want_ = Want::evaluate;
};

}  // namespace seis::inversion
