// Progress of a running job: a live line on a terminal, a log line every tenth of the run
// otherwise (so a log file or CI output stays readable).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace spdlog {
class logger;
}

namespace featurelab {

struct ProgressSlot;

class Progress {
 public:
  // live: draw on the terminal; slot: publish for the parent process to draw (worker mode);
  // otherwise log a line every tenth of the run.
  Progress(std::string label, spdlog::logger* log, bool live, ProgressSlot* slot = nullptr);
  void update(std::int64_t step, std::int64_t total, double loss);
  void finish();

 private:
  std::string label_;
  spdlog::logger* log_;
  bool live_;
  ProgressSlot* slot_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::int64_t last_logged_tenth_ = -1;
  bool drawn_ = false;
};

}  // namespace featurelab
