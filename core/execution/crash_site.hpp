// Where a job was executing when it crashed or had to be killed, so that its failure names the
// plugin file (and, through the pipeline, the component) instead of a bare signal number.
//
// Loaded packs are noted as they are loaded (loader/loaded_libraries.hpp). A worker installs handlers for the fatal signals
// and for SIGUSR1, which the parent sends a job before killing it for its time or memory limit; the
// handler walks the stack and writes the path of the first pack library on it into the job's
// shared progress slot, which the parent reads after the worker is gone.
#pragma once

#include <csignal>
#include <cstddef>

namespace featurelab {

// In a worker: installs the handlers writing into `site` (a zeroed buffer of `size` bytes in
// memory the parent can read).
void install_crash_site_handlers(char* site, std::size_t size);

// The signal the parent sends before killing a job, so it records where it was.
inline constexpr int kWhereAreYouSignal = SIGUSR1;

}  // namespace featurelab
