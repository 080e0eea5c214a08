#include <featurelab/core/slurm_submission.hpp>

#include <featurelab/core/index_list.hpp>
#include "operations/cluster/program_output.hpp"
#include "kernel/job/provenance.hpp"
#include "kernel/io/atomic_file.hpp"
#include "kernel/text/names.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// One word for bash, whatever it holds.
std::string shell_quoted(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

// Slurm's MAX_ARRAY_SIZE ceiling: MaxArraySize is at most 4000001 (slurm.conf(5)).
constexpr std::size_t kSlurmMaxArraySize = 4000001;

std::size_t cluster_max_array_size(double timeout_seconds) {
  const ProgramOutput config = run_program({"scontrol", "show", "config"}, timeout_seconds);
  if (config.exit_status != 0) {
    throw Error("cannot read the cluster's MaxArraySize: scontrol show config " +
                (config.timed_out ? "did not answer (" + trimmed(config.err) + "; is the controller up?)"
                 : config.exit_status < 0 ? "could not run (" + trimmed(config.err) + "; is Slurm's client on PATH? Debian: slurm-client)"
                                        : "failed: " + trimmed(config.err)) +
                "; --max-array-size N gives it");
  }
  std::istringstream lines(config.out);
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    if (equals == std::string::npos || trimmed(line.substr(0, equals)) != "MaxArraySize") continue;
    const std::string value = trimmed(line.substr(equals + 1));
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) break;
    // Slurm itself allows at most 4,000,001: a larger value (twenty digits overflow an integer) is not a cluster's.
    if (value.size() > 7 || std::stoull(value) > kSlurmMaxArraySize) {
      throw Error("scontrol show config gives MaxArraySize = " + value + ", above Slurm's own limit of " +
                  std::to_string(kSlurmMaxArraySize) + "; give the arrays' size yourself with --max-array-size");
    }
    return std::stoull(value);
  }
  throw Error("scontrol show config gives no MaxArraySize; give the arrays' size yourself with --max-array-size");
}

namespace {

// Slurm's job name from the run's: letters, digits, '.', '-' and '_' (what Slurm's own job names need), the rest '_'.
std::string slurm_job_name(const std::string& run_name) {
  std::string name = "featurelab-" + run_name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return name;
}

// A value written into a line of the script: a newline would end the #SBATCH line (or the comment) and make the rest
// a shell command of the array task. Refused, naming where it came from.
void refuse_control_characters(const std::string& what, const std::string& value) {
  if (has_control_character(value)) {
    throw Error(what + " " + shown_with_escapes(value) +
                " holds a control character: it would start a line of its own in the sbatch script, run as a shell "
                "command; give it on one line of printable characters");
  }
}

}  // namespace

std::vector<SbatchScript> write_sbatch_scripts(const SlurmSubmission& s, std::size_t max_array_size) {
  if (s.indices.empty()) return {};
  refuse_control_characters("--partition", s.partition);
  refuse_control_characters("--time", s.time);
  for (const auto& option : s.sbatch_options) refuse_control_characters("--sbatch", option);
  refuse_control_characters("the run directory", fs::absolute(s.run_dir).string());
  if (max_array_size == 0) throw Error("MaxArraySize 0: this cluster takes no job arrays");
  const fs::path dir = fs::absolute(s.run_dir) / "slurm";
  fs::create_directories(dir);
  // Tasks of jobs_per_task consecutive entries of `indices`, then arrays of at most max_array_size tasks.
  std::vector<std::vector<std::size_t>> tasks;
  // Sizes up to SIZE_MAX (--max-array-size, --jobs-per-task): counted by subtraction and division, never a sum that
  // wraps around (a wrapped count once made 0 arrays and a silent success).
  for (std::size_t i = 0; i < s.indices.size();) {
    const std::size_t count = std::min(s.jobs_per_task, s.indices.size() - i);
    tasks.emplace_back(s.indices.begin() + static_cast<std::ptrdiff_t>(i),
                       s.indices.begin() + static_cast<std::ptrdiff_t>(i + count));
    i += count;
  }
  const std::size_t arrays = tasks.size() / max_array_size + (tasks.size() % max_array_size != 0 ? 1 : 0);
  // submit-<n>-<array>.sbatch, n one more than the last submission's: earlier scripts are kept.
  std::size_t submission = 1;
  while (fs::exists(dir / fmt::format("submit-{}-1.sbatch", submission))) ++submission;
  std::string command;
  for (const auto& word : s.featurelab) command += shell_quoted(word) + " ";
  std::vector<SbatchScript> scripts;
  for (std::size_t a = 0; a < arrays; ++a) {
    const std::size_t first = a * max_array_size, last = first + std::min(max_array_size, tasks.size() - first);
    SbatchScript script;
    script.file = dir / fmt::format("submit-{}-{}.sbatch", submission, a + 1);
    script.tasks = last - first;
    std::ostringstream text;
    text << "#!/bin/bash\n";
    text << fmt::format("# Written by featurelab submit: array {} of {}, {} task(s) of at most {} job(s) of {}.\n", a + 1,
                        arrays, script.tasks, s.jobs_per_task, fs::absolute(s.run_dir).string());
    text << "# Requeued on preemption or node failure; SIGTERM " << s.signal_seconds
         << " s before the time limit stops the running jobs after their step, as interrupted.\n";
    text << "#SBATCH --job-name=" << slurm_job_name(s.run_name) << "\n";
    text << "#SBATCH --array=0-" << script.tasks - 1 << "\n";
    text << "#SBATCH --cpus-per-task=" << s.cpus_per_task << "\n";
    text << "#SBATCH --ntasks=1\n";
    text << "#SBATCH --requeue\n";
    text << "#SBATCH --signal=B:TERM@" << s.signal_seconds << "\n";
    text << "#SBATCH --open-mode=append\n";
    text << "#SBATCH --output=" << (dir / "%A_%a.out").string() << "\n";
    if (!s.partition.empty()) text << "#SBATCH --partition=" << s.partition << "\n";
    if (!s.time.empty()) text << "#SBATCH --time=" << s.time << "\n";
    for (const auto& option : s.sbatch_options) text << "#SBATCH " << option << "\n";
    text << "\n# The job indices of each array task.\ntasks=(";
    for (std::size_t t = first; t < last; ++t) {
      const std::string list = format_index_list(tasks[t]);
      text << (t == first ? "" : " ") << list;
      script.indices.insert(script.indices.end(), tasks[t].begin(), tasks[t].end());
    }
    text << ")\n";
    // exec: featurelab is the batch step's process, so the TERM that --signal=B: sends reaches it.
    text << "exec " << command << "job " << shell_quoted(fs::absolute(s.run_dir).string())
         << " --indices \"${tasks[$SLURM_ARRAY_TASK_ID]}\"\n";
    script.text = text.str();
    write_file_atomically(script.file, script.text);
    fs::permissions(script.file, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    scripts.push_back(std::move(script));
  }
  return scripts;
}

std::string submit_sbatch_script(const SlurmSubmission& s, const SbatchScript& script) {
  const ProgramOutput submitted = run_program({"sbatch", "--parsable", script.file.string()}, s.client_timeout);
  if (submitted.timed_out) {
    throw Error("sbatch did not answer for " + script.file.string() + " (" + trimmed(submitted.err) + "): whether its "
                "array was queued is squeue's to tell (squeue --me); the jobs before it were submitted");
  }
  if (submitted.exit_status < 0) {
    throw Error("cannot run sbatch (" + trimmed(submitted.err) + "); is Slurm's client on PATH (Debian: slurm-client)? " +
                script.file.string() + " is written: submit it with sbatch where Slurm is");
  }
  if (submitted.exit_status != 0) {
    throw Error("sbatch refused " + script.file.string() + ": " +
                trimmed(submitted.err.empty() ? submitted.out : submitted.err) +
                " (the jobs before it were submitted; featurelab status " + s.run_dir.string() +
                " --missing lists those still to run)");
  }
  // --parsable: "jobid" or "jobid;cluster".
  const std::string out = trimmed(submitted.out);
  const std::string job_id = out.substr(0, out.find(';'));
  if (job_id.empty() || job_id.find_first_not_of("0123456789") != std::string::npos) {
    throw Error("sbatch accepted " + script.file.string() + " but printed " + shown_with_escapes(out.substr(0, 200)) +
                ", not a job id (sbatch --parsable prints one): whether its array was queued is squeue's to tell "
                "(squeue --me); nothing is recorded");
  }
  nlohmann::json record{{"submitted", utc_now()},   {"script", script.file.string()}, {"slurm_job_id", job_id},
                        {"tasks", script.tasks},      {"indices", format_index_list(script.indices)},
                        {"jobs_per_task", s.jobs_per_task}};
  std::ofstream(fs::absolute(s.run_dir) / "slurm" / "submissions.jsonl", std::ios::app) << record.dump() << "\n";
  return job_id;
}

std::set<std::size_t> jobs_still_queued(const fs::path& run_dir, std::size_t job_count, double timeout_seconds) {
  // Each earlier array: its job id and, per task id, the jobs that task runs.
  std::map<std::string, std::vector<std::vector<std::size_t>>> arrays;
  std::ifstream in(run_dir / "slurm" / "submissions.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto record = nlohmann::json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("slurm_job_id") || !record.contains("indices")) continue;
    try {
      const auto indices = parse_index_list(record.at("indices").get<std::string>(), job_count, "submissions.jsonl");
      const std::size_t tasks = std::max<std::size_t>(1, record.value("tasks", std::size_t(1)));
      // Records written before "jobs_per_task": the tasks share the jobs evenly, as write_sbatch_scripts cut them.
      const std::size_t per_task =
          std::max<std::size_t>(1, record.value("jobs_per_task", indices.size() / tasks + (indices.size() % tasks != 0)));
      std::vector<std::vector<std::size_t>> by_task;
      for (std::size_t first = 0; first < indices.size(); first += per_task) {
        by_task.emplace_back(indices.begin() + static_cast<std::ptrdiff_t>(first),
                             indices.begin() + static_cast<std::ptrdiff_t>(std::min(indices.size(), first + per_task)));
      }
      arrays[record.at("slurm_job_id").get<std::string>()] = std::move(by_task);
    } catch (const std::exception&) {
      // A record this featurelab cannot read names no job it can skip.
    }
  }
  if (arrays.empty()) return {};
  const ProgramOutput queue = run_program({"squeue", "--me", "--noheader", "--array", "--format=%i"}, timeout_seconds);
  if (queue.exit_status != 0) {
    throw Error("cannot ask Slurm which jobs of earlier submissions are still queued: squeue " +
                (queue.timed_out ? "did not answer (" + trimmed(queue.err) + ")"
                 : queue.exit_status < 0 ? "could not run (" + trimmed(queue.err) + ")"
                                         : "failed: " + trimmed(queue.err)));
  }
  // "1001_3" per array task (--array); a task's jobs are still queued while its line is there.
  std::set<std::size_t> queued;
  std::istringstream lines(queue.out);
  for (std::string line; std::getline(lines, line);) {
    line = trimmed(line);
    const auto underscore = line.find('_');
    if (underscore == std::string::npos) continue;
    const auto array = arrays.find(line.substr(0, underscore));
    const std::string task = line.substr(underscore + 1);
    if (array == arrays.end() || task.empty() || task.find_first_not_of("0123456789") != std::string::npos || task.size() > 9) continue;
    const auto t = static_cast<std::size_t>(std::stoul(task));
    if (t < array->second.size()) queued.insert(array->second[t].begin(), array->second[t].end());
  }
  return queued;
}

}  // namespace featurelab
