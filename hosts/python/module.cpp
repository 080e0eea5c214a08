// featurelab._featurelab: the C++ core seen from Python (pybind11), for the package featurelab
// (hosts/python/featurelab): validating and running a pipeline in this process, as `featurelab validate`
// and `run` do (the core's facade, featurelab/core/session.hpp), the components on the plugin search path, and the tidy
// tables of `featurelab export` as columns, which featurelab.load turns into pandas DataFrames. The core's
// errors come as Python exceptions with its messages: ConfigError (with every located problem), PluginError,
// BusyError, all FeaturelabError.
#include <featurelab/core/errors.hpp>
#include <featurelab/core/provenance.hpp>
#include <featurelab/core/session.hpp>
#include <featurelab/core/tidy_tables.hpp>

#include <featurelab/error.hpp>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace py = pybind11;

namespace {

py::object axis_value(const featurelab::AxisCell& cell) {
  switch (cell.kind) {
    case featurelab::AxisCell::Kind::Number: return py::float_(cell.number);
    case featurelab::AxisCell::Kind::Text: return py::str(cell.text);
    case featurelab::AxisCell::Kind::None: break;
  }
  return py::none();
}

struct JobRef {
  std::size_t job = 0;
};

// The job columns of `rows` (each row's job index into tables.jobs), then the axes: {name: list}.
template <class Row>
py::dict job_columns(const featurelab::TidyTables& tables, const std::vector<Row>& rows) {
  py::list run, job, job_id, seed, point, status;
  std::vector<py::list> axes(tables.axes.size());
  for (const auto& row : rows) {
    const featurelab::TidyJob& j = tables.jobs[row.job];
    run.append(j.run);
    job.append(j.index);
    job_id.append(j.id);
    seed.append(j.seed);
    point.append(j.point);
    status.append(j.status);
    for (std::size_t a = 0; a < axes.size(); ++a) axes[a].append(axis_value(j.axes[a]));
  }
  py::dict columns;
  columns["run"] = run;
  columns["job"] = job;
  columns["job_id"] = job_id;
  columns["seed"] = seed;
  columns["point"] = point;
  columns["status"] = status;
  for (std::size_t a = 0; a < axes.size(); ++a) columns[py::str(tables.axes[a])] = axes[a];
  return columns;
}

py::dict tidy(const std::vector<std::filesystem::path>& runs, const std::vector<std::string>& metrics) {
  featurelab::TidyTables tables;
  {
    py::gil_scoped_release release;  // reading many jobs' files: let other Python threads run
    tables = featurelab::read_tidy_tables(runs, metrics);
  }
  py::dict long_table = job_columns(tables, tables.metrics);
  py::array_t<std::int64_t> step(static_cast<py::ssize_t>(tables.metrics.size()));
  py::array_t<double> value(static_cast<py::ssize_t>(tables.metrics.size()));
  py::list metric;
  auto s = step.mutable_unchecked<1>();
  auto v = value.mutable_unchecked<1>();
  for (std::size_t i = 0; i < tables.metrics.size(); ++i) {
    s(static_cast<py::ssize_t>(i)) = tables.metrics[i].step;
    v(static_cast<py::ssize_t>(i)) = tables.metrics[i].value;
    metric.append(*tables.metrics[i].metric);
  }
  py::list source;
  for (const auto& row : tables.metrics) source.append(*row.source);
  long_table["step"] = step;
  long_table["metric"] = metric;
  long_table["value"] = value;
  long_table["source"] = source;
  py::dict final_table = job_columns(tables, tables.finals);
  py::array_t<double> final_value(static_cast<py::ssize_t>(tables.finals.size()));
  py::list final_metric;
  auto fv = final_value.mutable_unchecked<1>();
  for (std::size_t i = 0; i < tables.finals.size(); ++i) {
    fv(static_cast<py::ssize_t>(i)) = tables.finals[i].value;
    final_metric.append(*tables.finals[i].metric);
  }
  py::list final_source;
  for (const auto& row : tables.finals) final_source.append(*row.source);
  final_table["metric"] = final_metric;
  final_table["value"] = final_value;
  final_table["source"] = final_source;
  std::vector<JobRef> every(tables.jobs.size());
  for (std::size_t j = 0; j < every.size(); ++j) every[j].job = j;
  py::dict jobs = job_columns(tables, every);
  py::list dirs;
  for (const auto& j : tables.jobs) dirs.append(j.dir);
  jobs["dir"] = dirs;
  py::dict out;
  out["axes"] = tables.axes;
  out["jobs"] = jobs;
  out["metrics"] = long_table;
  out["final"] = final_table;
  return out;
}

// A run forks a worker per job from this thread while the GIL is released and other Python threads (a notebook
// kernel's) may hold the interpreter's locks: the worker would inherit them held, and a Python probe in it would
// wait forever. So while a run forks, fork() goes through Python's own protocol, as os.fork() does: the GIL and
// the interpreter's locks taken before, released in the parent after, and reinitialised in the child. Only
// during a run: os.fork() takes those locks itself and must not meet these handlers.
std::atomic<bool> g_forking_workers{false};
PyGILState_STATE g_fork_gil;

void before_fork() {
  if (!g_forking_workers.load()) return;
  g_fork_gil = PyGILState_Ensure();
  PyOS_BeforeFork();
}
void after_fork_in_parent() {
  if (!g_forking_workers.load()) return;
  PyOS_AfterFork_Parent();
  PyGILState_Release(g_fork_gil);
}
void after_fork_in_child() {
  if (!g_forking_workers.load()) return;
  PyOS_AfterFork_Child();
  PyGILState_Release(g_fork_gil);  // a Python probe in the worker takes it again with PyGILState_Ensure
}

// While the core forks (checking every sweep point's components, then a worker per job): Python's fork protocol
// on and the GIL released, so a Python probe in the child finds the interpreter in a usable state.
class ForkingWorkers {
 public:
  ForkingWorkers() { g_forking_workers.store(true); }
  ~ForkingWorkers() { g_forking_workers.store(false); }
  ForkingWorkers(const ForkingWorkers&) = delete;
  ForkingWorkers& operator=(const ForkingWorkers&) = delete;

 private:
  py::gil_scoped_release release_;  // taken back after the flag is cleared
};

featurelab::Plan checked_plan(featurelab::Session& session, const std::filesystem::path& file, const std::vector<std::string>& overrides,
                              const featurelab::JobLimits& limits = {}) {
  const ForkingWorkers forking;
  return session.plan(file, overrides, limits);
}

// The plugin directories: those given, FEATURELAB_PLUGIN_PATH, then the packs beside this build's core
// (lib/featurelab/plugins next to the core's libraries, in the build tree as installed): the command finds
// them beside its executable, which here is python3. The session logs to `log`, or nowhere.
featurelab::Session open_session(const std::vector<std::string>& plugin_paths, std::shared_ptr<spdlog::logger> log = nullptr) {
  std::vector<std::string> paths = plugin_paths;
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&featurelab::read_tidy_tables), &info) != 0 && info.dli_fname != nullptr) {
    const auto beside = std::filesystem::path(info.dli_fname).parent_path() / "featurelab" / "plugins";
    if (std::getenv("FEATURELAB_PLUGIN_PATH") == nullptr) paths.push_back(beside.string());
  }
  featurelab::Catalog catalog;
  catalog.discover(featurelab::Catalog::search_path(paths));
  if (!log) log = std::make_shared<spdlog::logger>("featurelab");  // no sinks
  return featurelab::Session::over(std::move(catalog), std::move(log));
}

// Log lines to a Python callable (level name, message), called with the GIL held; only the thread that runs
// the pipeline logs here (a worker process logs to its job's log.txt).
class PythonSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit PythonSink(py::object callback) : callback_(std::move(callback)) {}
  ~PythonSink() override {
    py::gil_scoped_acquire gil;
    callback_ = py::object();
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    py::gil_scoped_acquire gil;
    const auto level = spdlog::level::to_string_view(msg.level);
    callback_(std::string(level.data(), level.size()), std::string(msg.payload.data(), msg.payload.size()));
  }
  void flush_() override {}

 private:
  py::object callback_;
};

py::dict validate(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                  const std::vector<std::string>& plugin_paths) {
  featurelab::Session session = open_session(plugin_paths);
  const featurelab::Plan plan = checked_plan(session, file, overrides);
  py::list operative;
  for (std::size_t i = 0; i < plan.points(); ++i) operative.append(plan.operative_toml(i));
  py::dict out;
  out["name"] = plan.name();
  out["jobs"] = plan.jobs();
  out["points"] = plan.points();
  out["seeds"] = plan.seeds();
  out["probes"] = plan.probes();
  out["assertions"] = plan.assertions();
  out["warnings"] = plan.warnings();
  out["operative"] = operative;
  return out;
}

py::tuple run(const std::filesystem::path& file, const std::vector<std::string>& overrides, const std::filesystem::path& out, int jobs,
              bool resume, bool prepare, double timeout, std::int64_t memory_mib, const std::vector<std::string>& plugin_paths,
              py::object log_callback, const std::string& level, const std::string& save_params) {
  // For run.json and summary.json: the interpreter's argv, then the call.
  std::vector<std::string> command = py::module_::import("sys").attr("argv").cast<std::vector<std::string>>();
  command.insert(command.begin(), "python3");
  command.push_back("featurelab.run(" + file.string() + ")");
  featurelab::set_command_line(command);
  auto log = std::make_shared<spdlog::logger>("featurelab", std::make_shared<PythonSink>(std::move(log_callback)));
  log->set_pattern("%v");
  log->set_level(spdlog::level::from_str(level));
  featurelab::Session session = open_session(plugin_paths, log);
  for (const auto& problem : session.catalog().problems()) log->warn("{}", problem);
  const featurelab::Plan plan = checked_plan(session, file, overrides, {timeout, memory_mib});
  for (const auto& warning : plan.warnings()) log->warn("{}", warning);
  featurelab::RunRequest request;
  request.out = out;
  request.jobs = jobs;
  request.resume = resume;
  request.prepare_only = prepare;
  request.limits = {timeout, memory_mib};
  request.save_params = save_params;
  featurelab::RunOutcome outcome;
  {
    // Ctrl-C in the notebook stops the run as in a terminal (the session catches it while it runs: the jobs
    // finish their step and write their results); Python's own handlers come back afterwards.
    const ForkingWorkers forking;
    outcome = session.run(plan, request);
  }
  return py::make_tuple(outcome.exit_code, outcome.out);
}

py::list components(const std::vector<std::string>& plugin_paths) {
  featurelab::Session session = open_session(plugin_paths);
  py::list rows;
  for (const auto& pack : session.catalog().packs()) {
    for (const auto& c : pack->manifest.components) {
      py::dict row;
      row["kind"] = featurelab::to_string(c.kind);
      row["name"] = c.name;
      row["pack"] = pack->manifest.name;
      row["doc"] = c.doc;
      py::list params;
      for (const auto& spec : c.schema.specs()) {
        py::dict param;
        param["name"] = spec.name;
        param["default"] = spec.default_text();
        param["expects"] = spec.expectation();
        param["doc"] = spec.doc;
        params.append(param);
      }
      row["params"] = params;
      row["metrics"] = c.metrics;
      row["other_keys"] = c.schema.other_keys_doc() ? py::object(py::str(*c.schema.other_keys_doc())) : py::object(py::none());
      rows.append(row);
    }
  }
  return rows;
}

}  // namespace

PYBIND11_MODULE(_featurelab, m) {
  m.doc() = "featurelab's C++ core (use the featurelab package, not this module)";
  static const int fork_handlers = ::pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
  (void)fork_handlers;
  static py::exception<featurelab::Error> error(m, "FeaturelabError", PyExc_RuntimeError);
  static py::exception<featurelab::ConfigError> config_error(m, "ConfigError", error.ptr());
  static py::exception<featurelab::PluginError> plugin_error(m, "PluginError", error.ptr());
  static py::exception<featurelab::BusyError> busy_error(m, "BusyError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const featurelab::ConfigError& e) {
      // Every located problem as (where, message): "pipe.toml:12:3", "--set model.width".
      py::list problems;
      for (const auto& d : e.diagnostics()) problems.append(py::make_tuple(d.where, d.message));
      config_error(e.what());
      PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
      PyErr_Fetch(&type, &value, &trace);
      PyErr_NormalizeException(&type, &value, &trace);
      if (value != nullptr) PyObject_SetAttrString(value, "diagnostics", problems.ptr());
      PyErr_Restore(type, value, trace);
    } catch (const featurelab::PluginError& e) {
      plugin_error(e.what());
    } catch (const featurelab::BusyError& e) {
      busy_error(e.what());
    } catch (const featurelab::StoppedError& e) {
      // Ctrl-C in a notebook while the components were being built: what Python's own Ctrl-C raises.
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const featurelab::Error& e) {
      error(e.what());
    }
  });
  m.def("validate", &validate, py::arg("file"), py::arg("overrides"), py::arg("plugin_paths"));
  m.def("run", &run, py::arg("file"), py::arg("overrides"), py::arg("out"), py::arg("jobs"), py::arg("resume"), py::arg("prepare"),
        py::arg("timeout"), py::arg("memory_mib"), py::arg("plugin_paths"), py::arg("log"), py::arg("level"),
        py::arg("save_params"));
  m.def("components", &components, py::arg("plugin_paths"));
  m.def("tidy", &tidy, py::arg("runs"), py::arg("metrics") = std::vector<std::string>{},
        "The runs' metrics and final values as columns: {'axes': [...], 'metrics': {...}, 'final': {...}}");
}
