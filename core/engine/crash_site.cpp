#include "engine/crash_site.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

namespace featurelab {

namespace {

// Fixed storage: the handler may not allocate. Written before any job's code runs.
constexpr int kMaxPacks = 64;
constexpr std::size_t kPathBytes = 512;
struct PackLibrary {
  const void* base = nullptr;
  char path[kPathBytes] = {};
};
PackLibrary g_packs[kMaxPacks];
std::atomic<int> g_pack_count{0};

char* g_site = nullptr;
std::size_t g_site_size = 0;
alignas(16) char g_alternate_stack[64 * 1024];  // so a stack overflow can still be reported

void record_site() {
  void* frames[128];
  const int n = ::backtrace(frames, 128);
  const int packs = g_pack_count.load();
  for (int i = 0; i < n; ++i) {
    Dl_info info{};
    if (::dladdr(frames[i], &info) == 0 || info.dli_fbase == nullptr) continue;
    for (int k = 0; k < packs; ++k) {
      if (g_packs[k].base != info.dli_fbase) continue;
      std::strncpy(g_site, g_packs[k].path, g_site_size - 1);
      g_site[g_site_size - 1] = '\0';
      return;
    }
  }
}

void on_signal(int sig) {
  const int saved = errno;
  if (g_site && g_site[0] == '\0') record_site();
  errno = saved;
  if (sig == kWhereAreYouSignal) return;  // the parent kills us next
  // Die of the same signal, so the parent reports it as it is.
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}

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

void install_crash_site_handlers(char* site, std::size_t size) {
  if (!site || size == 0) return;
  g_site = site;
  g_site_size = size;
  void* warm[2];
  ::backtrace(warm, 2);  // loads the unwinder now: the first call may allocate
  stack_t alternate{};
  alternate.ss_sp = g_alternate_stack;
  alternate.ss_size = sizeof(g_alternate_stack);
  ::sigaltstack(&alternate, nullptr);
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, kWhereAreYouSignal}) {
    struct sigaction previous {};
    ::sigaction(sig, nullptr, &previous);
    // Under a sanitizer that handles the signal itself (handle_segv=1), leave its report alone.
    if (sig != kWhereAreYouSignal && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) continue;
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace featurelab
