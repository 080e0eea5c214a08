// The components of one job, built from a validated pipeline in the order their inputs need: the
// distribution (the data spec, the features), the transforms (the spec after them), the trainer
// (its total steps, for schedules), the model, the loss (checked against the model), the
// regularizers (bound to the model), the optimizer, the augments, the attacks and the probes.
// A job builds them to run; `validate` and `run` build them once per sweep point before any job
// starts, so an incompatibility is refused up front.
#pragma once

#include "kernel/config/pipeline.hpp"

#include <featurelab/attack.hpp>
#include <featurelab/augment.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/regularizer.hpp>
#include <featurelab/trainer.hpp>
#include <featurelab/transform.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

class Catalog;


struct JobComponents {
  JobComponents() = default;
  JobComponents(const JobComponents&) = delete;  // components hold &features: never moved
  JobComponents& operator=(const JobComponents&) = delete;

  std::shared_ptr<Distribution> distribution;
  std::vector<std::shared_ptr<Transform>> transforms;
  std::shared_ptr<Trainer> trainer;
  std::shared_ptr<Model> model;
  std::shared_ptr<Loss> loss;
  std::vector<std::shared_ptr<Regularizer>> regularizers;
  std::shared_ptr<Optimizer> optimizer;
  std::vector<std::shared_ptr<Augment>> augments;
  std::vector<std::shared_ptr<Attack>> attacks;
  std::vector<NamedAttack> named_attacks;
  std::vector<std::shared_ptr<Probe>> probes;
  std::vector<std::shared_ptr<Callback>> callbacks;
  FeatureSet features;  // the distribution's ground truth
  DataSpec spec;        // the data after the transforms
  Index total_steps = 0;
};

// A component that could not be built, or does not fit the others: where its section is.
class ComponentError : public Error {
 public:
  ComponentError(std::string where, const std::string& message) : Error(message), where_(std::move(where)) {}
  const std::string& where() const { return where_; }  // file:line of the component's section

 private:
  std::string where_;
};

// Builds every component of the pipeline with the job's seed into `out` (empty). Throws
// ComponentError naming the component's place and name.
void build_components(const Pipeline& p, Catalog& catalog, std::uint64_t seed, spdlog::logger* log, JobComponents& out);

}  // namespace featurelab
