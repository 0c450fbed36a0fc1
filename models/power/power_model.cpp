// The units' energy, power and area models (power/power_model.hpp). (Placeholder: the models
// land with the technology files.)
#include "switchyard/power/power_model.hpp"

namespace sy {

RouterModel model_router(const RouterShape& shape, const Tech& tech) {
  (void)shape;
  (void)tech;
  return {};
}

LinkModel model_link(double length_mm, const RouterShape& shape, const Tech& tech) {
  (void)length_mm;
  (void)shape;
  (void)tech;
  return {};
}

}  // namespace sy
