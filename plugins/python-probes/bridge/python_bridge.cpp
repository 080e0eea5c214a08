// The Python side of the `python` probe: compiled against Python's headers but not linked to libpython, so
// the interpreter it talks to is the one already in the process (the Python host's, whose executable exports
// it) or the libpython the probe opened with RTLD_GLOBAL in a worker of the command.
#include "../src/bridge_abi.hpp"

#include <pybind11/embed.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>

namespace py = pybind11;

namespace {

// Started here when the process had no interpreter (a worker of the command); the GIL is then released so that
// every call takes it the same way, whoever started the interpreter.
void ensure_interpreter() {
  if (Py_IsInitialized()) return;
  Py_InitializeEx(0);
  PyEval_SaveThread();
}

py::array view(const FeaturelabBridgeArray& a) {
  const py::dtype type = a.is_integer ? py::dtype::of<std::int32_t>() : a.itemsize == 4 ? py::dtype::of<float>() : py::dtype::of<double>();
  // The capsule is the array's base: NumPy keeps a view of memory it does not own, and never copies it.
  py::capsule owner(a.data, [](void*) {});
  py::array array(type, {a.rows, a.cols}, {a.cols * a.itemsize, static_cast<std::int64_t>(a.itemsize)}, a.data, owner);
  array.attr("flags").attr("writeable") = false;
  return array;
}

void record(const std::string& name, const py::handle& value, const FeaturelabBridgeResults& results) {
  if (py::isinstance<py::dict>(value)) {
    for (const auto& [key, item] : value.cast<py::dict>()) record(name.empty() ? py::str(key).cast<std::string>() : name + "." + py::str(key).cast<std::string>(), item, results);
    return;
  }
  if (py::isinstance<py::array>(value) || py::isinstance<py::list>(value)) {
    auto table = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!table) throw py::value_error("'" + name + "': not an array of numbers");
    if (table.ndim() == 1) table = table.reshape({table.shape(0), py::ssize_t(1)});  // a column
    if (table.ndim() != 2) throw py::value_error("'" + name + "': a table must be 1- or 2-dimensional, got " + std::to_string(table.ndim()) + " dimensions");
    results.table(results.sink, name.c_str(), table.data(), table.shape(0), table.shape(1));
    return;
  }
  results.scalar(results.sink, name.c_str(), value.cast<double>());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int featurelab_python_call(const FeaturelabBridgeCall* call) {
  ensure_interpreter();
  PyGILState_STATE state = PyGILState_Ensure();
  int code = 0;
  try {
    static std::map<std::string, py::object> functions;  // "module:function" → the callable, imported once
    const std::string key = std::string(call->module) + ":" + call->function;
    auto found = functions.find(key);
    if (found == functions.end()) {
      static const bool own_directory = [] {  // featurelab_probes.py sits beside this library
        Dl_info self{};
        ::dladdr(reinterpret_cast<void*>(&featurelab_python_call), &self);
        py::module_::import("sys").attr("path").attr("append")(std::filesystem::path(self.dli_fname).parent_path().string());
        return true;
      }();
      (void)own_directory;
      if (call->path[0] != '\0') py::module_::import("sys").attr("path").attr("insert")(0, call->path);
      found = functions.emplace(key, py::module_::import(call->module).attr(call->function)).first;
    }
    py::dict groups;
    for (std::int64_t i = 0; i < call->array_count; ++i) {
      const FeaturelabBridgeArray& a = call->arrays[i];
      if (!groups.contains(a.group)) groups[a.group] = py::dict();
      groups[a.group][a.name] = view(a);
    }
    py::object result = found->second(py::arg("step") = call->step, py::arg("params") = groups["params"],
                                      py::arg("train") = groups["train"], py::arg("test") = groups["test"]);
    if (result.is_none()) throw py::value_error(key + " returned None; return a number, a dict of numbers, or 2-D arrays");
    record(py::isinstance<py::dict>(result) ? "" : "value", result, call->results);
  } catch (py::error_already_set& e) {
    std::snprintf(call->error, static_cast<std::size_t>(call->error_size), "%s", e.what());
    code = 1;
  } catch (const std::exception& e) {
    std::snprintf(call->error, static_cast<std::size_t>(call->error_size), "%s", e.what());
    code = 1;
  }
  PyGILState_Release(state);
  return code;
}
