// The kind interfaces this core calls, by kind: "featurelab.model/1". A component compiled against
// another version of its kind's interface (ComponentInfo::interface_id, recorded by PackBuilder::add
// and in the manifest) is refused at load and at discovery instead of being called through a
// vtable it does not have.
#pragma once

#include <featurelab/component.hpp>

#include <string>

namespace featurelab {

const char* core_interface_id(Kind kind);

// "" when the component's interface is the core's; else the refusal, with both strings:
// "model 'm' implements featurelab.model/0, this featurelab calls featurelab.model/1".
std::string interface_mismatch(Kind kind, const std::string& name, const std::string& interface_id);

}  // namespace featurelab
