// Runs another program (sbatch, scontrol) without a shell, and collects what it prints.
#pragma once

#include <string>
#include <vector>

namespace featurelab {

struct ProgramOutput {
  int exit_status = -1;  // its exit status; -1 when it could not be started or was killed by a signal
  std::string out;       // standard output
  std::string err;       // standard error, or why it could not be started
};

// arguments[0] is looked up on PATH. Never throws for the program's failure: the caller says what it means.
ProgramOutput run_program(const std::vector<std::string>& arguments);

}  // namespace featurelab
