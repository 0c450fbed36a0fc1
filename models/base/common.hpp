// Basic types shared by every unit: simulated time in cycles and the "never" sentinel, and the
// checked arithmetic used wherever sizes or counts from a config, trace or TLM payload multiply.
#pragma once
#include <cstdint>
#include <limits>

namespace sy {

using Cycle = std::uint64_t;
constexpr Cycle kNever = ~Cycle{0};
// Priority classes (router.priority_classes) and traffic classes (traffic.classes, a TLM
// initiator's NocExtension::traffic_class): at most 8 of each.
constexpr int kMaxClasses = 8;

// out = a * b; false (out unspecified) when the product does not fit in T.
template <class T>
inline bool checked_mul(T a, T b, T& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
// out = a + b; false when the sum does not fit in T.
template <class T>
inline bool checked_add(T a, T b, T& out) {
  return !__builtin_add_overflow(a, b, &out);
}
// a * b for non-negative sizes, saturated at the largest int64 (never wraps): compare it against
// a limit.
inline std::int64_t mul_sat(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  return checked_mul(a, b, r) ? r : std::numeric_limits<std::int64_t>::max();
}

}  // namespace sy
