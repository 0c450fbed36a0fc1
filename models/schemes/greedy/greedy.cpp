#include "switchyard/schemes/greedy/greedy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sy {

double md1_sojourn(double r) {
  return r < 1 ? 1 + r / (2 * (1 - r)) : std::numeric_limits<double>::infinity();
}

GreedyBounds greedy_bounds(bool butterfly, int d, double p, double lambda, double slot_fraction) {
  GreedyBounds g;
  g.butterfly = butterfly;
  g.d = d;
  g.p = p;
  g.lambda = lambda;
  const double inf = std::numeric_limits<double>::infinity();
  if (!butterfly) {
    // Hypercube: every arc carries rho = lambda p (Prop. 5).
    const double rho = lambda * p;
    g.rho = rho;
    g.lower = rho < 1 ? d * p + p * rho / (2 * (1 - rho)) : inf;  // Prop. 13
    g.upper = rho < 1 ? d * p / (1 - rho) : inf;                  // Prop. 12
    g.exact_known = p == 1.0;
    g.exact = rho < 1 ? d + rho / (2 * (1 - rho)) : inf;
    g.md1_first = md1_sojourn(rho);
    g.prop2_lower_any =
        rho < 1 ? std::max(d * p, p * (1 + rho / (std::ldexp(2.0, d) * (1 - rho)))) : inf;
    g.prop3_lower_oblivious = rho < 1 ? std::max(d * p, p * md1_sojourn(rho)) : inf;
    g.packets_bound = rho < 1 ? d * std::ldexp(1.0, d) * rho / (1 - rho) : inf;  // (13)
  } else {
    // Butterfly: straight arcs carry lambda (1 - p), vertical ones lambda p.
    const double a = lambda * p, b = lambda * (1 - p);
    g.rho = std::max(a, b);
    const bool ok = g.rho < 1;
    g.lower = ok ? d + p * a / (2 * (1 - a)) + (1 - p) * b / (2 * (1 - b)) : inf;  // Prop. 14
    g.upper = ok ? d * p / (1 - a) + d * (1 - p) / (1 - b) : inf;                  // Prop. 17
    g.exact_known = p == 0.0 || p == 1.0;
    g.exact = lambda < 1 ? d + lambda / (2 * (1 - lambda)) : inf;
    g.md1_first_straight = md1_sojourn(b);
    g.md1_first_vertical = md1_sojourn(a);
    g.prop14_lower_any = g.lower;
    g.packets_bound = ok ? d * std::ldexp(1.0, d) * (a / (1 - a) + b / (1 - b)) : inf;  // (21)
  }
  g.slotted_upper = g.upper + slot_fraction;
  g.packets_slotted_bound = g.packets_bound + lambda * std::ldexp(1.0, d) * slot_fraction;
  return g;
}

}  // namespace sy
