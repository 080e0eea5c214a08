// Pinning a plan's packs, and comparing them with what a run directory recorded.
#include "execution/run_builds.hpp"

#include <featurelab/core/errors.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// manifest.json's "pack" -> "sha256" (packs recorded without one are left out). Empty when the file
// does not exist.
std::map<std::string, std::string> recorded_builds(const fs::path& run_dir) {
  const fs::path file = run_dir / "manifest.json";
  std::map<std::string, std::string> builds;
  std::error_code ec;
  if (!fs::exists(file, ec)) return builds;
  std::ifstream in(file);
  try {
    const auto manifest = nlohmann::json::parse(in);
    for (const auto& pack : manifest.at("packs")) {
      if (pack.contains("sha256")) builds[pack.at("pack").get<std::string>()] = pack.at("sha256").get<std::string>();
    }
  } catch (const std::exception& e) {
    throw ConfigError({{file.string(), std::string("unreadable run manifest (") + e.what() +
                                           "), so the plugin builds this run used are unknown; use another --out"}});
  }
  return builds;
}

}  // namespace

std::vector<const PackRecord*> packs_of(const RunPlan& plan) {
  std::vector<const PackRecord*> packs;
  const auto add = [&](const ComponentConfig& c) {
    if (c.ref.pack && std::find(packs.begin(), packs.end(), c.ref.pack) == packs.end()) packs.push_back(c.ref.pack);
  };
  for (const auto& p : plan.points) {
    for (const ComponentConfig* c : {&p.data, &p.model, &p.loss, &p.optimizer, &p.trainer}) add(*c);
    for (const auto* list : {&p.transforms, &p.augments, &p.regularizers, &p.probes, &p.attacks, &p.callbacks}) {
      for (const auto& c : *list) add(c);
    }
  }
  return packs;
}

void pin_run_packs(const RunPlan& plan, const Catalog& catalog) {
  for (const PackRecord* pack : packs_of(plan)) Catalog::pin(*pack);
  for (const auto& pack : catalog.packs()) {
    const auto& components = pack->manifest.components;
    if (std::any_of(components.begin(), components.end(), [](const auto& c) { return c.kind == Kind::Activation || c.kind == Kind::Layer; })) {
      Catalog::pin(*pack);
    }
  }
}

void check_resumed_builds(const fs::path& out, const RunPlan& plan) {
  std::error_code ec;
  if (!fs::exists(out / "run.json", ec)) return;
  const auto recorded = recorded_builds(out);
  for (const PackRecord* pack : packs_of(plan)) {
    const auto it = recorded.find(pack->manifest.name);
    if (it == recorded.end()) continue;
    const std::string& now = Catalog::pin(*pack);
    if (now == it->second) continue;
    throw PluginError(out.string() + ": plugin '" + pack->manifest.name + "' (" +
                      pack->manifest.library_file.string() + ") is not the build this run started with (sha256 " +
                      it->second.substr(0, 16) + "... in " + (out / "manifest.json").string() + ", " +
                      now.substr(0, 16) + "... now): one run never mixes two builds; finish it with the build it "
                      "started with, or start a new run with another --out");
  }
}

void pin_recorded_builds(const fs::path& run_dir, const Catalog& catalog) {
  const auto recorded = recorded_builds(run_dir);
  for (const auto& pack : catalog.packs()) {
    if (auto it = recorded.find(pack->manifest.name); it != recorded.end()) Catalog::pin_to(*pack, it->second);
  }
}

}  // namespace featurelab
