// The packs under test: every library of the build's plugin directory that has a manifest beside
// it (as `featurelab` discovers them), loaded through testing::Harness with the core's checks.
#include "contract.hpp"

#include <featurelab/core/manifest.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace contract {

namespace fs = std::filesystem;
using featurelab::Kind;

namespace {

std::string g_selected;                        // --pack; empty: every pack
std::map<std::string, std::set<std::string>> g_checked;  // per pack, "kind name" of each component checked
std::map<std::string, std::string> g_skipped;  // id -> reason
std::vector<std::string> g_libraries;          // --library; empty: the build's plugin directory

std::vector<fs::path> plugin_libraries() {
  std::vector<fs::path> found;
  if (!g_libraries.empty()) return {g_libraries.begin(), g_libraries.end()};
  for (const auto& item : fs::directory_iterator(FEATURELAB_PLUGIN_BUILD_DIR)) {
    const fs::path& file = item.path();
    if (file.extension() == ".so" && fs::exists(featurelab::manifest_path_for(file))) found.push_back(file);
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

featurelab::testing::Harness& harness() {
  static featurelab::testing::Harness* loaded = [] {
    auto* h = new featurelab::testing::Harness;  // never unloaded: objects may outlive a test case
    for (const auto& file : plugin_libraries()) h->load(file.string());
    return h;
  }();
  return *loaded;
}

void select_pack(const std::string& pack) { g_selected = pack; }

void use_libraries(std::vector<std::string> files) { g_libraries = std::move(files); }

std::vector<std::string> packs_under_test() {
  const auto all = harness().packs();
  if (g_selected.empty()) return all;
  if (std::find(all.begin(), all.end(), g_selected) == all.end()) {
    std::string known;
    for (const auto& p : all) known += (known.empty() ? "" : ", ") + p;
    throw featurelab::Error("--pack " + g_selected + ": no such pack in " +
                            (g_libraries.empty() ? std::string(FEATURELAB_PLUGIN_BUILD_DIR) : std::string("the --library files")) +
                            " (there are: " + known + ")");
  }
  return {g_selected};
}

std::vector<Entry> components(Kind kind) {
  std::vector<Entry> out;
  for (const auto& pack : packs_under_test()) {
    for (const auto& info : harness().components(pack)) {
      if (info.kind == kind) out.push_back({pack, &info});
    }
  }
  return out;
}

void for_each_component(Kind kind, const std::function<void(const Entry&)>& check) {
  for (const auto& entry : components(kind)) {
    DYNAMIC_SECTION(featurelab::to_string(kind) << " " << entry.id()) {
      if (const char* reason = skip_reason(entry)) {
        g_skipped[entry.id()] = reason;
        continue;
      }
      g_checked[entry.pack].insert(std::string(featurelab::to_string(kind)) + " " + entry.info->name);
      INFO(featurelab::to_string(kind) << " " << entry.id());
      // Catch's own failures are not std::exception and pass through; a component's exception fails
      // only this component's section.
      try {
        check(entry);
      } catch (const std::exception& e) {
        FAIL_CHECK(entry.id() << " threw: " << e.what());
      }
    }
  }
}

std::string summary() {
  std::ostringstream out;
  for (const auto& pack : packs_under_test()) {
    std::map<std::string, int> by_kind;
    for (const auto& item : g_checked[pack]) ++by_kind[item.substr(0, item.find(' '))];
    out << "contract: " << pack << ": " << g_checked[pack].size() << " components checked (";
    bool first = true;
    for (const auto& [kind, count] : by_kind) {
      out << (first ? "" : ", ") << kind << " " << count;
      first = false;
    }
    out << ")\n";
  }
  out << "contract: " << g_skipped.size() << " skipped" << (g_skipped.empty() ? "" : ":") << "\n";
  for (const auto& [id, reason] : g_skipped) out << "  " << id << ": " << reason << "\n";
  return out.str();
}

}  // namespace contract
