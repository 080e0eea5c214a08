// Stopping a run by a signal. SIGINT (Ctrl-C), SIGTERM (kill, scancel, a preempting scheduler) and
// SIGHUP (a closed terminal or ssh session) all ask the same thing: running jobs finish their
// step, write their results and stop; the command then exits 128 + the signal (130, 143, 129).
// A second signal of the same kind terminates at once.
//
// The parent and its workers handle them differently. The parent's handler only sets a flag (the
// scheduling loop forwards the request to each worker) and falls back to the default action for a
// second signal of the kind. A worker's handler only ever sets its flag: a stop request, forwarded
// or sent to it directly (a scheduler signals every process of a job), never kills it mid-step.
// A worker ends with its parent instead (PR_SET_PDEATHSIG, workers.cpp).
#pragma once

#include <atomic>
#include <csignal>

namespace featurelab {

// This process's stop request, set by the handlers below; jobs read it at every step.
const std::atomic<bool>& stop_requested_flag();
// The signal that first asked to stop, 0 when none did.
int stop_signal();
// The exit code of a command stopped by stop_signal(): 128 + the signal; 130 when no signal
// set the request.
int stopped_exit_code();

// In the command (`run`, `job`): SIGINT, SIGTERM and SIGHUP set the stop request, and a second
// one of the same kind terminates. SIGPIPE is ignored: a reader of the log that goes away
// (`featurelab run ... 2>&1 | head`) must not kill a parent that has workers to supervise; its
// writes fail and are dropped. SIGXFSZ is ignored too: past a file size limit (ulimit -f) the
// parent's own writes (summary.csv, a crashed job's summary.json) fail with EFBIG and are reported,
// where the signal would end the run with its workers. Ctrl-Z (SIGTSTP) is left to the scheduling loop
// (take_suspend_request), which has to stop the workers too: they run in process groups of their own.
void install_stop_handlers();
// The default actions again, once the command is done.
void restore_default_stop_handlers();

// For the length of a run in a host that has handlers of its own (Python's, for KeyboardInterrupt):
// clears an earlier stop request, installs the handlers above, and puts the host's back at the end.
class ScopedStopHandlers {
 public:
  ScopedStopHandlers();
  ~ScopedStopHandlers();
  ScopedStopHandlers(const ScopedStopHandlers&) = delete;
  ScopedStopHandlers& operator=(const ScopedStopHandlers&) = delete;

 private:
  static constexpr int kSaved = 6;  // SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE, SIGXFSZ
  struct sigaction saved_[kSaved];
};

// In a freshly forked worker, with the stop signals still blocked: each stop signal sets the
// flag, however often it comes; Ctrl-Z and the terminal's job control are the parent's business. A process the
// job forks in turn gets the default actions back (pthread_atfork), so it can be stopped as its own code expects.
void install_worker_stop_handlers();

// The stop signals, to block around fork(): a signal that comes while a worker is being made is
// then handled by the worker's handlers, not by the parent's copied into it.
sigset_t stop_signal_set();

// True once per Ctrl-Z at the terminal (SIGTSTP to the parent).
bool take_suspend_request();
// Stops this process as Ctrl-Z would (the caller has stopped its workers), returning when it is
// continued (fg, bg, SIGCONT).
void suspend_self();

}  // namespace featurelab
