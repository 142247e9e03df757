// simdjson_walk FILE: the parse-speed baseline pstate's `verify` is compared
// to.
//
// Loads FILE with simdjson::padded_string::load, parses it with the On-Demand
// API and visits every value: every key is unescaped (unescaped_key), every
// string is unescaped (get_string), every number is converted to double
// (get_double). It prints counters and a checksum so that the compiler cannot
// drop the work, and exits non-zero on any error (I/O, malformed JSON,
// trailing content).
//
// Numbers are read with get_double() only: Go writes float64 values >= 2^64 as
// integer literals (18446744073709552000), which get_int64()/get_uint64()
// reject. get_double() parses them; should it ever fail on a number, the raw
// token is counted instead (numbers_raw) and the walk continues, so that the
// baseline never fails on a state Pulumi itself wrote.
//
// Error-code mode only (.get(x)); no exceptions.

#include <bit>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>

#include <simdjson.h>

namespace {

namespace od = simdjson::ondemand;

struct Counters {
  uint64_t objects = 0;
  uint64_t arrays = 0;
  uint64_t keys = 0;
  uint64_t key_bytes = 0;
  uint64_t strings = 0;
  uint64_t string_bytes = 0;
  uint64_t numbers = 0;
  uint64_t numbers_raw = 0;  // numbers get_double() refused (see header).
  uint64_t booleans = 0;
  uint64_t nulls = 0;
  uint64_t number_bits = 0;                // XOR of the doubles' bit patterns.
  uint64_t hash = 1469598103934665603ULL;  // FNV-1a over string/key bytes.

  void AddNumber(double d) {
    ++numbers;
    number_bits ^= std::bit_cast<uint64_t>(d);
  }

  void Mix(std::string_view s) {
    // Touch only the first and last byte: enough to keep the unescaped data
    // live without turning the baseline into a hashing benchmark.
    if (s.empty()) return;
    hash = (hash ^ static_cast<unsigned char>(s.front())) * 1099511628211ULL;
    hash = (hash ^ static_cast<unsigned char>(s.back())) * 1099511628211ULL;
  }
};

// True if `token` (with trailing JSON whitespace, as raw_json_token() returns
// it) is a number by the JSON grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
bool IsJsonNumber(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' ||
                            token.back() == '\n' || token.back() == '\r')) {
    token.remove_suffix(1);
  }
  size_t i = 0;
  const size_t n = token.size();
  auto digit = [&](size_t k) {
    return k < n && token[k] >= '0' && token[k] <= '9';
  };
  auto digits = [&]() {
    const size_t start = i;
    while (digit(i)) ++i;
    return i > start;
  };
  if (i < n && token[i] == '-') ++i;
  if (i < n && token[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && token[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

simdjson::error_code WalkValue(od::value value, Counters& c);

simdjson::error_code WalkObject(od::object object, Counters& c) {
  ++c.objects;
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) return error;
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return error;
    ++c.keys;
    c.key_bytes += key.size();
    c.Mix(key);
    if (auto error = WalkValue(field.value(), c)) return error;
  }
  return simdjson::SUCCESS;
}

simdjson::error_code WalkArray(od::array array, Counters& c) {
  ++c.arrays;
  for (auto element_result : array) {
    od::value element;
    if (auto error = std::move(element_result).get(element)) return error;
    if (auto error = WalkValue(element, c)) return error;
  }
  return simdjson::SUCCESS;
}

simdjson::error_code WalkValue(od::value value, Counters& c) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (auto error = value.get_object().get(object)) return error;
      return WalkObject(object, c);
    }
    case od::json_type::array: {
      od::array array;
      if (auto error = value.get_array().get(array)) return error;
      return WalkArray(array, c);
    }
    case od::json_type::string: {
      std::string_view s;
      if (auto error = value.get_string().get(s)) return error;
      ++c.strings;
      c.string_bytes += s.size();
      c.Mix(s);
      return simdjson::SUCCESS;
    }
    case od::json_type::number: {
      double d;
      if (value.get_double().get(d) == simdjson::SUCCESS) {
        c.AddNumber(d);
        return simdjson::SUCCESS;
      }
      // get_double() does not consume the value on failure (the enclosing
      // object/array iterator skips it), so the raw token is still there.
      // Accept it only if it is a grammatical JSON number (e.g. 1e999).
      std::string_view token = value.raw_json_token();
      if (!IsJsonNumber(token)) return simdjson::NUMBER_ERROR;
      ++c.numbers_raw;
      c.Mix(token);
      return simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto error = value.get_bool().get(b)) return error;
      ++c.booleans;
      c.hash += b ? 1 : 0;
      return simdjson::SUCCESS;
    }
    case od::json_type::null: {
      bool is_null;
      if (auto error = value.is_null().get(is_null)) return error;
      if (!is_null) return simdjson::N_ATOM_ERROR;
      ++c.nulls;
      return simdjson::SUCCESS;
    }
  }
  return simdjson::INCORRECT_TYPE;
}

// The document itself is not an od::value: objects and arrays are handed to
// the recursive walk, scalars at the root are read with the document's
// root-scalar accessors.
simdjson::error_code WalkDocument(od::document& doc, Counters& c) {
  od::json_type type;
  if (auto error = doc.type().get(type)) return error;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (auto error = doc.get_object().get(object)) return error;
      if (auto error = WalkObject(object, c)) return error;
      break;
    }
    case od::json_type::array: {
      od::array array;
      if (auto error = doc.get_array().get(array)) return error;
      if (auto error = WalkArray(array, c)) return error;
      break;
    }
    case od::json_type::string: {
      std::string_view s;
      if (auto error = doc.get_string().get(s)) return error;
      ++c.strings;
      c.string_bytes += s.size();
      break;
    }
    case od::json_type::number: {
      double d;
      if (auto error = doc.get_double().get(d)) return error;
      c.AddNumber(d);
      break;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto error = doc.get_bool().get(b)) return error;
      ++c.booleans;
      break;
    }
    case od::json_type::null: {
      bool is_null;
      if (auto error = doc.is_null().get(is_null)) return error;
      if (!is_null) return simdjson::N_ATOM_ERROR;
      ++c.nulls;
      break;
    }
  }
  // On-Demand stops where the walk stops; reject anything after the value.
  // simdjson 3.0.1 has no document::at_end(); current_location() reports
  // OUT_OF_BOUNDS exactly when every structural character was consumed.
  const char* location = nullptr;
  if (doc.current_location().get(location) != simdjson::OUT_OF_BOUNDS) {
    return simdjson::TRAILING_CONTENT;
  }
  return simdjson::SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  simdjson::padded_string json;
  if (auto error = simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "simdjson_walk: %s: %s\n", argv[1],
                 simdjson::error_message(error));
    return 1;
  }
  od::parser parser;
  od::document doc;
  if (auto error = parser.iterate(json).get(doc)) {
    std::fprintf(stderr, "simdjson_walk: %s: %s\n", argv[1],
                 simdjson::error_message(error));
    return 1;
  }
  Counters c;
  if (auto error = WalkDocument(doc, c)) {
    const char* location = nullptr;
    size_t offset = 0;
    if (doc.current_location().get(location) == simdjson::SUCCESS) {
      offset = static_cast<size_t>(location - json.data());
    }
    std::fprintf(stderr, "simdjson_walk: %s: %s (near byte %zu)\n", argv[1],
                 simdjson::error_message(error), offset);
    return 1;
  }
  std::printf(
      "bytes=%zu objects=%llu arrays=%llu keys=%llu key_bytes=%llu "
      "strings=%llu string_bytes=%llu numbers=%llu numbers_raw=%llu "
      "booleans=%llu nulls=%llu number_bits=%016llx hash=%016llx\n",
      json.size(), static_cast<unsigned long long>(c.objects),
      static_cast<unsigned long long>(c.arrays),
      static_cast<unsigned long long>(c.keys),
      static_cast<unsigned long long>(c.key_bytes),
      static_cast<unsigned long long>(c.strings),
      static_cast<unsigned long long>(c.string_bytes),
      static_cast<unsigned long long>(c.numbers),
      static_cast<unsigned long long>(c.numbers_raw),
      static_cast<unsigned long long>(c.booleans),
      static_cast<unsigned long long>(c.nulls),
      static_cast<unsigned long long>(c.number_bits),
      static_cast<unsigned long long>(c.hash));
  return 0;
}
