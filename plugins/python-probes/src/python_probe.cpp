#include "python_probe.hpp"

#include "bridge_abi.hpp"

#include <featurelab/component.hpp>
#include <featurelab/error.hpp>

#include <dlfcn.h>

#include <filesystem>
#include <vector>

namespace featurelab::python_pack {

namespace {

// The bridge's entry point, loaded once per process. A worker of the command has no Python: libpython is opened
// first, with its symbols global, for the bridge to bind to. The Python host's executable has them already.
FeaturelabBridgeCallFn bridge() {
  static FeaturelabBridgeCallFn call = [] {
    if (::dlsym(RTLD_DEFAULT, "Py_IsInitialized") == nullptr &&
        ::dlopen(FEATURELAB_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      throw Error(std::string("probe python: cannot load Python (") + FEATURELAB_LIBPYTHON + "): " + ::dlerror() +
                  "; install Debian's libpython3 package the build used");
    }
    // Beside the SDK this pack was loaded against (packs themselves are opened through a descriptor, so their own
    // path says nothing): lib/libfeaturelab-sdk.so → lib/featurelab/python/libfeaturelab-python-bridge.so.
    Dl_info sdk{};
    ::dladdr(reinterpret_cast<void*>(static_cast<const char* (*)(Kind)>(&featurelab::to_string)), &sdk);
    const auto file = std::filesystem::path(sdk.dli_fname).parent_path() / "featurelab" / "python" / "libfeaturelab-python-bridge.so";
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw Error("probe python: cannot load its bridge " + file.string() + ": " + ::dlerror());
    return reinterpret_cast<FeaturelabBridgeCallFn>(::dlsym(handle, "featurelab_python_call"));
  }();
  return call;
}

FeaturelabBridgeArray array(const char* group, const std::string& name, const void* data, Index rows, Index cols, int itemsize, bool integer) {
  return {group, name.c_str(), data, rows, cols, itemsize, integer ? 1 : 0};
}

}  // namespace

Schema PythonProbe::schema() {
  Schema s;
  s.string("module", "featurelab_probes", "the Python module that holds the function (imported once per job; the "
                                           "default is the pack's own, lib/featurelab/python/featurelab_probes.py)");
  s.string("function", "parameter_norms", "the function: function(step, params, train, test) -> number, dict or arrays");
  s.string("path", "", "a directory put first on sys.path before the import (\"\": none)");
  return s;
}

PythonProbe::PythonProbe(const Params& params, Context&)
    : module_(params.str("module")), function_(params.str("function")), path_(params.str("path")) {
  if (module_.empty() || function_.empty()) throw Error("probe python: module and function must not be empty (module = \"my_probes\", function = \"norms\")");
}

void PythonProbe::measure(const ProbeInput& in, Measurements& out) {
  std::vector<FeaturelabBridgeArray> arrays;
  std::vector<std::string> names;  // alive for the call
  for (const ParamBlock& b : in.model.blocks()) names.push_back(b.name);
  for (const std::string& name : names) {
    const auto m = in.model.block(name);
    arrays.push_back(array("params", name, m.data(), m.rows(), m.cols(), sizeof(Scalar), false));
  }
  static const std::string X = "X", y = "y";
  for (const auto& [group, data] : {std::pair<const char*, const Dataset*>{"train", &in.train}, {"test", &in.test}}) {
    arrays.push_back(array(group, X, data->X.data(), data->X.rows(), data->X.cols(), sizeof(Scalar), false));
    arrays.push_back(array(group, y, data->y.data(), data->y.size(), 1, sizeof(std::int32_t), true));
  }
  std::vector<char> error(16384);
  FeaturelabBridgeCall call{module_.c_str(), function_.c_str(), path_.c_str(), in.step, arrays.data(), static_cast<std::int64_t>(arrays.size()),
                            {&out,
                             [](void* sink, const char* name, double value) { static_cast<Measurements*>(sink)->scalar(name, value); },
                             [](void* sink, const char* name, const double* values, std::int64_t rows, std::int64_t cols) {
                               Table table;
                               table.values = Eigen::Map<const MatD>(values, rows, cols);
                               static_cast<Measurements*>(sink)->table(name, std::move(table));
                             }},
                            error.data(), static_cast<std::int64_t>(error.size())};
  if (bridge()(&call) != 0) {
    throw Error("probe python: " + module_ + "." + function_ + " failed at step " + std::to_string(in.step) + ":\n" + error.data());
  }
}

}  // namespace featurelab::python_pack
