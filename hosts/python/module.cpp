// featurelab._featurelab: the C++ core seen from Python (pybind11). It exposes the tidy tables of
// `featurelab export` (core/export/tidy_tables.hpp) as columns, which featurelab.load turns into pandas
// DataFrames; errors come as featurelab.FeaturelabError with the core's message.
#include "export/tidy_tables.hpp"

#include <featurelab/error.hpp>

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
  long_table["step"] = step;
  long_table["metric"] = metric;
  long_table["value"] = value;
  py::dict final_table = job_columns(tables, tables.finals);
  py::array_t<double> final_value(static_cast<py::ssize_t>(tables.finals.size()));
  py::list final_metric;
  auto fv = final_value.mutable_unchecked<1>();
  for (std::size_t i = 0; i < tables.finals.size(); ++i) {
    fv(static_cast<py::ssize_t>(i)) = tables.finals[i].value;
    final_metric.append(*tables.finals[i].metric);
  }
  final_table["metric"] = final_metric;
  final_table["value"] = final_value;
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

}  // namespace

PYBIND11_MODULE(_featurelab, m) {
  m.doc() = "featurelab's C++ core (use the featurelab package, not this module)";
  static py::exception<featurelab::Error> error(m, "FeaturelabError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const featurelab::Error& e) {
      error(e.what());
    }
  });
  m.def("tidy", &tidy, py::arg("runs"), py::arg("metrics") = std::vector<std::string>{},
        "The runs' metrics and final values as columns: {'axes': [...], 'metrics': {...}, 'final': {...}}");
}
