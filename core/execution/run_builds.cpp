// Pinning a plan's packs, and comparing them with what a run directory recorded.
#include "execution/run_builds.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/product_kernel.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
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

// manifest.json's "product_kernel": the kernel, and why the run started on it; kernel empty when the file or the
// record is missing (a run of an earlier version).
struct RecordedKernel {
  std::string kernel, why;
};

RecordedKernel recorded_product_kernel(const fs::path& run_dir) {
  const fs::path file = run_dir / "manifest.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  std::ifstream in(file);
  try {
    const auto manifest = nlohmann::json::parse(in);
    if (!manifest.contains("product_kernel")) return {};
    const auto& record = manifest.at("product_kernel");
    return {record.at("kernel").get<std::string>(), record.value("why", std::string())};
  } catch (const std::exception& e) {
    throw ConfigError({{file.string(), std::string("unreadable run manifest (") + e.what() +
                                           "), so the product kernel this run used is unknown; use another --out"}});
  }
}

}  // namespace

void use_recorded_product_kernel(const fs::path& run_dir) {
  const auto [recorded, first_why] = recorded_product_kernel(run_dir);
  if (recorded.empty()) return;
  const fs::path file = run_dir / "manifest.json";
  const ProductKernel kernel = parse_product_kernel(recorded, file.string() + ": product_kernel");
  const char* asked = std::getenv("FEATURELAB_PRODUCT_KERNEL");
  // The manifest is written again when the run is taken up, so the reason it started with is carried along, once.
  const std::string prefix = "the run's (" + file.string() + "), chosen when it started";
  const std::string why = first_why.rfind("the run's (", 0) == 0 ? first_why
                          : first_why.empty()                     ? prefix
                                                                  : prefix + ": " + first_why;
  if (kernel == product_kernel()) {
    // The same kernel either way, but the run's record is what binds it (this CPU might have chosen another), so a
    // job's provenance names the record unless the user's variable asked for it.
    if (!(asked && *asked)) set_product_kernel(kernel, why);
    return;
  }
  if (asked && *asked) {
    throw ConfigError({{file.string(), "this run's jobs ran their products on " + recorded + ", and " +
                                           "FEATURELAB_PRODUCT_KERNEL=" + asked + " asks for " +
                                           product_kernel_name(product_kernel()) +
                                           ": one run never mixes two kernels' roundings; unset it, or use another --out"}});
  }
  if (!product_kernel_available(kernel)) {
    throw ConfigError({{file.string(), "this run's jobs ran their products on " + recorded +
                                           ", which this build does not have (built with -DFEATURELAB_BLAS=eigen, or "
                                           "without libblis4-serial); finish it with a build that has it, or use another --out"}});
  }
  set_product_kernel(kernel, why);
}

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
  use_recorded_product_kernel(out);
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
  use_recorded_product_kernel(run_dir);
  const auto recorded = recorded_builds(run_dir);
  for (const auto& pack : catalog.packs()) {
    if (auto it = recorded.find(pack->manifest.name); it != recorded.end()) Catalog::pin_to(*pack, it->second);
  }
}

}  // namespace featurelab
