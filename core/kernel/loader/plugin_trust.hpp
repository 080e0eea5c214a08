// Whether a plugin file may be loaded at all. Loading a plugin runs its code as the current user, so,
// like ssh with key files, the file and every directory above it must be safe from other users:
//
//   * each is owned by the current user or root (whoever owns an entry can change what it holds);
//   * none is writable by group or others, except a sticky directory (like /tmp), where others can
//     add entries but not rename or replace ours: the entry below it on the path must then be the
//     user's or root's, which the first rule already requires.
//
// Symlinks are resolved first (canonical), so what is checked is the target and the directories
// that really hold it, up to /.
#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace featurelab {

struct PluginTrust {
  std::filesystem::path resolved;  // the file, every symlink followed
  dev_t device = 0;                // the identity of the file that was checked, so that an open
  ino_t inode = 0;                 // descriptor can be matched against it
  std::string refusal;             // empty when trusted; else what is unsafe, and the fix
  explicit operator bool() const { return refusal.empty(); }
};

PluginTrust check_plugin_trust(const std::filesystem::path& file);

}  // namespace featurelab
