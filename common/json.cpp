#include "json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace lab {

std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
          out += buffer;
        } else {
          out += c;  // UTF-8 passes through unchanged
        }
    }
  }
  return out;
}

Json Json::array() {
  Json value;
  value.type_ = Type::array;
  return value;
}

Json Json::object() {
  Json value;
  value.type_ = Type::object;
  return value;
}

Json Json::array_of(const std::vector<double>& values) {
  Json result = array();
  for (double v : values) result.push_back(v);
  return result;
}

bool Json::as_bool() const {
  if (!is_bool()) throw std::runtime_error("JSON value is not a boolean");
  return boolean_;
}

double Json::as_number() const {
  if (!is_number()) throw std::runtime_error("JSON value is not a number");
  return number_;
}

const std::string& Json::as_string() const {
  if (!is_string()) throw std::runtime_error("JSON value is not a string");
  return string_;
}

Json& Json::push_back(Json value) {
  if (is_null()) type_ = Type::array;
  if (!is_array()) throw std::runtime_error("push_back on a JSON value that is not an array");
  items_.push_back(std::move(value));
  return *this;
}

Json& Json::set(const std::string& key, Json value) {
  if (is_null()) type_ = Type::object;
  if (!is_object()) throw std::runtime_error("set on a JSON value that is not an object");
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) {
      items_[i] = std::move(value);
      return *this;
    }
  }
  keys_.push_back(key);
  items_.push_back(std::move(value));
  return *this;
}

bool Json::contains(const std::string& key) const {
  for (const auto& k : keys_) {
    if (k == key) return true;
  }
  return false;
}

const Json& Json::at(const std::string& key) const {
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return items_[i];
  }
  throw std::out_of_range("JSON object has no member '" + key + "'");
}

const Json& Json::at(std::size_t index) const {
  if (!is_array() || index >= items_.size()) {
    throw std::out_of_range("JSON array has no element " + std::to_string(index));
  }
  return items_[index];
}

namespace {

void append_number(std::string& out, double value) {
  if (!std::isfinite(value)) {  // JSON has no NaN or infinity
    out += "null";
    return;
  }
  char buffer[32];
  // Whole numbers (counts, bytes) print without an exponent up to 2^53.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    auto result = std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value));
    out.append(buffer, result.ptr);
    return;
  }
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest exact form
  out.append(buffer, result.ptr);
}

void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

}  // namespace

void Json::dump_to(std::string& out, int indent, int depth) const {
  switch (type_) {
    case Type::null: out += "null"; break;
    case Type::boolean: out += boolean_ ? "true" : "false"; break;
    case Type::number: append_number(out, number_); break;
    case Type::string:
      out += '"';
      out += json_escape(string_);
      out += '"';
      break;
    case Type::array:
    case Type::object: {
      const bool object = is_object();
      out += object ? '{' : '[';
      if (items_.empty()) {
        out += object ? '}' : ']';
        break;
      }
      // Arrays of plain numbers (samples) stay on one line.
      bool flat = !object;
      for (const auto& item : items_) flat = flat && !item.is_array() && !item.is_object();
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (i > 0) out += flat && indent >= 0 ? ", " : ",";
        if (!flat) newline(out, indent, depth + 1);
        if (object) {
          out += '"';
          out += json_escape(keys_[i]);
          out += indent >= 0 ? "\": " : "\":";
        }
        items_[i].dump_to(out, indent, depth + 1);
      }
      if (!flat) newline(out, indent, depth);
      out += object ? '}' : ']';
      break;
    }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

namespace {

// Recursive-descent parser over the whole text.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Json parse_document() {
    Json value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON parse error at offset " + std::to_string(pos_) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }

  bool consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json parse_value(int depth) {
    if (depth > 256) fail("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of text");
    const char c = text_[pos_];
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json(parse_string());
    if (consume("true")) return Json(true);
    if (consume("false")) return Json(false);
    if (consume("null")) return Json();
    return parse_number();
  }

  Json parse_object(int depth) {
    Json object = Json::object();
    ++pos_;  // '{'
    skip_space();
    if (consume("}")) return object;
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key");
      std::string key = parse_string();
      skip_space();
      if (!consume(":")) fail("expected ':'");
      object.set(key, parse_value(depth + 1));
      skip_space();
      if (consume("}")) return object;
      if (!consume(",")) fail("expected ',' or '}'");
    }
  }

  Json parse_array(int depth) {
    Json array = Json::array();
    ++pos_;  // '['
    skip_space();
    if (consume("]")) return array;
    while (true) {
      array.push_back(parse_value(depth + 1));
      skip_space();
      if (consume("]")) return array;
      if (!consume(",")) fail("expected ',' or ']'");
    }
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      value <<= 4;
      if (h >= '0' && h <= '9')
        value |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        value |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        value |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return value;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = parse_hex4();
          if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair
            if (!consume("\\u")) fail("lone high surrogate");
            const unsigned low = parse_hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("bad low surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default: fail("unknown escape");
      }
    }
  }

  Json parse_number() {
    const std::size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (!digits()) fail("expected a value");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) fail("expected digits after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) fail("expected digits in exponent");
    }
    const std::string number(text_.substr(start, pos_ - start));
    return Json(std::strtod(number.c_str(), nullptr));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

Json Json::parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace lab
