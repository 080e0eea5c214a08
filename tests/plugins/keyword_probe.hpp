// Fixture probe `keyword-probe`: a directory relative to the pipeline, and other keys it checks itself (as the
// python probe does with its function's parameters). It records each numeric other key as a metric.
#pragma once

#include <featurelab/probe.hpp>

#include <string>
#include <variant>

namespace fixture {

class KeywordProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Records every numeric key beyond `dir` as a metric.";
  static featurelab::Schema schema() {
    featurelab::Schema s;
    s.string("dir", "", "a directory (\"\": the pipeline's)").relative_to_pipeline();
    s.other_keys("numbers to record");
    return s;
  }
  KeywordProbe(const featurelab::Params& params, featurelab::Context&) : params_(params) {}
  void measure(const featurelab::ProbeInput&, featurelab::Measurements& out) override {
    for (const auto& [key, value] : params_.values()) {
      if (const auto* i = std::get_if<std::int64_t>(&value)) out.scalar(key, static_cast<double>(*i));
      if (const auto* d = std::get_if<double>(&value)) out.scalar(key, *d);
    }
  }

 private:
  featurelab::Params params_;
};

}  // namespace fixture
