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

namespace {

// A field of a row as a number; false when empty (no value: no samples, or not applicable).
bool field_number(const std::string& f, double& x) {
  if (f.empty()) return false;
  char* end = nullptr;
  x = std::strtod(f.c_str(), &end);
  return end && *end == '\0' && std::isfinite(x);
}

std::string format_number(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", x);
  return b;
}

// The load keys: a sweep over one of them is a latency-throughput curve.
bool is_load_key(const std::string& k) {
  return k == "traffic.rate" || k == "traffic.load.rho" || k == "traffic.broadcast.rate";
}

// saturation.csv, for a sweep whose first parameter is a load: per curve (the other
// parameters' values), three estimates of where the network saturates, each by its method:
//   accepted_max            the largest accepted throughput of any point (flits/node/cycle);
//   offered_last_stable     the highest offered load below the first unstable point;
//   offered_latency_3x      the offered load at which the mean latency reaches 3 times the
//                           lowest load's (linear between the two points around it; empty when
//                           no stable point reaches it).
// Empty text when the first parameter is not a load.
std::string sweep_saturation(const std::vector<std::string>& params,
                             const std::vector<std::string>& columns,
                             const std::vector<std::vector<std::string>>& rows) {
  if (params.empty() || !is_load_key(params[0]) || rows.empty()) return "";
  const std::size_t P = params.size() + 1;
  const auto col = [&](const char* name) {
    return P + static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                        columns.begin());
  };
  const std::size_t off = col("offered"), acc = col("accepted"), lat = col("latency_mean"),
                    st = col("stable");
  std::vector<std::vector<std::string>> curves;  // the other parameters' values, in order
  for (const auto& r : rows) {
    std::vector<std::string> key(r.begin() + 1, r.begin() + static_cast<long>(params.size()));
    if (std::find(curves.begin(), curves.end(), key) == curves.end()) curves.push_back(key);
  }
  std::ostringstream o;
  for (std::size_t k = 1; k < params.size(); ++k) o << csv_quote(params[k]) << ",";
  o << "points,accepted_max,offered_last_stable,offered_latency_3x\n";
  for (const auto& key : curves) {
    struct Pt {
      double offered, accepted, latency;
      bool stable, has_latency;
    };
    std::vector<Pt> pts;
    for (const auto& r : rows) {
      if (!std::equal(key.begin(), key.end(), r.begin() + 1)) continue;
      Pt p{0, 0, 0, r[st] == "true", false};
      if (!field_number(r[off], p.offered)) continue;
      field_number(r[acc], p.accepted);
      p.has_latency = field_number(r[lat], p.latency);
      pts.push_back(p);
    }
    std::sort(pts.begin(), pts.end(),
              [](const Pt& a, const Pt& b) { return a.offered < b.offered; });
    double amax = 0, last_stable = -1, at3 = -1;
    for (const Pt& p : pts) amax = std::max(amax, p.accepted);
    for (const Pt& p : pts) {
      if (!p.stable) break;
      last_stable = p.offered;
    }
    const Pt* base = nullptr;
    for (std::size_t i = 0; i < pts.size() && at3 < 0; ++i) {
      const Pt& p = pts[i];
      if (!p.stable || !p.has_latency) break;
      if (!base) {
        base = &p;
        continue;
      }
      const double target = 3 * base->latency;
      if (p.latency >= target) {
        const Pt& q = pts[i - 1];
        at3 = p.latency > q.latency ? q.offered + (target - q.latency) / (p.latency - q.latency) *
                                                      (p.offered - q.offered)
                                    : p.offered;
      }
    }
    for (const auto& v : key) o << csv_quote(v) << ",";
    o << pts.size() << "," << format_number(amax) << ","
      << (last_stable >= 0 ? format_number(last_stable) : "") << ","
      << (at3 >= 0 ? format_number(at3) : "") << "\n";
  }
  return o.str();
}

}  // namespace

int collect_sweep(const std::string& out, bool print, bool report) {
  std::ifstream man(out + "/manifest.tsv");
  if (!man) throw std::runtime_error("no sweep in " + out + " (manifest.tsv missing)");
  std::string line;
  std::getline(man, line);  // header: dir, seed, point, then one column per parameter
  const std::vector<std::string> head = tsv_fields(line);
  if (head.size() < 4 || head[0] != "dir" || head[1] != "seed" || head[2] != "point")
    throw std::runtime_error(out +
                             "/manifest.tsv:1: expected the header dir, seed, point, then "
                             "the parameters");
  const std::vector<std::string> params(head.begin() + 3, head.end());
  for (const std::string& p : params)
    if (p.empty()) throw std::runtime_error(out + "/manifest.tsv:1: a parameter without a name");
  struct Run {
    std::string seed;
    std::vector<std::string> fields;  // its row.csv's values
  };
  struct Point {
    std::vector<std::string> values;
    std::vector<Run> runs;
  };
  std::vector<Point> points;
  std::vector<std::string> missing;
  const std::string header = Results::csv_header();
  const std::vector<std::string> columns = csv_fields(header);
  std::string last_point;
  int lineno = 1;
  while (std::getline(man, line)) {
    ++lineno;
    const std::string where = out + "/manifest.tsv:" + std::to_string(lineno) + ": ";
    const auto f = tsv_fields(line);
    if (f.size() != head.size())
      throw std::runtime_error(where + "expected " + std::to_string(head.size()) +
                               " fields (dir, seed, point and a value per parameter)");
    // A run's folder is a name in the sweep's folder, its point a number.
    if (f[0].empty() || f[0].find('/') != std::string::npos || f[0] == "." || f[0] == "..")
      throw std::runtime_error(where + "run folder '" + f[0] + "' is not a name in " + out);
    if (f[2].empty() || f[2].size() > 18 ||
        f[2].find_first_not_of("0123456789") != std::string::npos)
      throw std::runtime_error(where + "point '" + f[2] + "' is not a point number (0, 1, ...)");
    if (points.empty() || f[2] != last_point) {
      points.push_back({std::vector<std::string>(f.begin() + 3, f.end()), {}});
      last_point = f[2];
    }
    // row.csv: the run's header line (checked against this build's) and its values.
    std::ifstream r(out + "/" + f[0] + "/row.csv");
    std::string rh, rl;
    if (!std::getline(r, rh) || !std::getline(r, rl)) {
      missing.push_back(f[0]);
      continue;
    }
    std::vector<std::string> fields = csv_fields(rl);
    if (rh != header || fields.size() != columns.size()) {
      if (report)
        std::fprintf(stderr,
                     "switchyard: %s/%s/row.csv does not have this build's columns (skipped)\n",
                     out.c_str(), f[0].c_str());
      missing.push_back(f[0]);
      continue;
    }
    points.back().runs.push_back({f[1], std::move(fields)});
  }
  // runs.csv: one row per run; sweep.csv: one row per point, the numeric columns averaged over
  // the seeds (a mean of the runs that have a value), stable only if every seed was, and the
  // seeds' spread. Then every column empty in all rows is left out (no dead columns).
  const std::size_t C = columns.size();
  std::vector<std::vector<std::string>> run_rows, point_rows;
  const std::size_t lat = static_cast<std::size_t>(
      std::find(columns.begin(), columns.end(), "latency_mean") - columns.begin());
  const std::size_t acc = static_cast<std::size_t>(
      std::find(columns.begin(), columns.end(), "accepted") - columns.begin());
  for (const Point& pt : points) {
    if (pt.runs.empty()) continue;
    for (const Run& r : pt.runs) {
      std::vector<std::string> row = pt.values;
      row.push_back(r.seed);
      row.insert(row.end(), r.fields.begin(), r.fields.end());
      run_rows.push_back(std::move(row));
    }
    std::vector<std::string> row = pt.values;
    const std::size_t n = pt.runs.size();
    row.push_back(std::to_string(n));
    const auto spread = [&](std::size_t k) -> std::string {
      // The seeds' 95% interval of the mean (Student t over the runs with a value).
      std::vector<double> v;
      double x = 0;
      for (const Run& r : pt.runs)
        if (field_number(r.fields[k], x)) v.push_back(x);
      if (v.size() < 2) return "";
      double m = 0, var = 0;
      for (double y : v) m += y;
      m /= static_cast<double>(v.size());
      for (double y : v) var += (y - m) * (y - m);
      var /= static_cast<double>(v.size() - 1);
      return format_number(student_t975(static_cast<int>(v.size() - 1)) *
                           std::sqrt(var / static_cast<double>(v.size())));
    };
    for (std::size_t k = 0; k < C; ++k) {
      if (columns[k] == "stable") {
        bool all = true;
        for (const Run& r : pt.runs) all = all && r.fields[k] == "true";
        row.push_back(all ? "true" : "false");
        continue;
      }
      double sum = 0, x = 0;
      std::size_t have = 0;
      for (const Run& r : pt.runs)
        if (field_number(r.fields[k], x)) {
          sum += x;
          ++have;
        }
      row.push_back(n == 1 ? pt.runs[0].fields[k]
                    : have ? format_number(sum / static_cast<double>(have))
                           : "");
    }
    row.push_back(lat < C ? spread(lat) : "");
    row.push_back(acc < C ? spread(acc) : "");
    point_rows.push_back(std::move(row));
  }
  const auto write_table = [&](const std::string& path, const std::vector<std::string>& names,
                               const std::vector<std::vector<std::string>>& rows) {
    std::vector<bool> keep(names.size(), true);
    for (std::size_t k = params.size(); k < names.size(); ++k) {
      bool any = false;
      for (const auto& r : rows) any = any || !r[k].empty();
      keep[k] = any;
    }
    std::ostringstream csv;
    const auto line = [&](const std::vector<std::string>& row) {
      bool first = true;
      for (std::size_t k = 0; k < row.size(); ++k) {
        if (!keep[k]) continue;
        csv << (first ? "" : ",") << csv_quote(row[k]);
        first = false;
      }
      csv << "\n";
    };
    line(names);
    for (const auto& r : rows) line(r);
    write_file(path, csv.str());
  };
  std::vector<std::string> run_names = params;
  run_names.push_back("seed");
  run_names.insert(run_names.end(), columns.begin(), columns.end());
  write_table(out + "/runs.csv", run_names, run_rows);
  std::vector<std::string> point_names = params;
  point_names.push_back("seeds");
  point_names.insert(point_names.end(), columns.begin(), columns.end());
  point_names.push_back("latency_mean_seeds_ci95");
  point_names.push_back("accepted_seeds_ci95");
  write_table(out + "/sweep.csv", point_names, point_rows);
  const std::string saturation = sweep_saturation(params, columns, point_rows);
  if (!saturation.empty()) write_file(out + "/saturation.csv", saturation);
  if (print) {
    std::string label;
    for (const auto& p : params) label += (label.empty() ? "" : " ") + p;
    std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", label.c_str(), "stable", "offered",
                "accepted", "rho", "latency", "p99");
    const std::size_t P = params.size() + 1;  // (the seeds column)
    const auto col = [&](const char* name) {
      return P + static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                          columns.begin());
    };
    for (const auto& row : point_rows) {
      std::string v;
      for (std::size_t k = 0; k < params.size(); ++k) v += (k ? " " : "") + row[k];
      const auto at = [&](const char* name) {
        const std::string& x = row[col(name)];
        return x.empty() ? std::string("-") : x;
      };
      std::printf("%-24s %-7s %9s %9s %7s %10s %10s\n", v.c_str(), at("stable").c_str(),
                  at("offered").c_str(), at("accepted").c_str(), at("rho").c_str(),
                  at("latency_mean").c_str(), at("latency_p99").c_str());
    }
    if (!saturation.empty()) std::printf("saturation estimate: %s/saturation.csv\n", out.c_str());
  }
  for (const auto& m : report ? missing : std::vector<std::string>{})
    std::fprintf(stderr, "switchyard: %s/%s produced no result (skipped)\n", out.c_str(),
                 m.c_str());
  if (print)
    std::printf("-> %s/sweep.csv (per point), %s/runs.csv (per run)\n", out.c_str(), out.c_str());
  return missing.empty() ? 0 : 1;
}

}  // namespace sy
