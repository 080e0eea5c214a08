// Error types of the core and the exit codes the `featurelab` command maps them to.
#pragma once

#include <featurelab/error.hpp>

#include <string>
#include <vector>

namespace featurelab {

// Exit codes of the featurelab command (documented in README.md and main.cpp). A run stopped by a
// signal exits 128 + the signal, as a shell reports a process killed by it.
enum ExitCode : int {
  kExitOk = 0,
  kExitRunFailed = 1,      // a job failed or an assertion did not hold
  kExitBadInput = 2,       // bad command line, pipeline or data file
  kExitPluginRefused = 3,  // a plugin could not be found or was refused
  kExitBusy = 75,          // the run directory or job is in use by another featurelab (EX_TEMPFAIL)
  kExitHangup = 129,       // stopped by SIGHUP (a closed terminal or ssh session)
  kExitInterrupted = 130,  // stopped by Ctrl-C (SIGINT)
  kExitTerminated = 143,   // stopped by SIGTERM (kill, scancel, preemption)
};

// A plugin that cannot be found, loaded or used.
class PluginError : public Error {
 public:
  using Error::Error;
};

// A run directory or job that another featurelab process is writing: try again once it is done.
class BusyError : public Error {
 public:
  using Error::Error;
};

// A command stopped by a signal before its first job began (while the components were being built): nothing was
// run, and the command exits 128 + the signal, as a stopped run does.
class StoppedError : public Error {
 public:
  StoppedError(const std::string& what, int exit_code) : Error(what), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// One problem in a pipeline, located: "pipe.toml:12:3", "--set model.width".
struct Diagnostic {
  std::string where;
  std::string message;
  std::string format() const { return where.empty() ? message : where + ": " + message; }
};

// All problems found in a pipeline, reported together.
class ConfigError : public Error {
 public:
  explicit ConfigError(std::vector<Diagnostic> diagnostics)
      : Error(join(diagnostics)), diagnostics_(std::move(diagnostics)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  static std::string join(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const auto& d : diagnostics) out += (out.empty() ? "" : "\n") + d.format();
    return out;
  }
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace featurelab
