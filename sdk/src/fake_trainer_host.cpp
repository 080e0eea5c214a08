#include <featurelab/fake_trainer_host.hpp>

namespace featurelab::testing {

FakeTrainerHost::FakeTrainerHost(Trainer& trainer, Model& model, Loss& loss, Optimizer& optimizer,
                                 Distribution& distribution, Dataset train, Dataset test)
    : trainer_(trainer),
      model_(model),
      loss_(loss),
      optimizer_(optimizer),
      distribution_(distribution),
      train_(std::move(train)),
      test_(std::move(test)) {}

void FakeTrainerHost::run(Rng& rng) {
  trainer_.train(*this, rng);
  finish();
}

std::vector<double> FakeTrainerHost::values(const std::string& metric) const {
  std::vector<double> out;
  for (const auto& m : metrics) {
    if (m.name == metric) out.push_back(m.value);
  }
  return out;
}

Batch FakeTrainerHost::augment(const Batch& in, Rng&) {
  batches.push_back(in.x);
  return in;
}

void FakeTrainerHost::record(Index step, const std::string& metric, double value) {
  metrics.push_back({step, metric, value});
  note_metric(step, metric, value);
}

void FakeTrainerHost::run_probes(Index step) {
  evaluated.push_back(step);
  if (on_probes) on_probes(step);
}

void FakeTrainerHost::show_progress(Index steps_done, Index, double) { done = steps_done; }

}  // namespace featurelab::testing
