// Catch2's session as a function, so that its implementation (a third of a minute of compiling, more under the
// sanitizers) is compiled once for all the test executables, including the contract test, which adds options of
// its own to the command line (tests/contract/contract_main.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace featurelab::testing {

// An option the executable adds to Catch2's command line, e.g. --pack NAME. It may be given several times:
// `values` receives every value, in order.
struct ExtraOption {
  std::string flag;                  // "--pack"
  std::string hint;                  // the value's name in --help: "name"
  std::string help;                  // its line in --help
  std::vector<std::string>* values;  // where the values go
};

// Reads the command line (Catch2's options and `extra`), calls `before_run` (not when the command line only
// asked for help), runs the selected tests and calls `after_run(listing)` (listing: the command line only
// listed tests). Returns Catch2's status: the number of failed test cases, or its command-line error.
int run_catch_session(int argc, char* argv[], const std::vector<ExtraOption>& extra = {},
                      const std::function<void()>& before_run = {},
                      const std::function<void(bool listing)>& after_run = {});

}  // namespace featurelab::testing
