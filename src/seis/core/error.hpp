#pragma once
// Host-side validation: every bad input becomes an exception that names the value and the limit.
#include <sstream>
#include <stdexcept>
#include <string>

namespace seis {

class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw InvalidArgument(message.str());
}

template <class... Parts>
void require(bool condition, const Parts&... parts) {
  if (!condition) fail(parts...);
}

}  // namespace seis
