// The closed forms of Varvarigos & Bertsekas beside the model (slots), for the isotropic tasks.
// Completion of total exchange: total_exchange_formula (octr.hpp). Here: the optimal average
// delay D_TE where the paper gives it, and the (K, L) neighbourhood exchange's completion.
#pragma once
#include <vector>

#include "switchyard/topology/topology.hpp"

namespace sy {

bool is_prime(int d);

// D_TE of the hypercube with d prime (§6.2), as the paper's sum over the classes N_i:
// sum_i C(d,i) (m_i + M_i) / (2 (n - 1)), m_i = i + sum_{j<i} C(d,j) j / d,
// M_i = m_{i+1} - (i + 1), M_d = m_d = n/2 + d - 1.
double hypercube_te_delay(int d);
// The same as printed in closed form (three terms); equal to the sum for d prime.
double hypercube_te_delay_printed(int d);
// Ring of n nodes (§8.5): (n+1)(n+3)/24 (n odd), ((n-2)(n-1)n + 6n^2) / (24 (n-1)) (n even).
double ring_te_delay(int n);
// The paper's D_TE for this network, or -1 where it gives none (d not prime, tori with d >= 2:
// there the 2-D odd torus is optimal by Theorem 6 but has no closed form).
double te_delay_formula(Topology::Kind kind, const std::vector<int>& dims);

// (K, L) neighbourhood exchange on the d-cube (§4.1): max{L, sum_{i=K..L} C(d,i) i / d}.
double neighbourhood_formula(int d, int near, int far);

}  // namespace sy
