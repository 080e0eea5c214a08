// featurelab plugins check PACK: the contract checks our own packs pass, run on any pack of the search path
// (a third party's included): every component built from its defaults and checked against what its kind
// promises (gradients against finite differences for models and layers, finite outputs, probes that record
// what they declare, ...), by the contract program installed beside featurelab.
#include "plugins_check.hpp"

#include <featurelab/core/errors.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace featurelab::cli {

namespace fs = std::filesystem;

namespace {

// Beside the running featurelab (a build tree's bin/), else in <prefix>/libexec/featurelab/.
fs::path contract_program() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path dir = ec ? fs::path() : self.parent_path();
  for (const fs::path& candidate : {dir / "featurelab-contract", dir / ".." / "libexec" / "featurelab" / "featurelab-contract"}) {
    if (fs::exists(candidate, ec)) return candidate.lexically_normal();
  }
  throw PluginError("the contract program featurelab-contract is neither beside " + self.string() + " nor in " +
                    (dir / ".." / "libexec" / "featurelab").lexically_normal().string() +
                    ": reinstall featurelab (make install) or run the build tree's bin/featurelab");
}

}  // namespace

int check_pack(const Catalog& catalog, const std::string& pack) {
  std::vector<std::string> libraries;
  bool found = false;
  std::string known;
  for (const auto& record : catalog.packs()) {
    libraries.push_back(record->manifest.library_file.string());
    known += (known.empty() ? "" : ", ") + record->manifest.name;
    found = found || record->manifest.name == pack;
  }
  if (!found) {
    throw PluginError("no usable pack '" + pack + "' on the plugin search path (usable: " +
                      (known.empty() ? std::string("none") : known) + "); " + catalog.search_path_note() +
                      "; featurelab plugins doctor says why a pack is refused");
  }
  // Arguments, not a shell command: a pack's or a file's name is data.
  std::vector<std::string> args{contract_program().string(), "--pack", pack};
  for (const auto& library : libraries) {
    args.push_back("--library");
    args.push_back(library);
  }
  args.push_back("~[golden]");  // the golden lists are this repository's; after the options (Catch stops at it)
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  if (const int error = ::posix_spawn(&child, argv[0], nullptr, nullptr, argv.data(), environ); error != 0) {
    throw PluginError("cannot start " + args[0] + ": " + std::strerror(error));
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw PluginError(std::string("waiting for the contract program: ") + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return kExitOk;
  return kExitRunFailed;
}

}  // namespace featurelab::cli
