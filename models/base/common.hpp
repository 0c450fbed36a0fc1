// Basic types shared by every unit: simulated time in cycles and the "never" sentinel.
#pragma once
#include <cstdint>

namespace sy {

using Cycle = std::uint64_t;
constexpr Cycle kNever = ~Cycle{0};

}  // namespace sy
