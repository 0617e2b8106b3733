/// @file json.hpp
/// @brief A small JSON value: enough to write every chapter's results and to
/// read them back in the tests. Objects keep their keys in insertion order, so
/// the files read the way the program printed them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lab {

/// Escapes @p text for use inside a JSON string (quotes not included).
std::string json_escape(std::string_view text);

/// A JSON value: null, boolean, number, string, array or object.
class Json {
 public:
  /// The kind of value held.
  enum class Type { null, boolean, number, string, array, object };

  Json() = default;                                                            ///< null
  Json(std::nullptr_t) {}                                                      ///< null
  Json(bool value) : type_(Type::boolean), boolean_(value) {}                  ///< true / false
  Json(double value) : type_(Type::number), number_(value) {}                  ///< a number
  Json(int value) : Json(static_cast<double>(value)) {}                        ///< a number
  Json(long value) : Json(static_cast<double>(value)) {}                       ///< a number
  Json(long long value) : Json(static_cast<double>(value)) {}                  ///< a number
  Json(unsigned value) : Json(static_cast<double>(value)) {}                   ///< a number
  Json(unsigned long value) : Json(static_cast<double>(value)) {}              ///< a number
  Json(unsigned long long value) : Json(static_cast<double>(value)) {}         ///< a number
  Json(const char* value) : type_(Type::string), string_(value) {}             ///< a string
  Json(std::string value) : type_(Type::string), string_(std::move(value)) {}  ///< a string

  static Json array();   ///< an empty array
  static Json object();  ///< an empty object
  /// An array of numbers.
  static Json array_of(const std::vector<double>& values);

  Type type() const { return type_; }                       ///< the kind of value
  bool is_null() const { return type_ == Type::null; }      ///< is it null?
  bool is_bool() const { return type_ == Type::boolean; }   ///< is it true/false?
  bool is_number() const { return type_ == Type::number; }  ///< is it a number?
  bool is_string() const { return type_ == Type::string; }  ///< is it a string?
  bool is_array() const { return type_ == Type::array; }    ///< is it an array?
  bool is_object() const { return type_ == Type::object; }  ///< is it an object?

  bool as_bool() const;                  ///< the boolean; throws if not one
  double as_number() const;              ///< the number; throws if not one
  const std::string& as_string() const;  ///< the string; throws if not one

  /// Number of elements (array) or members (object); 0 otherwise.
  std::size_t size() const { return items_.size(); }
  /// Appends to an array (a null value becomes an empty array first).
  Json& push_back(Json value);
  /// Sets a member of an object, replacing an existing one with the same key.
  Json& set(const std::string& key, Json value);
  /// Does this object have @p key?
  bool contains(const std::string& key) const;
  /// The member @p key of an object; throws std::out_of_range when missing.
  const Json& at(const std::string& key) const;
  /// Element @p index of an array; throws std::out_of_range when missing.
  const Json& at(std::size_t index) const;
  /// The keys of an object, in insertion order.
  const std::vector<std::string>& keys() const { return keys_; }

  /// Serialises the value; @p indent spaces per level, or -1 for one line.
  std::string dump(int indent = 2) const;
  /// Parses a complete JSON text; throws std::runtime_error naming the offset.
  static Json parse(std::string_view text);

 private:
  void dump_to(std::string& out, int indent, int depth) const;

  Type type_ = Type::null;
  bool boolean_ = false;
  double number_ = 0.0;
  std::string string_;
  std::vector<Json> items_;        // array elements, or object values
  std::vector<std::string> keys_;  // object keys, parallel to items_
};

}  // namespace lab
