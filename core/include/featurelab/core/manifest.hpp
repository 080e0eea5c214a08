// The sidecar manifest: what a pack provides, written once at build time next to the library
// (lib<pack>.featurelab.json), so listing and describing components never runs plugin code.
#pragma once

#include <featurelab/pack.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

struct ComponentManifest {
  Kind kind = Kind::Model;
  std::string name;
  std::string doc;
  Schema schema;
  std::string interface_id;  // "featurelab.model/1": checked at discovery, before the library is loaded
  std::string source;        // the file that declares it, as the plugin was compiled
  std::vector<std::string> metrics;  // a probe's metric names, patterns with '*'; empty: undeclared
};

struct PackManifest {
  std::filesystem::path manifest_file;
  std::filesystem::path library_file;   // absolute
  std::uintmax_t library_size = 0;      // to notice a manifest left behind by a rebuild
  std::uint32_t abi = 0;
  std::string fingerprint;
  std::string name;
  std::string version;
  std::vector<ComponentManifest> components;
};

std::filesystem::path manifest_path_for(const std::filesystem::path& library);

// Throws featurelab::Error naming the file when it is unreadable or malformed.
PackManifest read_manifest(const std::filesystem::path& manifest_file);
// Writes atomically (temporary file + rename).
void write_manifest(const PackManifest& manifest, const std::filesystem::path& manifest_file);
PackManifest manifest_of(const struct LoadedPack& pack);

}  // namespace featurelab
