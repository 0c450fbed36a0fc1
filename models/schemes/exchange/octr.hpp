// Optimal completion time (Varvarigos & Bertsekas, OCTR) for any isotropic task on hypercubes
// and d-dimensional tori (rings included), as a slot schedule the nodes execute on the model.
// A proper edge colouring of the task matrix's rows x columns multigraph (an entry e of row r,
// column c is e parallel edges) with h colours (h = its largest row or column sum, König) is a
// symmetric schedule of h slots: in slot c every node sends, on each link type, the one packet
// whose edge of that column has colour c, and a packet crosses its hops in the order of their
// colours. Every node does the same, so each directed link carries at most one packet per slot;
// every hop shortens the path. Completion = h, the optimum (Theorems 5, 9): n/2 for total
// exchange on the hypercube, (p n - n/p)/8 on a torus with p odd, p n / 8 with p even and d > 1
// (the antipodal component split + / - by the parity of the other coordinates' sum, balanced),
// and on an even ring n(n+2)/8 with every antipodal packet going + (the isotropic choice).
// The k-link-limited variant (§7): S = max(ceil(sigma / k), h) colours, then colour classes
// evened out by swapping alternating a/b paths until each has at most k edges (Theorem 7).
#pragma once
#include <vector>

#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

// The König colouring of the task matrix as a plan of h slots.
TaskPlan octr_plan(const TaskMatrix& t);
// At most k links per node per slot: a plan of max(ceil(sigma / k), h) slots (k >= 1).
TaskPlan k_link_plan(const TaskMatrix& t, int k);
// OCTR of the task (links 0: all-port; else at most `links` links per node per slot).
Schedule octr_schedule(const TaskMatrix& t, int packet_flits, int links = 0);

// Total exchange by OCTR. Throws UnsupportedSchedule for a mesh or a butterfly.
Schedule total_exchange_octr(Topology::Kind kind, const std::vector<int>& dims, int packet_flits,
                             int size2_links = 1);

// The closed forms of the paper for total exchange (slots): hypercube n/2; torus (p n - n/p)/8
// (p odd), p n / 8 (p even, d > 1); ring (n^2 - 1)/8 (odd), n(n+2)/8 (even). -1: none here.
// The torus 2 x ... x 2 (d > 1): with one link per dimension it is the hypercube, n/2; with two
// links each way (size2_links 2) the paper's p n / 8 = n/4 (§8.2: the task matrix split in two,
// one set of links clearing each half), which needs n/4 >= d: a packet to the opposite corner
// crosses d links, so the optimum (Theorem 9's critical sum) is max(n/4, d), d for d = 2, 3.
double total_exchange_formula(Topology::Kind kind, const std::vector<int>& dims,
                              int size2_links = 1);
// True for the torus 2 x ... x 2 with d > 1 (the formula's p = 2 case above).
bool binary_torus(Topology::Kind kind, const std::vector<int>& dims);

}  // namespace sy
