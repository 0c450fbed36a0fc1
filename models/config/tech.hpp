// Technology parameters for the energy, power and area models (power.tech): plain data read from
// a technology file (configs/tech/<name>.yaml, built into the program, or a user's own file),
// each parameter with its published source in a comment there. tech_keys() lists every
// parameter a file must give, with its unit and range: the config parser reads a file with it,
// and a missing, unknown, mistyped or out-of-range parameter is a config error naming the file,
// line and key.
#pragma once
#include <string>
#include <vector>

namespace sy {

struct Tech {
  std::string name;  // "45nm", or the file's stem for a user's file
  std::string file;  // where it was read ("configs/tech/45nm.yaml" for a built-in one)
  // (The parameters: see tech_keys() and configs/tech/*.yaml.)
  double node_nm = 0;  // feature size
  double vdd = 0;      // supply voltage, V
};

// One parameter of a technology file: its key, the member it sets, its valid range (inclusive),
// its unit and a one-line meaning (for `switchyard keys` and error messages).
struct TechKey {
  const char* key;
  double Tech::*field;
  double lo, hi;
  const char* unit;
  const char* doc;
};
const std::vector<TechKey>& tech_keys();

// The technology files built into the program: {name, file name, YAML text}.
struct BuiltinTech {
  const char* name;
  const char* file;
  const char* text;
};
const std::vector<BuiltinTech>& builtin_techs();

}  // namespace sy
