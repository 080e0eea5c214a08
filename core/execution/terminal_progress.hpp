// The lines a worker pool draws on the terminal while it runs: one per running job (label, step, loss, time)
// and a total with the ETA, redrawn in place on stderr at most five times a second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace featurelab {

struct RunningJobLine {
  std::string label;
  std::int64_t step = 0, total = 0;
  double loss = 0;
  double seconds = 0;
};

class TerminalProgress {
 public:
  // Draws nothing unless `enabled` (a host without a terminal, or a quiet run).
  TerminalProgress(bool enabled, std::size_t jobs);
  // Removes the lines drawn last, before anything else is printed.
  void erase();
  // Redraws, unless the last drawing is younger than 200 ms and `force` is false. `progress` counts finished
  // jobs and the running ones by their steps (for the ETA).
  void draw(const std::vector<RunningJobLine>& running, std::size_t done, std::size_t failed, double progress,
            double seconds, bool force);
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  std::size_t jobs_;
  int drawn_lines_ = 0;
  double last_draw_ = -1;  // seconds since the run started
};

}  // namespace featurelab
