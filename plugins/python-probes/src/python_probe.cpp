#include "python_probe.hpp"

#include <featurelab/component.hpp>
#include <featurelab/error.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <vector>

namespace featurelab::python_pack {

namespace {

// The bridge, loaded once per process. A worker of the command has no Python: libpython is opened first, with
// its symbols global, for the bridge to bind to. The Python host's executable has them already.
Bridge& bridge() {
  static Bridge* loaded = [] {
    if (::dlsym(RTLD_DEFAULT, "Py_IsInitialized") == nullptr &&
        ::dlopen(FEATURELAB_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      throw Error(std::string("cannot load Python (") + FEATURELAB_LIBPYTHON + "): " + ::dlerror() +
                  "; install Debian's libpython3 package the build used");
    }
    // Beside the SDK this pack was loaded against (packs themselves are opened through a descriptor, so their own
    // path says nothing): lib/libfeaturelab-sdk.so → lib/featurelab/python/libfeaturelab-python-bridge.so.
    Dl_info sdk{};
    ::dladdr(reinterpret_cast<void*>(static_cast<const char* (*)(Kind)>(&featurelab::to_string)), &sdk);
    const auto file = std::filesystem::path(sdk.dli_fname).parent_path() / "featurelab" / "python" / "libfeaturelab-python-bridge.so";
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw Error("cannot load the probe's bridge " + file.string() + ": " + ::dlerror());
    return reinterpret_cast<Bridge* (*)()>(::dlsym(handle, "featurelab_python_bridge"))();
  }();
  return *loaded;
}

const char* const kOwnKeys[] = {"module", "function", "path"};

bool own_key(const std::string& key) {
  for (const char* k : kOwnKeys) {
    if (key == k) return true;
  }
  return false;
}

// The pipeline's values for the function's parameters, checked as the core checks a component's: every key one
// it declares, of its type and within its bounds, and every parameter without a default given.
std::map<std::string, Value> checked_arguments(const Params& params, const Schema& declared, const std::string& function) {
  std::string takes;
  for (const auto& spec : declared.specs()) takes += (takes.empty() ? "" : ", ") + spec.name;
  std::map<std::string, Value> arguments;
  for (const auto& [key, value] : params.values()) {
    if (own_key(key)) continue;
    const ParamSpec* spec = declared.find(key);
    if (spec == nullptr) {
      throw Error("'" + key + "' is not a parameter of " + function +
                  (takes.empty() ? std::string(" (it declares none beyond the standard arguments)") : " (it declares: " + takes + ")") +
                  "; a probe function declares its parameters as keyword parameters");
    }
    if (auto why = spec->check(value)) {
      throw Error("'" + key + "' of " + function + ": expected " + spec->expectation() + ", " + *why +
                  (spec->default_value ? "; the default is " + spec->default_text() : std::string()));
    }
    arguments.emplace(key, value);
  }
  for (const auto& spec : declared.specs()) {
    if (!spec.default_value && arguments.count(spec.name) == 0) {
      throw Error("missing '" + spec.name + "' (" + spec.expectation() + "): " + function +
                  " declares it without a default; set it in the [[probe]] table (" + spec.name + " = ...)");
    }
  }
  return arguments;
}

BridgeArray array(const char* group, const std::string& name, const void* data, Index rows, Index cols, int itemsize, bool labels) {
  return {group, name, data, rows, cols, itemsize, labels};
}

}  // namespace

Schema PythonProbe::schema() {
  Schema s;
  s.string("module", "featurelab_probes", "the Python module that holds the function (imported once per process; the "
                                           "default is the pack's own, lib/featurelab/python/featurelab_probes.py)");
  s.string("function", "parameter_norms", "the function, called with the arguments it names among step, params, train, "
                                           "test, features, hooks, and its own parameters");
  s.string("path", "", "a directory put first on sys.path before the import (\"\": the pipeline's own directory)")
      .relative_to_pipeline();
  s.other_keys("the function's own parameters: its keyword parameters beyond the standard arguments, checked "
               "against its signature (type from the annotation or the default) and its featurelab_params");
  return s;
}

PythonProbe::PythonProbe(const Params& params, Context&) : qualified_(params.str("module") + "." + params.str("function")) {
  if (params.str("module").empty() || params.str("function").empty()) {
    throw Error("module and function must not be empty (module = \"my_probes\", function = \"norms\")");
  }
  // Imported here, when the core checks every sweep point before the run (and again in each job's worker), so a
  // missing module or a bad parameter stops the run before any job starts.
  function_ = bridge().prepare(params.str("module"), params.str("function"), params.str("path"));
  arguments_ = checked_arguments(params, function_.parameters, qualified_);
}

void PythonProbe::measure(const ProbeInput& in, Measurements& out) {
  std::vector<BridgeArray> arrays;
  for (const ParamBlock& b : in.model.blocks()) {
    const auto m = in.model.block(b.name);
    arrays.push_back(array("params", b.name, m.data(), m.rows(), m.cols(), sizeof(Scalar), false));
  }
  for (const auto& [group, data] : {std::pair<const char*, const Dataset*>{"train", &in.train}, {"test", &in.test}}) {
    arrays.push_back(array(group, "X", data->X.data(), data->X.rows(), data->X.cols(), sizeof(Scalar), false));
    arrays.push_back(array(group, "y", data->y.data(), data->y.size(), 1, sizeof(std::int32_t), true));
  }
  for (const auto& [name, feature] : in.features) {
    arrays.push_back(array("features", name, feature.data(), feature.rows(), feature.cols(), sizeof(Scalar), false));
  }
  BridgeHooks hooks{in.model.hook_points(), in.train.X.cols(),
                    [&model = in.model](const std::string& name, ConstMatRef X, Mat& activations) { model.hook(name, X, activations); }};
  try {
    bridge().call(function_.handle, in.step, arrays, hooks, arguments_, out);
  } catch (const Error& e) {
    throw Error(qualified_ + " raised:\n" + e.what());
  }
}

}  // namespace featurelab::python_pack
