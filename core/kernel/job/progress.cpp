// Terminal progress line with rate and ETA; plain log lines when not a terminal.
#include "kernel/job/progress.hpp"

#include <featurelab/threads.hpp>

#include "kernel/job/progress_slot.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace featurelab {

Progress::Progress(std::string label, spdlog::logger* log, bool live, ProgressSlot* slot)
    : label_(std::move(label)), log_(log), live_(live), slot_(slot), start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void Progress::update(std::int64_t step, std::int64_t total, double loss) {
  if (slot_) {
    if (const int threads = slot_->threads.load(); threads != job_threads()) set_job_threads(threads);
    slot_->step.store(step);
    slot_->total.store(total);
    slot_->loss.store(loss);
  }
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = step > 0 ? elapsed / static_cast<double>(step) * static_cast<double>(total - step) : 0.0;
  if (live_) {
    if (now - last_draw_ < std::chrono::milliseconds(100) && step < total) return;
    last_draw_ = now;
    std::fprintf(stderr, "\r\033[K%s  step %lld/%lld  loss %.5g  %.1fs  eta %.1fs", label_.c_str(),
                 static_cast<long long>(step), static_cast<long long>(total), loss, elapsed, eta);
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  const std::int64_t tenth = total > 0 ? step * 10 / total : 10;
  if (tenth != last_logged_tenth_ && log_) {
    last_logged_tenth_ = tenth;
    log_->info("{} step {}/{} loss {:.5g} ({:.1f}s, eta {:.1f}s)", label_, step, total, loss, elapsed, eta);
  }
}

void Progress::finish() {
  if (live_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

}  // namespace featurelab
