// Host facts that the reports record: thread placement defaults and their text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "seis/core/compat.hpp"

namespace {

// Restores an environment variable on scope exit, so that the test leaves the process as it found it.
class SavedVariable {
 public:
  explicit SavedVariable(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) saved_ = value, had_ = true;
  }
  ~SavedVariable() {
    if (had_)
      setenv(name_, saved_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string saved_;
  bool had_ = false;
};

TEST(ThreadPlacement, DefaultsFillOnlyWhatTheUserLeftUnset) {
  const SavedVariable bind("OMP_PROC_BIND"), places("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  setenv("OMP_PLACES", "cores", 1);
  seis::compat::default_thread_placement();
  EXPECT_EQ(seis::compat::thread_placement(), "OMP_PROC_BIND=spread OMP_PLACES=cores");
  unsetenv("OMP_PLACES");
  EXPECT_EQ(seis::compat::thread_placement(), "OMP_PROC_BIND=spread OMP_PLACES=(unset)");
}

}  // namespace
