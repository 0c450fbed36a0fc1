// MPI transport for network ranks (network/ranks.hpp): one MPI_Alltoall of the sizes and one
// MPI_Alltoallv of the bytes per exchange, MPI_Allreduce for the counters. Built only with MPI
// (SWITCHYARD_MPI); without it start_ranks() refuses several processes.
#include "mpi_ranks.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#ifdef SWITCHYARD_MPI
#include <mpi.h>
#endif

namespace sy_tb {
namespace {

// The process count mpirun (Open MPI, MPICH/Hydra, Slurm's PMI) gave this one: 1 when none.
int launched_size() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* s = std::getenv(v)) return std::max(1, std::atoi(s));
  return 1;
}

#ifdef SWITCHYARD_MPI
class MpiRanks : public sy::Ranks {
 public:
  MpiRanks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    const std::size_t n = static_cast<std::size_t>(size_);
    send_counts_.resize(n), recv_counts_.resize(n), send_at_.resize(n), recv_at_.resize(n);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const std::vector<std::vector<char>>& out,
                std::vector<std::vector<char>>& in) override {
    const std::size_t n = static_cast<std::size_t>(size_);
    int total = 0;
    for (std::size_t j = 0; j < n; ++j) {
      send_counts_[j] = j == static_cast<std::size_t>(rank_) ? 0 : static_cast<int>(out[j].size());
      send_at_[j] = total;
      total += send_counts_[j];
    }
    send_.resize(static_cast<std::size_t>(total));
    for (std::size_t j = 0; j < n; ++j)
      if (send_counts_[j]) std::copy(out[j].begin(), out[j].end(), send_.begin() + send_at_[j]);
    MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int rtotal = 0;
    for (std::size_t j = 0; j < n; ++j) {
      recv_at_[j] = rtotal;
      rtotal += recv_counts_[j];
    }
    recv_.resize(static_cast<std::size_t>(rtotal));
    MPI_Alltoallv(send_.data(), send_counts_.data(), send_at_.data(), MPI_CHAR, recv_.data(),
                  recv_counts_.data(), recv_at_.data(), MPI_CHAR, MPI_COMM_WORLD);
    for (std::size_t j = 0; j < n; ++j)
      in[j].assign(recv_.begin() + recv_at_[j], recv_.begin() + recv_at_[j] + recv_counts_[j]);
  }
  void sum(std::uint64_t* v, int n) override {
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  }
  void min(std::uint64_t* v, int n) override {
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  }

 private:
  int rank_ = 0, size_ = 1;
  std::vector<int> send_counts_, recv_counts_, send_at_, recv_at_;
  std::vector<char> send_, recv_;
};
std::unique_ptr<MpiRanks> g_ranks;
#endif

}  // namespace

bool mpi_built() {
#ifdef SWITCHYARD_MPI
  return true;
#else
  return false;
#endif
}

sy::Ranks* start_ranks(int* argc, char*** argv) {
  const int launched = launched_size();
  if (launched <= 1) return nullptr;
#ifdef SWITCHYARD_MPI
  MPI_Init(argc, argv);
  g_ranks = std::make_unique<MpiRanks>();
  return g_ranks.get();
#else
  (void)argc, (void)argv;
  std::fprintf(stderr,
               "switchyard: error: started as one of %d processes (mpirun), but this build has "
               "no MPI: install it (apt-get install libopenmpi-dev openmpi-bin) and rebuild "
               "(cmake finds it; -DSWITCHYARD_MPI=ON insists), or run one process\n",
               launched);
  std::exit(2);
#endif
}

void end_ranks(int rc) {
#ifdef SWITCHYARD_MPI
  if (!g_ranks) return;
  if (rc == 1 && g_ranks->size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
  g_ranks.reset();
  MPI_Finalize();
#else
  (void)rc;
#endif
}

}  // namespace sy_tb
