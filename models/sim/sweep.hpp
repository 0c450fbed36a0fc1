// Sweeps as files: the helpers behind `switchyard sweep` and `collect` (tb/main.cpp), in the
// library so the fuzz target reaches them. A sweep's folder holds manifest.tsv (dir, seed,
// point, the point's values: one line per run), each run's folder with results.json and
// row.csv (Results::csv_row), and sweep.csv, which collect_sweep merges from them.
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

// Merges the sweep in `out` into out/sweep.csv (one row per point; with several seeds, means
// over them and the seeds' 95% intervals) and, with `print`, a table on stdout. A damaged
// manifest throws std::runtime_error naming the line; a run without a readable row, or with a
// row of the wrong field count, is skipped with a message on stderr (unless !report). Returns 0,
// or 1 when a run was skipped.
int collect_sweep(const std::string& out, const std::string& param_names, bool print,
                  bool report = true);

}  // namespace sy
