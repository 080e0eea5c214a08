// Probe `python`: a measurement written in Python. Its function is called at the probe's steps with the
// arguments it names among
//   step (int), params ({block: ndarray}), train and test ({"X": n×D, "y": n×1}), features ({name: k×D}, the
//   distribution's ground truth), hooks (hooks(name, X): the model's activations at a hook point)
// (read-only NumPy views of featurelab's memory, no copies), and with its own parameters, set in the [[probe]]
// table and checked against its signature before anything runs. It returns a number, a dict of numbers (recorded
// as <probe>.<key>, nested dicts joined by dots), or 1-D/2-D arrays (recorded as tables, like a C++ probe's). It
// runs in the job's worker process; an exception fails that job, with the Python traceback in its summary.json.
#pragma once

#include "bridge.hpp"

#include <featurelab/probe.hpp>

#include <map>
#include <string>

namespace featurelab::python_pack {

class PythonProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "A probe written in Python: module.function gets NumPy views of the model's parameter blocks, the data, the "
      "distribution's features and the model's hook points, and returns numbers, a dict of numbers, or arrays "
      "(tables); its own parameters are set beside `use` and checked against its signature.";
  static Schema schema();
  PythonProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::string qualified_;  // module.function, for messages
  BridgeFunction function_;
  std::map<std::string, Value> arguments_;  // its own parameters as the pipeline sets them
};

}  // namespace featurelab::python_pack
