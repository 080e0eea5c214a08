// The contract test's main: Catch2 with one more option, --pack <name>, so that ctest runs each
// pack's components as their own test (contract:<pack>); then the summary of what was checked and
// what was skipped, and why.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "contract.hpp"

#include <iostream>

int main(int argc, char* argv[]) {
  Catch::Session session;
  std::string pack;
  using Catch::clara::Opt;
  session.cli(session.cli() | Opt(pack, "pack")["--pack"]("check only this pack's components (default: every pack)"));
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  contract::select_pack(pack);
  const int failed = session.run();
  if (!session.configData().listTests && !session.configData().listTestNamesOnly) std::cout << contract::summary();
  return failed;
}
