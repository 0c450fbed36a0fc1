// Recursive knight's-move tiling (Peters & Syska §4) and its block expansions.
//
// The broadcast is a sum of digit sets. A level with factor (f0, f1) at scale (s0, s1) is a set
// of offsets that is a complete residue system of (s0 Z x s1 Z) / (f0 s0 Z x f1 s1 Z); the levels'
// factors multiply up to the torus. Processing the levels from the outermost (largest scale) to
// the innermost, every informed node sends the level's offsets in every phase, so each node is
// informed exactly once. Before a level the informed set is exactly the lattice of the outer
// levels, so one sender's paths and their lattice translates decide arc-disjointness:
//  * S level (5,5), two phases: knight's moves (s0, 2 s1), (2 s0, -s1), (-s0, -2 s1), (-2 s0, s1)
//    routed first along dim 0 for (s0, 2 s1) and as its rotations for the others (Theorem 2's
//    u_j, v_j), then the plain moves (+-s0, 0), (0, +-s1);
//  * 2x2 block (2,2), one phase: slanting (-s0, 0), (0, s1), (s0, s1) via (s0, 0) (§4, 2 s
//    hops), or the boss block (s0, 0), (s0, s1) via (0, s1), (0, s1) via (-s0, 0), (-s0, s1)
//    (3 s hops);
//  * 1x2 pair (2,1) or (1,2), one phase: (s0, 0) or (0, s1) (the 5x10 expansion).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "switchyard/schemes/circuit/circuit_schedule.hpp"

namespace sy {

using namespace circuit_detail;

namespace {

enum class LevelKind { S, Block, BossBlock, Pair0, Pair1 };
struct Level {
  LevelKind kind;
  int s0 = 1, s1 = 1;
};

// Path patterns of one phase, relative to the sender.
std::vector<std::vector<ScheduleHop>> patterns(LevelKind kind, int phase_in_level, int s0, int s1) {
  auto seg = [&](std::vector<ScheduleHop>& p, ScheduleHop h, int unit) {
    append_hops(p, h, unit * (h.dim == 0 ? s0 : s1));
  };
  std::vector<std::vector<ScheduleHop>> out;
  switch (kind) {
    case LevelKind::S:
      if (phase_in_level == 0) {
        // Unit knight's move A = E, N, N and its rotations by 90 degrees.
        ScheduleHop a = kEast, b = kNorth;
        for (int r = 0; r < 4; ++r) {
          std::vector<ScheduleHop> p;
          seg(p, a, 1);
          seg(p, b, 2);
          out.push_back(p);
          a = rotate90(a);
          b = rotate90(b);
        }
      } else {
        for (ScheduleHop h : {kEast, kNorth, kWest, kSouth}) {
          std::vector<ScheduleHop> p;
          seg(p, h, 1);
          out.push_back(p);
        }
      }
      break;
    case LevelKind::Block: {
      std::vector<ScheduleHop> w, n, ne;
      seg(w, kWest, 1);
      seg(n, kNorth, 1);
      seg(ne, kEast, 1);
      seg(ne, kNorth, 1);
      out = {w, n, ne};
      break;
    }
    case LevelKind::BossBlock: {
      std::vector<ScheduleHop> e, ne, n;
      seg(e, kEast, 1);
      seg(ne, kNorth, 1);
      seg(ne, kEast, 1);
      seg(n, kWest, 1);
      seg(n, kNorth, 1);
      seg(n, kEast, 1);
      out = {e, ne, n};
      break;
    }
    case LevelKind::Pair0: {
      std::vector<ScheduleHop> e;
      seg(e, kEast, 1);
      out = {e};
      break;
    }
    case LevelKind::Pair1: {
      std::vector<ScheduleHop> n;
      seg(n, kNorth, 1);
      out = {n};
      break;
    }
  }
  return out;
}

// n = 5^a 2^b; false when n has another prime factor.
bool factor52(int n, int& a, int& b) {
  a = b = 0;
  while (n % 5 == 0) n /= 5, ++a;
  while (n % 2 == 0) n /= 2, ++b;
  return n == 1;
}

const char* variant_name(TilingVariant v) {
  switch (v) {
    case TilingVariant::Slanting:
      return "slanting 2x2 blocks";
    case TilingVariant::BossBlocks:
      return "boss 2x2 blocks";
    case TilingVariant::BlocksFirst:
      return "2x2 blocks first";
    case TilingVariant::Pinwheel:
      return "pinwheel partition";
  }
  return "?";
}

}  // namespace

// ---- pinwheel partition: any n0 x n1 torus (schedule.variant: pinwheel) ---------------------
//
// Not the paper's construction (its tilings are for 5^a 2^b sizes; §4 says other tilings exist
// for other sizes without giving them). The torus, cut open around the root, is a rectangle;
// every region is a rectangle with one informed node, which splits it into five rectangles: a
// centre block that keeps the sender and four pieces each bordering one whole side of it, as a
// pinwheel (west [0, x0) x [0, y1), south [x0, W) x [0, y0), east [x1, W) x [y0, H), north
// [0, x1) x [y1, H)) or as a cross (west and east the whole height, or south and north the
// whole width). The sender reaches each piece straight out of the centre in that piece's
// direction, then turns inside the piece to the node that will send there next: four paths
// leaving in four directions, each inside its own piece after the centre, so a phase's paths
// are arc-disjoint, and every later circuit stays inside a piece of its sender's region
// (self-timed phases never meet an earlier phase's circuit). Each phase splits every region, so
// the broadcast takes the least number of such splits: phases(W, H) = 1 + the best split's
// largest phases(piece), found level by level over all shapes up to the torus (a piece of width
// at most M(h), the widest h-high shape every narrower one of which takes at most q - 1
// phases, qualifies at level q: O(n0 n1^3) a level). Among the splits of the least phases, the
// one whose longest chain of circuits has the fewest hops (the sender's longest path then its
// centre's chain, or a path into a piece then the piece's chain). The sender of a piece is its
// anchor, the innermost cell of its nested centre blocks, so it lies in the centre block of
// every later split of that piece; of the four mirror images of a piece's splits, the one whose
// anchor is nearest the entry point is taken. Measured: at most ceil(log5 N) + 1 phases
// (Proposition 1's bound, met on 191 of the 406 sizes 3 <= a <= b <= 30), the critical chain's
// hops the diameter on 397 of them (at most D + 2); built in 2.8 s on 128 x 128.
namespace {

struct Rect {
  int x, y, w, h;
};

class PinwheelPlan {
 public:
  PinwheelPlan(int n0, int n1) : n0_(n0) {
    const std::size_t cells = static_cast<std::size_t>(n0 + 1) * static_cast<std::size_t>(n1 + 1);
    q_.assign(cells, kUnset);
    split_.assign(cells, {0, 0, 0, 0, 0});
    anchor_.assign(cells, {0, 0});
    delta_.assign(cells, 0);
    q_[at(1, 1)] = 0;
    for (int q = 1; q_[at(n0, n1)] == kUnset; ++q) {
      if (q > 64) throw std::logic_error("pinwheel: no split found");
      // M[h]: the widest h-high shape such that every narrower one takes at most q - 1 phases.
      std::vector<int> M(static_cast<std::size_t>(n1) + 1, 0);
      for (int h = 1; h <= n1; ++h) {
        int m = 0;
        while (m < n0 && q_[at(m + 1, h)] <= q - 1) ++m;
        M[static_cast<std::size_t>(h)] = m;
      }
      std::vector<std::pair<int, int>> solved;
      for (int h = 1; h <= n1; ++h)
        for (int w = 1; w <= n0; ++w)
          if (q_[at(w, h)] == kUnset && find_split(w, h, M)) solved.push_back({w, h});
      for (const auto& [w, h] : solved) q_[at(w, h)] = q;
    }
  }
  // The five pieces of a w x h region under mirror m (bit 0: x, bit 1: y), relative to it:
  // [0] the centre, then the outer pieces with the direction from the centre into each.
  struct Pieces {
    Rect r[5];
    ScheduleHop dir[5];
  };
  // The five pieces of split s of a w x h region (unmirrored).
  static Pieces layout(int w, int h, const std::array<int, 5>& s) {
    const int x0 = s[0], x1 = s[1], y0 = s[2], y1 = s[3];
    const Rect c{x0, y0, x1 - x0, y1 - y0};
    Pieces p{{c, c, c, c, c}, {kEast, kWest, kSouth, kEast, kNorth}};
    switch (s[4]) {
      case 0:  // pinwheel
        p.r[1] = {0, 0, x0, y1}, p.r[2] = {x0, 0, w - x0, y0};
        p.r[3] = {x1, y0, w - x1, h - y0}, p.r[4] = {0, y1, x1, h - y1};
        break;
      case 1:  // cross, west and east the whole height
        p.r[1] = {0, 0, x0, h}, p.r[2] = {x0, 0, x1 - x0, y0};
        p.r[3] = {x1, 0, w - x1, h}, p.r[4] = {x0, y1, x1 - x0, h - y1};
        break;
      default:  // cross, south and north the whole width
        p.r[1] = {0, y0, x0, y1 - y0}, p.r[2] = {0, 0, w, y0};
        p.r[3] = {x1, y0, w - x1, y1 - y0}, p.r[4] = {0, y1, w, h - y1};
        break;
    }
    return p;
  }
  Pieces pieces(int w, int h, int m) const {
    Pieces p = layout(w, h, split_[at(w, h)]);
    for (int i = 0; i < 5; ++i) {
      if (m & 1) {
        p.r[i].x = w - p.r[i].x - p.r[i].w;
        if (p.dir[i].dim == 0) p.dir[i].dir = -p.dir[i].dir;
      }
      if (m & 2) {
        p.r[i].y = h - p.r[i].y - p.r[i].h;
        if (p.dir[i].dim == 1) p.dir[i].dir = -p.dir[i].dir;
      }
    }
    return p;
  }
  // The innermost cell of the nested centre blocks of a w x h region under mirror m.
  std::pair<int, int> anchor(int w, int h, int m) const {
    const std::array<int, 2>& a = anchor_[at(w, h)];
    return {m & 1 ? w - 1 - a[0] : a[0], m & 2 ? h - 1 - a[1] : a[1]};
  }

 private:
  static constexpr int kUnset = 1 << 20;
  std::size_t at(int w, int h) const {
    return static_cast<std::size_t>(w) +
           static_cast<std::size_t>(n0_ + 1) * static_cast<std::size_t>(h);
  }
  // A split of W x H whose five pieces all qualify (M): a pinwheel or a cross (west and east,
  // or south and north, the whole side long), the one whose sender is nearest its farthest node.
  bool find_split(int W, int H, const std::vector<int>& M) {
    long long best = -1;
    std::array<int, 5> pick{};
    auto m = [&](int h) { return M[static_cast<std::size_t>(h)]; };
    // Scored by the hops of the region's longest chain of circuits (the sender's longest path
    // then its centre block's chain, or a path into a piece then that piece's chain, the piece
    // mirrored so that its anchor is nearest), then by the largest piece.
    long long best_hops = 0;
    std::array<int, 2> best_anchor{};
    auto consider = [&](int x0, int x1, int y0, int y1, int family) {
      const std::array<int, 5> c{x0, x1, y0, y1, family};
      const Pieces p = layout(W, H, c);
      const auto [cx, cy] = anchor(x1 - x0, y1 - y0, 0);
      const int ax = x0 + cx, ay = y0 + cy;
      long long longest = 0, chain = 0, worst = 1LL * (x1 - x0) * (y1 - y0);
      for (int i = 1; i < 5; ++i) {
        const Rect& r = p.r[i];
        if (r.w == 0 || r.h == 0) continue;
        const int ex = p.dir[i].dim == 1 ? ax : p.dir[i].dir > 0 ? x1 : x0 - 1;
        const int ey = p.dir[i].dim == 0 ? ay : p.dir[i].dir > 0 ? y1 : y0 - 1;
        int to = -1;
        for (int mm = 0; mm < 4; ++mm) {
          const auto [px, py] = anchor(r.w, r.h, mm);
          const int d = std::abs(r.x + px - ex) + std::abs(r.y + py - ey);
          if (to < 0 || d < to) to = d;
        }
        const long long hops = std::abs(ex - ax) + std::abs(ey - ay) + to;
        longest = std::max(longest, hops);
        chain = std::max(chain, hops + delta_[at(r.w, r.h)]);
        worst = std::max(worst, 1LL * r.w * r.h);
      }
      chain = std::max(chain, longest + delta_[at(x1 - x0, y1 - y0)]);
      const long long score = (chain << 32) + worst;
      if (best < 0 || score < best)
        best = score, pick = c, best_hops = chain, best_anchor = {ax, ay};
    };
    for (int y0 = 0; y0 < H; ++y0)
      for (int y1 = y0 + 1; y1 <= H; ++y1) {
        const int mc = m(y1 - y0);
        if (mc == 0) continue;
        {                                                      // pinwheel
          const int lo0 = y0 == 0 ? 0 : W - m(y0);             // south: W - x0 <= M(y0)
          const int hi0 = std::min(W - 1, m(y1));              // west: x0 <= M(y1)
          const int a = W - m(H - y0);                         // east: x1 >= W - M(H - y0)
          const int b = H == y1 ? W : std::min(W, m(H - y1));  // north: x1 <= M(H - y1)
          const int xl = std::max({lo0, a - mc, 0}), xh = std::min(hi0, b - 1);
          if (xl <= xh) {
            const int x0 = (xl + xh) / 2;
            const int x1l = std::max(x0 + 1, a), x1h = std::min(b, x0 + mc);
            if (x1l <= x1h) consider(x0, (x1l + x1h) / 2, y0, y1, 0);
          }
        }
        {  // cross, west and east the whole height: the centre column's width cw
          int cap = mc;
          if (y0 > 0) cap = std::min(cap, m(y0));
          if (y1 < H) cap = std::min(cap, m(H - y1));
          const int cw = std::min(cap, W), mh = m(H);
          const int xl = std::max(0, W - cw - mh), xh = std::min(mh, W - cw);
          if (cw > 0 && xl <= xh) consider((xl + xh) / 2, (xl + xh) / 2 + cw, y0, y1, 1);
        }
        // cross, south and north the whole width: the middle band in three
        if ((y0 == 0 || W <= m(y0)) && (y1 == H || W <= m(H - y1)) && W <= 3 * mc) {
          const int cw = std::min(mc, W), rest = W - cw;
          const int x0 = std::min(mc, std::max(rest - mc, rest / 2));
          if (rest - x0 <= mc) consider(x0, x0 + cw, y0, y1, 2);
        }
      }
    if (best < 0) return false;
    split_[at(W, H)] = pick;
    anchor_[at(W, H)] = best_anchor;
    delta_[at(W, H)] = static_cast<int>(best_hops);
    return true;
  }
  int n0_;  // (the table's row length: at(w, h))
  std::vector<int> q_;
  std::vector<std::array<int, 5>> split_;   // x0, x1, y0, y1, family of the chosen split
  std::vector<std::array<int, 2>> anchor_;  // its anchor, unmirrored
  std::vector<int> delta_;                  // the hops its longest chain of circuits takes
};

// Region r (coordinates relative to the root) under mirror m, its sender at its anchor (sx, sy):
// the phase's four circuits, then the pieces' phases.
void pinwheel_region(const PinwheelPlan& plan, const Grid& g, Schedule& s, const Rect& r, int m,
                     int phase) {
  if (r.w * r.h == 1) return;
  const auto [ax, ay] = plan.anchor(r.w, r.h, m);
  const int sx = r.x + ax, sy = r.y + ay;
  const PinwheelPlan::Pieces p = plan.pieces(r.w, r.h, m);
  const Rect& c = p.r[0];
  for (int i = 1; i < 5; ++i) {
    const Rect q{r.x + p.r[i].x, r.y + p.r[i].y, p.r[i].w, p.r[i].h};
    if (q.w == 0 || q.h == 0) continue;
    // Straight out of the centre block to the first cell of the piece.
    const ScheduleHop d = p.dir[i];
    int ex = sx, ey = sy;
    if (d.dim == 0)
      ex = d.dir > 0 ? r.x + c.x + c.w : r.x + c.x - 1;
    else
      ey = d.dir > 0 ? r.y + c.y + c.h : r.y + c.y - 1;
    std::vector<ScheduleHop> path;
    append_hops(path, d, std::abs(ex - sx) + std::abs(ey - sy));
    // The piece's mirror with its anchor nearest the entry, and on to that anchor.
    int best_m = 0, best = -1, tx = 0, ty = 0;
    for (int mm = 0; mm < 4; ++mm) {
      const auto [px, py] = plan.anchor(q.w, q.h, mm);
      const int dist = std::abs(q.x + px - ex) + std::abs(q.y + py - ey);
      if (best < 0 || dist < best) best = dist, best_m = mm, tx = q.x + px, ty = q.y + py;
    }
    append_hops(path, tx > ex ? kEast : kWest, std::abs(tx - ex));
    append_hops(path, ty > ey ? kNorth : kSouth, std::abs(ty - ey));
    s.transmissions.push_back({phase, g.node(sx, sy), 0, path, {}});
    pinwheel_region(plan, g, s, q, best_m, phase + 1);
  }
  pinwheel_region(plan, g, s, {r.x + c.x, r.y + c.y, c.w, c.h}, m, phase + 1);
}

}  // namespace

void pinwheel_check(const std::vector<int>& dims, int root) {
  const std::string supported = "any n0 x n1 torus with 3 <= n0, n1 <= 128";
  require_torus("tiling (pinwheel)", dims, root, supported);
  if (dims[0] < 3 || dims[1] < 3 || dims[0] > 128 || dims[1] > 128)
    throw UnsupportedSchedule("tiling (pinwheel): no construction for a " + size_name(dims) +
                              " torus; supported: " + supported);
}

double pinwheel_build_seconds(const std::vector<int>& dims) {
  // About 7 levels of n0 * n1^3 / 3 steps at 2.8 s for 128 x 128 (measured by `switchyard
  // check`, which does not build it since: 0.18 s at 64 x 64, 0.92 s at 100 x 100).
  const double n0 = dims[0], n1 = dims[1];
  return 2.8 * (n0 * n1 * n1 * n1) / (128.0 * 128.0 * 128.0 * 128.0);
}

Schedule pinwheel_tiling(const std::vector<int>& dims, int root, int message_flits) {
  pinwheel_check(dims, root);
  const PinwheelPlan plan(dims[0], dims[1]);
  Schedule s;
  s.algorithm = "tiling";
  s.variant = "pinwheel partition";
  s.dims = dims;
  s.root = root;
  const Grid g(dims, root);
  // The torus cut open so that the root is the whole rectangle's anchor.
  const auto [ax, ay] = plan.anchor(dims[0], dims[1], 0);
  pinwheel_region(plan, g, s, {-ax, -ay, dims[0], dims[1]}, 0, 0);
  finish(s, 1, message_flits);
  return s;
}

Schedule tiling(const std::vector<int>& dims, int root, int message_flits, TilingVariant variant) {
  const std::string supported =
      "n0 x n1 = 5^a*2^b0 x 5^a*2^b1 with both sides >= 3 (the same power of 5 on both sides), "
      "e.g. 5x5, 25x25, 125x125 (Theorem 2), 10x10 and 20x20 (2x2 blocks), 5x10 and 10x5 "
      "(1x2 blocks), 4x4, 8x8, 16x16 (2x2 blocks only)";
  if (variant == TilingVariant::Pinwheel) return pinwheel_tiling(dims, root, message_flits);
  require_torus("tiling", dims, root, supported);
  int a0, b0, a1, b1;
  if (!factor52(dims[0], a0, b0) || !factor52(dims[1], a1, b1) || a0 != a1)
    throw UnsupportedSchedule("tiling: no construction for a " + size_name(dims) +
                              " torus; supported: " + supported +
                              "; any size from 3x3 to 128x128: schedule.variant: pinwheel (a "
                              "pinwheel partition, not the paper's construction)");

  // Levels from the innermost (scale 1) outwards.
  std::vector<LevelKind> kinds;
  const int blocks = std::min(b0, b1);
  const LevelKind block =
      variant == TilingVariant::BossBlocks ? LevelKind::BossBlock : LevelKind::Block;
  std::vector<LevelKind> twos;
  for (int i = 0; i < b0 - blocks; ++i) twos.push_back(LevelKind::Pair0);
  for (int i = 0; i < b1 - blocks; ++i) twos.push_back(LevelKind::Pair1);
  for (int i = 0; i < blocks; ++i) twos.push_back(block);
  if (variant == TilingVariant::BlocksFirst) {
    kinds.assign(a0, LevelKind::S);
    kinds.insert(kinds.end(), twos.rbegin(), twos.rend());
  } else {
    kinds = twos;
    kinds.insert(kinds.end(), a0, LevelKind::S);
  }
  std::vector<Level> levels;
  int s0 = 1, s1 = 1;
  for (LevelKind k : kinds) {
    levels.push_back({k, s0, s1});
    const bool grows0 = k != LevelKind::Pair1, grows1 = k != LevelKind::Pair0;
    const int f = k == LevelKind::S ? 5 : 2;
    if (grows0) s0 *= f;
    if (grows1) s1 *= f;
  }

  Schedule s;
  s.algorithm = "tiling";
  s.variant = a0 > 0 && blocks == 0 && b0 == 0 && b1 == 0 ? "5^k" : variant_name(variant);
  s.dims = dims;
  s.root = root;
  const Grid g(dims, root);
  std::vector<int> informed{root};
  int phase = 0;
  for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
    const int sub_phases = it->kind == LevelKind::S ? 2 : 1;
    for (int sp = 0; sp < sub_phases; ++sp, ++phase) {
      const auto pats = patterns(it->kind, sp, it->s0, it->s1);
      std::vector<int> next = informed;
      for (int sender : informed)
        for (const auto& p : pats) {
          s.transmissions.push_back({phase, sender, 0, p, {}});
          next.push_back(g.walk(sender, p));
        }
      informed.swap(next);
    }
  }
  finish(s, 1, message_flits);
  return s;
}

}  // namespace sy
