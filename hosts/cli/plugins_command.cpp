// featurelab plugins doctor | check PACK | manifest FILE: check every pack on the path; run a pack's
// contract checks; write a sidecar.
#include "plugins_check.hpp"
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/plugins.hpp>

#include <featurelab/version.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

namespace featurelab::cli {

Action add_plugins_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("plugins", "Inspect plugin packs");
  sub->require_subcommand(1);
  auto* doctor = sub->add_subcommand("doctor", "Load every trusted pack on the search path and say why any is refused");
  auto* manifest = sub->add_subcommand("manifest", "Write the sidecar manifest of a plugin library (runs its code)");
  auto file = std::make_shared<std::string>();
  manifest->add_option("library", *file, "Plugin shared library")->required();
  auto* check = sub->add_subcommand("check", "Run the contract checks of every component of a pack (its gradients "
                                             "against finite differences, ...), as the test suite checks ours");
  auto pack = std::make_shared<std::string>();
  check->add_option("pack", *pack, "Pack name (featurelab plugins doctor lists them)")->required();
  return [&global, doctor, manifest, file, check, pack]() {
    if (check->parsed()) return check_pack(open_session(global, false).catalog(), *pack);
    if (manifest->parsed()) {
      const WrittenManifest written = write_library_manifest(*file);
      std::cout << "wrote " << written.file.string() << " (" << written.components << " components)\n";
      return int(kExitOk);
    }
    (void)doctor;
    std::cout << "core: ABI " << FEATURELAB_ABI_VERSION << ", fingerprint " << build_fingerprint() << "\n";
    std::cout << "search path:\n";
    const auto dirs = Catalog::search_path(global.plugin_paths);
    for (const auto& d : dirs) {
      std::error_code ec;
      std::cout << "  " << d.string() << (std::filesystem::is_directory(d, ec) ? "" : "  (missing)") << "\n";
    }
    Catalog catalog;
    catalog.discover(dirs);
    int refused = 0;
    std::vector<std::string> reported;
    const auto report_refusal = [&](const std::string& message, LoadFailure failure) {
      ++refused;
      reported.push_back(message);
      std::cout << fmt::format("  REFUSED  {} [{}]\n", message, to_string(failure));
    };
    for (const auto& lib : catalog.libraries()) {
      // Refused at discovery (untrusted, or ambiguous): reported without being loaded, since loading it would run
      // its code (check_library).
      LibraryCheck result = check_library(catalog, lib);
      if (!result.ok) {
        report_refusal(result.refusal, result.failure);
        continue;
      }
      std::cout << fmt::format("  ok       {} (pack {} {}, {} components)\n", lib.string(), result.pack, result.version,
                               result.components);
      // From the library itself, which a manifest may not describe yet.
      if (!result.slow.empty()) {
        std::cout << "  warning  " << result.slow << "\n";
        reported.push_back(std::move(result.slow));  // said: not again among the catalog's problems
      }
    }
    for (const auto& problem : catalog.problems()) {
      const bool said = std::any_of(reported.begin(), reported.end(),
                                    [&](const std::string& r) { return r.find(problem) != std::string::npos; });
      if (!said) std::cout << "  warning  " << problem << "\n";
    }
    if (catalog.libraries().empty()) std::cout << "  no plugin libraries found\n";
    return refused > 0 || catalog.libraries().empty() ? int(kExitPluginRefused) : int(kExitOk);
  };
}

}  // namespace featurelab::cli
