#include "switchyard/base/json.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace sy {

using ordered_json = nlohmann::ordered_json;

struct Json::Impl {
  explicit Impl(int i) : indent(i) {}
  int indent;
  ordered_json root;
  std::vector<ordered_json*> stack;  // the open containers, innermost last
  std::string key;
  bool has_key = false;
  mutable std::string out;
  mutable bool dirty = true;

  // Adds v to the innermost container (under the pending key in an object) and returns it.
  ordered_json& add(ordered_json v) {
    dirty = true;
    if (stack.empty()) {
      root = std::move(v);
      return root;
    }
    ordered_json& c = *stack.back();
    if (c.is_array()) {
      c.push_back(std::move(v));
      return c.back();
    }
    if (!has_key) throw std::logic_error("Json: a value in an object needs a key");
    has_key = false;
    ordered_json& slot = c[key];
    slot = std::move(v);
    return slot;
  }
};

Json::Json(int indent) : p_(new Impl(indent)) {}
Json::~Json() = default;

Json& Json::open(const char* k) {
  if (k) key(k);
  p_->stack.push_back(&p_->add(ordered_json::object()));
  return *this;
}

Json& Json::open_array(const char* k) {
  if (k) key(k);
  p_->stack.push_back(&p_->add(ordered_json::array()));
  return *this;
}

Json& Json::close() {
  p_->stack.pop_back();
  return *this;
}

Json& Json::key(const char* k) {
  p_->key = k;
  p_->has_key = true;
  return *this;
}

Json& Json::value(const std::string& s) {
  p_->add(s);
  return *this;
}
Json& Json::value(bool b) {
  p_->add(b);
  return *this;
}
Json& Json::value(long long v) {
  p_->add(v);
  return *this;
}
Json& Json::value(unsigned long long v) {
  p_->add(v);
  return *this;
}
// Ten significant digits, as the text output prints them (a whole number without a fraction,
// as it always was); NaN and infinities are null.
Json& Json::value(double v) {
  if (!std::isfinite(v)) {
    p_->add(nullptr);
    return *this;
  }
  const double r = std::strtod(number(v).c_str(), nullptr);
  if (r == std::floor(r) && std::fabs(r) < 9007199254740992.0)  // 2^53: exact as an integer
    p_->add(static_cast<long long>(r));
  else
    p_->add(r);
  return *this;
}

Json& Json::raw(const char* k, const std::string& json) {
  key(k);
  p_->add(ordered_json::parse(json));
  return *this;
}

const std::string& Json::str() const {
  if (p_->dirty) {
    p_->out = p_->root.dump(p_->indent > 0 ? p_->indent : -1, ' ', false,
                            ordered_json::error_handler_t::replace);
    p_->dirty = false;
  }
  return p_->out;
}

}  // namespace sy
