// Fixture probe `slow-probe`: takes `seconds` of wall time per evaluation and records how many evaluations it
// has made, so the engine's note of a probe costlier than the training it measures is tested at a cost
// that does not depend on the build (e2e:engine).
#pragma once

#include <featurelab/probe.hpp>

#include <chrono>
#include <thread>

namespace fixture {

class SlowProbe : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc = "Sleeps `seconds` per evaluation; records evaluations so far.";
  static featurelab::Schema schema() {
    featurelab::Schema s;
    s.real("seconds", 0.1, "wall time per evaluation").min(0.0);
    return s;
  }
  SlowProbe(const featurelab::Params& params, featurelab::Context&) : seconds_(params.real("seconds")) {}
  void measure(const featurelab::ProbeInput&, featurelab::Measurements& out) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds_));
    out.scalar("evaluations", double(++evaluations_));
  }

 private:
  double seconds_;
  int evaluations_ = 0;
};

}  // namespace fixture
