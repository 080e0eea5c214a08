// The facade for hosts (the command line, the Python package, a host of one's own): a session holds the packs on
// the plugin search path and the log, and runs what a host asks of pipelines and run directories.
//
//   Session session(plugin_paths, log);
//   const Plan plan = session.plan("P.toml", {"model.width=200"});   // every problem at once, located
//   for (const auto& warning : plan.warnings()) log->warn("{}", warning);
//   RunRequest request;
//   request.out = "runs/p";
//   const RunOutcome outcome = session.run(plan, request);           // exit code (errors.hpp), directory
//
// Errors come as the types of errors.hpp: ConfigError (every problem, located), PluginError, BusyError (another
// featurelab process holds the run directory), StoppedError (a stop signal before the first job).
#pragma once

#include <featurelab/core/catalog.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

struct RunPlan;

// --job-timeout (seconds, 0 = none) and --job-memory (MiB, 0 = none), asked of every job.
struct JobLimits {
  double timeout = 0;
  std::int64_t memory_mib = 0;
};
// Throws ConfigError naming the option when a limit is out of range.
void check_job_limits(const JobLimits& limits);

// A pipeline file planned and validated: its sweep points, each × its seeds, the jobs.
class Plan {
 public:
  explicit Plan(std::unique_ptr<RunPlan> plan);
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  const std::string& name() const;  // the pipeline's ([experiment] name, or the file's stem)
  std::size_t jobs() const;
  std::size_t points() const;
  // Of the first sweep point: its seeds, probes and assertions.
  std::size_t seeds() const;
  std::size_t probes() const;
  std::size_t assertions() const;
  // What does not stop the run, for the host to show before anything else.
  const std::vector<std::string>& warnings() const;
  // Sweep point i's operative configuration (every parameter, defaults included) as TOML, and its label
  // ("model.width=200 optimizer.lr=0.1"; empty without a sweep).
  std::string operative_toml(std::size_t point) const;
  std::string point_label(std::size_t point) const;

 private:
  friend class Session;
  std::unique_ptr<RunPlan> plan_;
};

// What `featurelab run` asks of a run of a plan.
struct RunRequest {
  std::filesystem::path out;  // empty: runs/<pipeline name>
  int jobs = 0;               // worker processes; 0: the CPUs this process may use
  bool resume = false;        // the directory must hold a run already
  bool prepare_only = false;  // write the directory, run nothing (then run_jobs)
  bool live_progress = false; // one line per running job, redrawn (a terminal)
  JobLimits limits;
  std::string save_params;    // "final", "every:N"; "" saves none
};

// A run's exit code (ExitCode) and its directory (request.out, or runs/<pipeline name>).
struct RunOutcome {
  int exit_code = 0;
  std::filesystem::path out;
};

// What `featurelab job` asks: jobs of a prepared run directory, by index.
struct JobsRequest {
  std::filesystem::path run_dir;
  std::vector<std::size_t> indices;
  int jobs = 0;               // at once; 0: the CPUs this process may use (they share the allocation's CPUs)
  bool live_progress = false;
  JobLimits limits;
};

// What `featurelab eval` asks: probes measured on the parameters a run's jobs saved, without training.
struct EvaluationRequest {
  std::filesystem::path run_dir;
  std::filesystem::path probes_file;  // [[probe]] tables; empty: each job's own probes
  std::string name;                   // jobs/X/eval/<name>; empty: the probes file's stem, or "probes"
  std::optional<long long> step;      // a saved step; none: each job's last saved step
  std::vector<std::size_t> indices;   // empty: every job that saved parameters
  int jobs = 0;                       // at once; 0: the CPUs this process may use
  JobLimits limits;
};

class Session {
 public:
  // The packs on the search path: `plugin_paths` first, then FEATURELAB_PLUGIN_PATH, then the install directory
  // (Catalog::search_path). `log` receives progress and warnings.
  Session(const std::vector<std::string>& plugin_paths, std::shared_ptr<spdlog::logger> log);
  // A session over packs found already (the Python package finds the plugins beside its own library).
  static Session over(Catalog catalog, std::shared_ptr<spdlog::logger> log);

  Catalog& catalog() { return catalog_; }
  spdlog::logger& log() { return *log_; }

  // Plans the sweep, validates every point, checks the assertions against the probes, pins the packs the run will
  // load and checks its components under `limits`.
  Plan plan(const std::filesystem::path& file, const std::vector<std::string>& overrides, const JobLimits& limits = {});
  // Runs every job of the plan (those of a resumed directory that finished are kept), then its assertions; the
  // outcome's exit code is an ExitCode (128 + the signal when a stop signal ended it). Catches SIGINT, SIGTERM and
  // SIGHUP meanwhile: the running jobs finish their step. Throws BusyError when another process holds the directory.
  RunOutcome run(const Plan& plan, const RunRequest& request);
  // The jobs of a prepared run, each under its own lock, with the run's recorded plugin builds; an ExitCode.
  int run_jobs(const JobsRequest& request);
  // Probes on saved parameters, with the run's recorded plugin builds, into jobs/X/eval/<name>; an ExitCode.
  int evaluate(const EvaluationRequest& request);
  // `featurelab collect`: rebuilds summary.csv and asserts.json of runs from their jobs on disk; with `out`, also
  // one CSV joining every run's summary.
  int collect(const std::vector<std::filesystem::path>& runs, const std::filesystem::path& out);

  // The worker processes for `requested` (0: the default, the CPUs this process may use). Throws ConfigError past a
  // bound no machine has.
  int worker_count(int requested);

 private:
  struct Found {};  // over(): a catalog discovered already (a tag, so Session({}, log) means no extra paths)
  Session(Found, Catalog catalog, std::shared_ptr<spdlog::logger> log);

  Catalog catalog_;
  std::shared_ptr<spdlog::logger> log_;
};

}  // namespace featurelab
