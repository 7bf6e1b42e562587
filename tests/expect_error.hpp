#pragma once
// The check every refusal test makes: the call throws seis::InvalidArgument whose message names `text`.
#include <gtest/gtest.h>

#include <string>

#include "seis/core/error.hpp"

namespace seis::test {

template <class Function>
void expect_error_mentioning(Function&& function, const std::string& text) {
  try {
    function();
    ADD_FAILURE() << "no exception; expected one mentioning '" << text << "'";
  } catch (const seis::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "message: " << e.what();
  }
}

}  // namespace seis::test
