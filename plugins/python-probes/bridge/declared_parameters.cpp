#include "declared_parameters.hpp"

#include <featurelab/error.hpp>

#include <type_traits>
#include <pybind11/stl.h>

namespace featurelab::python_pack {

namespace py = pybind11;

namespace {

ParamType parse_type(const std::string& text) {
  for (ParamType t : {ParamType::Bool, ParamType::Int, ParamType::Real, ParamType::String, ParamType::IntList,
                      ParamType::RealList, ParamType::StringList}) {
    if (text == to_string(t)) return t;
  }
  throw Error("unknown parameter type '" + text + "'");
}

Value from_python(const py::handle& value, ParamType type) {
  switch (type) {
    case ParamType::Bool: return value.cast<bool>();
    case ParamType::Int: return value.cast<std::int64_t>();
    case ParamType::Real: return value.cast<double>();
    case ParamType::String: return value.cast<std::string>();
    case ParamType::IntList: return value.cast<std::vector<std::int64_t>>();
    case ParamType::RealList: return value.cast<std::vector<double>>();
    case ParamType::StringList: return value.cast<std::vector<std::string>>();
    case ParamType::Components: throw Error("a Python probe's parameter cannot be a list of components");
  }
  return false;
}

}  // namespace

Schema declared_parameters(const py::list& own, const std::string& function) {
  Schema schema;
  for (const py::handle& entry : own) {
    const auto item = entry.cast<py::tuple>();
    ParamSpec spec;
    spec.name = item[0].cast<std::string>();
    spec.type = parse_type(item[1].cast<std::string>());
    const auto refinements = item[4].cast<py::dict>();
    spec.doc = refinements.contains("doc") ? refinements["doc"].cast<std::string>()
                                           : "a parameter of " + function;
    if (!item[2].cast<bool>()) {
      try {
        spec.default_value = from_python(item[3], spec.type);
      } catch (const py::cast_error&) {
        throw Error(function + ", parameter '" + spec.name + "': its default " + py::repr(item[3]).cast<std::string>() +
                    " is not a " + to_string(spec.type));
      }
    }
    try {
      if (refinements.contains("min")) spec.min(refinements["min"].cast<double>());
      if (refinements.contains("above")) spec.above(refinements["above"].cast<double>());
      if (refinements.contains("max")) spec.max(refinements["max"].cast<double>());
      if (refinements.contains("below")) spec.below(refinements["below"].cast<double>());
      if (refinements.contains("choices")) spec.choices = refinements["choices"].cast<std::vector<std::string>>();
    } catch (const py::cast_error&) {
      throw Error(function + ".featurelab_params['" + spec.name +
                  "']: min, max, above and below are numbers, choices a list of strings, doc a string");
    }
    schema.add(std::move(spec));
  }
  return schema;
}

py::object to_python(const Value& value, ParamType type) {
  // An integer given for a real parameter arrives as a float, as Python's annotation says.
  if (type == ParamType::Real && std::holds_alternative<std::int64_t>(value)) {
    return py::float_(static_cast<double>(std::get<std::int64_t>(value)));
  }
  if (type == ParamType::RealList && std::holds_alternative<std::vector<std::int64_t>>(value)) {
    py::list list;
    for (const auto v : std::get<std::vector<std::int64_t>>(value)) list.append(py::float_(static_cast<double>(v)));
    return list;
  }
  return std::visit(
      [](const auto& v) -> py::object {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, ComponentList>) {
          // A Python function's keyword parameters are TOML scalars and lists (convert_untyped), never tables.
          throw Error("a Python probe's parameter cannot be a list of components");
        } else {
          return py::cast(v);
        }
      },
      value);
}

}  // namespace featurelab::python_pack
