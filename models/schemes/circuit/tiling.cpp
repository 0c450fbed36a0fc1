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
#include <string>

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
  }
  return "?";
}

}  // namespace

Schedule tiling(const std::vector<int>& dims, int root, int message_flits, TilingVariant variant) {
  const std::string supported =
      "n0 x n1 = 5^a*2^b0 x 5^a*2^b1 with both sides >= 3 (the same power of 5 on both sides), "
      "e.g. 5x5, 25x25, 125x125 (Theorem 2), 10x10 and 20x20 (2x2 blocks), 5x10 and 10x5 "
      "(1x2 blocks), 4x4, 8x8, 16x16 (2x2 blocks only)";
  require_torus("tiling", dims, root, supported);
  int a0, b0, a1, b1;
  if (!factor52(dims[0], a0, b0) || !factor52(dims[1], a1, b1) || a0 != a1)
    throw UnsupportedSchedule("tiling: no construction for a " + size_name(dims) +
                              " torus; supported: " + supported);

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
