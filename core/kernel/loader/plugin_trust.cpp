// The walk from the resolved file up to /, with one refusal per kind of problem.
#include "kernel/loader/plugin_trust.hpp"

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// The login name, or the uid when it has none.
std::string user_name(uid_t uid) {
  std::vector<char> buffer(16384);
  struct passwd entry {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->pw_name;
  return std::to_string(uid);
}

std::string octal(mode_t mode) {
  std::ostringstream text;
  text << std::oct << (mode & 07777);
  return text.str();
}

// Why `path` (the plugin or a directory holding it) is unsafe, or "".
std::string unsafe_entry(const fs::path& path, const struct stat& info, uid_t me) {
  const bool directory = S_ISDIR(info.st_mode);
  const std::string what = directory ? "the directory " + path.string() : path.string();
  if (info.st_uid != me && info.st_uid != 0) {
    return what + " belongs to " + user_name(info.st_uid) + " (uid " + std::to_string(info.st_uid) +
           "), not to you or root: its owner can change the code a plugin runs as you; if you trust " +
           user_name(info.st_uid) + ", take it over with: chown " + user_name(me) + " " + path.string() +
           "; otherwise move the plugin to a directory of your own";
  }
  const bool sticky = directory && (info.st_mode & S_ISVTX);
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) && !sticky) {
    return what + " is writable by other users (mode " + octal(info.st_mode) + "); loading a plugin runs " +
           "its code, so fix it with: chmod go-w " + path.string() +
           (directory ? " (or move the plugin out of it)" : "");
  }
  return "";
}

}  // namespace

PluginTrust check_plugin_trust(const fs::path& file) {
  PluginTrust trust;
  std::error_code ec;
  trust.resolved = fs::canonical(file, ec);
  if (ec) {
    trust.refusal = "cannot resolve " + file.string() + ": " + ec.message();
    return trust;
  }
  // Said when the problem is on the far side of a symlink, so the path in it makes sense.
  const std::string via = trust.resolved == fs::absolute(file).lexically_normal()
                              ? ""
                              : file.string() + " resolves to " + trust.resolved.string() + ", and ";
  const uid_t me = ::geteuid();
  for (fs::path path = trust.resolved;; path = path.parent_path()) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0) {
      trust.refusal = via + "cannot inspect " + path.string() + ": " + std::strerror(errno);
      return trust;
    }
    if (path == trust.resolved) {
      trust.device = info.st_dev;
      trust.inode = info.st_ino;
    }
    if (auto why = unsafe_entry(path, info, me); !why.empty()) {
      trust.refusal = via + why;
      return trust;
    }
    if (path == path.root_path()) break;
  }
  return trust;
}

}  // namespace featurelab
