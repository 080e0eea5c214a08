#include "execution/crash_site.hpp"

#include "kernel/loader/loaded_libraries.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

namespace featurelab {

namespace {

char* g_site = nullptr;
std::size_t g_site_size = 0;
alignas(16) char g_alternate_stack[64 * 1024];  // so a stack overflow can still be reported

void record_site() {
  void* frames[128];
  const int n = ::backtrace(frames, 128);
  for (int i = 0; i < n; ++i) {
    Dl_info info{};
    if (::dladdr(frames[i], &info) == 0 || info.dli_fbase == nullptr) continue;
    if (const char* path = pack_library_at(info.dli_fbase)) {
      std::strncpy(g_site, path, g_site_size - 1);
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
