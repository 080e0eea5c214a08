// Comparing two build fingerprints field by field, so a refusal names what differs (the core's
// loader and testing::Harness both refuse with this text).
#include <featurelab/version.hpp>

#include <map>
#include <sstream>

namespace featurelab {

namespace {

// The field that is reported, not compared (version.hpp).
constexpr const char* kNotRequired = "optimized";

std::map<std::string, std::string> fingerprint_fields(const std::string& fingerprint) {
  std::map<std::string, std::string> fields;
  std::istringstream in(fingerprint);
  std::string item;
  while (std::getline(in, item, ';')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      fields[item] = "";
    } else {
      fields[item.substr(0, eq)] = item.substr(eq + 1);
    }
  }
  return fields;
}

}  // namespace

std::string fingerprint_difference(const std::string& plugin, const std::string& core) {
  const auto p = fingerprint_fields(plugin);
  const auto c = fingerprint_fields(core);
  std::string out;
  auto note = [&out](const std::string& key, const std::string& pv, const std::string& cv) {
    if (!out.empty()) out += "; ";
    out += key + ": plugin " + (pv.empty() ? "(none)" : pv) + ", core " + (cv.empty() ? "(none)" : cv);
  };
  for (const auto& [key, value] : c) {
    if (key == kNotRequired) continue;
    auto it = p.find(key);
    const std::string pv = it == p.end() ? "" : it->second;
    if (pv != value) note(key, pv, value);
  }
  for (const auto& [key, value] : p) {
    if (key != kNotRequired && !c.count(key)) note(key, value, "");
  }
  return out;
}

std::string fingerprint_field(const std::string& fingerprint, const std::string& key) {
  const auto fields = fingerprint_fields(fingerprint);
  const auto it = fields.find(key);
  return it == fields.end() ? "" : it->second;
}

std::string unoptimized_plugin_warning(const std::string& fingerprint, const std::string& file) {
  if (fingerprint_field(fingerprint, kNotRequired) != "no") return "";
  return file + ": built without optimisation (CMAKE_BUILD_TYPE Debug, or none given): it works, but expect it to "
         "run tens of times slower; rebuild it with -DCMAKE_BUILD_TYPE=Release";
}

}  // namespace featurelab
