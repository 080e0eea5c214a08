// Discovery from manifests, name resolution with did-you-mean, lazy loading, creation.
#include "registry/catalog.hpp"

#include "loader/interface_ids.hpp"
#include "text/suggest.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cstdlib>
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

bool is_shared_library(const fs::path& p) {
  const auto name = p.filename().string();
  return name.size() > 3 && (name.rfind(".so") == name.size() - 3 || name.find(".so.") != std::string::npos);
}

}  // namespace

fs::path Catalog::install_plugin_dir() {
  std::error_code ec;
  const fs::path exe = boost::dll::program_location(ec);
  if (ec) return {};
  return (exe.parent_path().parent_path() / "lib" / "featurelab" / "plugins").lexically_normal();
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
    for (const auto& path : entries) {
      if (!is_shared_library(path)) continue;
      libraries_.push_back(path);
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
      const auto duplicate = std::find_if(packs_.begin(), packs_.end(), [&](const auto& p) {
        return p->manifest.name == record->manifest.name;
      });
      if (duplicate != packs_.end()) {
        problems_.push_back("pack '" + record->manifest.name + "' found twice: " +
                            (*duplicate)->manifest.library_file.string() + " (used, earlier on the search path) and " +
                            path.string() + " (ignored)");
        continue;
      }
      packs_.push_back(std::move(record));
    }
  }
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
  std::string pack_name;
  std::string component = name;
  if (auto colon = name.find(':'); colon != std::string::npos) {
    pack_name = name.substr(0, colon);
    component = name.substr(colon + 1);
  }
  std::vector<ComponentRef> found;
  for (const auto& pack : packs_) {
    if (!pack_name.empty() && pack->manifest.name != pack_name) continue;
    for (const auto& c : pack->manifest.components) {
      if (c.name == component) found.push_back({&c, pack.get()});
    }
  }
  return found;
}

ComponentRef Catalog::find(Kind kind, const std::string& name) const {
  std::vector<ComponentRef> found;
  for (const auto& ref : find_any(name)) {
    if (ref.component->kind == kind) found.push_back(ref);
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
  LoadResult result = load_pack(record.manifest.library_file);
  if (!result) throw PluginError(result.message);
  if (result.pack->name != record.manifest.name) {
    throw PluginError(record.manifest.library_file.string() + ": the library declares pack '" +
                      result.pack->name + "' but its manifest says '" + record.manifest.name +
                      "'; regenerate the manifest: featurelab plugins manifest " +
                      record.manifest.library_file.string());
  }
  const_cast<PackRecord&>(record).loaded = result.pack;
  return result.pack;
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
  } catch (const std::exception& e) {
    throw PluginError(who + " (" + context.path + "): could not be created: " + e.what());
  } catch (...) {
    throw PluginError(who + " (" + context.path + "): its factory threw a non-standard exception");
  }
}

}  // namespace featurelab
