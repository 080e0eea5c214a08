// The contract test's main: Catch2 with two more options: --pack <name>, so that ctest runs each
// pack's components as their own test (contract:<pack>), and --library <file> (repeatable), the packs
// to load instead of the build's plugin directory (`featurelab plugins check PACK` names the packs of
// its search path); then the summary of what was checked and what was skipped, and why.
#include "../catch_session.hpp"
#include "contract.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  std::vector<std::string> packs, libraries;
  const std::vector<featurelab::testing::ExtraOption> options = {
      {"--pack", "pack", "check only this pack's components (default: every pack)", &packs},
      {"--library", "file", "load this pack library (repeatable) instead of the build's plugin directory", &libraries}};
  return featurelab::testing::run_catch_session(
      argc, argv, options,
      [&] {
        contract::select_pack(packs.empty() ? std::string() : packs.back());
        contract::use_libraries(libraries);
      },
      [](bool listing) {
        if (!listing) std::cout << contract::summary();
      });
}
