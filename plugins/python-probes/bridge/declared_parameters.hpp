// A probe function's own parameters as featurelab sees a component's: the Schema read from what
// featurelab_bridge.describe returns (its signature and its featurelab_params), and featurelab's Values handed to
// Python as keyword arguments.
#pragma once

#include <featurelab/params.hpp>

#include <pybind11/pybind11.h>

namespace featurelab::python_pack {

// `own`: [(name, type, required, default, {"min": ..., "doc": ...})], as featurelab_bridge.describe returns it.
Schema declared_parameters(const pybind11::list& own, const std::string& function);

pybind11::object to_python(const Value& value, ParamType type);

}  // namespace featurelab::python_pack
