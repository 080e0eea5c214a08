#include "kernel/config/init_source.hpp"

#include <featurelab/error.hpp>

#include <cctype>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kForms =
    "write a saved step \"RUN/jobs/JOB/params/step000600\", a job \"RUN/jobs/JOB\" (its last saved step), a run \"RUN\" "
    "(the job of this job's seed), or { run = \"RUN\", point = \"key=value\", step = 600 }";

// "step000600" → 600; none for another name.
std::optional<Index> step_of(const std::string& name) {
  if (name.size() <= 4 || name.rfind("step", 0) != 0 || name.size() > 4 + 15) return std::nullopt;
  for (std::size_t i = 4; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
  }
  return static_cast<Index>(std::stoll(name.substr(4)));
}

void require_run(const fs::path& run) {
  if (!fs::is_directory(run)) throw Error(run.string() + " is no directory; run the pipeline it names first, saving its parameters (run --save-params, or experiment.save_params)");
  if (!fs::exists(run / "run.json")) throw Error(run.string() + " is not a featurelab run directory (no run.json)");
}

void require_job(const fs::path& job) {
  if (!fs::is_directory(job)) throw Error(job.string() + " is no directory; run the pipeline it belongs to first, with --save-params");
  if (job.parent_path().filename() != "jobs" || !fs::exists(job.parent_path().parent_path() / "run.json")) {
    throw Error(job.string() + " is not a job's directory (RUN/jobs/NNNN-ID of a run)");
  }
}

InitSource from_path(const fs::path& path) {
  InitSource source;
  if (const auto step = step_of(path.filename().string()); step && path.parent_path().filename() == "params") {
    source.job = path.parent_path().parent_path();
    source.step = *step;
    require_job(source.job);
    if (!fs::is_directory(path)) throw Error(path.string() + " is no directory: the job saved no parameters at step " + std::to_string(*step));
  } else if (fs::exists(path / "run.json")) {
    source.run = path;
  } else if (path.parent_path().filename() == "jobs") {
    source.job = path;
    require_job(source.job);
  } else {
    throw Error(path.string() + (fs::exists(path) ? " is not a run, a job or a saved step's directory; " : " does not exist; ") + kForms);
  }
  return source;
}

}  // namespace

InitSource read_init_source(const toml::node& node, const std::function<std::string(const std::string&)>& resolve) {
  if (const auto* text = node.as_string()) {
    if (text->get().empty()) throw Error(std::string("an empty path; ") + kForms);
    return from_path(fs::path(resolve(text->get())));
  }
  const auto* table = node.as_table();
  if (!table) throw Error(std::string("expected a path or a table; ") + kForms);
  InitSource source;
  for (auto&& [key, value] : *table) {
    const std::string k(key.str());
    if (k == "run" || k == "job" || k == "point") {
      const auto* s = value.as_string();
      if (!s || s->get().empty()) throw Error(k + ": expected " + (k == "point" ? "\"key=value …\"" : "a path"));
      if (k == "point") {
        source.point = s->get();
      } else {
        (k == "run" ? source.run : source.job) = fs::path(resolve(s->get()));
      }
    } else if (k == "step") {
      const auto* i = value.as_integer();
      if (!i || i->get() < 0) throw Error("step: expected a saved step (an integer >= 0)");
      source.step = static_cast<Index>(i->get());
    } else {
      throw Error("unknown key '" + k + "' (run, job, point, step)");
    }
  }
  if (source.run.empty() == source.job.empty()) throw Error("give one of run = \"RUN\" and job = \"RUN/jobs/JOB\"");
  if (!source.point.empty() && source.run.empty()) throw Error("point chooses among a run's jobs: give run = \"RUN\", not job");
  if (!source.run.empty()) require_run(source.run);
  if (!source.job.empty()) require_job(source.job);
  return source;
}

toml::table init_source_table(const InitSource& source) {
  toml::table t;
  if (!source.run.empty()) t.insert_or_assign("run", source.run.string());
  if (!source.job.empty()) t.insert_or_assign("job", source.job.string());
  if (!source.point.empty()) t.insert_or_assign("point", source.point);
  if (source.step) t.insert_or_assign("step", static_cast<std::int64_t>(*source.step));
  t.is_inline(true);
  return t;
}

}  // namespace featurelab
