// A tiny JSON writer with fixed formatting, so that the same run writes the same bytes.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sy {

class Json {
 public:
  explicit Json(int indent = 2) : indent_(indent) {}
  Json& open(const char* key = nullptr) { return start(key, '{'); }
  Json& open_array(const char* key = nullptr) { return start(key, '['); }
  Json& close() {
    const char c = stack_.back() == '{' ? '}' : ']';
    const bool had = has_items_.back();
    stack_.pop_back();
    has_items_.pop_back();
    if (had) newline();
    out_ += c;
    return *this;
  }
  Json& key(const char* k) {
    item();
    out_ += quoted(k);
    out_ += ": ";
    pending_key_ = true;
    return *this;
  }
  Json& value(const std::string& s) { return raw_value(quoted(s)); }
  Json& value(const char* s) { return value(std::string(s)); }
  Json& value(bool b) { return raw_value(b ? "true" : "false"); }
  Json& value(int v) { return raw_value(std::to_string(v)); }
  Json& value(long v) { return raw_value(std::to_string(v)); }
  Json& value(long long v) { return raw_value(std::to_string(v)); }
  Json& value(unsigned v) { return raw_value(std::to_string(v)); }
  Json& value(unsigned long v) { return raw_value(std::to_string(v)); }
  Json& value(unsigned long long v) { return raw_value(std::to_string(v)); }
  Json& value(double v) { return raw_value(number(v)); }
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
  Json& raw(const char* k, const std::string& json) {
    key(k);
    return raw_value(json);
  }
  const std::string& str() const { return out_; }

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
  Json& start(const char* key_name, char c) {
    if (key_name)
      key(key_name);
    else
      item();
    pending_key_ = false;
    out_ += c;
    stack_.push_back(c);
    has_items_.push_back(false);
    return *this;
  }
  Json& raw_value(const std::string& s) {
    if (!pending_key_) item();
    pending_key_ = false;
    out_ += s;
    return *this;
  }
  void item() {
    if (pending_key_) return;
    if (!stack_.empty()) {
      if (has_items_.back()) out_ += ',';
      has_items_.back() = true;
      newline();
    }
  }
  void newline() {
    if (indent_ <= 0) {
      out_ += ' ';
      return;
    }
    out_ += '\n';
    out_.append(stack_.size() * indent_, ' ');
  }
  std::string out_;
  std::vector<char> stack_;
  std::vector<bool> has_items_;
  int indent_;
  bool pending_key_ = false;
};

}  // namespace sy
