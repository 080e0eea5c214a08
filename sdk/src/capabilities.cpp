// The capabilities' destructors, out of line: their type information lives once, in the SDK's library, so a
// dynamic_cast from the core or another plugin finds a plugin's capability.
#include <featurelab/capabilities.hpp>

namespace featurelab {

SeparableLoss::~SeparableLoss() = default;
FusedStep::~FusedStep() = default;
WeighsPatchCounts::~WeighsPatchCounts() = default;

}  // namespace featurelab
