// A job's parameter blocks saved as NumPy .npy files (format 1.0, row-major, the build's scalar type), so a
// notebook reads them with np.load and `featurelab eval` measures them again without training:
// jobs/X/params/step<N>/<block>.npy, each file's sha256 recorded in the job's summary.json.
#pragma once

#include <featurelab/model.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace featurelab {

// `--save-params final|every:N`: the last step's parameters, or those of every evaluation step that is a
// multiple of N and the last.
struct SaveParams {
  bool enabled = false;
  Index every = 0;  // 0: the last step only

  bool at(Index step, Index last_step) const { return enabled && (step == last_step || (every > 0 && step % every == 0)); }
  std::string text() const;  // "final", "every:100", "" when off
};

// Parses "final" or "every:N" (N >= 1); throws ConfigError located at `where` otherwise.
SaveParams parse_save_params(const std::string& text, const std::string& where);

// "step000300": the directory of a step's blocks under jobs/X/params/.
std::string saved_step_dir(Index step);

// Writes every block of the model into `dir` (made if missing); returns {"step000300/W.npy": sha256}, the names
// relative to dir's parent.
std::map<std::string, std::string> save_parameter_blocks(const Model& model, const std::filesystem::path& dir);

// Loads the blocks saved in `dir` into the model, after checking each file: its sha256 against `hashes` (as
// save_parameter_blocks returned them, keyed relative to dir's parent), its dtype (this build's scalar), its shape
// (the block's). Throws Error naming the file and what is wrong; the model is then left unchanged.
void load_parameter_blocks(Model& model, const std::filesystem::path& dir, const std::map<std::string, std::string>& hashes);

// The saved blocks a job's summary.json records, {"step000300/W.npy": sha256}; empty when it saved none (or has no
// summary.json). Throws Error naming the file when the record is not of that form (edited, or not featurelab's).
std::map<std::string, std::string> recorded_saved_params(const std::filesystem::path& job_dir);

// The steps those files are of ("step000300/W.npy" → 300), and them as text: "0, 40, 60".
std::set<Index> saved_steps(const std::map<std::string, std::string>& files);
std::string saved_steps_text(const std::set<Index>& steps);

}  // namespace featurelab
