// A file written atomically at the end of some work, whose disk space is taken when the work
// starts: a job reserves its summary.json, so that a disk that fills up during the job still has
// room to record that the job failed, and why. (Without it the failure's reason is lost with the
// write that should have recorded it.)
#pragma once

#include <filesystem>
#include <string>

namespace featurelab {

class ReservedFile {
 public:
  // Allocates `bytes` to file's temporary file (<file>.tmp), best effort: where they cannot be
  // allocated (a disk already full, a filesystem without fallocate) write() does without them.
  ReservedFile(const std::filesystem::path& file, long bytes);
  // Removes the temporary file unless write() replaced the file with it.
  ~ReservedFile();
  ReservedFile(const ReservedFile&) = delete;
  ReservedFile& operator=(const ReservedFile&) = delete;

  // As write_file_atomically, into the reserved space: the temporary file is overwritten, cut to
  // the text's length and renamed over the file. Throws featurelab::Error naming the file and the
  // reason when it cannot be written.
  void write(const std::string& text);

 private:
  void release();

  std::filesystem::path file_;
  std::filesystem::path tmp_;
  int fd_ = -1;
};

}  // namespace featurelab
