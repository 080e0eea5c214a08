// A plugin library opened to be hashed and loaded: trusted first (plugin_trust.hpp), then opened,
// and the open descriptor matched against the file that was checked. Its SHA-256 is of the
// descriptor's bytes, and it is loaded through /proc/self/fd/N, so what runs is exactly what was
// checked and hashed, whatever happens to the path meanwhile.
#pragma once

#include "kernel/loader/pack_loader.hpp"

#include <filesystem>
#include <string>

namespace featurelab {

class PluginFile {
 public:
  // On failure, failure() says which (NotFound, UnsafePermissions, NotSharedLibrary when it cannot be
  // read) and problem() why, with the fix.
  explicit PluginFile(const std::filesystem::path& file);
  ~PluginFile();
  PluginFile(const PluginFile&) = delete;
  PluginFile& operator=(const PluginFile&) = delete;

  LoadFailure failure() const { return failure_; }
  const std::string& problem() const { return problem_; }
  const std::string& sha256() const { return sha256_; }

  // The name to dlopen: /proc/self/fd/N.
  std::filesystem::path loadable_path() const;
  // Once the dynamic loader has mapped the library under that name, the descriptor stays open for
  // the rest of the process: the loader recognises a library it already holds by name, and a C++
  // library is often never unmapped (unique symbols), so a later file opened under the same
  // descriptor number would otherwise be taken for this one.
  void keep_open() { kept_ = true; }

 private:
  int fd_ = -1;
  bool kept_ = false;
  LoadFailure failure_ = LoadFailure::None;
  std::string problem_;
  std::string sha256_;
};

}  // namespace featurelab
