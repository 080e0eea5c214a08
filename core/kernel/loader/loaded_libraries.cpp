#include "kernel/loader/loaded_libraries.hpp"

#include <atomic>
#include <cstring>
#include <filesystem>

#include <dlfcn.h>

namespace featurelab {

namespace {

// Fixed storage: a signal handler reads it.
constexpr int kMaxPacks = 64;
constexpr std::size_t kPathBytes = 512;
struct PackLibrary {
  const void* base = nullptr;
  char path[kPathBytes] = {};
};
PackLibrary g_packs[kMaxPacks];
std::atomic<int> g_pack_count{0};

}  // namespace

void note_pack_library(const void* address_inside, const std::string& path) {
  Dl_info info{};
  if (::dladdr(address_inside, &info) == 0 || info.dli_fbase == nullptr) return;
  const int count = g_pack_count.load();
  for (int k = 0; k < count; ++k) {
    if (g_packs[k].base == info.dli_fbase) return;
  }
  if (count >= kMaxPacks) return;
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  g_packs[count].base = info.dli_fbase;
  std::strncpy(g_packs[count].path, absolute.c_str(), kPathBytes - 1);
  g_pack_count.store(count + 1);
}

const char* pack_library_at(const void* base) {
  const int count = g_pack_count.load();
  for (int k = 0; k < count; ++k) {
    if (g_packs[k].base == base) return g_packs[k].path;
  }
  return nullptr;
}

}  // namespace featurelab
