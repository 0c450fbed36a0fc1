// JSON output: a small builder (open / key / value / close, in document order) over
// nlohmann::json's ordered_json, which writes it. Doubles are kept to 10 significant digits, so
// that the same run writes the same bytes whatever the last bits of a sum; strings that are not
// UTF-8 get U+FFFD (the output is always valid JSON). nlohmann stays out of this header: the
// installed library's users need not have it.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace sy {

class Json {
 public:
  explicit Json(int indent = 2);
  ~Json();
  Json(const Json&) = delete;
  Json& operator=(const Json&) = delete;
  Json& open(const char* key = nullptr);
  Json& open_array(const char* key = nullptr);
  Json& close();
  Json& key(const char* k);
  Json& value(const std::string& s);
  Json& value(const char* s) { return value(std::string(s)); }
  Json& value(bool b);
  Json& value(int v) { return value(static_cast<long long>(v)); }
  Json& value(long v) { return value(static_cast<long long>(v)); }
  Json& value(long long v);
  Json& value(unsigned v) { return value(static_cast<unsigned long long>(v)); }
  Json& value(unsigned long v) { return value(static_cast<unsigned long long>(v)); }
  Json& value(unsigned long long v);
  Json& value(double v);
  template <class T>
  Json& kv(const char* k, const T& v) {
    key(k);
    return value(v);
  }
  template <class T>
  Json& kv_list(const char* k, const std::vector<T>& v) {
    open_array(k);
    for (const auto& x : v) value(x);
    return close();
  }
  // Inserts an already formatted JSON value (an object written by another Json).
  Json& raw(const char* k, const std::string& json);
  // The document, indented by indent spaces (0 or less: on one line).
  const std::string& str() const;

  // A double as printed in text output: 10 significant digits, "null" when not finite.
  static std::string number(double v) {
    if (!std::isfinite(v)) return "null";
    char b[40];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
  }
  // The length of the valid UTF-8 sequence at s[i], or 0 (a stray or overlong byte).
  static std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto u = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = u(i);
    if (c < 0x80) return 1;
    const std::size_t n = c >= 0xC2 && c <= 0xDF   ? 2
                          : c >= 0xE0 && c <= 0xEF ? 3
                          : c >= 0xF0 && c <= 0xF4 ? 4
                                                   : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
      if ((u(i + k) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && u(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && u(i + 1) >= 0xA0) return 0;  // surrogates
    if (c == 0xF0 && u(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && u(i + 1) >= 0x90) return 0;  // beyond U+10FFFF
    return n;
  }
  static bool valid_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
      const std::size_t n = utf8_length(s, i);
      if (n == 0) return false;
      i += n;
    }
    return true;
  }
  // A JSON string: quotes and backslashes escaped, control characters as spaces, and bytes that
  // are not UTF-8 as U+FFFD, so the output is always valid JSON.
  static std::string quoted(const std::string& s) {
    std::string o = "\"";
    for (std::size_t i = 0; i < s.size();) {
      const char c = s[i];
      const std::size_t n = utf8_length(s, i);
      if (n == 0) {
        o += "\xEF\xBF\xBD";
        ++i;
        continue;
      }
      if (n > 1) {
        o.append(s, i, n);
      } else if (c == '"' || c == '\\') {
        o += '\\', o += c;
      } else if (c == '\n') {
        o += "\\n";
      } else if (static_cast<unsigned char>(c) < 0x20) {
        o += ' ';
      } else {
        o += c;
      }
      i += n;
    }
    return o + "\"";
  }

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

}  // namespace sy
