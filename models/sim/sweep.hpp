// Sweeps as files: the helpers behind `switchyard sweep` and `collect` (tb/main.cpp), in the
// library so the fuzz target reaches them. A sweep's folder holds manifest.tsv (dir, seed,
// point, one column per parameter: one line per run), each run's folder with results.json and
// row.csv (a header and Results::csv_row), and runs.csv, sweep.csv and saturation.csv, which
// collect_sweep makes from them.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace sy {

// A sweep's input that cannot be taken (a usage error at the command line, exit 1).
struct SweepError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A file written whole: its text, then closed and checked; throws std::runtime_error naming the
// file when any of it fails (a full disk, /dev/full, a missing folder).
void write_file(const std::string& path, const std::string& text);

// Throws SweepError naming `what` when v holds a control character (a line break, a tab):
// sweep values, --set values and paths go one per line into manifests, CSV rows and scripts.
void refuse_control_characters(const std::string& what, const std::string& v);

// v as one word of a POSIX shell command line ('...', its quotes escaped).
std::string shell_quote(const std::string& v);

// The fields of one TSV line, empty ones kept.
std::vector<std::string> tsv_fields(const std::string& line);

// Merges the sweep in `out` (manifest.tsv: dir, seed, point, one column per parameter; each
// run's row.csv) into out/runs.csv (one row per run: the parameters, the seed, the run's
// columns), out/sweep.csv (one row per point: the parameters, the seeds, the columns averaged
// over them, the seeds' 95% intervals of latency and accepted throughput) and, when the first
// parameter is a load, out/saturation.csv; a column empty in every row is left out. With
// `print`, a table on stdout. A damaged manifest throws std::runtime_error naming the line; a
// run without a readable row.csv, or one from another build's columns, is skipped with a message
// on stderr (unless !report). Returns 0, or 1 when a run was skipped.
int collect_sweep(const std::string& out, bool print, bool report = true);

}  // namespace sy
