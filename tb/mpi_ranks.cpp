// MPI transport for network ranks (network/ranks.hpp): point-to-point messages with the peers
// (or every rank), MPI_Allgather(v) to give every rank every rank's bytes, MPI_Allreduce for the
// counters. Built only with MPI
// (SWITCHYARD_MPI); without it start_ranks() refuses several processes.
#include "mpi_ranks.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#ifdef SWITCHYARD_MPI
#define OMPI_SKIP_MPICXX 1  // (the C interface only: no deprecated C++ bindings)
#define MPICH_SKIP_MPICXX 1
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
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // Point to point: a message to every other rank (or peer), then one from each, whatever its
  // size (MPI_Mprobe), by source: messages from one source with one tag are received in the
  // order sent. (A rank that is no peer of another may get two exchanges ahead of it: from the
  // end of a step's second exchange, with every rank, through the next step's first, with its
  // peers only, into the next second. Its message for that second exchange is then behind the
  // one for the earlier, in order.) The two tags that alternate keep a step's two exchanges
  // apart.
  void exchange(const std::vector<std::vector<char>>& out,
                std::vector<std::vector<char>>& in) override {
    if (static_cast<int>(all_.size()) != size_ - 1) {
      all_.clear();
      for (int j = 0; j < size_; ++j)
        if (j != rank_) all_.push_back(j);
    }
    exchange_with(all_, out, in);
  }
  void exchange_with(const std::vector<int>& peers, const std::vector<std::vector<char>>& out,
                     std::vector<std::vector<char>>& in) override {
    const int tag = static_cast<int>(exchanges_++ & 1);
    requests_.clear();
    for (const int j : peers) {
      const std::vector<char>& b = out[static_cast<std::size_t>(j)];
      requests_.emplace_back();
      MPI_Isend(b.data(), static_cast<int>(b.size()), MPI_CHAR, j, tag, MPI_COMM_WORLD,
                &requests_.back());
    }
    for (std::vector<char>& b : in) b.clear();
    for (const int j : peers) {
      MPI_Message msg;
      MPI_Status st;
      MPI_Mprobe(j, tag, MPI_COMM_WORLD, &msg, &st);
      int count = 0;
      MPI_Get_count(&st, MPI_CHAR, &count);
      std::vector<char>& b = in[static_cast<std::size_t>(j)];
      b.resize(static_cast<std::size_t>(count));
      MPI_Mrecv(b.data(), count, MPI_CHAR, &msg, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }
  // MPI_Allgather of the sizes, then MPI_Allgatherv of the bytes (the library's collective
  // algorithms: about log2(size) rounds rather than a message between every pair).
  void gather_all(const std::vector<char>& mine, std::vector<char>& all,
                  std::vector<std::size_t>& at) override {
    const int n = static_cast<int>(mine.size());
    counts_.resize(static_cast<std::size_t>(size_));
    displs_.resize(static_cast<std::size_t>(size_));
    MPI_Allgather(&n, 1, MPI_INT, counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    at.assign(static_cast<std::size_t>(size_) + 1, 0);
    for (int j = 0; j < size_; ++j) {
      const auto k = static_cast<std::size_t>(j);
      displs_[k] = static_cast<int>(at[k]);
      at[k + 1] = at[k] + static_cast<std::size_t>(counts_[k]);
    }
    all.resize(at.back());
    MPI_Allgatherv(mine.data(), n, MPI_CHAR, all.data(), counts_.data(), displs_.data(), MPI_CHAR,
                   MPI_COMM_WORLD);
  }
  void sum(std::uint64_t* v, int n) override {
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  }
  void min(std::uint64_t* v, int n) override {
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  }

 private:
  int rank_ = 0, size_ = 1;
  std::uint64_t exchanges_ = 0;
  std::vector<MPI_Request> requests_;
  std::vector<int> all_;  // every other rank
  std::vector<int> counts_, displs_;
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
