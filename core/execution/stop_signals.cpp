#include "execution/stop_signals.hpp"

#include <pthread.h>

namespace featurelab {

namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_suspend{false};

void note_stop(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  g_stop.store(true);
}

void on_suspend(int) { g_suspend.store(true); }

void set_handler(int sig, void (*handler)(int), int flags) {
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  ::sigaction(sig, &action, nullptr);
}

}  // namespace

const std::atomic<bool>& stop_requested_flag() { return g_stop; }

int stop_signal() { return g_signal.load(); }

int stopped_exit_code() {
  const int sig = stop_signal();
  return 128 + (sig ? sig : SIGINT);
}

void install_stop_handlers() {
  // SA_RESETHAND: the handler runs once per kind, so the second signal of a kind terminates.
  for (int sig : kStopSignals) set_handler(sig, note_stop, SA_RESTART | SA_RESETHAND);
  set_handler(SIGTSTP, on_suspend, SA_RESTART);
  set_handler(SIGPIPE, SIG_IGN, 0);
  set_handler(SIGXFSZ, SIG_IGN, 0);
}

void restore_default_stop_handlers() {
  for (int sig : kStopSignals) set_handler(sig, SIG_DFL, 0);
  set_handler(SIGTSTP, SIG_DFL, 0);
  set_handler(SIGPIPE, SIG_DFL, 0);
  set_handler(SIGXFSZ, SIG_DFL, 0);
}

namespace {
constexpr int kHostSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE, SIGXFSZ};
}  // namespace

ScopedStopHandlers::ScopedStopHandlers() {
  static_assert(sizeof(kHostSignals) / sizeof(int) == kSaved);
  for (int i = 0; i < kSaved; ++i) ::sigaction(kHostSignals[i], nullptr, &saved_[i]);
  g_stop.store(false);
  g_signal.store(0);
  g_suspend.store(false);
  install_stop_handlers();
}

ScopedStopHandlers::~ScopedStopHandlers() {
  for (int i = 0; i < kSaved; ++i) ::sigaction(kHostSignals[i], &saved_[i], nullptr);
}

// In a process a job forks (a Python probe's multiprocessing.Pool, a plugin's helper): the stop signals' default
// actions. The job's handlers would only set a flag nobody there reads, so Pool.terminate()'s SIGTERM left its
// workers running and the job waiting for them until its time limit.
static void default_stop_actions_after_fork() {
  for (int sig : kStopSignals) set_handler(sig, SIG_DFL, 0);
}

void install_worker_stop_handlers() {
  static const int registered = ::pthread_atfork(nullptr, nullptr, default_stop_actions_after_fork);
  (void)registered;
  for (int sig : kStopSignals) set_handler(sig, note_stop, SA_RESTART);
  set_handler(SIGTSTP, SIG_DFL, 0);
  // A worker is not in the terminal's foreground process group: a plugin writing to the terminal
  // must not be stopped for it (SIGTTOU with `stty tostop`), nor one reading from it (it gets EIO).
  set_handler(SIGTTOU, SIG_IGN, 0);
  set_handler(SIGTTIN, SIG_IGN, 0);
}

sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kStopSignals) sigaddset(&set, sig);
  sigaddset(&set, SIGTSTP);
  return set;
}

bool take_suspend_request() { return g_suspend.exchange(false); }

void suspend_self() {
  set_handler(SIGTSTP, SIG_DFL, 0);
  ::raise(SIGTSTP);  // stops here until continued
  set_handler(SIGTSTP, on_suspend, SA_RESTART);
}

}  // namespace featurelab
