// Where a job's measurements go: metrics.jsonl (one write(2) per line, so a crash loses at most the
// line being written), tables as CSV files, and the history kept in memory for assertions and
// summary.json.
//
// Every write is checked. The first one that fails (a full disk, a file size limit) makes the
// writer refuse all later ones with the same reason, so the job fails with it even if a plugin's
// trainer swallowed the exception; metrics.jsonl is cut back to its last whole line, and the
// history holds exactly the lines the file holds.
//
// Only the process that opened the file writes: a process forked inside the job by a plugin or probe (Python's
// os.fork() returning in both) would write the job's lines a second time into a job that ends ok. Such a process ends
// at its first write, with exit status 1 (stop_if_forked); the job's own process goes on.
#pragma once

#include "kernel/io/sha256.hpp"

#include <featurelab/probe.hpp>

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace featurelab {

class MetricsWriter {
 public:
  explicit MetricsWriter(const std::filesystem::path& dir);
  ~MetricsWriter();
  MetricsWriter(const MetricsWriter&) = delete;
  MetricsWriter& operator=(const MetricsWriter&) = delete;

  // Throw featurelab::Error naming the file and the reason when the write fails.
  void scalar(Index step, const std::string& metric, double value);
  void table(Index step, const std::string& name, const Table& table);
  // Closes metrics.jsonl, checked (a network filesystem may report a lost write only here).
  void close();

  // The first write that failed, "" while every write succeeded.
  const std::string& failure() const { return failure_; }

  // metric -> [(step, value)], in the order recorded.
  const std::map<std::string, std::vector<std::pair<Index, double>>>& history() const { return history_; }
  std::map<std::string, double> final_values() const;

  // What metrics.jsonl holds: its whole lines, counted and hashed as written. summary.json records both, and every
  // reader of a finished job checks the file against them (results.hpp).
  Index lines() const { return lines_; }
  std::string sha256() const { return digest_.hex(); }

 private:
  [[noreturn]] void fail(std::string reason);
  void stop_if_forked() const;

  std::filesystem::path dir_;
  std::filesystem::path file_;
  int fd_ = -1;
  pid_t owner_ = -1;           // the process that opened metrics.jsonl
  long long whole_bytes_ = 0;  // metrics.jsonl's length in whole lines
  Index lines_ = 0;
  Sha256Stream digest_;
  std::string failure_;
  std::map<std::string, std::vector<std::pair<Index, double>>> history_;
};

// JSON number: shortest text that reads back to the same double; null for NaN and infinities.
std::string json_number(double value);

}  // namespace featurelab
