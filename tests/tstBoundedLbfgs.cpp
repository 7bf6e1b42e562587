// The optimiser (seis/inversion/bounded_lbfgs.hpp): the library's own bounded test problem, the bounds, a restart
// from a written state that ends bit for bit where the run ends, the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
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

BoundedLbfgs restored(const BoundedLbfgs& o) {
  return BoundedLbfgs::restore(o.state(), Rosenbrock::lower(), Rosenbrock::upper());
}

// An array as a state holds it: its length (8 bytes), then its values.
template <class T>
std::string state_array(const std::vector<T>& values) {
  const std::uint64_t count = values.size();
  return std::string(reinterpret_cast<const char*>(&count), sizeof(count)) +
         std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
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
      if (o.iterations() == stop) o = restored(o);
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
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore("a model", l, u); }, "not one");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(state.substr(0, state.size() - 9), l, u); },
                                      "end before their contents");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(state + "x", l, u); }, "bytes beyond its contents");
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(state, {-1.0}, u); }, "3 unknowns but 1 lower");
  seis::test::expect_error_mentioning(
      [&] {
        BoundedLbfgs::restore(state, l, {1.0, -0.5, 1.0});
      },
      "unknown 1 at 0 lies outside the bounds given, -1 to -0.5");
}

// A state holds no bounds (the library only reads them; a run rebuilds them from its options): 20 bytes a point
// fewer than a state of version 2, which held them and their kinds. Such a state is still read, bitwise as it was
// written, and its bounds must be the ones given: a version 2 state made from this version's by putting the
// bounds and kinds back where they were goes on bitwise where the run goes, and refuses other bounds.
TEST(BoundedLbfgs, ReadsTheStateOfTheVersionThatHeldTheBounds) {
  const int n = Rosenbrock::n;
  BoundedLbfgs whole = rosenbrock();
  ASSERT_EQ(run(whole, [](BoundedLbfgs&) {}), Want::converged);
  BoundedLbfgs o = rosenbrock();  // wants its first evaluation: the state holds the whole workspace
  const std::string v3 = o.state();
  const std::size_t header = 28 + 2 * 4 + 3 * 8 + 4, x_end = header + 8 + 8 * std::size_t(n),
                    workspace = std::size_t(2 * 5 + 5) * n + 11 * 25 + 8 * 5,
                    dsave_end = x_end + (8 + 8 * std::size_t(n)) + (8 + 8 * workspace) + (8 + 8 * 29);
  ASSERT_EQ(v3.substr(0, 28), "seistencil L-BFGS-B state 3\n");
  std::vector<int> kinds(n, 2);  // the library's nbd: both bounds
  const std::string v2 = "seistencil L-BFGS-B state 2\n" + v3.substr(28, x_end - 28) +
                         state_array(Rosenbrock::lower()) + state_array(Rosenbrock::upper()) +
                         v3.substr(x_end, dsave_end - x_end) + state_array(kinds) + v3.substr(dsave_end);
  EXPECT_EQ(v2.size(), v3.size() + 20 * std::size_t(n) + 3 * 8);
  BoundedLbfgs from_v2 = BoundedLbfgs::restore(v2, Rosenbrock::lower(), Rosenbrock::upper());
  EXPECT_EQ(from_v2.state(), v3);
  ASSERT_EQ(run(from_v2, [](BoundedLbfgs&) {}), Want::converged);
  EXPECT_EQ(from_v2.x(), whole.x());
  EXPECT_EQ(from_v2.evaluations(), whole.evaluations());
  std::vector<double> wider = Rosenbrock::upper();
  wider[3] = 200;
  seis::test::expect_error_mentioning([&] { BoundedLbfgs::restore(v2, Rosenbrock::lower(), wider); },
                                      "unknown 3's bounds were -100 to 100, the bounds given -100 to 200");
}
