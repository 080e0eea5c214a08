// Probe `python`: a measurement written in Python. Its function is called at the probe's steps as
//   function(step=int, params={block: ndarray}, train={"X": ndarray, "y": ndarray}, test={...})
// with read-only NumPy views of the model's parameter blocks and of the data (no copies), and returns a number,
// a dict of numbers (recorded as <probe>.<key>, nested dicts joined by dots), or 1-D/2-D arrays (recorded as
// tables, like a C++ probe's). It runs in the job's worker process; an exception fails that job, with the
// Python traceback in its summary.json.
#pragma once

#include <featurelab/probe.hpp>

#include <string>

namespace featurelab::python_pack {

class PythonProbe : public Probe {
 public:
  static constexpr Doc kDoc =
      "A probe written in Python: module.function(step, params, train, test) gets NumPy views of the model's "
      "parameter blocks and of the data, and returns numbers, a dict of numbers, or arrays (tables).";
  static Schema schema();
  PythonProbe(const Params& params, Context& context);
  void measure(const ProbeInput& in, Measurements& out) override;

 private:
  std::string module_, function_, path_;
};

}  // namespace featurelab::python_pack
