// CSV fields as RFC 4180 writes them: a field with a comma, a quote or a line break is quoted,
// its quotes doubled; and the reverse, splitting one line into its fields.
#pragma once
#include <string>
#include <vector>

namespace sy {

inline std::string csv_quote(const std::string& v) {
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string o = "\"";
  for (char c : v) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool q = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (q) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        q = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      q = true;
    } else if (c == ',') {
      f.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  f.push_back(cur);
  return f;
}

}  // namespace sy
