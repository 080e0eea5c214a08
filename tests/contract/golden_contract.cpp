// Models: the parameter blocks and hook points of every model, compared with the pack's golden
// list (golden/<pack>.txt): pipelines, regularizers and probes name them, so a change must be
// deliberate. FEATURELAB_UPDATE_GOLDEN=1 rewrites the lists from what the models declare.
#include "setup.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace featurelab;
namespace fs = std::filesystem;

namespace {

// "two-layer: blocks W 8x6, b 1x8, a 1x8 frozen; hooks hidden.pre, hidden.post"
std::string describe(const contract::Entry& entry) {
  std::ostringstream line;
  line << entry.info->name << ":";
  try {
    contract::Setup setup = contract::data_for(entry);
    auto model = contract::make<Model>(entry, setup);
    line << " blocks";
    const char* separator = " ";
    for (const auto& block : model->blocks()) {
      line << separator << block.name << " " << block.rows << "x" << block.cols << (block.trainable ? "" : " frozen");
      separator = ", ";
    }
    line << "; hooks";
    separator = " ";
    for (const auto& hook : model->hook_points()) {
      line << separator << hook.name;
      separator = ", ";
    }
  } catch (const std::exception& e) {
    line << " not built (" << e.what() << ")";
  }
  return line.str();
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("models: parameter blocks and hook points match the golden list", "[golden]") {
  const bool update = std::getenv("FEATURELAB_UPDATE_GOLDEN") && std::string(std::getenv("FEATURELAB_UPDATE_GOLDEN")) == "1";
  for (const auto& pack : contract::packs_under_test()) {
    std::string listed;
    for (const auto& entry : contract::components(Kind::Model)) {
      if (entry.pack == pack && !contract::skip_reason(entry)) listed += describe(entry) + "\n";
    }
    const fs::path file = fs::path(FEATURELAB_CONTRACT_GOLDEN_DIR) / (pack + ".txt");
    const std::string header =
        "# The parameter blocks and hook points of pack " + pack + "'s models, as the contract test builds them\n"
        "# (tests/contract). Regenerate on purpose: FEATURELAB_UPDATE_GOLDEN=1 contract-tests --pack " + pack + "\n";
    if (update) {
      std::ofstream(file) << header << listed;
      WARN("rewrote " << file.string());
      continue;
    }
    const std::string golden = read(file);
    INFO("pack " << pack << ": golden list " << file.string() << "\nexpected:\n"
                 << golden.substr(std::min(golden.size(), header.size())) << "got:\n" << listed
                 << "If the change is deliberate, regenerate the list: FEATURELAB_UPDATE_GOLDEN=1 "
                    "contract-tests --pack " << pack << " (then commit it with the change)");
    CHECK(golden == header + listed);
  }
}
