/// @file fields.hpp
/// @brief A named value (a measurement, an option, a device property), recorded
/// once and rendered as a terminal cell and as JSON (in report.cpp only).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace lab {

/// One value: nothing, a number, an integer, a yes/no, a text, or a list of numbers.
class Value {
 public:
  /// What the value holds.
  enum class Type { none, number, integer, boolean, text, numbers };

  Value() = default;                                    ///< nothing (JSON null, "-" in a table)
  Value(double v) : type_(Type::number), number_(v) {}  ///< a measured number
  Value(float v) : Value(static_cast<double>(v)) {}     ///< a measured number
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  Value(I v) : type_(Type::integer), integer_(static_cast<long long>(v)) {}       ///< an integer of any type
  Value(bool v) : type_(Type::boolean), integer_(v ? 1 : 0) {}                    ///< yes or no
  Value(const char* v) : type_(Type::text), text_(v) {}                           ///< a text
  Value(std::string v) : type_(Type::text), text_(std::move(v)) {}                ///< a text
  Value(std::vector<double> v) : type_(Type::numbers), numbers_(std::move(v)) {}  ///< a list of numbers

  Type type() const { return type_; }                              ///< what it holds
  bool is_none() const { return type_ == Type::none; }             ///< nothing?
  double number() const;                                           ///< a number or integer as double; throws otherwise
  long long integer() const { return integer_; }                   ///< the integer (or 0/1 for a yes/no)
  bool boolean() const { return integer_ != 0; }                   ///< the yes/no
  const std::string& text() const { return text_; }                ///< the text
  const std::vector<double>& numbers() const { return numbers_; }  ///< the list
  /// As a table cell: numbers (and a list's, joined by ", ") with @p decimals
  /// digits after the point, "yes"/"no", "-" for nothing.
  std::string format(int decimals) const;

 private:
  Type type_ = Type::none;
  double number_ = 0;
  long long integer_ = 0;
  std::string text_;
  std::vector<double> numbers_;
};

/// A value with its name, e.g. {"grid", 1056}.
struct Field {
  std::string key;  ///< the JSON key, e.g. "bandwidth_gbps"
  Value value;      ///< the value
};

/// An ordered list of fields (a device's properties, a run's options).
using Fields = std::vector<Field>;

/// @p value with @p decimals digits after the point ("12.35").
std::string fixed(double value, int decimals);

/// @p percent as a signed difference: "+2.5 %", "-3.8 %", and "+0.0 %", never "-0.0 %".
std::string signed_percent(double percent, int decimals);

}  // namespace lab
