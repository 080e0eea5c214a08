// featurelab job RUN --indices LIST: run jobs of a prepared run directory, as an array task of a cluster
// scheduler does (the README's "On a cluster").
#include "job_options.hpp"
#include "session.hpp"

#include <featurelab/core/index_list.hpp>
#include <featurelab/core/launcher_rank.hpp>
#include <featurelab/core/errors.hpp>
#include <featurelab/core/run_directory.hpp>
#include <featurelab/core/session.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

namespace featurelab::cli {

Action add_job_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("job", "Run jobs of a prepared run directory (a Slurm array task, MPI, a shell loop)");
  auto run = std::make_shared<std::string>();
  auto index = std::make_shared<std::size_t>(0);
  auto indices = std::make_shared<std::string>();
  auto jobs = std::make_shared<int>(0);
  sub->add_option("run", *run, "Run directory written by featurelab run --prepare")->required();
  auto* one = sub->add_option("--index", *index, "One job's index (0-based; e.g. $SLURM_ARRAY_TASK_ID)")
                  ->check(counting("a job index", 0));
  auto* many = sub->add_option("--indices", *indices, "Job indices as Slurm writes arrays: 0-4,7,9-12")->type_name("LIST");
  one->excludes(many);
  many->excludes(one);
  auto mpi = std::make_shared<bool>(false);
  auto* by_rank = sub->add_flag("--mpi", *mpi,
                                "One process per rank of an MPI launch (mpirun -np N featurelab job RUN --mpi): each runs "
                                "every N-th job of --indices (default: all), from its rank, read from the launcher's "
                                "environment (Open MPI, MPICH, srun)");
  by_rank->excludes(one);
  sub->add_option("-j,--jobs", *jobs,
                  "Jobs run at once (default: the CPUs this process may use: the allocation's, after CPU affinity and "
                  "cgroup quota; the jobs share them as threads)")
      ->check(counting("a count of worker processes", 1));
  auto limits = std::make_shared<JobLimits>();
  add_job_limit_args(sub, *limits);
  return [&global, run, index, indices, jobs, limits, one, many, mpi]() {
    if (one->count() == 0 && many->count() == 0 && !*mpi) {
      throw ConfigError({{"featurelab job", "give the jobs to run: --index I or --indices 0-4,7 (featurelab status " +
                                                *run + " --missing lists those still to run)"}});
    }
    check_job_limits(*limits);
    Session session = open_session(global, false);
    const std::size_t count = RunDirectory(*run).job_count();
    std::vector<std::size_t> selected =
        one->count() > 0 ? std::vector<std::size_t>{*index}
                         : many->count() > 0 ? parse_index_list(*indices, count, "--indices") : parse_index_list(fmt::format("0-{}", count - 1), count, "--indices");
    if (*mpi) {
      const auto rank = launcher_rank();
      if (!rank) {
        throw ConfigError(std::vector<Diagnostic>{{"--mpi", "no MPI rank in the environment (OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, "
                                     "with their sizes): start it with mpirun -np N or srun -n N"}});
      }
      selected = share_of(selected, *rank);
      session.log().info("rank {} of {} ({}): {} job(s): {}", rank->rank, rank->size, rank->source, selected.size(),
                format_index_list(selected));
    }
    JobsRequest request;
    request.run_dir = *run;
    request.indices = std::move(selected);
    request.jobs = *jobs;
    request.limits = *limits;
    request.live_progress = ::isatty(STDERR_FILENO) != 0 && !global.quiet;
    return session.run_jobs(request);
  };
}

}  // namespace featurelab::cli
