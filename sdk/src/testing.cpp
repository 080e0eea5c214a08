// Test harness: load a built plugin and make its components with validated parameters.
#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

#include <boost/dll/shared_library.hpp>

namespace featurelab::testing {

Params resolve(const Schema& schema, const std::map<std::string, Value>& overrides) {
  for (const auto& [name, value] : overrides) {
    const ParamSpec* spec = schema.find(name);
    if (!spec) throw Error("unknown parameter '" + name + "'");
    if (auto why = spec->check(value)) {
      throw Error(name + ": expected " + spec->expectation() + ", " + *why);
    }
  }
  Params params;
  for (const auto& spec : schema.specs()) {
    auto it = overrides.find(spec.name);
    Value value;
    if (it != overrides.end()) {
      value = it->second;
    } else if (spec.default_value) {
      value = *spec.default_value;
    } else {
      throw Error("missing required parameter '" + spec.name + "'");
    }
    if (spec.type == ParamType::Real && std::holds_alternative<std::int64_t>(value)) {
      value = static_cast<double>(std::get<std::int64_t>(value));
    }
    params.set(spec.name, value);
  }
  return params;
}

struct Harness::Library {
  boost::dll::shared_library library;
};

Harness::Harness(const std::string& library_path) : library_(std::make_unique<Library>()) {
  library_->library.load(library_path, boost::dll::load_mode::rtld_lazy);
  if (!library_->library.has("featurelab_pack")) {
    throw Error(library_path + ": no featurelab_pack entry point");
  }
  auto entry = library_->library.get_alias<PackEntry>("featurelab_pack");
  const PackHeader* header = entry();
  if (header->abi_version != FEATURELAB_ABI_VERSION) {
    throw Error(library_path + ": ABI " + std::to_string(header->abi_version) + ", expected " +
                std::to_string(FEATURELAB_ABI_VERSION));
  }
  header->register_components(builder_);
}

Harness::~Harness() = default;

const ComponentInfo& Harness::info(Kind kind, const std::string& name) const {
  for (const auto& c : builder_.components()) {
    if (c.kind == kind && c.name == name) return c;
  }
  throw Error(std::string("no ") + to_string(kind) + " '" + name + "' in this plugin");
}

}  // namespace featurelab::testing
