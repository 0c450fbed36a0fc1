// routing: {algorithm, tie_break}
#include "config/section.hpp"

namespace sy {
namespace config_detail {

void parse_routing(Section& s, Config& c) {
  const std::string algo = s.text("algorithm", "dimension_order");
  if (algo != "dimension_order")
    fail(c.source, s.at("algorithm"), s.path("algorithm"),
         "unknown value '" + algo + "' (expected one of: dimension_order)");
  c.routing.tie_break = s.choice<TieBreak>("tie_break", TieBreak::Balanced,
                                           {{"positive", TieBreak::Positive},
                                            {"negative", TieBreak::Negative},
                                            {"balanced", TieBreak::Balanced}});
  s.finish();
}

}  // namespace config_detail
}  // namespace sy
