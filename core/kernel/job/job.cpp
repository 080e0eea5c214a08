// The job runner: builds the components of a pipeline, samples the data, hands the trainer a
// TrainerHost, runs the probes at evaluation steps and records everything.
#include "kernel/job/job.hpp"

#include "kernel/job/sibling_median.hpp"

#include <featurelab/core/job_state.hpp>
#include "kernel/job/plan.hpp"

#include "kernel/job/augment_check.hpp"
#include "kernel/job/job_components.hpp"
#include "kernel/job/memory_budget.hpp"
#include "kernel/job/metrics_writer.hpp"
#include "kernel/job/out_of_memory.hpp"
#include "kernel/job/progress.hpp"
#include "kernel/job/provenance.hpp"
#include "kernel/io/atomic_file.hpp"
#include "kernel/io/reserved_file.hpp"
#include "kernel/text/names.hpp"

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

#include <algorithm>
#include <chrono>
#include <csignal>
#include <optional>

#include <unistd.h>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// Room for summary.json: its final values take some 60 bytes a metric, so 16 KiB holds a job of a
// few hundred metrics; a larger summary needs the rest of its space when it is written.
constexpr long kSummaryReserveBytes = 16 << 10;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A probe is worth a note when it costs more than a second in all and more per evaluation than the
// training between two evaluations: the job measures more than it trains (`every` on the probe, or a
// cheaper probe, gives the time back).
constexpr double kProbeNoteSeconds = 1.0;

// A probe's names (its own code's, or a Python probe's dict keys) become keys of metrics.jsonl, plot labels and table
// files (tables/<probe>.<table>.step<N>.csv): a metric's may be any text on one line, a table's is a file name's part.
void check_measurement_names(const Measurements& out, const std::string& probe) {
  for (const auto& [name, value] : out.scalars()) {
    if (name.empty() || has_control_character(name)) {
      throw Error(probe + ": the metric name " + shown_with_escapes(name) +
                  (name.empty() ? " is empty" : " holds a control character (it would start a line of its own in plot "
                                                "scripts)") + "; name it with printable characters on one line");
    }
  }
  for (const auto& [name, table] : out.tables()) {
    if (!is_word(name, "-_.=")) {
      throw Error(probe + ": the table name " + shown_with_escapes(name) +
                  " is not a name of letters, digits, '-', '_', '.' and '=' (it names a file in the job's tables/)");
    }
  }
}

class JobRunner final : public TrainerHost {
 public:
  JobRunner(const Pipeline& p, Catalog& catalog, const JobOptions& options)
      : p_(p), catalog_(catalog), options_(options), metrics_(options.dir) {}

  JobResult run() {
    JobResult result;
    const auto start = Clock::now();
    // Outside the try: the handlers below still finish its line (it lived inside the try block
    // once, and the handlers used it after its scope ended: found by AddressSanitizer).
    std::optional<Progress> progress;
    try {
      const auto setup_start = Clock::now();
      build();
      sample();
      c_.model->init(init_rng_);
      if (options_.init_params) {
        const auto& from = *options_.init_params;
        try {
          load_parameter_blocks(*c_.model, from.params.dir, from.params.hashes);
        } catch (const Error& e) {
          throw Error("model.init_from: " + std::string(e.what()));
        }
      }
      time_.setup = seconds_since(setup_start);
      if (options_.load_params) {  // `featurelab eval`: measure saved parameters, train nothing
        load_parameter_blocks(*c_.model, options_.load_params->dir, options_.load_params->hashes);
        run_probes(options_.load_params->step);
        metrics_.close();
        if (!metrics_.failure().empty()) throw Error(metrics_.failure());
        result.ok = true;
        result.steps = options_.load_params->step;
        result.final_metrics = metrics_.final_values();
        result.metrics_lines = metrics_.lines();
        result.metrics_sha256 = metrics_.sha256();
        result.seconds = seconds_since(start);
        result.time = time_;
        return result;
      }
      progress.emplace(options_.label.empty() ? p_.name + " seed " + std::to_string(options_.seed) : options_.label,
                       options_.log, options_.live_progress, options_.slot);
      progress_ = &*progress;
      Rng train_rng(derive_seed(seed(), "train.loop"));
      c_.trainer->train(*this, train_rng);
      finish();
      // The last step's parameters, unless the job was stopped short of it.
      if (options_.save_params.enabled && !stop_requested()) save_params(last_step_);
      metrics_.close();
      // A write that failed is the job's failure even if the trainer caught what it threw.
      if (!metrics_.failure().empty()) throw Error(metrics_.failure());
      result.ok = true;
      result.pruned = pruned_;
      result.interrupted = pruned_.empty() && stop_requested();
    } catch (const std::bad_alloc&) {
      result.error = out_of_memory_in("");
    } catch (const std::exception& e) {
      result.error = e.what();
    }
    // A failed write is the cause of whatever a component made of it.
    if (!metrics_.failure().empty()) result.error = metrics_.failure();
    if (progress) progress->finish();
    progress_ = nullptr;
    result.seconds = seconds_since(start);
    result.time = time_;
    if (result.ok) note_costly_probes(result.seconds);
    result.steps = last_step_;
    result.final_metrics = metrics_.final_values();
    result.history = metrics_.history();
    result.metrics_lines = metrics_.lines();
    result.metrics_sha256 = metrics_.sha256();
    result.saved_params = saved_params_;
    return result;
  }

  // TrainerHost
  Model& model() override { return *c_.model; }
  Loss& loss() override { return *c_.loss; }
  Optimizer& optimizer() override { return *c_.optimizer; }
  Dataset& train_data() override { return train_; }
  const Dataset& test_data() const override { return test_; }
  Distribution& distribution() override { return *c_.distribution; }

  void transform_fresh(Dataset& fresh, Rng& rng) override {
    for (auto& t : c_.transforms) t->apply(fresh, empty_, rng);
    if (!c_.transforms.empty()) fresh.drop_codes();  // a transform may change X: its codes no longer hold
  }

  Batch augment(const Batch& in, Rng& rng) override {
    Batch current = in;
    for (std::size_t i = 0; i < c_.augments.size(); ++i) {
      c_.augments[i]->apply(current, augment_buffers_[i], rng);
      check_augment_output(p_.augments[i], current, augment_buffers_[i], c_.spec);  // a forgotten resize
      augment_buffers_[i].drop_codes();  // new inputs: the input codes (dataset.hpp) were the batch's
      current = Batch::of(augment_buffers_[i]);
    }
    return current;
  }

  Scalar regularize(const Batch& batch, Index step, VecRef grad) override {
    Scalar total = 0;
    for (std::size_t i = 0; i < c_.regularizers.size(); ++i) {
      const std::string who = p_.regularizers[i].path + " (" + p_.regularizers[i].ref.qualified() + ") at step " +
                              std::to_string(step);
      try {
        total += c_.regularizers[i]->add_penalty(*c_.model, batch, step, grad);
      } catch (const std::bad_alloc&) {
        throw Error(out_of_memory_in(who));
      } catch (const std::exception& e) {
        throw Error(who + ": " + e.what());
      }
    }
    last_penalty_ = total;
    return total;
  }

  void save_parameters(Index step) override { save_params(step); }

  void record(Index step, const std::string& metric, double value) override {
    metrics_.scalar(step, metric, value);
    note_metric(step, metric, value);
    // The penalty beside the loss it was added to, so a plot shows both terms of the objective.
    if (metric == "train.loss" && !c_.regularizers.empty()) {
      metrics_.scalar(step, "train.penalty", last_penalty_);
      note_metric(step, "train.penalty", last_penalty_);
    }
  }

 protected:
  Trainer& trainer() override { return *c_.trainer; }

  void run_probes(Index step) override {
    last_step_ = step;
    std::optional<double> pruned_value;  // the [prune] metric at this step, if measured
    for (std::size_t i = 0; i < c_.probes.size(); ++i) {
      if (const auto every = p_.probes[i].every;
          every && step != 0 && step != c_.total_steps && (*every == 0 || step % *every != 0)) {
        continue;
      }
      Measurements out;
      ProbeInput input{*c_.model, *c_.loss, train_, test_, c_.features, c_.named_attacks, step};
      const auto probe_start = Clock::now();
      try {
        c_.probes[i]->measure(input, out);
      } catch (const std::bad_alloc&) {
        throw Error(out_of_memory_in(probe_at(i, step)));
      } catch (const std::exception& e) {
        throw Error(probe_at(i, step) + ": " + e.what());
      }
      check_measurement_names(out, probe_at(i, step));
      const std::string& prefix = p_.probes[i].name;
      time_.probes[prefix] += seconds_since(probe_start);
      ++time_.evaluations[prefix];
      for (const auto& [name, value] : out.scalars()) {
        metrics_.scalar(step, prefix + "." + name, value);
        note_metric(step, prefix + "." + name, value);
        if (pruning_ && p_.prune->metric == prefix + "." + name) pruned_value = value;
      }
      for (const auto& [name, table] : out.tables()) metrics_.table(step, prefix + "." + name, table);
    }
    if (options_.save_params.every > 0 && step % options_.save_params.every == 0) save_params(step);
    if (pruning_ && pruned_value && pruned_.empty()) {
      // Written before the trainer sees the stop, so the log says why the job ends here.
      if (auto why = pruning_->verdict(step, *pruned_value)) {
        pruned_ = *why;
        if (options_.log) options_.log->info("pruned: {}", pruned_);
      }
    }
  }

  void show_progress(Index done, Index total, double loss_value) override {
    last_step_ = done;
    if (progress_) progress_->update(done, total, loss_value);
  }

  bool stop_requested() const override { return !pruned_.empty() || (options_.stop && options_.stop->load()); }

 private:
  std::uint64_t seed() const { return static_cast<std::uint64_t>(options_.seed); }
  // "probe.0 (std:accuracy) at step 0"
  std::string probe_at(std::size_t i, Index step) const {
    return p_.probes[i].path + " (" + p_.probes[i].ref.qualified() + ") at step " + std::to_string(step);
  }

  // jobs/X/params/step<N>/<block>.npy, once per step.
  void save_params(Index step) {
    const std::string dir = saved_step_dir(step);
    if (saved_params_.count(dir + "/" + c_.model->blocks().front().name + ".npy") != 0) return;
    const auto save_start = Clock::now();
    for (auto& [file, hash] : save_parameter_blocks(*c_.model, options_.dir / "params" / dir)) saved_params_[file] = hash;
    time_.saving += seconds_since(save_start);
  }

  // The job log's note of each probe that took longer per evaluation than the training between two.
  void note_costly_probes(double seconds) const {
    if (!options_.log) return;
    double measuring = 0.0;
    for (const auto& [name, spent] : time_.probes) measuring += spent;
    const double training = seconds - time_.setup - time_.saving - measuring;
    for (const auto& [name, spent] : time_.probes) {
      const Index runs = time_.evaluations.at(name);
      const double per_run = spent / double(runs);
      const double between = runs > 1 ? training / double(runs - 1) : training;
      if (spent >= kProbeNoteSeconds && per_run > between) {
        options_.log->warn("probe '{}' took {:.3g}s per evaluation ({} evaluations, {:.3g}s in all), more than the "
                           "{:.3g}s of training between two: give it `every` (a multiple of train.eval_every) or "
                           "make it cheaper", name, per_run, runs, spent, between);
      }
    }
  }

  void build() {
    build_components(p_, catalog_, seed(), options_.log, c_);
    for (const auto& callback : c_.callbacks) add_callback(*callback);
    augment_buffers_.resize(c_.augments.size());
    init_rng_ = Rng(derive_seed(seed(), "model.init"));
  }

  void sample() {
    // data.train / data.test = "all": the split's size, which only a finite distribution knows.
    Index sizes[2] = {p_.train_size, p_.test_size};
    for (auto [split, size, label] : {std::tuple{Split::Train, &sizes[0], "train"}, std::tuple{Split::Test, &sizes[1], "test"}}) {
      if (*size != kAllSamples) continue;
      *size = c_.distribution->available(split);
      if (*size < 0) {
        throw Error("data." + std::string(label) + " = \"all\" but '" + p_.data.use +
                    "' generates samples without end; give a number of samples");
      }
    }
    // Refuse a dataset that cannot fit, with the estimate, instead of meeting the OOM killer (plan_run
    // already did for distributions that declare their dimension; this covers the others and "all").
    if (auto problem = dataset_memory_problem(double(sizes[0]), double(sizes[1]), double(c_.spec.dim)); !problem.empty()) {
      throw Error(problem);
    }
    for (auto [split, n, data, label] : {std::tuple{Split::Train, sizes[0], &train_, "train"},
                                         std::tuple{Split::Test, sizes[1], &test_, "test"}}) {
      const Index available = c_.distribution->available(split);
      if (available >= 0 && n > available) {
        throw Error("data." + std::string(label) + " = " + std::to_string(n) + " but '" + p_.data.use +
                    "' has only " + std::to_string(available) + " " + label + " samples; set data." + label +
                    " <= " + std::to_string(available));
      }
      Rng rng(derive_seed(seed(), std::string("data.") + label));
      if (n > 0) c_.distribution->sample(n, split, rng, *data);
    }
    Rng rng(derive_seed(seed(), "transform"));
    for (auto& t : c_.transforms) t->apply(train_, test_, rng);
    if (!c_.transforms.empty()) {  // a transform may change X: the distribution's input codes no longer hold
      train_.drop_codes();
      test_.drop_codes();
    }
    if (train_.X.cols() != c_.spec.dim) {
      throw Error("data: '" + p_.data.use + "' produced samples of dimension " + std::to_string(train_.X.cols()) +
                  " but declared " + std::to_string(c_.spec.dim) + " (a plugin bug)");
    }
    if (options_.log) {
      options_.log->info("data: {} train and {} test samples of dimension {}, {} classes", train_.size(),
                         test_.size(), c_.spec.dim, c_.spec.classes);
    }
  }

  const Pipeline& p_;
  Catalog& catalog_;
  const JobOptions& options_;
  MetricsWriter metrics_;
  Progress* progress_ = nullptr;

  JobComponents c_;
  Scalar last_penalty_ = 0;
  std::vector<Dataset> augment_buffers_;
  Dataset train_, test_, empty_;
  Rng init_rng_;
  Index last_step_ = 0;
  std::map<std::string, std::string> saved_params_;
  // [prune]'s median rule over the run's other jobs, and why it stopped this one ("" while it goes on).
  // Not in `featurelab eval`, which measures saved weights and trains nothing.
  std::optional<SiblingMedian> pruning_ = p_.prune && !options_.load_params
                                              ? std::optional<SiblingMedian>(std::in_place, *p_.prune, options_.dir)
                                              : std::nullopt;
  std::string pruned_;
  JobTime time_;
};

// summary.json's "time": {"setup": s, "training": s, "saving": s, "probes": {name: {"seconds": s, "evaluations": n}}}.
nlohmann::json time_spent(const JobResult& result) {
  nlohmann::json probes = nlohmann::json::object();
  double measuring = 0.0;
  for (const auto& [name, spent] : result.time.probes) {
    probes[name] = {{"seconds", spent}, {"evaluations", result.time.evaluations.at(name)}};
    measuring += spent;
  }
  const double training = std::max(0.0, result.seconds - result.time.setup - result.time.saving - measuring);
  return {{"setup", result.time.setup}, {"training", training}, {"saving", result.time.saving}, {"probes", probes}};
}

}  // namespace

JobResult run_job(const Pipeline& pipeline, Catalog& catalog, const JobOptions& options) {
  // A file size limit (ulimit -f) would kill the job with SIGXFSZ and take its reason with it;
  // ignored, the write fails with EFBIG and the job reports which file and why.
  ::signal(SIGXFSZ, SIG_IGN);
  // The run made the job's directory; one that is gone was removed or moved under the run, and
  // making it again would scatter results where no run record describes them.
  if (std::string problem = job_directory_problem(options.dir); !problem.empty()) throw Error(problem);
  if (!fs::is_directory(options.dir)) {
    throw Error(fmt::format("{}: the job's directory is gone (was the run directory removed or moved?)",
                            options.dir.string()));
  }
  const std::string started = utc_now();
  const pid_t job_process = ::getpid();
  std::error_code ec;
  fs::remove(options.dir / "done", ec);
  // Space for summary.json, taken before the job writes anything: a disk that the job's metrics
  // fill still takes the summary that says the job failed and why.
  ReservedFile summary_file(options.dir / "summary.json", kSummaryReserveBytes);
  write_file_atomically(options.dir / "config.toml", pipeline.operative_toml());
  JobResult result;
  {
    JobRunner runner(pipeline, catalog, options);
    result = runner.run();
  }
  // A process forked inside the job that returned this far (metrics_writer.hpp) writes no summary and no done marker.
  if (::getpid() != job_process) ::_exit(1);
  nlohmann::json summary;
  summary["pipeline"] = pipeline.name;
  summary["seed"] = options.seed;
  summary["status"] = to_string(!result.ok            ? JobState::failed
                                : result.interrupted   ? JobState::interrupted
                                : !result.pruned.empty() ? JobState::pruned
                                                         : JobState::ok);
  if (result.ok && !result.pruned.empty()) summary["pruned"] = result.pruned;
  if (!result.ok) summary["error"] = result.error;
  summary["steps"] = result.steps;
  summary["seconds"] = result.seconds;
  summary["time"] = time_spent(result);
  nlohmann::json final_metrics = nlohmann::json::object();
  for (const auto& [metric, value] : result.final_metrics) {
    final_metrics[metric] = std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
  }
  summary["final"] = final_metrics;
  // What metrics.jsonl must hold: a reader of a finished job whose file differs reports it damaged (results.hpp).
  summary["metrics_file"] = {{"lines", result.metrics_lines}, {"sha256", result.metrics_sha256}};
  summary["provenance"] = provenance(started, utc_now());
  summary["data_files"] = data_file_hashes();  // {path: sha256} of what the distribution read
  if (!result.saved_params.empty()) summary["saved_params"] = result.saved_params;  // {"step000300/W.npy": sha256}
  if (options.load_params) summary["evaluated"] = {{"params", options.load_params->dir.string()}, {"step", options.load_params->step}};
  if (options.init_params) {
    const auto& from = *options.init_params;
    summary["init_from"] = {{"job", from.job_dir.string()}, {"job_id", from.job_id},       {"seed", from.seed},
                            {"step", from.params.step},     {"params", from.params.dir.string()}, {"files", from.params.hashes}};
  }
  summary_file.write(summary.dump(2) + "\n");
  if (result.ok && !result.interrupted) write_file_atomically(options.dir / "done", "");
  return result;
}

}  // namespace featurelab
