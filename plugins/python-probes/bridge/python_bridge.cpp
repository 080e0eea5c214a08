// The Python side of the `python` probe: compiled against Python's headers but not linked to libpython, so
// the interpreter it talks to is the one already in the process (the Python host's, whose executable exports
// it) or the libpython the probe opened with RTLD_GLOBAL in a worker of the command.
#include "../src/bridge.hpp"
#include "declared_parameters.hpp"

#include <featurelab/error.hpp>

#include <pybind11/embed.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace featurelab::python_pack {

namespace py = pybind11;

namespace {

// Started here when the process had no interpreter (a worker of the command); the GIL is then released so that
// every call takes it the same way, whoever started the interpreter.
void ensure_interpreter() {
  if (Py_IsInitialized()) return;
  Py_InitializeEx(0);
  PyEval_SaveThread();
}

// Holds the GIL for a call from C++, and turns what Python raised into featurelab's Error, with the traceback.
template <class F>
auto with_python(F&& f) -> decltype(f()) {
  ensure_interpreter();
  const PyGILState_STATE state = PyGILState_Ensure();
  std::string failure;
  try {
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      PyGILState_Release(state);
      return;
    } else {
      auto result = f();
      PyGILState_Release(state);
      return result;
    }
  } catch (py::error_already_set& e) {
    failure = e.what();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  PyGILState_Release(state);
  throw Error(failure);
}

py::array view(const BridgeArray& a) {
  const py::dtype type = a.labels ? py::dtype::of<std::int32_t>() : a.itemsize == 4 ? py::dtype::of<float>() : py::dtype::of<double>();
  // The capsule is the array's base: NumPy keeps a view of memory it does not own, and never copies it.
  py::capsule owner(a.data, [](void*) {});
  py::array array(type, {a.rows, a.cols}, {a.cols * a.itemsize, static_cast<Index>(a.itemsize)}, a.data, owner);
  array.attr("flags").attr("writeable") = false;
  return array;
}

void record(const std::string& name, const py::handle& value, Measurements& out) {
  if (py::isinstance<py::dict>(value)) {
    for (const auto& [key, item] : value.cast<py::dict>()) {
      record(name.empty() ? py::str(key).cast<std::string>() : name + "." + py::str(key).cast<std::string>(), item, out);
    }
    return;
  }
  if (py::isinstance<py::array>(value) || py::isinstance<py::list>(value)) {
    auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!values) throw py::value_error("'" + name + "': not an array of numbers");
    if (values.ndim() == 1) values = values.reshape({values.shape(0), py::ssize_t(1)});  // a column
    if (values.ndim() != 2) {
      throw py::value_error("'" + name + "': a table must be 1- or 2-dimensional, got " + std::to_string(values.ndim()) + " dimensions");
    }
    Table table;
    table.values = Eigen::Map<const MatD>(values.data(), values.shape(0), values.shape(1));
    out.table(name, std::move(table));
    return;
  }
  out.scalar(name, value.cast<double>());
}

// hooks(name, X) for the duration of one call: the activations, copied into a new array.
py::object hooks_object(const BridgeHooks& hooks, const std::shared_ptr<bool>& alive) {
  py::dict points;
  for (const auto& h : hooks.points) points[py::str(h.name)] = py::make_tuple(h.shape, h.doc);
  py::cpp_function compute([&hooks, alive](const std::string& name, const py::object& X) -> py::array {
    if (!*alive) throw py::value_error("hooks(...) works only during the probe's call; compute the activations there");
    auto inputs = py::array_t<Scalar, py::array::c_style | py::array::forcecast>::ensure(X);
    if (!inputs || inputs.ndim() != 2 || inputs.shape(1) != hooks.input_dim) {
      throw py::value_error("hooks('" + name + "', X): X must be a 2-D array with " + std::to_string(hooks.input_dim) +
                            " columns (n × D, like train[\"X\"])");
    }
    Mat activations;
    try {
      py::gil_scoped_release release;
      hooks.compute(name, Eigen::Map<const Mat>(inputs.data(), inputs.shape(0), inputs.shape(1)), activations);
    } catch (const std::exception& e) {
      throw py::value_error(e.what());
    }
    py::array_t<Scalar> result({activations.rows(), activations.cols()});
    std::memcpy(result.mutable_data(), activations.data(), sizeof(Scalar) * static_cast<std::size_t>(activations.size()));
    return result;
  });
  return py::module_::import("featurelab_bridge").attr("Hooks")(points, compute);
}

class PythonBridge : public Bridge {
 public:
  BridgeFunction prepare(const std::string& module, const std::string& function, const std::string& path) override {
    return with_python([&] {
      add_to_path(path);
      const std::string qualified = module + "." + function;
      py::object found = py::module_::import(module.c_str());
      if (!py::hasattr(found, function.c_str())) {
        throw Error("module " + module + " (" + py::str(found.attr("__file__")).cast<std::string>() + ") has no function '" + function + "'");
      }
      found = found.attr(function.c_str());
      const auto described = py::module_::import("featurelab_bridge").attr("describe")(found).cast<py::tuple>();
      BridgeFunction out;
      out.handle = static_cast<int>(functions_.size());
      out.parameters = declared_parameters(described[1].cast<py::list>(), qualified);
      functions_.push_back({qualified, found, described[0].cast<std::vector<std::string>>(), out.parameters});
      return out;
    });
  }

  void call(int handle, Index step, const std::vector<BridgeArray>& arrays, const BridgeHooks& hooks,
            const std::map<std::string, Value>& arguments, Measurements& out) override {
    with_python([&] {
      const Function& f = functions_.at(static_cast<std::size_t>(handle));
      py::dict groups;
      for (const char* group : {"params", "train", "test", "features"}) groups[group] = py::dict();
      for (const BridgeArray& a : arrays) groups[a.group.c_str()][py::str(a.name)] = view(a);
      const auto alive = std::make_shared<bool>(true);
      py::dict kwargs;
      for (const std::string& name : f.standard) {
        if (name == "step") kwargs["step"] = step;
        else if (name == "hooks") kwargs["hooks"] = hooks_object(hooks, alive);
        else kwargs[py::str(name)] = groups[name.c_str()];
      }
      for (const auto& [name, value] : arguments) kwargs[py::str(name)] = to_python(value, f.parameters.find(name)->type);
      py::object result;
      try {
        result = f.callable(**kwargs);
      } catch (...) {
        *alive = false;
        throw;
      }
      *alive = false;
      if (result.is_none()) throw py::value_error(f.name + " returned None; return a number, a dict of numbers, or arrays");
      record(py::isinstance<py::dict>(result) ? "" : "value", result, out);
    });
  }

 private:
  struct Function {
    std::string name;
    py::object callable;
    std::vector<std::string> standard;  // the standard arguments it takes
    Schema parameters;
  };

  // This library's directory first (featurelab_bridge.py and the ready-made featurelab_probes.py sit beside it),
  // then `path` ahead of everything, once each.
  void add_to_path(const std::string& path) {
    py::list sys_path = py::module_::import("sys").attr("path");
    if (!own_directory_added_) {
      Dl_info self{};
      ::dladdr(reinterpret_cast<void*>(&featurelab_python_bridge), &self);
      sys_path.append(std::filesystem::path(self.dli_fname).parent_path().string());
      own_directory_added_ = true;
    }
    if (!path.empty() && !sys_path.contains(py::str(path))) sys_path.insert(0, py::str(path));
  }

  std::vector<Function> functions_;
  bool own_directory_added_ = false;
};

}  // namespace

}  // namespace featurelab::python_pack

extern "C" __attribute__((visibility("default"))) featurelab::python_pack::Bridge* featurelab_python_bridge() {
  // Never destroyed: its Python objects would be released at exit without the interpreter's lock.
  static auto* bridge = new featurelab::python_pack::PythonBridge;
  return bridge;
}
