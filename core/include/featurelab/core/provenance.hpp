// What a host tells the records of the runs it starts (run.json, each job's summary.json).
#pragma once

#include <string>
#include <vector>

namespace featurelab {

// The command line, as the host saw it (the command's argv; the Python host's call): call once, first.
void set_command_line(std::vector<std::string> arguments);

}  // namespace featurelab
