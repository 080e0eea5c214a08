// Catch2's implementation and its session (tests/catch_session.hpp), compiled once.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.hpp"

namespace featurelab::testing {

int run_catch_session(int argc, char* argv[], const std::vector<ExtraOption>& extra, const std::function<void()>& before_run,
                      const std::function<void(bool listing)>& after_run) {
  Catch::Session session;
  auto cli = session.cli();
  for (const ExtraOption& option : extra) cli = cli | Catch::clara::Opt(*option.values, option.hint)[option.flag](option.help);
  session.cli(cli);
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  if (session.configData().showHelp) return 0;
  if (before_run) before_run();
  const int failed = session.run();
  if (after_run) after_run(session.configData().listTests || session.configData().listTestNamesOnly);
  return failed;
}

}  // namespace featurelab::testing
