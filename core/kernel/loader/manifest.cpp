// Manifest JSON: schema entries serialised with their types, defaults, bounds and choices.
#include <featurelab/core/manifest.hpp>

#include "kernel/io/atomic_file.hpp"
#include "kernel/loader/pack_loader.hpp"

#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace featurelab {

namespace {

using nlohmann::json;

// 2: every component records its interface id.
// 3: a parameter may be automatic ("automatic": what it means; its default may then be "auto").
// 4: a parameter may be relative to the pipeline; a component may accept other keys ("other_keys": what they are).
// 5: a parameter may be a list of sub-components ("type": "components", "kind": their kind; default []).
constexpr int kManifestFormat = 5;

json value_to_json(const Value& value) {
  return std::visit(
      [](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, ComponentList>) {
          return json::array();  // Schema::components() declares no entries by default
        } else {
          return json(v);
        }
      },
      value);
}

bool parse_type(const std::string& text, ParamType& out) {
  for (ParamType t : {ParamType::Bool, ParamType::Int, ParamType::Real, ParamType::String,
                      ParamType::IntList, ParamType::RealList, ParamType::StringList, ParamType::Components}) {
    if (text == to_string(t)) {
      out = t;
      return true;
    }
  }
  return false;
}

Value value_from_json(const json& j, ParamType type) {
  switch (type) {
    case ParamType::Bool: return j.get<bool>();
    case ParamType::Int: return j.get<std::int64_t>();
    case ParamType::Real: return j.get<double>();
    case ParamType::String: return j.get<std::string>();
    case ParamType::IntList: return j.get<std::vector<std::int64_t>>();
    case ParamType::RealList: return j.get<std::vector<double>>();
    case ParamType::StringList: return j.get<std::vector<std::string>>();
    case ParamType::Components:
      if (!j.is_array() || !j.empty()) throw Error("a list of sub-components defaults to no entry ([])");
      return ComponentList{};
  }
  return false;
}

json spec_to_json(const ParamSpec& spec) {
  json j;
  j["name"] = spec.name;
  j["type"] = to_string(spec.type);
  j["doc"] = spec.doc;
  if (spec.default_value) j["default"] = value_to_json(*spec.default_value);  // "auto" for an automatic default
  if (spec.automatic) j["automatic"] = *spec.automatic;
  if (std::isfinite(spec.lower)) {
    j["lower"] = spec.lower;
    j["lower_open"] = spec.lower_open;
  }
  if (std::isfinite(spec.upper)) {
    j["upper"] = spec.upper;
    j["upper_open"] = spec.upper_open;
  }
  if (!spec.choices.empty()) j["choices"] = spec.choices;
  if (spec.min_length) j["min_length"] = *spec.min_length;
  if (spec.pipeline_relative) j["relative_to_pipeline"] = true;
  if (spec.type == ParamType::Components) j["kind"] = to_string(static_cast<Kind>(spec.component_kind));
  return j;
}

ParamSpec spec_from_json(const json& j) {
  ParamSpec spec;
  spec.name = j.at("name").get<std::string>();
  if (!parse_type(j.at("type").get<std::string>(), spec.type)) {
    throw Error("unknown parameter type '" + j.at("type").get<std::string>() + "'");
  }
  spec.doc = j.value("doc", "");
  if (j.contains("automatic")) spec.automatic = j.at("automatic").get<std::string>();
  if (j.contains("default")) {
    const json& fallback = j.at("default");
    const bool automatic_default = spec.automatic && fallback.is_string() && fallback.get<std::string>() == kAuto;
    spec.default_value = automatic_default ? Value(std::string(kAuto)) : value_from_json(fallback, spec.type);
  }
  if (j.contains("lower")) {
    spec.lower = j.at("lower").get<double>();
    spec.lower_open = j.value("lower_open", false);
  }
  if (j.contains("upper")) {
    spec.upper = j.at("upper").get<double>();
    spec.upper_open = j.value("upper_open", false);
  }
  if (j.contains("choices")) spec.choices = j.at("choices").get<std::vector<std::string>>();
  if (j.contains("min_length")) spec.min_length = j.at("min_length").get<std::size_t>();
  spec.pipeline_relative = j.value("relative_to_pipeline", false);
  if (spec.type == ParamType::Components) {
    Kind kind;
    if (!parse_kind(j.value("kind", ""), kind)) throw Error("parameter '" + spec.name + "' lists components of no known kind");
    spec.component_kind = static_cast<KindNumber>(kind);
  }
  return spec;
}

}  // namespace

std::filesystem::path manifest_path_for(const std::filesystem::path& library) {
  auto stem = library.filename().string();
  if (auto dot = stem.find(".so"); dot != std::string::npos) stem = stem.substr(0, dot);
  return library.parent_path() / (stem + ".featurelab.json");
}

PackManifest read_manifest(const std::filesystem::path& manifest_file) {
  std::ifstream in(manifest_file);
  if (!in) throw Error(manifest_file.string() + ": cannot read the manifest");
  PackManifest m;
  m.manifest_file = manifest_file;
  try {
    const json j = json::parse(in);
    if (j.value("featurelab_manifest", 0) != kManifestFormat) {
      throw Error("manifest format " + std::to_string(j.value("featurelab_manifest", 0)) +
                  ", this featurelab reads " + std::to_string(kManifestFormat));
    }
    m.library_file = manifest_file.parent_path() / j.at("library").get<std::string>();
    m.library_size = j.at("library_size").get<std::uintmax_t>();
    m.abi = j.at("abi").get<std::uint32_t>();
    m.fingerprint = j.at("fingerprint").get<std::string>();
    m.name = j.at("pack").get<std::string>();
    m.version = j.at("version").get<std::string>();
    for (const auto& c : j.at("components")) {
      ComponentManifest component;
      if (!parse_kind(c.at("kind").get<std::string>(), component.kind)) {
        throw Error("unknown component kind '" + c.at("kind").get<std::string>() + "'");
      }
      component.name = c.at("name").get<std::string>();
      component.doc = c.value("doc", "");
      component.interface_id = c.at("interface").get<std::string>();
      component.source = c.value("source", "");
      component.metrics = c.value("metrics", std::vector<std::string>{});
      for (const auto& p : c.at("params")) component.schema.add(spec_from_json(p));
      if (c.contains("other_keys")) component.schema.other_keys(c.at("other_keys").get<std::string>());
      m.components.push_back(std::move(component));
    }
  } catch (const Error& e) {
    throw Error(manifest_file.string() + ": " + e.what() + "; regenerate it with: featurelab plugins manifest LIBRARY");
  } catch (const std::exception& e) {
    throw Error(manifest_file.string() + ": malformed manifest (" + e.what() +
                "); regenerate it with: featurelab plugins manifest LIBRARY");
  }
  return m;
}

void write_manifest(const PackManifest& m, const std::filesystem::path& manifest_file) {
  json j;
  j["featurelab_manifest"] = kManifestFormat;
  j["library"] = m.library_file.filename().string();
  j["library_size"] = m.library_size;
  j["abi"] = m.abi;
  j["fingerprint"] = m.fingerprint;
  j["pack"] = m.name;
  j["version"] = m.version;
  j["components"] = json::array();
  for (const auto& c : m.components) {
    json params = json::array();
    for (const auto& spec : c.schema.specs()) params.push_back(spec_to_json(spec));
    j["components"].push_back({{"kind", to_string(c.kind)}, {"name", c.name}, {"interface", c.interface_id},
                               {"doc", c.doc}, {"source", c.source}, {"params", params}});
    if (!c.metrics.empty()) j["components"].back()["metrics"] = c.metrics;
    if (c.schema.other_keys_doc()) j["components"].back()["other_keys"] = *c.schema.other_keys_doc();
  }
  write_file_atomically(manifest_file, j.dump(2) + "\n");
}

PackManifest manifest_of(const LoadedPack& pack) {
  PackManifest m;
  m.library_file = std::filesystem::absolute(pack.file);
  m.library_size = std::filesystem::file_size(pack.file);
  m.abi = FEATURELAB_ABI_VERSION;
  m.fingerprint = pack.fingerprint;
  m.name = pack.name;
  m.version = pack.version;
  for (const auto& c : pack.components) m.components.push_back({c.kind, c.name, c.doc, c.schema, c.interface_id, c.source, c.metrics});
  return m;
}

}  // namespace featurelab
