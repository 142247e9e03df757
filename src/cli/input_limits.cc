#include "cli/input_limits.h"

#include <string>

namespace pstate::cli {
namespace {

InputLimits& FlagLimits() {
  static InputLimits limits;
  return limits;
}

}  // namespace

std::optional<std::uint64_t> ParseByteSize(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  int shift = 0;
  if (!suffix.empty()) {
    switch (suffix[0] | 0x20) {  // ASCII lower case
      case 'k': shift = 10; break;
      case 'm': shift = 20; break;
      case 'g': shift = 30; break;
      case 't': shift = 40; break;
      case 'p': shift = 50; break;
      case 'b': shift = -1; break;  // "B" alone: bytes
      default: return std::nullopt;
    }
    suffix.remove_prefix(1);
    if (shift < 0) {
      if (!suffix.empty()) return std::nullopt;
      shift = 0;
    } else {
      if (!suffix.empty() && (suffix[0] | 0x20) == 'i') suffix.remove_prefix(1);
      if (!suffix.empty() && (suffix[0] | 0x20) == 'b') suffix.remove_prefix(1);
      if (!suffix.empty()) return std::nullopt;
    }
  }
  if (value == 0 || (shift > 0 && value > (UINT64_MAX >> shift))) {
    return std::nullopt;
  }
  return value << shift;
}

void AddInputLimitOptions(CLI::App& app) {
  auto size = CLI::Validator(
      [](std::string& value) -> std::string {
        if (ParseByteSize(value)) return {};
        return "'" + value +
               "' is not a size (a positive number of bytes, optionally "
               "with K, M, G, T or P: 512M, 64G)";
      },
      "");
  auto set = [](std::uint64_t InputLimits::*field) {
    return [field](const std::string& value) {
      InputLimits& limits = FlagLimits();
      limits.*field = ParseByteSize(value).value_or(limits.*field);
    };
  };
  app.add_option_function<std::string>(
         "--max-decompressed-bytes", set(&InputLimits::max_decoded_bytes),
         "A gzip or zstd state input may decompress to at most SIZE bytes "
         "(default 64G); past that it is unreadable")
      ->check(size)
      ->type_name("SIZE");
  app.add_option_function<std::string>(
         "--max-resource-bytes", set(&InputLimits::max_piece_bytes),
         "One resource (or other top-level piece of a state) read from "
         "standard input or a compressed file may take at most SIZE bytes of "
         "memory (default 512M)")
      ->check(size)
      ->type_name("SIZE");
}

}  // namespace pstate::cli

namespace pstate::cli {

Result<State> OpenState(const std::string& path) {
  OpenOptions options;
  options.limits = FlagLimits();
  return State::Open(path, options);
}

InputLimits InputLimitFlags() { return FlagLimits(); }

}  // namespace pstate::cli
