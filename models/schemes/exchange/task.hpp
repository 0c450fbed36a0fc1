// Isotropic tasks (Varvarigos & Bertsekas): every node sends the same set of packets, each to the
// node at the same displacement from it, so one task matrix describes every node. Its rows are
// the packets of one node by their tag (the displacement: src ^ dst on a hypercube, per-dimension
// ring offsets on a torus), its columns the link types (dimension j on a hypercube; j+ = 2j and
// j- = 2j + 1 on a torus, a size-2 dimension using 2j only, unless the torus has two links each
// way there (size2_links 2): then its offset 1 is antipodal and goes + or - like an even ring's
// p/2, by the split below); entry (row, column) = the hops the
// packet makes on that link type along a shortest path. A symmetric slot clears at most one
// entry per row and per column; the critical sum h (largest row or column sum) is the optimal
// completion (Theorems 5, 9). The schedule generators (OCTR, OADD, greedy, k links) produce a
// plan per row — the (slot, column) of each of its hops — and task_schedule() turns it into the
// sy::Schedule every node executes on the model.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

struct TaskMatrix {
  Topology::Kind kind = Topology::Kind::Hypercube;
  std::vector<int> dims;
  int size2_links = 1;                 // torus: links each way in a size-2 dimension (1 or 2)
  std::string name;                    // "total exchange", "(1, 2) neighbourhood", "3 tags"
  int cols = 0;                        // link types
  std::vector<std::vector<int>> rows;  // per tag: hops on each link type
  std::vector<int> tag;                // per tag: node 0's destination (node id)

  int num_rows() const { return static_cast<int>(rows.size()); }
  int nodes() const;
  int row_sum(int r) const;
  int col_sum(int c) const;
  int max_row() const;                                                                // h_r
  int max_col() const;                                                                // h_c
  int critical_sum() const { return max_row() > max_col() ? max_row() : max_col(); }  // h
  long long total() const;                                                            // sigma
  // The hop of link type c (dim, dir; dir 0 for a size-2 dimension of one link).
  ScheduleHop hop(int c) const;
  std::string column_name(int c) const;  // "d0", "d1+", "d1-"
};

// Throws UnsupportedSchedule for a mesh or a butterfly, or a size the task cannot have.
// Total exchange: every node to every other. On an even torus the antipodal component
// (offset p/2) goes + or - by the parity of the sum of the other coordinates (balanced for
// d > 1; a ring's antipodal packets all go +).
// size2_links 2 (a torus): a size-2 dimension has a + and a - link (Topology), each a column.
TaskMatrix total_exchange_task(Topology::Kind kind, const std::vector<int>& dims,
                               int size2_links = 1);
// (K, L) neighbourhood exchange: every node to every node at shortest-path distance K..L.
TaskMatrix neighbourhood_task(Topology::Kind kind, const std::vector<int>& dims, int near, int far,
                              int size2_links = 1);
// A user's isotropic task: one tag per packet. Hypercube: {x} with x = src ^ dst (1 .. n-1).
// Torus: one offset per dimension in (-p, p); an offset of exactly +-p/2 goes that way round
// (in a size-2 dimension with two links: +1 the + link, -1 the - link).
// The same tag may appear twice (two packets).
TaskMatrix tags_task(Topology::Kind kind, const std::vector<int>& dims,
                     const std::vector<std::vector<int>>& tags, int size2_links = 1);

// A plan: for each row, the (slot, column) of each of its hops, in increasing slots.
using TaskPlan = std::vector<std::vector<std::pair<int, int>>>;

// The schedule of a plan: every node sends its packet of each row along the row's columns, hop
// k in its slot. Throws std::logic_error when the plan does not use the row's entries exactly.
Schedule task_schedule(const TaskMatrix& t, const TaskPlan& plan, int packet_flits,
                       const std::string& algorithm, const std::string& variant);

// The per-packet arrival slots of a plan (1-based: a packet in at the end of slot w counts
// w + 1), and their mean over the rows: the plan's own D (the model's is measured).
double plan_mean_delay(const TaskPlan& plan);

// The shortest-path (SPT) lower bound on the average delay of the task (Theorem 6's auxiliary
// problem): per node, `links` servers, a customer per row needing row_sum slots of service, at
// most one server per customer per slot; serving the least residual first minimises the mean
// completion slot. links: cols (all-port) or the k of a k-link-limited node.
double spt_delay_bound(const TaskMatrix& t, int links);

}  // namespace sy
