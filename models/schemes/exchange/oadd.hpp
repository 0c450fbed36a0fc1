// Total exchange with optimal completion time and optimal average delay (Varvarigos & Bertsekas
// §6, §8.5: OCTR and OADD together, "no packet is sent while a packet nearer its destination
// waits"), as slot schedules the nodes execute on the model. Constructions:
//  - hypercube, d prime: the tags' rotation classes (d members each when d is prime) cleared in
//    order of weight, one class at a time, all d links busy: in slot s of a class whose
//    representative has its ones at b_0 < ... < b_{i-1}, its k-th rotation clears bit
//    (b_s + k) mod d. The last d slots clear the weight d - 1 class together with 11...1 (the
//    paper's Fig. 4 is lost; this one follows OCTR): in slot s, 11...1 clears bit s and the tag
//    whose zero is at k != s clears bit (2s - k) mod d (d = 2: {11 -> 0, 10 -> 1} then
//    {11 -> 1, 01 -> 0}). D equals §6.2's D_TE.
//  - 2-D torus p x p, p odd: classes R_ab (a > 0, b >= 0, a, b <= (p-1)/2), the four 90°
//    rotations of (a, b), in order of a + b then a descending; each class in a slots of
//    {r0 -> 1+, r1 -> 2+, r2 -> 1-, r3 -> 2-} then b slots of {r0 -> 2+, r1 -> 1-, r2 -> 2-,
//    r3 -> 1+} (Fig. 7 is lost; this one keeps the four links busy). Optimal by Theorem 6: D
//    equals the SPT lower bound.
//  - ring: the packets k hops away each way, {+k, -k}, in k slots, k = 1, 2, ...; on an even
//    ring the antipodal packet goes last (+). D equals §8.5's formulas.
//  - hypercube, d not prime (§6.3): the non-degenerate classes as for d prime, then the
//    degenerate classes (fewer than d members), the weight d - 1 class and 11...1 by OCTR
//    (nearest first within it). Completion n/2; D near-optimal (reported against the SPT bound).
//  - torus p x ... x p, p odd, d >= 3 (§8.4): phase i clears the rows i hops away by OCTR in
//    |N_i| i / 2d slots, every link busy; OADD between phases, nearest first within each.
//  - any other torus (p even, sizes that differ): the paper gives no construction; nearest-first
//    OCTR on the whole matrix (OCTR every slot, then the nearest rows: §6.3's last remark).
#pragma once
#include <vector>

#include "switchyard/schemes/exchange/task.hpp"
#include "switchyard/topology/topology.hpp"
#include "switchyard/traffic/schedule.hpp"

namespace sy {

// The OADD plan of the total exchange task t (as total_exchange_task builds it).
TaskPlan oadd_plan(const TaskMatrix& t);
// Nearest-first OCTR on the whole task matrix (any isotropic task): completion h, the nearest
// rows sent first where OCTR leaves a choice.
TaskPlan oadd_near_plan(const TaskMatrix& t);
Schedule oadd_schedule(Topology::Kind kind, const std::vector<int>& dims, int packet_flits,
                       int size2_links = 1);

}  // namespace sy
