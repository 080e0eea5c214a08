// The watched metric of early-stopping and checkpoint (metric_watch.hpp).
#include "metric_watch.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

MetricWatch::MetricWatch(std::string metric, bool minimize, double min_delta, std::string who)
    : metric_(std::move(metric)), minimize_(minimize), min_delta_(min_delta), who_(std::move(who)) {
  if (metric_.empty()) throw Error("monitor is empty; name a metric, e.g. monitor = \"test.accuracy\"");
}

void MetricWatch::reset() {
  best_.reset();
  best_step_ = 0;
  seen_ = false;
}

std::optional<double> MetricWatch::read(Index step, const StepMetrics& metrics) {
  const auto found = metrics.find(metric_);
  if (found != metrics.end()) {
    seen_ = true;
    return found->second;
  }
  const bool recorded_by_now = metric_.rfind("train.", 0) == 0 ? step > 0 : true;
  if (!seen_ && recorded_by_now && !metrics.empty()) {
    std::string known;
    for (const auto& [name, value] : metrics) known += (known.empty() ? "" : ", ") + name;
    throw Error(who_ + ": monitor = \"" + metric_ + "\" is not recorded at step " + std::to_string(step) +
                " (recorded there: " + known + "); name one of them, or add the probe that records it");
  }
  return std::nullopt;
}

bool MetricWatch::improves(double value) const {
  if (!best_) return true;
  return minimize_ ? value < *best_ - min_delta_ : value > *best_ + min_delta_;
}

void MetricWatch::take(double value, Index step) {
  best_ = value;
  best_step_ = step;
}

}  // namespace featurelab::std_pack
