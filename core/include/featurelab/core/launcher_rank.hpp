// `featurelab job RUN --mpi`: one process per rank of an MPI launch (mpirun, srun), each running its share of
// the jobs. Nothing is sent between ranks (every job writes its own directory, and a job's lock keeps two
// processes off it), so featurelab needs no MPI library: the rank and the number of ranks come from the
// environment the launcher gives each process.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace featurelab {

struct LauncherRank {
  std::size_t rank = 0;
  std::size_t size = 1;
  std::string source;  // which variables said so: "OMPI_COMM_WORLD_RANK/SIZE"
};

// From Open MPI (OMPI_COMM_WORLD_RANK, _SIZE), MPICH and Intel MPI (PMI_RANK, PMI_SIZE), or Slurm's srun
// (SLURM_PROCID, SLURM_NTASKS), in that order; none when no launcher set them.
std::optional<LauncherRank> launcher_rank();

// The rank's share of `indices`: every size-th entry, from the rank-th.
std::vector<std::size_t> share_of(const std::vector<std::size_t>& indices, const LauncherRank& rank);

}  // namespace featurelab
