// The catalog of available components, built from the sidecar manifests of every pack found on
// the plugin search path. Packs are loaded lazily, the first time one of their components is made.
#pragma once

#include <featurelab/core/errors.hpp>
#include <featurelab/core/manifest.hpp>
#include <featurelab/core/load_failure.hpp>
#include <featurelab/core/pack_record.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

class Catalog {
 public:
  // --plugin-path entries, then FEATURELAB_PLUGIN_PATH, then the install's plugin directory.
  // Empty entries are dropped: the current directory is never searched implicitly.
  static std::vector<std::filesystem::path> search_path(const std::vector<std::string>& cli_paths);
  // The install's plugin directory: lib/featurelab/plugins beside the core's libraries, whatever the host.
  static std::filesystem::path install_plugin_dir();

  void discover(const std::vector<std::filesystem::path>& dirs);

  const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
  // The usable packs. A library that fails the trust check (plugin_trust.hpp) is never one of them,
  // so it cannot shadow a trusted pack of the same name; nor are two libraries of one directory
  // declaring the same pack (which one to use would depend on their file names): both are refused.
  // Between directories, the first on the search path wins.
  const std::vector<std::unique_ptr<PackRecord>>& packs() const { return packs_; }
  // Libraries refused, untrusted or ambiguous, and packs without a usable manifest, stale
  // manifests, duplicate packs.
  const std::vector<std::string>& problems() const { return problems_; }
  // Shared libraries found on the path (for `plugins doctor`).
  const std::vector<std::filesystem::path>& libraries() const { return libraries_; }
  // The libraries refused at discovery, with why (for `plugins doctor`, which must not load them).
  const PackRecord* refused(const std::filesystem::path& library) const;

  // "two-layer" or "std:two-layer". Throws PluginError with a did-you-mean or the ambiguity; a name
  // found nowhere also names the directories searched (search_path_note()). A name that only a
  // refused library provides resolves to it, so that its use stops at pin() or load() with the
  // refusal (the file and the fix) rather than as an unknown name.
  ComponentRef find(Kind kind, const std::string& name) const;
  // "searched, in order: DIR, DIR (...)" with how to add a directory, for "not found" messages.
  std::string search_path_note() const;
  // All components of any kind with this (possibly qualified) name.
  std::vector<ComponentRef> find_any(const std::string& name) const;
  // find_any, or a PluginError naming the nearest component name and the search path when there is none.
  std::vector<ComponentRef> require_any(const std::string& name) const;
  std::vector<std::string> names(Kind kind) const;

  // Loads the pack (once) and checks it against its manifest; when the pack is pinned, the file must
  // still hold those bytes. Unpinned, its first load pins it. Throws PluginError.
  std::shared_ptr<LoadedPack> load(const PackRecord& pack);

  // Fixes the build this process (and every worker it forks later) uses: the library is trust-checked
  // and hashed now, unless the pack is pinned or loaded already. Returns the SHA-256. Throws
  // PluginError for a refused or unreadable library.
  static const std::string& pin(const PackRecord& pack);
  // Pins the pack to a build recorded earlier (a run's manifest.json). Throws PluginError when it is
  // loaded already with other bytes.
  static void pin_to(const PackRecord& pack, const std::string& sha256);

  // The sample dimension a distribution declares for these parameters (loading its pack), or a
  // negative number when it declares none. Throws PluginError.
  double data_dimension(const ComponentRef& ref, const Params& params) const;

  // Creates a component; the returned object keeps its library loaded.
  template <class T>
  std::shared_ptr<T> make(const ComponentRef& ref, const Params& params, Context& context) {
    auto [raw, pack] = create(ref, params, context);
    T* typed = static_cast<T*>(raw);  // the kind was checked by create()
    return std::shared_ptr<T>(typed, [pack = std::move(pack)](T* p) { delete p; });
  }

 private:
  void refuse_library(const std::filesystem::path& library, LoadFailure kind, const std::string& why);
  // A directory's usable packs, in file name order: the search path's precedence and one
  // directory's ambiguities applied.
  void add_directory(const std::filesystem::path& dir, std::vector<std::unique_ptr<PackRecord>> usable);
  static const ComponentInfo& registered(const LoadedPack& pack, const ComponentRef& ref);
  std::pair<Component*, std::shared_ptr<LoadedPack>> create(const ComponentRef& ref,
                                                             const Params& params, Context& context);

  std::vector<std::filesystem::path> dirs_;
  std::vector<std::unique_ptr<PackRecord>> packs_;
  std::vector<std::unique_ptr<PackRecord>> refused_;  // with their manifests when readable, for find()
  std::vector<std::string> problems_;
  std::vector<std::filesystem::path> libraries_;
};

}  // namespace featurelab
