// The program's ranks (mpirun -np N switchyard run ...): MPI when the build found it
// (tb/mpi_ranks.cpp, SWITCHYARD_MPI), else only the check that nobody launched several.
#pragma once
#include "switchyard/network/ranks.hpp"

namespace sy_tb {
// Started by mpirun with more than one process: MPI initialised, this process's ranks (owned
// here until end_ranks); otherwise null. Several processes and a build without MPI: a clear
// error on stderr and exit 2 (every process).
sy::Ranks* start_ranks(int* argc, char*** argv);
// rc: the program's exit status; a failure other than a config or usage error (rc 1) on
// several ranks aborts them all (the others may wait in an exchange).
void end_ranks(int rc);
bool mpi_built();
}  // namespace sy_tb
