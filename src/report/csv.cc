#include "report/csv.h"

#include <string>

namespace pstate::report {
namespace {

bool NeedsQuotes(std::string_view text) {
  for (char c : text) {
    auto b = static_cast<unsigned char>(c);
    if (c == ',' || c == '"' || b < 0x20 || b == 0x7f) return true;
  }
  return false;
}

}  // namespace

CsvWriter& CsvWriter::Field(std::string_view text) {
  if (!first_) out_ << ',';
  first_ = false;
  if (!NeedsQuotes(text)) {
    out_ << text;
    return *this;
  }
  out_ << '"';
  for (char c : text) {
    if (c == '"') out_ << '"';
    out_ << c;
  }
  out_ << '"';
  return *this;
}

CsvWriter& CsvWriter::Field(std::uint64_t n) {
  return Field(std::to_string(n));
}

void CsvWriter::EndRecord() {
  out_ << "\r\n";
  first_ = true;
}

}  // namespace pstate::report
