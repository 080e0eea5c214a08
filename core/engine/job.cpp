// The job runner: builds the components of a pipeline, samples the data, hands the trainer a
// TrainerHost, runs the probes at evaluation steps and records everything.
#include "engine/job.hpp"

#include "engine/memory_budget.hpp"
#include "engine/metrics_writer.hpp"
#include "io/atomic_file.hpp"
#include "engine/progress.hpp"

#include <featurelab/attack.hpp>
#include <featurelab/augment.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/regularizer.hpp>
#include <featurelab/trainer.hpp>
#include <featurelab/transform.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <optional>
#include <unistd.h>
#include <fstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

class JobRunner final : public TrainerHost {
 public:
  JobRunner(const Pipeline& p, Catalog& catalog, const JobOptions& options)
      : p_(p), catalog_(catalog), options_(options), metrics_(options.dir) {}

  JobResult run() {
    JobResult result;
    const auto start = std::chrono::steady_clock::now();
    // Outside the try: the handlers below still finish its line (it lived inside the try block
    // once, and the handlers used it after its scope ended: found by AddressSanitizer).
    std::optional<Progress> progress;
    try {
      build();
      sample();
      model_->init(init_rng_);
      progress.emplace(options_.label.empty() ? p_.name + " seed " + std::to_string(options_.seed) : options_.label,
                       options_.log, options_.live_progress, options_.slot);
      progress_ = &*progress;
      Rng train_rng(derive_seed(seed(), "train.loop"));
      trainer_->train(*this, train_rng);
      result.ok = true;
      result.interrupted = stop_requested();
    } catch (const std::bad_alloc&) {
      result.error = "out of memory (the job's memory limit, --job-memory, or the machine's)";
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    if (progress) progress->finish();
    progress_ = nullptr;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.steps = last_step_;
    result.final_metrics = metrics_.final_values();
    result.history = metrics_.history();
    return result;
  }

  // TrainerHost
  Model& model() override { return *model_; }
  Loss& loss() override { return *loss_; }
  Optimizer& optimizer() override { return *optimizer_; }
  Dataset& train_data() override { return train_; }
  const Dataset& test_data() const override { return test_; }
  Distribution& distribution() override { return *distribution_; }

  void transform_fresh(Dataset& fresh, Rng& rng) override {
    for (auto& t : transforms_) t->apply(fresh, empty_, rng);
  }

  Batch augment(const Batch& in, Rng& rng) override {
    Batch current = in;
    for (std::size_t i = 0; i < augments_.size(); ++i) {
      augments_[i]->apply(current, augment_buffers_[i], rng);
      current = Batch::of(augment_buffers_[i]);
    }
    return current;
  }

  Scalar regularize(const Batch& batch, Index step, VecRef grad) override {
    Scalar total = 0;
    for (std::size_t i = 0; i < regularizers_.size(); ++i) {
      try {
        total += regularizers_[i]->add_penalty(*model_, batch, step, grad);
      } catch (const std::exception& e) {
        throw Error(p_.regularizers[i].path + " (" + p_.regularizers[i].ref.qualified() + ") at step " +
                    std::to_string(step) + ": " + e.what());
      }
    }
    last_penalty_ = total;
    return total;
  }

  void evaluate(Index step) override {
    last_step_ = step;
    for (std::size_t i = 0; i < probes_.size(); ++i) {
      Measurements out;
      ProbeInput input{*model_, *loss_, train_, test_, features_, named_attacks_, step};
      try {
        probes_[i]->measure(input, out);
      } catch (const std::exception& e) {
        throw Error(p_.probes[i].path + " (" + p_.probes[i].ref.qualified() + ") at step " + std::to_string(step) +
                    ": " + e.what());
      }
      const std::string& prefix = p_.probes[i].name;
      for (const auto& [name, value] : out.scalars()) metrics_.scalar(step, prefix + "." + name, value);
      for (const auto& [name, table] : out.tables()) metrics_.table(step, prefix + "." + name, table);
    }
  }

  void record(Index step, const std::string& metric, double value) override {
    metrics_.scalar(step, metric, value);
    // The penalty beside the loss it was added to, so a plot shows both terms of the objective.
    if (metric == "train.loss" && !regularizers_.empty()) metrics_.scalar(step, "train.penalty", last_penalty_);
  }

  void progress(Index step, Index total, double loss_value) override {
    last_step_ = step;
    if (progress_) progress_->update(step, total, loss_value);
  }

  bool stop_requested() const override { return options_.stop && options_.stop->load(); }

 private:
  std::uint64_t seed() const { return static_cast<std::uint64_t>(options_.seed); }

  Context context_for(const ComponentConfig& c, const DataSpec& spec) {
    Context ctx;
    ctx.log = options_.log;
    ctx.rng = Rng(derive_seed(seed(), c.path));
    ctx.path = c.path;
    ctx.data = spec;
    ctx.total_steps = total_steps_;
    ctx.features = &features_;
    return ctx;
  }

  template <class T>
  std::shared_ptr<T> make(const ComponentConfig& c, const DataSpec& spec) {
    Context ctx = context_for(c, spec);
    return catalog_.make<T>(c.ref, c.params, ctx);
  }

  void build() {
    distribution_ = make<Distribution>(p_.data, {});
    spec_ = distribution_->spec();
    features_ = distribution_->features();
    for (const auto& t : p_.transforms) {
      transforms_.push_back(make<Transform>(t, spec_));
      spec_ = transforms_.back()->output_spec(spec_);
    }
    trainer_ = make<Trainer>(p_.trainer, spec_);
    total_steps_ = trainer_->total_steps();
    model_ = make<Model>(p_.model, spec_);
    loss_ = make<Loss>(p_.loss, spec_);
    try {
      loss_->check_model(*model_, spec_);
    } catch (const std::exception& e) {
      throw Error("loss '" + p_.loss.use + "' cannot train model '" + p_.model.use + "': " + e.what());
    }
    for (const auto& r : p_.regularizers) {
      regularizers_.push_back(make<Regularizer>(r, spec_));
      try {
        regularizers_.back()->bind(*model_);
      } catch (const std::exception& e) {
        throw Error(r.path + " (" + r.ref.qualified() + ") cannot regularize model '" + p_.model.use + "': " + e.what());
      }
    }
    if (!regularizers_.empty() && !trainer_->applies_regularizers()) {
      throw Error("train: trainer '" + p_.trainer.use + "' does not apply [[regularizer]] penalties; use train.use = "
                  "\"standard\" or remove the [[regularizer]] tables");
    }
    optimizer_ = make<Optimizer>(p_.optimizer, spec_);
    for (const auto& a : p_.augments) augments_.push_back(make<Augment>(a, spec_));
    augment_buffers_.resize(augments_.size());
    for (const auto& a : p_.attacks) {
      attacks_.push_back(make<Attack>(a, spec_));
      named_attacks_.push_back({a.name, attacks_.back().get()});
    }
    for (const auto& probe : p_.probes) probes_.push_back(make<Probe>(probe, spec_));
    init_rng_ = Rng(derive_seed(seed(), "model.init"));
  }

  void sample() {
    // data.train / data.test = "all": the split's size, which only a finite distribution knows.
    Index sizes[2] = {p_.train_size, p_.test_size};
    for (auto [split, size, label] : {std::tuple{Split::Train, &sizes[0], "train"}, std::tuple{Split::Test, &sizes[1], "test"}}) {
      if (*size != kAllSamples) continue;
      *size = distribution_->available(split);
      if (*size < 0) {
        throw Error("data." + std::string(label) + " = \"all\" but '" + p_.data.use +
                    "' generates samples without end; give a number of samples");
      }
    }
    // Refuse a dataset that cannot fit, with the estimate, instead of meeting the OOM killer (plan_run
    // already did for distributions that declare their dimension; this covers the others and "all").
    if (auto problem = dataset_memory_problem(double(sizes[0]), double(sizes[1]), double(spec_.dim)); !problem.empty()) {
      throw Error(problem);
    }
    for (auto [split, n, data, label] : {std::tuple{Split::Train, sizes[0], &train_, "train"},
                                         std::tuple{Split::Test, sizes[1], &test_, "test"}}) {
      const Index available = distribution_->available(split);
      if (available >= 0 && n > available) {
        throw Error("data." + std::string(label) + " = " + std::to_string(n) + " but '" + p_.data.use +
                    "' has only " + std::to_string(available) + " " + label + " samples; set data." + label +
                    " <= " + std::to_string(available));
      }
      Rng rng(derive_seed(seed(), std::string("data.") + label));
      if (n > 0) distribution_->sample(n, split, rng, *data);
    }
    Rng rng(derive_seed(seed(), "transform"));
    for (auto& t : transforms_) t->apply(train_, test_, rng);
    if (train_.X.cols() != spec_.dim) {
      throw Error("data: '" + p_.data.use + "' produced samples of dimension " + std::to_string(train_.X.cols()) +
                  " but declared " + std::to_string(spec_.dim) + " (a plugin bug)");
    }
    if (options_.log) {
      options_.log->info("data: {} train and {} test samples of dimension {}, {} classes", train_.size(),
                         test_.size(), spec_.dim, spec_.classes);
    }
  }

  const Pipeline& p_;
  Catalog& catalog_;
  const JobOptions& options_;
  MetricsWriter metrics_;
  Progress* progress_ = nullptr;

  std::shared_ptr<Distribution> distribution_;
  std::vector<std::shared_ptr<Transform>> transforms_;
  std::shared_ptr<Trainer> trainer_;
  std::shared_ptr<Model> model_;
  std::shared_ptr<Loss> loss_;
  std::shared_ptr<Optimizer> optimizer_;
  std::vector<std::shared_ptr<Regularizer>> regularizers_;
  Scalar last_penalty_ = 0;
  std::vector<std::shared_ptr<Augment>> augments_;
  std::vector<Dataset> augment_buffers_;
  std::vector<std::shared_ptr<Attack>> attacks_;
  std::vector<NamedAttack> named_attacks_;
  std::vector<std::shared_ptr<Probe>> probes_;
  FeatureSet features_;
  DataSpec spec_;
  Dataset train_, test_, empty_;
  Rng init_rng_;
  Index total_steps_ = 0;
  Index last_step_ = 0;
};

}  // namespace

JobResult run_job(const Pipeline& pipeline, Catalog& catalog, const JobOptions& options) {
  fs::create_directories(options.dir);
  std::error_code ec;
  fs::remove(options.dir / "done", ec);
  write_file_atomically(options.dir / "config.toml", pipeline.operative_toml());
  JobResult result;
  {
    JobRunner runner(pipeline, catalog, options);
    result = runner.run();
  }
  nlohmann::json summary;
  summary["pipeline"] = pipeline.name;
  summary["seed"] = options.seed;
  summary["status"] = result.ok ? (result.interrupted ? "interrupted" : "ok") : "failed";
  if (!result.ok) summary["error"] = result.error;
  summary["steps"] = result.steps;
  summary["seconds"] = result.seconds;
  nlohmann::json final_metrics = nlohmann::json::object();
  for (const auto& [metric, value] : result.final_metrics) {
    final_metrics[metric] = std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
  }
  summary["final"] = final_metrics;
  write_file_atomically(options.dir / "summary.json", summary.dump(2) + "\n");
  if (result.ok && !result.interrupted) write_file_atomically(options.dir / "done", "");
  return result;
}

}  // namespace featurelab
