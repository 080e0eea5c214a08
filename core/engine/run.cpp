// Runs: run directory bookkeeping, worker processes, aggregation and assertions.
#include "engine/run.hpp"

#include "config/validate.hpp"
#include "engine/run_assertions.hpp"
#include "engine/job.hpp"
#include "engine/metrics_writer.hpp"
#include "engine/results.hpp"
#include "engine/run_builds.hpp"
#include "engine/workers.hpp"
#include "io/atomic_file.hpp"

#include <featurelab/version.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

#ifndef FEATURELAB_GIT_REVISION
#define FEATURELAB_GIT_REVISION ""
#endif

namespace featurelab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

json manifest(const RunPlan& plan) {
  json m;
  m["featurelab_version"] = FEATURELAB_SDK_VERSION;
  m["abi"] = FEATURELAB_ABI_VERSION;
  m["git_revision"] = FEATURELAB_GIT_REVISION;
  m["host"] = hostname();
  m["fingerprint"] = build_fingerprint();
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

json run_record(const RunPlan& plan) {
  json r;
  r["format"] = kRunFormat;
  r["featurelab_version"] = FEATURELAB_SDK_VERSION;
  r["pipeline"] = fs::absolute(plan.file).string();
  r["name"] = plan.points.front().name;
  r["overrides"] = plan.overrides;
  json axes = json::array();
  for (const auto& a : plan.axes) axes.push_back({{"key", a.key}, {"values", a.values}});
  r["axes"] = axes;
  json jobs = json::array();
  for (const auto& j : plan.jobs) {
    jobs.push_back({{"index", j.index}, {"id", j.id}, {"dir", j.dir}, {"seed", j.seed}, {"point", j.point},
                    {"assignments", j.assignments}});
  }
  r["jobs"] = jobs;
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
      double mean = 0;
      for (double v : vs) mean += v;
      mean /= static_cast<double>(vs.size());
      double var = 0;
      for (double v : vs) var += (v - mean) * (v - mean);
      const double sd = vs.size() > 1 ? std::sqrt(var / static_cast<double>(vs.size() - 1)) : 0.0;
      log->info("  {:<44} {:>10.4g} ± {:<8.2g} (n={})", metric, mean, sd, vs.size());
    }
  }
}

std::shared_ptr<spdlog::logger> job_logger(const fs::path& dir) {
  auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>((dir / "log.txt").string(), true);
  auto log = std::make_shared<spdlog::logger>("job", sink);
  log->set_pattern("[%H:%M:%S.%e] %l %v");
  log->flush_on(spdlog::level::info);
  return log;
}

std::vector<AssertSpec> asserts_of_run(const fs::path& run_dir, const StoredRun& run, Catalog& catalog) {
  if (run.jobs.empty()) return {};
  const fs::path config = run_dir / "jobs" / run.jobs.front().dir / "config.toml";
  return validate_pipeline(load_pipeline(config, {}), catalog).asserts;
}

int finish(const fs::path& out, const std::vector<SweepAxis>& axes, const std::vector<JobSpec>& specs,
           const std::vector<AssertSpec>& asserts, spdlog::logger* log, bool interrupted) {
  std::vector<JobRecord> records;
  std::size_t failed = 0;
  for (const auto& spec : specs) {
    records.push_back(load_job(out / "jobs" / spec.dir, spec));
    if (!records.back().ok()) ++failed;
  }
  write_summary_csv(out / "summary.csv", axes, records);
  report_points(records, log);
  auto [asserts_json, held] = evaluate_assertions(asserts, records, log);
  write_file_atomically(out / "asserts.json", asserts_json.dump(2) + "\n");
  if (log) {
    log->info("{} job(s): {} ok, {} not ok; results in {}", records.size(), records.size() - failed, failed,
              out.string());
  }
  if (interrupted) return kExitInterrupted;
  return failed > 0 || !held ? kExitRunFailed : kExitOk;
}

// " in model 'crash-model' (/abs/libfixture.so)": the job's components that come from the pack
// library a worker was executing when it crashed or was killed.
std::string crash_site_text(const Pipeline& p, const std::string& library) {
  if (library.empty()) return "";
  std::vector<std::string> names;
  auto add = [&](const ComponentConfig& c) {
    if (!c.ref.pack || !c.ref.component) return;
    std::error_code ec;
    if (fs::absolute(c.ref.pack->manifest.library_file, ec).lexically_normal() != fs::path(library)) return;
    const std::string name = std::string(to_string(c.kind)) + " '" + c.ref.component->name + "'";
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const ComponentConfig* c : {&p.data, &p.model, &p.loss, &p.optimizer, &p.trainer}) add(*c);
  for (const auto* list : {&p.transforms, &p.augments, &p.regularizers, &p.probes, &p.attacks}) {
    for (const auto& c : *list) add(c);
  }
  std::string joined;
  for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
  return " in " + (joined.empty() ? "" : joined + " ") + "(" + library + ")";
}

}  // namespace

int execute_run(const RunPlan& plan, Catalog& catalog, const RunOptions& options) {
  const fs::path& out = options.out;
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
  } else if (fs::exists(out) && !fs::is_empty(out)) {
    throw ConfigError({{out.string(), "exists and is not a featurelab run directory; use another --out"}});
  }
  fs::create_directories(out / "jobs");
  write_file_atomically(out / "pipeline.toml", plan.text);
  write_file_atomically(out / "config.toml", plan.points.front().operative_toml());
  write_file_atomically(out / "manifest.json", manifest(plan).dump(2) + "\n");
  std::vector<std::size_t> todo;
  std::vector<std::string> labels;
  for (const auto& job : plan.jobs) {
    const fs::path dir = out / "jobs" / job.dir;
    fs::create_directories(dir);
    if (!fs::exists(dir / "done")) {
      write_file_atomically(dir / "config.toml", plan.pipeline_of(job).operative_toml());
      todo.push_back(job.index);
    }
    labels.push_back(fmt::format("#{} seed {} {}", job.index, job.seed, job.point_label()));
  }
  write_file_atomically(out / "run.json", run_record(plan).dump(2) + "\n");
  if (options.log) {
    const std::size_t skipped = plan.jobs.size() - todo.size();
    options.log->info("{}: {} job(s) ({} sweep point(s) × {} seed(s)){}, {} worker(s), into {}", plan.points.front().name,
                      plan.jobs.size(), plan.points.size(), plan.points.front().seeds.size(),
                      skipped ? fmt::format(", {} already done", skipped) : std::string(),
                      std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), std::max<std::size_t>(todo.size(), 1)),
                      out.string());
  }
  if (options.prepare_only) {
    if (options.log) options.log->info("prepared; run each job with: featurelab job {} --index I", out.string());
    return kExitOk;
  }

  WorkerPoolOptions pool;
  pool.workers = options.jobs;
  pool.stop = options.stop;
  pool.live = options.live_progress;
  pool.log = options.log;
  pool.job_timeout = options.job_timeout > 0 ? options.job_timeout : plan.points.front().timeout;
  pool.job_memory_mb = options.job_memory_mb;
  run_in_workers(
      todo, labels,
      [&](std::size_t index, ProgressSlot* slot) {
        const JobSpec& spec = plan.jobs[index];
        const fs::path dir = out / "jobs" / spec.dir;
        auto log = job_logger(dir);
        JobOptions job;
        job.dir = dir;
        job.seed = spec.seed;
        job.log = log.get();
        job.stop = options.stop;
        job.slot = slot;
        job.label = labels[index];
        const JobResult result = run_job(plan.pipeline_of(spec), catalog, job);
        if (!result.ok) log->error("{}", result.error);
        log->flush();
        return result.ok ? (result.interrupted ? 3 : 0) : 1;
      },
      [&](std::size_t index, const WorkerExit& exit) {
        const JobSpec& spec = plan.jobs[index];
        const fs::path dir = out / "jobs" / spec.dir;
        std::string status = "ok";
        std::string error;
        if (!exit.ok) {
          // The child writes summary.json itself unless it died; then the parent does.
          const JobRecord r = load_job(dir, spec);
          if (r.status == "missing" || r.status == "ok") {
            status = "failed";
            error = exit.reason + crash_site_text(plan.pipeline_of(spec), exit.site);
            json summary{{"pipeline", plan.pipeline_of(spec).name}, {"seed", spec.seed}, {"status", "failed"},
                         {"error", error}, {"seconds", exit.seconds}, {"final", json::object()}};
            write_file_atomically(dir / "summary.json", summary.dump(2) + "\n");
            std::ofstream(dir / "log.txt", std::ios::app) << "job ended: " << error << "\n";
          } else {
            status = r.status;
            error = r.error;
          }
        }
        if (!options.log) return;
        if (status == "ok") {
          options.log->info("{} done in {:.1f}s", labels[index], exit.seconds);
        } else if (status == "interrupted") {
          options.log->warn("{} interrupted", labels[index]);
        } else {
          options.log->error("{} failed: {}", labels[index], error);
        }
      },
      pool);
  const bool interrupted = options.stop && options.stop->load();
  return finish(out, plan.axes, plan.jobs, plan.points.front().asserts, options.log, interrupted);
}

int run_one_job(const fs::path& run_dir, std::size_t index, Catalog& catalog, spdlog::logger* log) {
  const StoredRun run = read_run_record(run_dir);
  if (index >= run.jobs.size()) {
    throw ConfigError({{run_dir.string(), "--index " + std::to_string(index) + " is out of range: this run has " +
                                              std::to_string(run.jobs.size()) + " jobs (0 to " +
                                              std::to_string(run.jobs.size() - 1) + ")"}});
  }
  const JobSpec& spec = run.jobs[index];
  const fs::path dir = run_dir / "jobs" / spec.dir;
  const Pipeline pipeline = validate_pipeline(load_pipeline(dir / "config.toml", {}), catalog);
  if (job_id(pipeline, spec.seed) != spec.id) {
    throw ConfigError({{(dir / "config.toml").string(), "does not match the job's id in run.json (edited by hand?)"}});
  }
  if (fs::exists(dir / "done")) {
    if (log) log->info("job {} is already done", index);
    return kExitOk;
  }
  auto file_log = job_logger(dir);
  JobOptions job;
  job.dir = dir;
  job.seed = spec.seed;
  job.log = file_log.get();
  const JobResult result = run_job(pipeline, catalog, job);
  if (log) {
    if (result.ok) {
      log->info("job {} done in {:.1f}s", index, result.seconds);
    } else {
      log->error("job {} failed: {}", index, result.error);
    }
  }
  return result.ok ? kExitOk : kExitRunFailed;
}

int collect_runs(const std::vector<fs::path>& runs, const fs::path& out, Catalog& catalog, spdlog::logger* log) {
  int code = kExitOk;
  std::vector<std::pair<std::string, std::vector<JobRecord>>> all;
  for (const auto& run_dir : runs) {
    const StoredRun run = read_run_record(run_dir);
    const int c = finish(run_dir, run.axes, run.jobs, asserts_of_run(run_dir, run, catalog), log, false);
    code = std::max(code, c);
    std::vector<JobRecord> records;
    for (const auto& spec : run.jobs) records.push_back(load_job(run_dir / "jobs" / spec.dir, spec));
    all.emplace_back(run_dir.filename().string(), std::move(records));
  }
  if (!out.empty()) {
    // The joined table: one row per run, sweep point and metric.
    std::ostringstream joined;
    joined << "run,point,metric,n,mean,std,min,max\n";
    for (const auto& [name, records] : all) {
      for (const auto& row : summarize(records)) {
        joined << csv_field(name) << "," << csv_field(row.label) << "," << csv_field(row.metric) << "," << row.n << ","
               << json_number(row.mean) << "," << json_number(row.std) << "," << json_number(row.min) << ","
               << json_number(row.max) << "\n";
      }
    }
    write_file_atomically(out, joined.str());
    if (log) log->info("joined summary of {} run(s) in {}", runs.size(), out.string());
  }
  return code;
}

}  // namespace featurelab
