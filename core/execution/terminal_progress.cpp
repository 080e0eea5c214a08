#include "execution/terminal_progress.hpp"

#include <cstdio>

namespace featurelab {

TerminalProgress::TerminalProgress(bool enabled, std::size_t jobs) : enabled_(enabled), jobs_(jobs) {}

void TerminalProgress::erase() {
  for (int i = 0; i < drawn_lines_; ++i) std::fprintf(stderr, "\033[1A\r\033[K");
  drawn_lines_ = 0;
}

void TerminalProgress::draw(const std::vector<RunningJobLine>& running, std::size_t done, std::size_t failed,
                            double progress, double seconds, bool force) {
  if (!enabled_) return;
  if (!force && last_draw_ >= 0 && seconds - last_draw_ < 0.2) return;
  last_draw_ = seconds;
  erase();
  for (const auto& job : running) {
    std::fprintf(stderr, "  %-46s step %lld/%lld  loss %.4g  %.1fs\n", job.label.substr(0, 46).c_str(),
                 static_cast<long long>(job.step), static_cast<long long>(job.total), job.loss, job.seconds);
    ++drawn_lines_;
  }
  const double eta = progress > 0 ? seconds / progress * (static_cast<double>(jobs_) - progress) : 0.0;
  std::fprintf(stderr, "jobs: %zu done, %zu failed, %zu running, %zu/%zu  %.1fs  eta %.0fs\n", done, failed,
               running.size(), done + failed, jobs_, seconds, eta);
  ++drawn_lines_;
  std::fflush(stderr);
}

}  // namespace featurelab
