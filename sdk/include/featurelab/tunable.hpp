// An optional interface for components with settings a trainer may change between phases (e.g. the
// noise smoothing of Shi 2024's activation, switched off after the first two steps). Found by
// dynamic_cast, like LinearPreactivation, so components without it cost nothing.
#pragma once

#include <string>

namespace featurelab {

class Tunable {
 public:
  virtual ~Tunable() = default;
  // Throws featurelab::Error naming the setting when it is unknown or the value is out of range.
  virtual void tune(const std::string& setting, double value) = 0;
};

}  // namespace featurelab
