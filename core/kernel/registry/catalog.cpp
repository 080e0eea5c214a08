// Discovery from manifests (trusted libraries only), name resolution with did-you-mean, pinning,
// lazy loading, creation.
#include <featurelab/core/catalog.hpp>

#include "kernel/loader/interface_ids.hpp"
#include "kernel/loader/plugin_file.hpp"
#include "kernel/loader/plugin_trust.hpp"
#include "kernel/text/suggest.hpp"

#include <featurelab/version.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <new>
#include <set>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

void split_path_list(const std::string& text, std::vector<fs::path>& out) {
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ':')) {
    if (!item.empty()) out.emplace_back(item);
  }
}

// The components of these packs named "name" or "pack:name".
std::vector<ComponentRef> components_named(const std::vector<std::unique_ptr<PackRecord>>& packs,
                                           const std::string& name) {
  std::string pack_name;
  std::string component = name;
  if (auto colon = name.find(':'); colon != std::string::npos) {
    pack_name = name.substr(0, colon);
    component = name.substr(colon + 1);
  }
  std::vector<ComponentRef> found;
  for (const auto& pack : packs) {
    if (!pack_name.empty() && pack->manifest.name != pack_name) continue;
    for (const auto& c : pack->manifest.components) {
      if (c.name == component) found.push_back({&c, pack.get()});
    }
  }
  return found;
}

// The first hex digits of a SHA-256, enough to tell two builds apart in a message.
std::string short_hash(const std::string& sha256) { return sha256.substr(0, 16); }

std::string changed_message(const PackRecord& record, const std::string& now) {
  return "plugin '" + record.manifest.name + "' (" + record.manifest.library_file.string() +
         ") changed during the run (sha256 " + short_hash(record.sha256) + "... at the start, " + short_hash(now) +
         "... now): did a rebuild finish while it ran? One run uses one build, so this job does not run the "
         "new one; to use it, start a new run with another --out";
}

bool is_shared_library(const fs::path& p) {
  const auto name = p.filename().string();
  return name.size() > 3 && (name.rfind(".so") == name.size() - 3 || name.find(".so.") != std::string::npos);
}

}  // namespace

fs::path Catalog::install_plugin_dir() {
  // Beside this library (lib/libfeaturelab-kernel.so → lib/featurelab/plugins), in the build tree as installed:
  // found wherever the host's executable is (the command, python3, a host of one's own).
  std::error_code ec;
  const fs::path library = boost::dll::this_line_location(ec);
  if (ec) return {};
  return (library.parent_path() / "featurelab" / "plugins").lexically_normal();
}

std::vector<fs::path> Catalog::search_path(const std::vector<std::string>& cli_paths) {
  std::vector<fs::path> dirs;
  for (const auto& p : cli_paths) split_path_list(p, dirs);
  if (const char* env = std::getenv("FEATURELAB_PLUGIN_PATH")) split_path_list(env, dirs);
  if (auto installed = install_plugin_dir(); !installed.empty()) dirs.push_back(installed);
  return dirs;
}

void Catalog::discover(const std::vector<fs::path>& dirs) {
  dirs_ = dirs;
  std::set<fs::path> seen_dirs;
  for (const auto& dir : dirs) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!seen_dirs.insert(canonical).second) continue;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(dir, ec)) entries.push_back(entry.path());
    std::sort(entries.begin(), entries.end());
    std::vector<std::unique_ptr<PackRecord>> usable;  // this directory's, in file name order
    for (const auto& path : entries) {
      if (!is_shared_library(path)) continue;
      libraries_.push_back(path);
      // Checked before anything else, so an untrusted library is never listed and never shadows.
      if (const PluginTrust trust = check_plugin_trust(path); !trust) {
        refuse_library(path, LoadFailure::UnsafePermissions, path.string() + ": refused: " + trust.refusal);
        continue;
      }
      const fs::path manifest_file = manifest_path_for(path);
      if (!fs::exists(manifest_file)) {
        problems_.push_back(path.string() + ": no manifest " + manifest_file.filename().string() +
                            " next to it, so it is ignored; create it with: featurelab plugins manifest " +
                            path.string());
        continue;
      }
      auto record = std::make_unique<PackRecord>();
      try {
        record->manifest = read_manifest(manifest_file);
      } catch (const Error& e) {
        problems_.push_back(e.what());
        continue;
      }
      record->manifest.library_file = path;
      const auto size = fs::file_size(path, ec);
      if (size != record->manifest.library_size) {
        problems_.push_back(manifest_file.string() + ": stale manifest (it describes a library of " +
                            std::to_string(record->manifest.library_size) + " bytes, " + path.string() +
                            " has " + std::to_string(size) + "); rebuild, or run: featurelab plugins manifest " +
                            path.string());
        continue;
      }
      // A component built against another version of its kind's interface: refused before loading.
      std::string mismatches;
      for (const auto& c : record->manifest.components) {
        if (auto why = interface_mismatch(c.kind, c.name, c.interface_id); !why.empty()) {
          mismatches += (mismatches.empty() ? "" : "; ") + why;
        }
      }
      if (!mismatches.empty()) {
        problems_.push_back(path.string() + ": pack '" + record->manifest.name + "' is not used: " + mismatches +
                            "; rebuild the plugin against this featurelab's SDK");
        continue;
      }
      if (std::string slow = unoptimized_plugin_warning(record->manifest.fingerprint, path.string()); !slow.empty()) {
        problems_.push_back(std::move(slow));  // used, and said: a debug build may be wanted
      }
      usable.push_back(std::move(record));
    }
    add_directory(dir, std::move(usable));
  }
}

void Catalog::refuse_library(const fs::path& library, LoadFailure kind, const std::string& why) {
  auto record = std::make_unique<PackRecord>();
  // Its manifest is data, not code: read (when it can be) only so that a pipeline naming one of
  // its components is told about the refusal instead of an unknown name.
  std::error_code ec;
  if (const fs::path manifest_file = manifest_path_for(library); fs::exists(manifest_file, ec)) {
    try {
      record->manifest = read_manifest(manifest_file);
    } catch (const Error&) {
    }
  }
  record->manifest.library_file = library;
  record->refusal = why;
  record->refusal_kind = kind;
  problems_.push_back(why);
  refused_.push_back(std::move(record));
}

void Catalog::add_directory(const fs::path& dir, std::vector<std::unique_ptr<PackRecord>> usable) {
  std::map<std::string, std::vector<fs::path>> libraries_of;  // pack name -> this directory's libraries
  for (const auto& record : usable) libraries_of[record->manifest.name].push_back(record->manifest.library_file);
  // The pack names earlier directories took: the first directory that declares a pack keeps its
  // name, even when it is refused as ambiguous (a later copy is not what the search path says to use).
  std::map<std::string, const PackRecord*> taken;
  for (const auto& p : refused_) {
    if (p->refusal_kind == LoadFailure::AmbiguousPack) taken.emplace(p->manifest.name, p.get());
  }
  for (const auto& p : packs_) taken[p->manifest.name] = p.get();
  for (auto& record : usable) {
    const std::string name = record->manifest.name;
    if (const auto it = taken.find(name); it != taken.end()) {
      const PackRecord* earlier = it->second;
      problems_.push_back("pack '" + name + "' found twice: " + earlier->manifest.library_file.string() +
                          (earlier->refusal.empty() ? " (used, earlier on the search path)"
                                                    : " (earlier on the search path, refused)") +
                          " and " + record->manifest.library_file.string() + " (ignored)");
      continue;
    }
    const auto& same = libraries_of[name];
    if (same.size() > 1) {
      // Within a directory nothing says which is meant (the file names sort by accident): none.
      std::string files;
      for (const auto& f : same) files += (files.empty() ? "" : ", ") + f.filename().string();
      const std::string why = "pack '" + name + "' is declared by " + std::to_string(same.size()) +
                              " libraries in " + dir.string() + " (" + files +
                              "); which one would run depends on their file names, so none is used: remove "
                              "the ones you do not want, or give each its own pack name";
      if (record->manifest.library_file == same.front()) problems_.push_back(why);
      record->refusal = record->manifest.library_file.string() + ": refused: " + why;
      record->refusal_kind = LoadFailure::AmbiguousPack;
      refused_.push_back(std::move(record));
      continue;
    }
    packs_.push_back(std::move(record));
  }
}

const PackRecord* Catalog::refused(const fs::path& library) const {
  for (const auto& record : refused_) {
    if (record->manifest.library_file == library) return record.get();
  }
  return nullptr;
}

std::vector<std::string> Catalog::names(Kind kind) const {
  std::vector<std::string> out;
  for (const auto& pack : packs_) {
    for (const auto& c : pack->manifest.components) {
      if (c.kind == kind) out.push_back(c.name);
    }
  }
  return out;
}

std::vector<ComponentRef> Catalog::find_any(const std::string& name) const {
  return components_named(packs_, name);
}

std::vector<ComponentRef> Catalog::require_any(const std::string& name) const {
  auto refs = find_any(name);
  if (!refs.empty()) return refs;
  std::vector<std::string> all;
  for (Kind kind : kAllKinds) {
    for (auto& known : names(kind)) all.push_back(known);
  }
  std::string msg = "no component '" + name + "'";
  if (auto guess = closest_name(name, all)) msg += "; did you mean '" + *guess + "'?";
  throw PluginError(msg + " (see: featurelab list); " + search_path_note());
}

ComponentRef Catalog::find(Kind kind, const std::string& name) const {
  std::vector<ComponentRef> found;
  for (const auto& ref : find_any(name)) {
    if (ref.component->kind == kind) found.push_back(ref);
  }
  if (found.empty()) {
    for (const auto& ref : components_named(refused_, name)) {
      if (ref.component->kind == kind) return ref;  // stops at pin() or load(), with the refusal
    }
  }
  if (found.size() == 1) return found.front();
  if (found.size() > 1) {
    std::string msg = std::string(to_string(kind)) + " '" + name + "' is provided by several packs:";
    for (const auto& ref : found) msg += " " + ref.qualified() + " (" + ref.pack->manifest.library_file.string() + ")";
    throw PluginError(msg + "; write the qualified name, e.g. use = \"" + found.front().qualified() + "\"");
  }
  std::string msg = "no " + std::string(to_string(kind)) + " '" + name + "'";
  const auto bare = name.substr(name.find(':') == std::string::npos ? 0 : name.find(':') + 1);
  std::vector<std::string> candidates = names(kind);
  if (auto guess = closest_name(bare, candidates)) {
    const auto ref = find_any(*guess);
    msg += "; did you mean '" + *guess + "'";
    for (const auto& r : ref) {
      if (r.component->kind == kind) {
        msg += " (pack " + r.pack->manifest.name + ", " + r.pack->manifest.library_file.string() + ")";
        break;
      }
    }
    msg += "?";
  } else if (!candidates.empty()) {
    std::sort(candidates.begin(), candidates.end());
    msg += "; the " + std::string(to_string(kind)) + " components found are:";
    for (const auto& c : candidates) msg += " " + c;
  }
  const auto others = find_any(name);
  if (!others.empty()) {
    msg += " ('" + name + "' is a " + to_string(others.front().component->kind) + ")";
  }
  if (packs_.empty()) {
    msg += "; no plugin packs were found on the search path (see: featurelab plugins doctor)";
  }
  throw PluginError(msg + "; " + search_path_note());
}

std::string Catalog::search_path_note() const {
  std::string dirs;
  for (const auto& d : dirs_) {
    std::error_code ec;
    dirs += (dirs.empty() ? "" : ", ") + d.string() + (fs::is_directory(d, ec) ? "" : " (missing)");
  }
  return (dirs.empty() ? std::string("no plugin directory was searched") : "searched, in order: " + dirs) +
         " (add a directory in front with --plugin-path DIR, or FEATURELAB_PLUGIN_PATH=DIR1:DIR2)";
}

std::shared_ptr<LoadedPack> Catalog::load(const PackRecord& record) {
  if (record.loaded) return record.loaded;
  if (!record.refusal.empty()) throw PluginError(record.refusal);
  LoadResult result = load_pack(record.manifest.library_file, record.sha256);
  if (result.failure == LoadFailure::Changed) throw PluginError(changed_message(record, result.sha256));
  if (!result) throw PluginError(result.message);
  if (result.pack->name != record.manifest.name) {
    throw PluginError(record.manifest.library_file.string() + ": the library declares pack '" +
                      result.pack->name + "' but its manifest says '" + record.manifest.name +
                      "'; regenerate the manifest: featurelab plugins manifest " +
                      record.manifest.library_file.string());
  }
  if (record.sha256.empty()) record.sha256 = result.pack->sha256;
  record.loaded = result.pack;
  return result.pack;
}

const std::string& Catalog::pin(const PackRecord& record) {
  if (!record.refusal.empty()) throw PluginError(record.refusal);
  if (record.sha256.empty()) {
    const PluginFile opened(record.manifest.library_file);
    if (opened.failure() != LoadFailure::None) {
      throw PluginError(record.manifest.library_file.string() + ": " + opened.problem());
    }
    record.sha256 = opened.sha256();
  }
  return record.sha256;
}

void Catalog::pin_to(const PackRecord& record, const std::string& sha256) {
  if (!record.sha256.empty() && record.sha256 != sha256) {
    const std::string loaded = record.sha256;
    record.sha256 = sha256;
    throw PluginError(changed_message(record, loaded));
  }
  record.sha256 = sha256;
}

const ComponentInfo& Catalog::registered(const LoadedPack& pack, const ComponentRef& ref) {
  for (const auto& c : pack.components) {
    if (c.kind == ref.component->kind && c.name == ref.component->name) return c;
  }
  throw PluginError(pack.file.string() + ": " + to_string(ref.component->kind) + " '" + ref.component->name +
                    "' is in the manifest but the library does not register it; regenerate the manifest: "
                    "featurelab plugins manifest " + pack.file.string());
}

double Catalog::data_dimension(const ComponentRef& ref, const Params& params) const {
  // Loading is the catalog's cache, not a change of what it describes.
  auto pack = const_cast<Catalog*>(this)->load(*ref.pack);
  const ComponentInfo& info = registered(*pack, ref);
  if (!info.dimension) return -1;
  try {
    return info.dimension(params);
  } catch (const PluginError&) {
    throw;
  } catch (const Error& e) {
    throw Error(ref.qualified() + ": " + e.what());  // parameters it refuses: bad input
  } catch (const std::exception& e) {
    throw PluginError(pack->file.string() + ": " + to_string(ref.component->kind) + " '" + ref.component->name +
                      "': its dimension estimate threw: " + e.what());
  }
}

std::pair<Component*, std::shared_ptr<LoadedPack>> Catalog::create(const ComponentRef& ref,
                                                                    const Params& params,
                                                                    Context& context) {
  auto pack = load(*ref.pack);
  const ComponentInfo& info = registered(*pack, ref);
  const std::string who = pack->file.string() + ": " + to_string(ref.component->kind) + " '" +
                          ref.component->name + "'";
  try {
    std::unique_ptr<Component> made = info.create(params, context);
    if (!made) throw PluginError(who + ": its factory returned nothing");
    return {made.release(), pack};
  } catch (const PluginError&) {
    throw;
  } catch (const Error& e) {
    // A component refusing its parameters is bad input, not a broken plugin.
    throw Error(context.path + " (" + ref.qualified() + "): " + e.what());
  } catch (const std::bad_alloc&) {
    throw;  // not a broken plugin: the job names it as out of memory
  } catch (const std::exception& e) {
    throw PluginError(who + " (" + context.path + "): could not be created: " + e.what());
  } catch (...) {
    throw PluginError(who + " (" + context.path + "): its factory threw a non-standard exception");
  }
}

}  // namespace featurelab
