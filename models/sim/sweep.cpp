#include "switchyard/sim/sweep.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "switchyard/network/stats.hpp"
#include "switchyard/sim/csv.hpp"
#include "switchyard/sim/simulation.hpp"

namespace sy {

// A file written whole: its text, then closed and checked (a full disk, /dev/full, a missing
// folder: an error naming the file, never a silent exit 0).
void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  f << text;
  f.close();
  if (f.fail()) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

// Sweep values, --set values and paths go into TSV manifests, CSV rows and emitted shell
// scripts one per line: a line break, tab or other control character there would split a
// record or a command. Refused, naming where it came from.
void refuse_control_characters(const std::string& what, const std::string& v) {
  for (char ch : v) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", c);
      throw SweepError(what + " contains a control character (" + code +
                       (c == '\n'   ? ", a line break"
                        : c == '\t' ? ", a tab"
                                    : "") +
                       "): not allowed in a sweep's values, sets and paths");
    }
  }
}

std::string shell_quote(const std::string& v) {
  std::string q = "'";
  for (char c : v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> tsv_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string::size_type at = 0;
  for (;;) {
    const auto tab = line.find('\t', at);
    f.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
    if (tab == std::string::npos) return f;
    at = tab + 1;
  }
}

int collect_sweep(const std::string& out, const std::string& param_names, bool print, bool report) {
  std::ifstream man(out + "/manifest.tsv");
  if (!man) throw std::runtime_error("no sweep in " + out + " (manifest.tsv missing)");
  std::string line;
  std::getline(man, line);  // header
  struct Row {
    std::string label;
    std::vector<std::vector<std::string>> runs;  // fields of each seed's row
  };
  std::vector<Row> rows;
  std::vector<std::string> missing;
  const std::string header = Results::csv_header();
  const std::size_t columns =
      static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) + 1;
  std::string last_point;
  int lineno = 1;
  while (std::getline(man, line)) {
    ++lineno;
    const std::string where = out + "/manifest.tsv:" + std::to_string(lineno) + ": ";
    const auto f = tsv_fields(line);
    if (f.size() < 4) throw std::runtime_error(where + "expected dir, seed, point, values");
    // A run's folder is a name in the sweep's folder, its point a number.
    if (f[0].empty() || f[0].find('/') != std::string::npos || f[0] == "." || f[0] == "..")
      throw std::runtime_error(where + "run folder '" + f[0] + "' is not a name in " + out);
    if (f[2].empty() || f[2].size() > 18 ||
        f[2].find_first_not_of("0123456789") != std::string::npos)
      throw std::runtime_error(where + "point '" + f[2] + "' is not a point number (0, 1, ...)");
    if (rows.empty() || f[2] != last_point) {
      rows.push_back({f[3], {}});
      last_point = f[2];
    }
    std::ifstream r(out + "/" + f[0] + "/row.csv");
    std::string rl;
    if (!std::getline(r, rl)) {
      missing.push_back(f[0]);
      continue;
    }
    std::vector<std::string> fields = csv_fields(rl);
    if (fields.size() != columns) {
      if (report)
        std::fprintf(stderr, "switchyard: %s/%s/row.csv has %zu fields, expected %zu (skipped)\n",
                     out.c_str(), f[0].c_str(), fields.size(), columns);
      missing.push_back(f[0]);
      continue;
    }
    rows.back().runs.push_back(std::move(fields));
  }
  std::ostringstream csv;
  const bool multi =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.runs.size() > 1; });
  csv << "param," << header << (multi ? ",seeds,latency_mean_seeds_ci95,accepted_seeds_ci95" : "")
      << "\n";
  if (print)
    std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", param_names.c_str(), "stable", "offered",
                "accepted", "rho", "latency", "p99");
  for (const Row& row : rows) {
    if (row.runs.empty()) continue;
    std::vector<std::string> f = row.runs.front();
    f[0] = csv_quote(row.label);
    const std::size_t n = row.runs.size();
    double lat_ci = 0, acc_ci = 0;
    if (n > 1) {
      // Means over the seeds of every numeric column; stable only if every seed was.
      for (std::size_t k = 2; k < f.size(); ++k) {
        double sum = 0;
        for (const auto& r : row.runs) sum += std::strtod(r[k].c_str(), nullptr);
        char b[64];
        std::snprintf(b, sizeof b, "%.6g", sum / n);
        f[k] = b;
      }
      for (const auto& r : row.runs)
        if (r[1] != "true") f[1] = "false";
      auto ci = [&](std::size_t k) {
        double m = 0, v = 0;
        for (const auto& r : row.runs) m += std::strtod(r[k].c_str(), nullptr);
        m /= n;
        for (const auto& r : row.runs) {
          const double x = std::strtod(r[k].c_str(), nullptr) - m;
          v += x * x;
        }
        return student_t975(static_cast<int>(n - 1)) * std::sqrt(v / (n - 1) / n);
      };
      lat_ci = ci(5);
      acc_ci = ci(3);
    }
    csv << csv_quote(param_names);
    for (const auto& x : f) csv << "," << x;
    if (multi) csv << "," << n << "," << lat_ci << "," << acc_ci;
    csv << "\n";
    if (print)
      std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", row.label.c_str(), f[1].c_str(),
                  f[2].c_str(), f[3].c_str(), f[4].c_str(), f[5].c_str(), f[8].c_str());
  }
  write_file(out + "/sweep.csv", csv.str());
  for (const auto& m : report ? missing : std::vector<std::string>{})
    std::fprintf(stderr, "switchyard: %s/%s produced no result (skipped)\n", out.c_str(),
                 m.c_str());
  if (print) std::printf("-> %s/sweep.csv\n", out.c_str());
  return missing.empty() ? 0 : 1;
}

}  // namespace sy
