// Test harness: load built plugins (checked like the core does) and make their components with validated parameters.
#include <featurelab/activation.hpp>
#include <featurelab/error.hpp>
#include <featurelab/testing.hpp>

#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <mutex>

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

DataSpec spec(Index dim, int classes) {
  DataSpec s;
  s.dim = dim;
  s.classes = classes;
  return s;
}

ComponentSpec layer(const std::string& use, const std::map<std::string, Value>& params, const std::string& name) {
  ComponentSpec spec;
  spec.use = use;
  spec.params = Params(params);
  spec.name = name;
  return spec;
}

Value layers(std::vector<ComponentSpec> entries, const std::string& path) {
  for (std::size_t i = 0; i < entries.size(); ++i) entries[i].path = path + "." + std::to_string(i);
  return Value(ComponentList(std::move(entries)));
}

Harness& pack(const std::string& library_path) {
  // One harness per file, never moved (the map holds pointers), loaded under the lock: Catch may run
  // sections of one test case in any order, and tests of several files ask for the same pack.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Harness>> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Harness>& harness = loaded[library_path];
  if (!harness) harness = std::make_unique<Harness>(library_path);
  return *harness;
}

// One loaded pack. The builder (its factories are the plugin's code) is declared after the
// library, so it is destroyed before the library is unloaded.
struct Harness::Library {
  std::string file;
  std::string pack;
  boost::dll::shared_library library;
  PackBuilder builder;
};

Harness::Harness(const std::string& library_path) { load(library_path); }

Harness::Harness(std::initializer_list<std::string> library_paths) {
  for (const auto& path : library_paths) load(path);
}

Harness::~Harness() = default;

void Harness::load(const std::string& library_path) {
  auto lib = std::make_shared<Library>();
  lib->file = library_path;
  try {
    lib->library.load(library_path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);  // as the core
  } catch (const std::exception& e) {
    throw Error(library_path + ": not a loadable shared library (" + e.what() + ")");
  }
  if (!lib->library.has("featurelab_pack")) {
    throw Error(library_path + ": no featurelab_pack entry point; declare the pack with FEATURELAB_PACK(name, version)");
  }
  const PackHeader* header = lib->library.get_alias<PackEntry>("featurelab_pack")();
  if (header->abi_version != FEATURELAB_ABI_VERSION) {
    throw Error(library_path + ": ABI " + std::to_string(header->abi_version) + ", expected " +
                std::to_string(FEATURELAB_ABI_VERSION) + "; rebuild the plugin against this SDK");
  }
  // The same check as the core's loader: this SDK library was compiled with the core's flags.
  const std::string fingerprint = header->fingerprint ? header->fingerprint : "";
  if (const std::string difference = fingerprint_difference(fingerprint, build_fingerprint()); !difference.empty()) {
    throw Error(library_path + ": build fingerprint differs (" + difference +
                "); build the plugin with featurelab_add_plugin() from the featurelab CMake package, which "
                "applies the SDK's flags");
  }
  lib->pack = header->pack_name ? header->pack_name : "";
  try {
    header->register_components(lib->builder);
  } catch (const std::exception& e) {
    throw Error(library_path + ": pack '" + lib->pack + "': registering its components threw: " + e.what());
  }
  libraries_.push_back(std::move(lib));
}

std::pair<const ComponentInfo*, const Harness::Library*> Harness::find(Kind kind, const std::string& name) const {
  std::string pack;
  std::string bare = name;
  if (const auto colon = name.find(':'); colon != std::string::npos) {
    pack = name.substr(0, colon);
    bare = name.substr(colon + 1);
  }
  std::pair<const ComponentInfo*, const Library*> found{nullptr, nullptr};
  std::string packs;
  for (const auto& lib : libraries_) {
    packs += (packs.empty() ? "" : ", ") + lib->pack + " (" + lib->file + ")";
    if (!pack.empty() && lib->pack != pack) continue;
    for (const auto& c : lib->builder.components()) {
      if (c.kind != kind || c.name != bare) continue;
      if (found.first) {
        throw Error(std::string(to_string(kind)) + " '" + name + "' is in packs " + found.second->pack + " and " +
                    lib->pack + "; write \"" + lib->pack + ":" + bare + "\"");
      }
      found = {&c, lib.get()};
    }
  }
  if (!found.first) {
    throw Error(std::string("no ") + to_string(kind) + " '" + name + "' in the loaded packs: " +
                (packs.empty() ? std::string("none (give the harness a plugin file)") : packs));
  }
  return found;
}

const ComponentInfo& Harness::info(Kind kind, const std::string& name) const { return *find(kind, name).first; }

bool Harness::has(Kind kind, const std::string& name) const {
  try {
    find(kind, name);
    return true;
  } catch (const Error&) {
    return false;
  }
}

bool Harness::names_activation(const std::string& name) const {
  const auto& builtin = Activation::names();
  return std::find(builtin.begin(), builtin.end(), name) != builtin.end() || has(Kind::Activation, name);
}

std::vector<std::string> Harness::packs() const {
  std::vector<std::string> names;
  for (const auto& lib : libraries_) names.push_back(lib->pack);
  return names;
}

const std::vector<ComponentInfo>& Harness::components(const std::string& pack) const {
  for (const auto& lib : libraries_) {
    if (lib->pack == pack) return lib->builder.components();
  }
  throw Error("no pack '" + pack + "' is loaded");
}

std::pair<std::unique_ptr<Component>, std::shared_ptr<const void>> Harness::create(
    Kind kind, const std::string& name, const std::map<std::string, Value>& overrides, const DataSpec& data,
    std::uint64_t seed, const FeatureSet* features) {
  const auto [component, library] = find(kind, name);
  Context context;
  context.rng = Rng(derive_seed(seed, name));
  context.path = name;
  context.data = data;
  context.features = features;  // the distribution's ground truth, for components that read it
  context.make_activation = [this, seed](const std::string& activation) -> std::shared_ptr<const ActivationFunction> {
    return make<ActivationFunction>(activation, {}, DataSpec{}, seed);
  };
  context.make_component = [this, seed, data](Kind sub_kind, const ComponentSpec& sub) -> std::shared_ptr<Component> {
    // An activation's name makes std's `activation` layer, as in a pipeline.
    std::map<std::string, Value> params(sub.params.values().begin(), sub.params.values().end());
    std::string use = sub.use;
    if (sub_kind == Kind::Layer && !has(Kind::Layer, use) && names_activation(use)) {
      params["activation"] = use;
      use = "activation";
    }
    auto [made, lib] = create(sub_kind, use, params, data, derive_seed(seed, sub.path), nullptr);
    return std::shared_ptr<Component>(made.release(), [lib = std::move(lib)](Component* p) { delete p; });
  };
  std::unique_ptr<Component> made = component->create(resolve(component->schema, overrides), context);
  if (!made) throw Error(std::string(to_string(kind)) + " '" + name + "': its factory returned nothing");
  for (const auto& lib : libraries_) {
    if (lib.get() == library) return {std::move(made), lib};
  }
  return {std::move(made), nullptr};  // unreachable: find() returns one of libraries_
}

}  // namespace featurelab::testing
