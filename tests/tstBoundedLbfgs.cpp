// The optimiser (seis/inversion/bounded_lbfgs.hpp): the library's own bounded test problem, the bounds, a restart
// from a written state that ends bit for bit where the run ends, the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "expect_error.hpp"
#include "seis/inversion/bounded_lbfgs.hpp"

namespace {

using seis::inversion::BoundedLbfgs;
using Want = BoundedLbfgs::Want;

// The extended Rosenbrock function of the library's driver1 (25 unknowns; odd ones (1-based) in [1, 100], even
// ones in [-100, 100]; from x = 3): its minimum, x = 1, lies on the odd ones' lower bounds.
struct Rosenbrock {
  static constexpr int n = 25;
  static std::vector<double> lower() {
    std::vector<double> l(n);
    for (int i = 0; i < n; ++i) l[i] = i % 2 == 0 ? 1.0 : -100.0;
    return l;
  }
  static std::vector<double> upper() { return std::vector<double>(n, 100.0); }
  static double f(const std::vector<double>& x, std::vector<double>& g) {
    double f = 0.25 * (x[0] - 1) * (x[0] - 1);
    for (int i = 1; i < n; ++i) f += (x[i] - x[i - 1] * x[i - 1]) * (x[i] - x[i - 1] * x[i - 1]);
    f *= 4;
    double t1 = x[1] - x[0] * x[0];
    g[0] = 2 * (x[0] - 1) - 16 * x[0] * t1;
    for (int i = 1; i < n - 1; ++i) {
      const double t2 = t1;
      t1 = x[i + 1] - x[i] * x[i];
      g[i] = 8 * t2 - 16 * x[i] * t1;
    }
    g[n - 1] = 8 * t1;
    return f;
  }
};

// Runs the optimiser to its end; `at_iterate` sees each iterate (and may replace the optimiser).
template <class AtIterate>
Want run(BoundedLbfgs& o, AtIterate at_iterate) {
  std::vector<double> g(o.x().size());
  for (Want want = o.want();;) {
    if (want == Want::evaluate) {
      for (std::size_t i = 0; i < o.x().size(); ++i) {
        EXPECT_GE(o.x()[i], Rosenbrock::lower()[i]) << "an evaluation below unknown " << i << "'s lower bound";
        EXPECT_LE(o.x()[i], Rosenbrock::upper()[i]) << "an evaluation above unknown " << i << "'s upper bound";
      }
      const double f = Rosenbrock::f(o.x(), g);
      want = o.tell(f, g);
    } else if (want == Want::iterated) {
      at_iterate(o);
      want = o.next();
    } else {
      return want;
    }
  }
}

BoundedLbfgs rosenbrock() {
  return BoundedLbfgs(std::vector<double>(Rosenbrock::n, 3.0), Rosenbrock::lower(), Rosenbrock::upper(), {});
}

}  // namespace

// The library's reference run of this problem (its driver1's printed output) ends at f = 1.08e-9 after 23
// iterations, under the same stopping rule (factr 1e7: a relative reduction of f under 2.2e-9): f under 1e-8, so
// the first unknown within 1e-4 of 1 (f >= (x_1 - 1)^2). The others are not pinned: along the valley x_i = x_(i-1)^2
// a deviation doubles from one unknown to the next while f hardly sees it (x_25 = 1.95 here at f < 1e-8).
TEST(BoundedLbfgs, FindsTheBoundedRosenbrockMinimum) {
  BoundedLbfgs o = rosenbrock();
  EXPECT_EQ(run(o, [](BoundedLbfgs&) {}), Want::converged) << o.message();
  EXPECT_LT(o.f(), 1e-8);
  EXPECT_NEAR(o.x()[0], 1.0, 1e-4);
  EXPECT_GT(o.iterations(), 10);
  EXPECT_LT(o.evaluations(), 2 * o.iterations()) << "a line search that wastes evaluations";
}

// A quadratic whose unconstrained minimum (x = 5) lies beyond the upper bound 2 of half the unknowns: they end on
// it, the others at 5.
TEST(BoundedLbfgs, EndsOnTheBoundsThatHoldItBack) {
  const int n = 6;
  std::vector<double> lower(n, -std::numeric_limits<double>::infinity()), upper(n, 2.0);
  for (int i = 0; i < n; i += 2) upper[i] = std::numeric_limits<double>::infinity();
  BoundedLbfgs o(std::vector<double>(n, 0.0), lower, upper, {});
  std::vector<double> g(n);
  Want want = o.want();
  while (want == Want::evaluate || want == Want::iterated) {
    if (want == Want::iterated) {
      want = o.next();
      continue;
    }
    double f = 0;
    for (int i = 0; i < n; ++i) {
      EXPECT_LE(o.x()[i], upper[i]);
      f += (i + 1) * (o.x()[i] - 5) * (o.x()[i] - 5);
      g[i] = 2 * (i + 1) * (o.x()[i] - 5);
    }
    want = o.tell(f, g);
  }
  EXPECT_EQ(want, Want::converged) << o.message();
  for (int i = 0; i < n; ++i) EXPECT_NEAR(o.x()[i], i % 2 == 0 ? 5.0 : 2.0, 1e-6) << "unknown " << i;
}

// The line search's step: on |x - c|^2 / 2 from 0 the first iterate's direction is the steepest descent, c, taken
// for unit length (the library's first trial, which meets the Wolfe conditions here): its step is 1 / |c|; the second's
// quasi-Newton direction reaches the minimum exactly (its Hessian is theta I after one pair), so its step is the whole
// one, 1.
TEST(BoundedLbfgs, ReportsItsStep) {
  const std::vector<double> c{1, 2, 3, 4};
  const double infinite = std::numeric_limits<double>::infinity();
  BoundedLbfgs o(std::vector<double>(4, 0.0), std::vector<double>(4, -infinite), std::vector<double>(4, infinite), {});
  std::vector<double> steps, g(4);
  for (Want want = o.want(); want == Want::evaluate || want == Want::iterated;) {
    if (want == Want::iterated) {
      steps.push_back(o.step());
      want = o.next();
      continue;
    }
    double f = 0;
    for (int i = 0; i < 4; ++i) {
      g[i] = o.x()[i] - c[i];
      f += 0.5 * g[i] * g[i];
    }
    want = o.tell(f, g);
  }
  ASSERT_GE(steps.size(), 2u);
  EXPECT_NEAR(steps[0], 1 / std::sqrt(30.0), 1e-9);
  EXPECT_NEAR(steps[1], 1.0, 1e-9);
}

// Written after each iterate and read back into a new optimiser (a killed run's restart), the run ends bit for
// bit where the uninterrupted one does, with the same counts. At an iterate the state leaves out the three n-long
// parts of the workspace that the library rewrites before it reads (z, t, xp): 24 bytes a point less, but the three
// parts' length headers, than a state taken while an evaluation is wanted.
TEST(BoundedLbfgs, ARestoredStateEndsBitwiseWhereTheRunEnds) {
  BoundedLbfgs whole = rosenbrock();
  const std::size_t evaluating = whole.state().size();
  std::size_t at_iterate = 0;
  ASSERT_EQ(run(whole, [&](BoundedLbfgs& o) { at_iterate = o.state().size(); }), Want::converged);
  EXPECT_EQ(at_iterate + 24 * std::size_t(Rosenbrock::n) - 16, evaluating);
  for (int stop : {1, 7, 15}) {
    BoundedLbfgs restarted = rosenbrock();
    const Want end = run(restarted, [stop](BoundedLbfgs& o) {
      if (o.iterations() == stop) o = BoundedLbfgs::restore(std::string(o.state()));
    });
    EXPECT_EQ(end, Want::converged);
    EXPECT_EQ(restarted.iterations(), whole.iterations()) << "restarted at iterate " << stop;
    EXPECT_EQ(restarted.evaluations(), whole.evaluations()) << "restarted at iterate " << stop;
    EXPECT_EQ(restarted.x(), whole.x()) << "restarted at iterate " << stop << ": not bitwise";
    EXPECT_EQ(restarted.f(), whole.f());
  }
}

TEST(BoundedLbfgs, RefusesWhatItCannotDo) {
  const std::vector<double> x(3, 0.0), l(3, -1.0), u(3, 1.0);
  seis::test::expect_error_mentioning([&] { BoundedLbfgs(x, {-1.0}, u, {}); }, "3 unknowns but 1 lower");
  seis::test::expect_error_mentioning(
      [&] {
        BoundedLbfgs(x, l, {1.0, -2.0, 1.0}, {});
      },
      "unknown 1's lower bound -1 is above its upper -2");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs({}, {}, {}, {}); }, "0 unknowns");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs(x, l, u, {0, 1e7, 1e-5}); }, "memory 0 corrections");
  BoundedLbfgs o(x, l, u, {});
  seis::test::expect_error_mentioning([&] { o.next(); }, "after an iterate only");
  seis::test::expect_error_mentioning([&] { o.tell(1.0, {1.0}); }, "a gradient of 1 values for 3 unknowns");
  seis::test::expect_error_mentioning([&] { o.tell(std::nan(""), {0.0, 0.0, 0.0}); }, "not a number");
  const std::string state = o.state();
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore("a model"); }, "not one");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(state.substr(0, state.size() - 9)); },
                                      "end before their contents");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(state + "x"); }, "bytes beyond its contents");
}
