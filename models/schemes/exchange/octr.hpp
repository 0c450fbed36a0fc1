// Total exchange with optimal completion time (Varvarigos & Bertsekas, OCTR) on hypercubes and
// d-dimensional tori (rings included), as a slot schedule the nodes execute on the model.
// The task matrix has a row per tag (the displacement of a packet: the set bits of src ^ dst on
// a hypercube; the ring offsets per dimension on a torus) and a column per link type (dimension
// j on a hypercube; j+ and j- on a torus); entry (row, column) counts the hops the packet makes
// on that link type. A proper edge colouring of this bipartite multigraph with h colours (h =
// its largest row or column sum, König) is an isotropic schedule of h slots: in slot c every
// node sends, on each link type, the one packet whose edge of that column has colour c, and a
// packet crosses its hops in the order of their colours. Every node does the same, so each
// directed link carries at most one packet per slot; every hop shortens the path. Completion =
// h, the optimum: n/2 on the hypercube, (p n - n/p)/8 on a torus with p odd, p n / 8 with p
// even and d > 1 (the antipodal component split + / - by the parity of the other coordinates'
// sum, balanced), n(n+2)/8 on an even ring... with the split of that paper, here every
// antipodal packet of a ring goes + (the isotropic choice).
#pragma once
#include <vector>

#include "topology/topology.hpp"
#include "traffic/schedule.hpp"

namespace sy {

// Throws UnsupportedSchedule for a mesh or a butterfly.
Schedule total_exchange_octr(Topology::Kind kind, const std::vector<int>& dims, int packet_flits);

// The closed forms of the paper for total exchange (slots): hypercube n/2; torus (p n - n/p)/8
// (p odd), p n / 8 (p even, d > 1); ring (n^2 - 1)/8 (odd), n(n+2)/8 (even). -1: none here.
double total_exchange_formula(Topology::Kind kind, const std::vector<int>& dims);

}  // namespace sy
