#include "fields.hpp"

#include <cstdio>
#include <stdexcept>

namespace lab {

double Value::number() const {
  if (type_ == Type::number) return number_;
  if (type_ == Type::integer || type_ == Type::boolean) return static_cast<double>(integer_);
  throw std::logic_error("Value::number(): the value is not a number");
}

std::string Value::format(int decimals) const {
  switch (type_) {
    case Type::none: return "-";
    case Type::number: return fixed(number_, decimals);
    case Type::integer: return std::to_string(integer_);
    case Type::boolean: return integer_ != 0 ? "yes" : "no";
    case Type::text: return text_;
    case Type::numbers: {
      std::string out;
      for (std::size_t i = 0; i < numbers_.size(); ++i) out += (i == 0 ? "" : ", ") + fixed(numbers_[i], decimals);
      return out;
    }
  }
  return "-";
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string signed_percent(double percent, int decimals) {
  std::string text = fixed(percent, decimals);
  if (text.find_first_not_of("-0.") == std::string::npos && text[0] == '-') text.erase(0, 1);  // no "-0.0"
  return (text[0] == '-' ? "" : "+") + text + " %";
}

}  // namespace lab
