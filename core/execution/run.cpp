// Runs: run directory bookkeeping, worker processes, aggregation and assertions.
#include "execution/run.hpp"

#include "kernel/config/validate.hpp"
#include "results/run_assertions.hpp"
#include "kernel/job/job.hpp"
#include "kernel/job/metrics_writer.hpp"
#include "kernel/job/provenance.hpp"
#include "kernel/job/build_revision.hpp"
#include "results/run_records.hpp"
#include "execution/init_params.hpp"
#include "execution/run_builds.hpp"
#include "kernel/io/run_lock.hpp"
#include "execution/stop_signals.hpp"
#include "execution/worker_job.hpp"
#include "execution/workers.hpp"
#include "kernel/io/atomic_file.hpp"

#include <featurelab/product_kernel.hpp>
#include <featurelab/version.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <unistd.h>

namespace featurelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json manifest(const RunPlan& plan) {
  json m;
  m["featurelab_version"] = FEATURELAB_SDK_VERSION;
  m["abi"] = FEATURELAB_ABI_VERSION;
  m["git_revision"] = build_git_revision();  // at build time; "" outside a git work tree
  m["git_dirty"] = build_git_dirty();
  m["host"] = host_name();
  m["fingerprint"] = build_fingerprint();
  // What runs the blocked products in every job (run_builds.hpp: a run taken up again uses it too).
  m["product_kernel"] = {{"kernel", product_kernel_name(product_kernel())}, {"why", product_kernel_reason()}};
  m["pipeline"] = fs::absolute(plan.file).string();
  json packs = json::array();
  for (const PackRecord* pack : packs_of(plan)) {
    // Pinned already (pin_run_packs) unless the caller skipped it; either way before any worker forks,
    // so every job loads these bytes (run_builds.hpp).
    packs.push_back({{"pack", pack->manifest.name},
                     {"version", pack->manifest.version},
                     {"path", fs::absolute(pack->manifest.library_file).string()},
                     {"fingerprint", pack->manifest.fingerprint},
                     {"sha256", Catalog::pin(*pack)}});
  }
  m["packs"] = packs;
  return m;
}

json run_record(const RunPlan& plan, const SaveParams& save_params, const json& provenance_record) {
  json r;
  r["format"] = kRunFormat;
  r["featurelab_version"] = FEATURELAB_SDK_VERSION;
  r["pipeline"] = fs::absolute(plan.file).string();
  r["name"] = plan.points.front().name;
  r["overrides"] = plan.overrides;
  json axes = json::array();
  for (const auto& a : plan.axes) {
    axes.push_back({{"key", a.key}, {"values", a.values}});
    if (a.zipped) axes.back()["search"] = true;  // [search]'s: value i of each is drawn point i, not a grid
  }
  r["axes"] = axes;
  json jobs = json::array();
  for (const auto& j : plan.jobs) {
    jobs.push_back({{"index", j.index}, {"id", j.id}, {"dir", j.dir}, {"seed", j.seed}, {"point", j.point},
                    {"assignments", j.assignments}});
  }
  r["jobs"] = jobs;
  if (save_params.enabled) r["save_params"] = save_params.text();
  r["provenance"] = provenance_record;  // the command that wrote the run directory
  return r;
}

void report_points(const std::vector<JobRecord>& jobs, spdlog::logger* log) {
  if (!log) return;
  std::map<std::size_t, std::map<std::string, std::vector<double>>> values;
  std::map<std::size_t, std::string> labels;
  for (const auto& j : jobs) {
    labels[j.spec.point] = j.spec.point_label();
    if (!j.ok()) continue;
    for (const auto& [m, v] : j.final_values) values[j.spec.point][m].push_back(v);
  }
  for (const auto& [point, metrics] : values) {
    if (!labels[point].empty()) log->info("{}", labels[point]);
    for (const auto& [metric, vs] : metrics) {
      const MeanSd m = mean_and_sd(vs);
      log->info("  {:<44} {:>10.4g} ± {:<8.2g} (n={})", metric, m.mean, m.sd, vs.size());
    }
  }
}

std::vector<AssertSpec> asserts_of_run(const fs::path& run_dir, const StoredRun& run, Catalog& catalog) {
  if (run.jobs.empty()) return {};
  const fs::path config = run_dir / "jobs" / run.jobs.front().dir / "config.toml";
  return validate_pipeline(load_pipeline(config, {}), catalog).asserts;
}

// Writes summary.csv and asserts.json from the jobs on disk. Returns the exit code: 1 when a
// job failed, an assertion did not hold or the results could not be written; else
// `interrupted_code` when the run was stopped (0: it was not).
int finish(const fs::path& out, const std::vector<SweepAxis>& axes, const std::vector<JobSpec>& specs,
           const std::vector<AssertSpec>& asserts, spdlog::logger* log, int interrupted_code) {
  std::vector<JobRecord> records;
  std::size_t failed = 0, pruned = 0;
  for (const auto& spec : specs) {
    records.push_back(load_job(out / "jobs" / spec.dir, spec));
    if (records.back().status == JobState::pruned) {
      ++pruned;
    } else if (!records.back().ok()) {
      ++failed;
    }
    // Its worker reported it ok when it ended; the file changed since (a resumed run, collect).
    if (records.back().damaged && log) log->error("job {}: {}", spec.index, records.back().error);
  }
  bool written = true;
  auto write = [&](const char* what, const std::function<void()>& write_it) {
    try {
      write_it();
    } catch (const std::exception& e) {
      // The jobs' own results are whole; only the run's tables are missing.
      written = false;
      if (log) {
        log->error("cannot write {}: {}; the jobs are kept, and featurelab collect {} rebuilds it", what, e.what(),
                   out.string());
      }
    }
  };
  write("summary.csv", [&] { write_summary_csv(out / "summary.csv", axes, records); });
  report_points(records, log);
  // Not a structured binding: C++17 lambdas cannot capture one (Clang refuses it).
  const std::pair<nlohmann::json, bool> verdicts = evaluate_assertions(asserts, records, log);
  const bool held = verdicts.second;
  write("asserts.json", [&] { write_file_atomically(out / "asserts.json", verdicts.first.dump(2) + "\n"); });
  if (log) {
    log->info("{} job(s): {} ok, {}{} not ok; results in {}", records.size(), records.size() - failed - pruned,
              pruned > 0 ? fmt::format("{} pruned, ", pruned) : std::string(), failed, out.string());
  }
  if (!written) return kExitRunFailed;
  if (interrupted_code != 0) return interrupted_code;
  return failed > 0 || !held ? kExitRunFailed : kExitOk;
}

// Whether the directory holds nothing but the lock file of a run that never got further.
bool holds_only_lock(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename() != kLockFileName) return false;
  }
  return true;
}

// [model] init_from resolved for every job before any starts: a source that is missing a seed, a point or a step
// stops the run here, located at the pipeline's line, not job by job after the others have run.
void refuse_unresolved_init_sources(const RunPlan& plan) {
  std::vector<Diagnostic> errors;
  std::set<std::string> seen;
  for (const auto& job : plan.jobs) {
    const Pipeline& pipeline = plan.pipeline_of(job);
    if (!pipeline.init_from) continue;
    try {
      resolve_init_params(*pipeline.init_from, job.seed);
    } catch (const Error& e) {
      if (seen.insert(e.what()).second) errors.push_back({pipeline.init_from->where, "model.init_from: " + std::string(e.what())});
    }
  }
  if (!errors.empty()) throw ConfigError(errors);
}

}  // namespace

WorkerPoolOptions worker_pool_options(const RunOptions& options, double pipeline_timeout) {
  WorkerPoolOptions pool;
  pool.workers = options.jobs;
  pool.cores = options.cores;
  pool.stop = options.stop;
  pool.live = options.live_progress;
  pool.log = options.log;
  pool.job_timeout = options.job_timeout > 0 ? options.job_timeout : pipeline_timeout;
  pool.job_memory_mb = options.job_memory_mb;
  return pool;
}

int execute_run(const RunPlan& plan, Catalog& catalog, const RunOptions& options) {
  const fs::path& out = options.out;
  const auto not_a_run = [&] {
    return ConfigError({{out.string(), "exists and is not a featurelab run directory; use another --out"}});
  };
  // Refused before anything (the lock file) is put into it.
  if (!fs::exists(out / "run.json") && !fs::exists(out / kLockFileName) && fs::exists(out) && !fs::is_empty(out)) {
    throw not_a_run();
  }
  fs::create_directories(out);
  // One writer per run directory, until this function returns (and while any worker lives).
  const DirectoryLock lock(out, DirectoryLock::Mode::exclusive, "the run directory");
  // A directory made by another pipeline or version is never mixed with this run.
  if (fs::exists(out / "run.json")) {
    const StoredRun stored = read_run_record(out);
    if (stored.version != FEATURELAB_SDK_VERSION) {
      throw ConfigError({{out.string(), "this run directory was made by featurelab " + stored.version +
                                            ", this is " + FEATURELAB_SDK_VERSION +
                                            "; use another --out, or collect it with that version"}});
    }
    std::vector<std::string> old_ids, new_ids;
    for (const auto& j : stored.jobs) old_ids.push_back(j.id);
    for (const auto& j : plan.jobs) new_ids.push_back(j.id);
    if (old_ids != new_ids) {
      throw ConfigError({{out.string(), "this run directory holds the jobs of another configuration (" +
                                            std::to_string(old_ids.size()) + " jobs, " +
                                            std::to_string(new_ids.size()) +
                                            " now, or other parameters); use another --out, or delete it"}});
    }
  } else if (!holds_only_lock(out)) {
    throw not_a_run();
  }
  refuse_unresolved_init_sources(plan);
  fs::create_directories(out / "jobs");
  write_file_atomically(out / "pipeline.toml", plan.text);
  write_file_atomically(out / "config.toml", plan.points.front().operative_toml());
  write_file_atomically(out / "manifest.json", manifest(plan).dump(2) + "\n");
  std::vector<std::size_t> todo;
  std::vector<std::string> labels;
  for (const auto& job : plan.jobs) {
    const fs::path dir = out / "jobs" / job.dir;
    const bool own_directory = job_directory_problem(dir).empty();  // else its worker fails it, writing nothing
    if (own_directory) fs::create_directories(dir);
    if (!own_directory) {
      todo.push_back(job.index);
    } else if (!fs::exists(dir / "done")) {
      write_file_atomically(dir / "config.toml", plan.pipeline_of(job).operative_toml());
      todo.push_back(job.index);
    }
    labels.push_back(fmt::format("#{} seed {} {}", job.index, job.seed, job.point_label()));
  }
  const std::string started = utc_now();
  write_file_atomically(out / "run.json", run_record(plan, options.save_params, provenance(started)).dump(2) + "\n");
  if (options.log) {
    const std::size_t skipped = plan.jobs.size() - todo.size();
    options.log->info("{}: {} job(s) ({} sweep point(s) × {} seed(s)){}, {} worker(s), into {}", plan.points.front().name,
                      plan.jobs.size(), plan.points.size(), plan.points.front().seeds.size(),
                      skipped ? fmt::format(", {} already done", skipped) : std::string(),
                      std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), std::max<std::size_t>(todo.size(), 1)),
                      out.string());
  }
  if (options.prepare_only) {
    if (options.log) {
      options.log->info("prepared; on Slurm: featurelab submit {}; elsewhere: featurelab job {} --indices LIST", out.string(),
                        out.string());
    }
    return kExitOk;
  }

  WorkerPoolOptions pool = worker_pool_options(options, plan.points.front().timeout);
  pool.lost = [&] { return lock.lost(out); };
  const WorkerPoolReport report = run_in_workers(
      todo, labels,
      [&](std::size_t index, ProgressSlot* slot) {
        const JobSpec& spec = plan.jobs[index];
        return run_job_in_worker(plan.pipeline_of(spec), spec, out / "jobs" / spec.dir, labels[index], catalog,
                                 options.stop, slot, options.save_params);
      },
      [&](std::size_t index, const WorkerExit& exit) {
        const JobSpec& spec = plan.jobs[index];
        const RecordedExit recorded = record_worker_exit(plan.pipeline_of(spec), spec, out / "jobs" / spec.dir, exit);
        log_job_end(options.log, labels[index], recorded, exit.seconds);
        return recorded.status == JobState::ok || recorded.status == JobState::pruned;  // pruned: finished as asked
      },
      pool);
  if (!report.lost_reason.empty()) {
    // Nothing more is written: summary.csv and asserts.json would describe jobs whose files are gone.
    if (options.log) {
      options.log->error("{}; its running jobs were stopped and no other was started. Nothing more is written "
                         "there; run again into a new --out", report.lost_reason);
    }
    return kExitRunFailed;
  }
  if (report.not_started > 0 && options.log) {
    options.log->error("{} job(s) not started: {}; run again with --resume once processes are free, or with fewer --jobs",
                       report.not_started, report.not_started_reason);
  }
  const bool interrupted = options.stop && options.stop->load();
  try {
    write_file_atomically(out / "run.json", run_record(plan, options.save_params, provenance(started, utc_now())).dump(2) + "\n");
  } catch (const std::exception& e) {
    if (options.log) options.log->warn("cannot record the run's end in run.json: {}", e.what());
  }
  return finish(out, plan.axes, plan.jobs, plan.points.front().asserts, options.log,
                interrupted ? stopped_exit_code() : 0);
}

int collect_runs(const std::vector<fs::path>& runs, const fs::path& out, Catalog& catalog, spdlog::logger* log) {
  int code = kExitOk;
  std::vector<std::pair<std::string, std::vector<JobRecord>>> all;
  for (const auto& run_dir : runs) {
    const StoredRun run = read_run_record(run_dir);
    const int c = finish(run_dir, run.axes, run.jobs, asserts_of_run(run_dir, run, catalog), log, 0);
    code = std::max(code, c);
    std::vector<JobRecord> records;
    for (const auto& spec : run.jobs) records.push_back(load_job(run_dir / "jobs" / spec.dir, spec));
    all.emplace_back(run_dir.filename().string(), std::move(records));
  }
  if (!out.empty()) {
    // The joined table: one row per run, sweep point and metric, a column per sweep key of any run (empty
    // where a run has no such axis), as in each run's summary.csv.
    std::vector<std::string> keys;
    for (const auto& run_dir : runs) {
      for (const auto& axis : read_run_record(run_dir).axes) {
        if (std::find(keys.begin(), keys.end(), axis.key) == keys.end()) keys.push_back(axis.key);
      }
    }
    std::ostringstream joined;
    joined << "run,point";
    for (const auto& key : keys) joined << "," << csv_field(key);
    joined << ",metric,n,mean,std,min,max\n";
    for (const auto& [name, records] : all) {
      for (const auto& row : summarize(records)) {
        joined << csv_field(name) << "," << row.point;
        for (const auto& key : keys) {
          std::string value;
          for (const auto& [k, v] : row.assignments) {
            if (k == key) value = v;
          }
          joined << "," << csv_field(value);
        }
        joined << "," << csv_field(row.metric) << "," << row.n << "," << json_number(row.mean) << "," << json_number(row.std) << ","
               << json_number(row.min) << "," << json_number(row.max) << "\n";
      }
    }
    write_file_atomically(out, joined.str());
    if (log) log->info("joined summary of {} run(s) in {}", runs.size(), out.string());
  }
  return code;
}

}  // namespace featurelab
