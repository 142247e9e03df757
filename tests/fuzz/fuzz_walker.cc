// Fuzz target: the one property walker (state/property.h) and the one
// signature recognizer (state/signature.h) on any JSON value.
//
// Invariants beyond "no crash, no sanitizer report", under both secret
// rules:
//  - Step::kDescendAll reaches every node of the stored JSON exactly once
//    (the input's nesting is bounded far below the walker's max_depth);
//  - a rewriting walk that replaces nothing gives a value equal to its
//    input (json::Equal), and one that replaces every string outside a
//    secret gives a value whose strings outside secrets are all the
//    replacement;
//  - the paired walk of a value with itself pairs equal values only, and
//    every pair has both sides;
//  - what kGo calls a secret, kAnySignature calls a secret too (the rule
//    that must leave no plaintext behind is never weaker).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "json/equal.h"
#include "json/parser.h"
#include "json/value.h"
#include "state/property.h"
#include "state/signature.h"

namespace {

using pstate::json::Value;
using pstate::state::PropertyCursor;
using pstate::state::PropertyNode;
using pstate::state::PropertyPair;
using pstate::state::SecretRule;
using pstate::state::Step;

// The oracle: nodes of the stored JSON, counted by the tree's own shape.
std::size_t CountNodes(const Value& v) {
  std::size_t n = 1;
  if (v.is_array()) {
    for (const Value& e : v.array()) n += CountNodes(e);
  } else if (v.is_object()) {
    for (const auto& m : v.object()) n += CountNodes(m.value);
  }
  return n;
}

struct CountAll {
  std::size_t visits = 0;
  Step Visit(const PropertyNode& node, PropertyCursor&) {
    ++visits;
    // The rule that leaves no plaintext behind is never weaker than Go's.
    if (pstate::state::IsSecret(*node.value, SecretRule::kGo)) {
      PSTATE_FUZZ_CHECK(
          pstate::state::IsSecret(*node.value, SecretRule::kAnySignature));
    }
    return Step::kDescendAll;
  }
};

struct ReplaceNothing {
  Step Visit(const PropertyNode&, PropertyCursor&) { return Step::kDescend; }
};

constexpr std::string_view kReplacement = "replaced";

struct ReplaceStrings {
  Value replacement;
  Step Visit(const PropertyNode& node, PropertyCursor& cursor) {
    if (node.value->type == pstate::json::Type::kString &&
        !cursor.in_secret()) {
      cursor.Replace(replacement);
    }
    return Step::kDescend;
  }
};

struct CheckReplaced {
  Step Visit(const PropertyNode& node, PropertyCursor& cursor) {
    if (node.value->type == pstate::json::Type::kString &&
        !cursor.in_secret()) {
      PSTATE_FUZZ_CHECK(node.value->StrEquals(kReplacement));
    }
    return Step::kDescend;
  }
};

struct SelfPairs {
  Step Visit(const PropertyPair& pair) {
    PSTATE_FUZZ_CHECK(pair.has_a() && pair.has_b());
    PSTATE_FUZZ_CHECK(pstate::json::Equal(*pair.a.value, *pair.b.value));
    return Step::kDescendAll;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  pstate::json::Parser parser(/*max_depth=*/64);
  pstate::json::Arena arena;
  Value root;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (parser.ParseDocument(text, 0, arena, &root) !=
      pstate::json::ParseStatus::kOk) {
    return 0;
  }
  const std::size_t nodes = CountNodes(root);

  for (SecretRule rule : {SecretRule::kGo, SecretRule::kAnySignature}) {
    pstate::state::WalkOptions options;
    options.secret_rule = rule;

    CountAll all;
    PSTATE_FUZZ_CHECK(pstate::state::WalkProperties(root, all, options));
    PSTATE_FUZZ_CHECK(all.visits == nodes);

    ReplaceNothing nothing;
    pstate::json::Arena out_arena;
    Value same =
        pstate::state::RewriteProperties(root, out_arena, nothing, options);
    PSTATE_FUZZ_CHECK(pstate::json::Equal(same, root));

    ReplaceStrings replace{out_arena.MakeString(kReplacement)};
    Value rewritten =
        pstate::state::RewriteProperties(root, out_arena, replace, options);
    CheckReplaced check;
    pstate::state::WalkProperties(rewritten, check, options);

    SelfPairs pairs;
    PSTATE_FUZZ_CHECK(
        pstate::state::WalkPropertyPairs(&root, &root, pairs, options));
  }
  return 0;
}
