// The interface between the `python` probe (this pack, which never links Python, so it loads anywhere: list,
// describe, validate) and its bridge (bridge/, compiled against Python's headers, opened on first use). Both are
// built together, by the same compiler against the same SDK, so the interface is plain C++; the README says how
// the interpreter gets into a worker.
#pragma once

#include <featurelab/model.hpp>
#include <featurelab/params.hpp>
#include <featurelab/probe.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace featurelab::python_pack {

// A matrix handed to Python as a read-only NumPy view, without a copy: row-major, rows × cols values of
// `itemsize` bytes (4: float, 8: double), or int32 labels.
struct BridgeArray {
  std::string group;  // "params", "train", "test", "features"
  std::string name;   // a block's name ("W"), "X", "y", a feature set's name ("means")
  const void* data = nullptr;
  Index rows = 0;
  Index cols = 0;
  int itemsize = sizeof(Scalar);
  bool labels = false;
};

// The model's hook points, computed when the function asks: hooks(name, X) in Python.
struct BridgeHooks {
  std::vector<HookSpec> points;
  Index input_dim = 0;  // D: the columns X must have
  std::function<void(const std::string& name, ConstMatRef X, Mat& out)> compute;
};

// A function the bridge has imported: its handle, and the parameters it declares beyond the standard arguments
// (names, types, defaults, bounds, from its signature and its `featurelab_params`).
struct BridgeFunction {
  int handle = -1;
  Schema parameters;
};

class Bridge {
 public:
  virtual ~Bridge() = default;
  // Imports module.function (with `path` first on sys.path) and reads its parameters. Throws Error with the
  // Python traceback when the import fails or the signature cannot be used.
  virtual BridgeFunction prepare(const std::string& module, const std::string& function, const std::string& path) = 0;
  // Calls it with the standard arguments it names and `arguments` (checked against BridgeFunction::parameters),
  // and records what it returns in `out`. Throws Error with the Python traceback when it raises.
  virtual void call(int handle, Index step, const std::vector<BridgeArray>& arrays, const BridgeHooks& hooks,
                    const std::map<std::string, Value>& arguments, Measurements& out) = 0;
};

}  // namespace featurelab::python_pack

// The bridge library's one entry point: its Bridge, alive for the process.
extern "C" featurelab::python_pack::Bridge* featurelab_python_bridge();
