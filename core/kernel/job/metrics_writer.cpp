// metrics.jsonl and table CSV files.
#include "kernel/job/metrics_writer.hpp"

#include "kernel/io/atomic_file.hpp"
#include "kernel/io/checked_write.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace featurelab {

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  return fmt::format("{}", value);
}

MetricsWriter::MetricsWriter(const std::filesystem::path& dir) : dir_(dir), file_(dir / "metrics.jsonl"), owner_(::getpid()) {
  fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int error = errno;
    throw Error(file_.string() + ": cannot write it: " + std::strerror(error));
  }
}

MetricsWriter::~MetricsWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void MetricsWriter::stop_if_forked() const {
  if (::getpid() != owner_) ::_exit(1);  // a fork of the job: its lines would be the job's twice
}

void MetricsWriter::fail(std::string reason) {
  if (failure_.empty()) failure_ = std::move(reason);
  throw Error(failure_);
}

void MetricsWriter::scalar(Index step, const std::string& metric, double value) {
  stop_if_forked();
  if (!failure_.empty()) fail(failure_);
  // One write() per line: a kill -9 leaves whole lines only.
  const std::string line = fmt::format("{{\"step\":{},\"metric\":{},\"value\":{}}}\n", step,
                                       nlohmann::json(metric).dump(), json_number(value));
  if (const int error = write_fully(fd_, line); error != 0) {
    // Part of the line may be on disk: cut it off, so the file ends in a whole line and holds what
    // the history holds (shrinking a file needs no space).
    const auto whole = static_cast<off_t>(whole_bytes_);
    if (::ftruncate(fd_, whole) == 0) ::lseek(fd_, whole, SEEK_SET);
    fail(write_failure(file_, error));
  }
  whole_bytes_ += static_cast<long long>(line.size());
  ++lines_;
  digest_.update(line);
  history_[metric].emplace_back(step, value);
}

void MetricsWriter::table(Index step, const std::string& name, const Table& table) {
  stop_if_forked();
  if (!failure_.empty()) fail(failure_);
  const auto tables = dir_ / "tables";
  const auto file = tables / (name + ".step" + std::to_string(step) + ".csv");
  std::ostringstream out;
  out << "row";
  for (Index j = 0; j < table.values.cols(); ++j) {
    out << "," << (static_cast<std::size_t>(j) < table.col_names.size() ? table.col_names[j] : std::to_string(j));
  }
  out << "\n";
  for (Index i = 0; i < table.values.rows(); ++i) {
    out << (static_cast<std::size_t>(i) < table.row_names.size() ? table.row_names[i] : std::to_string(i));
    for (Index j = 0; j < table.values.cols(); ++j) out << "," << json_number(table.values(i, j));
    out << "\n";
  }
  try {
    std::filesystem::create_directory(tables);  // in the job's directory, never made again if it is gone
    write_file_atomically(file, out.str());  // a killed job leaves no half table
  } catch (const Error& e) {
    fail(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    fail(tables.string() + ": cannot create it: " + e.code().message());
  }
}

void MetricsWriter::close() {
  stop_if_forked();
  if (fd_ < 0) return;
  const int result = ::close(fd_);
  const int error = errno;
  fd_ = -1;
  if (result != 0 && error != EINTR) fail(write_failure(file_, error));
}

std::map<std::string, double> MetricsWriter::final_values() const {
  std::map<std::string, double> out;
  for (const auto& [metric, points] : history_) {
    if (!points.empty()) out[metric] = points.back().second;
  }
  return out;
}

}  // namespace featurelab
