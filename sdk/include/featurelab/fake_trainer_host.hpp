// A TrainerHost for a pack's own tests: the job's parts by reference, no augments, transforms or
// regularizers, and a record of what the trainer did. The loop's shared part (start, check_step,
// end_step, finish) is the SDK's own, exactly what a job runs.
//
//   featurelab::testing::FakeTrainerHost host(*trainer, *model, *loss, *optimizer, *distribution, train);
//   host.run(rng);                 // train() then finish(), as the core does
//   CHECK(host.evaluated == std::vector<Index>{0, 50});
#pragma once

#include <featurelab/trainer.hpp>

#include <functional>
#include <string>
#include <vector>

namespace featurelab::testing {

class FakeTrainerHost : public TrainerHost {
 public:
  struct Metric {
    Index step;
    std::string name;
    double value;
  };

  FakeTrainerHost(Trainer& trainer, Model& model, Loss& loss, Optimizer& optimizer, Distribution& distribution,
                  Dataset train, Dataset test = {});

  // Runs the trainer and the host's end-of-training checks, as a job does.
  void run(Rng& rng);

  std::function<void(Index step)> on_probes;  // called where a job runs its probes (it may record() their values)
  Index stop_after = 0;                       // > 0: the user asks to stop once this many steps are done

  std::vector<Index> evaluated;       // the steps the probes ran at
  std::vector<Metric> metrics;        // everything recorded, in order
  std::vector<Index> saved;           // the steps save_parameters() was asked for, in order
  std::vector<const Scalar*> batches;  // the first row of every batch handed to augment()
  Index done = 0;                     // steps reported done
  // The values recorded under one metric name, in order.
  std::vector<double> values(const std::string& metric) const;

  Model& model() override { return model_; }
  Loss& loss() override { return loss_; }
  Optimizer& optimizer() override { return optimizer_; }
  Dataset& train_data() override { return train_; }
  const Dataset& test_data() const override { return test_.size() > 0 ? test_ : train_; }
  Distribution& distribution() override { return distribution_; }
  void transform_fresh(Dataset&, Rng&) override {}
  Batch augment(const Batch& in, Rng& rng) override;
  Scalar regularize(const Batch&, Index, VecRef) override { return 0; }
  void record(Index step, const std::string& metric, double value) override;
  void save_parameters(Index step) override { saved.push_back(step); }

 protected:
  Trainer& trainer() override { return trainer_; }
  void run_probes(Index step) override;
  void show_progress(Index done, Index total, double loss) override;
  bool stop_requested() const override { return stop_after > 0 && done >= stop_after; }

 private:
  Trainer& trainer_;
  Model& model_;
  Loss& loss_;
  Optimizer& optimizer_;
  Distribution& distribution_;
  Dataset train_, test_;
};

}  // namespace featurelab::testing
