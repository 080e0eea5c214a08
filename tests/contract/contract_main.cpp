// The contract test's main: Catch2 with two more options: --pack <name>, so that ctest runs each
// pack's components as their own test (contract:<pack>), and --library <file> (repeatable), the packs
// to load instead of the build's plugin directory (`featurelab plugins check PACK` names the packs of
// its search path); then the summary of what was checked and what was skipped, and why.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "contract.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  Catch::Session session;
  std::string pack;
  std::vector<std::string> libraries;
  using Catch::clara::Opt;
  session.cli(session.cli() | Opt(pack, "pack")["--pack"]("check only this pack's components (default: every pack)") |
              Opt(libraries, "file")["--library"]("load this pack library (repeatable) instead of the build's plugin directory"));
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  contract::select_pack(pack);
  contract::use_libraries(libraries);
  const int failed = session.run();
  if (!session.configData().listTests && !session.configData().listTestNamesOnly) std::cout << contract::summary();
  return failed;
}
