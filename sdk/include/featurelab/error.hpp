// The exception type components throw for bad input or impossible states.
//
// The core catches it at the plugin boundary and reports it with the plugin file and component,
// so a message says what was expected, what was found and what to do: "expected X, got Y; do Z".
#pragma once

#include <stdexcept>
#include <string>

namespace featurelab {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace featurelab
