// A callback runs at fixed points of every trainer's loop, from TOML ([[callback]] tables), so early stopping,
// gradient clipping and the like are components of a pipeline, not edits of a trainer (ensmallen's callbacks).
// The loop's shared part (TrainerHost, trainer.hpp) calls each callback in the order of the pipeline:
//
//   host.start()        begin(host), then the probes at step 0, then after_evaluation(host, 0, metrics)
//   host.check_step()   before_update(host, t, grad): after the loss gradient and the regularizers' penalties, before
//                       the update of 0-based step t; the gradient may be changed in place (clipped, projected)
//   host.end_step()     after_step(host, done, loss) after the update; when the probes run,
//                       after_evaluation(host, done, metrics) with every metric recorded at that step
//   host.finish()       end(host, step) after the last probes
//
// after_step and after_evaluation return false to stop the job: the trainer's end_step() then returns false, the
// trainer returns, and the job ends as it would at its last step (the probes see the step it stopped at, the job
// is ok). A callback records what it did with host.record(step, "<its name>.<metric>", value).
#pragma once

#include <featurelab/component.hpp>
#include <featurelab/types.hpp>

#include <map>
#include <string>

namespace featurelab {

class TrainerHost;

// The scalar metrics recorded at one evaluation step (the probes', train.loss, the trainer's own), by name.
using StepMetrics = std::map<std::string, double>;

class Callback : public Component {
 public:
  static constexpr Kind kind_id = Kind::Callback;
  static constexpr const char* interface_id = "featurelab.callback/1";

  virtual void begin(TrainerHost& /*host*/) {}
  virtual void before_update(TrainerHost& /*host*/, Index /*step*/, VecRef /*grad*/) {}
  virtual bool after_step(TrainerHost& /*host*/, Index /*done*/, double /*loss*/) { return true; }
  virtual bool after_evaluation(TrainerHost& /*host*/, Index /*step*/, const StepMetrics& /*metrics*/) { return true; }
  virtual void end(TrainerHost& /*host*/, Index /*step*/) {}
};

}  // namespace featurelab
