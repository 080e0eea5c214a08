// Runs another program (sbatch, scontrol) without a shell, and collects what it prints.
#pragma once

#include <string>
#include <vector>

namespace featurelab {

struct ProgramOutput {
  int exit_status = -1;  // its exit status; -1 when it could not be started or was killed by a signal
  std::string out;       // standard output
  std::string err;       // standard error, or why it could not be started
  bool timed_out = false;  // killed at the time limit
};

// arguments[0] is looked up on PATH. Never throws for the program's failure: the caller says what it means.
// With a time limit (seconds, 0 = none), a program that has not ended by then is killed (exit_status -1, timed_out).
ProgramOutput run_program(const std::vector<std::string>& arguments, double timeout_seconds = 0);

}  // namespace featurelab
