#include "secrets/known_secrets.h"
#include "base/wipe.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "detect/credential_names.h"
#include "detect/credential_value.h"
#include "state/property.h"
#include "state/secret_object.h"

namespace pstate::secrets {

bool IsMatchableSecret(std::string_view plaintext) {
  return plaintext.size() >= kMinKnownSecretLength &&
         detect::IsPlausibleCredentialValue(plaintext) &&
         detect::IsStrongSecret(plaintext) &&
         !state::IsPstatePlaceholder(plaintext);
}

// ---------------------------------------------------------------------------
// Aho-Corasick over a window of each pattern.
//
// A trie over whole plaintexts would cost one node per byte of secret (a
// 100 MB state can hold tens of MB of kubeconfigs and keys). Each pattern is
// instead represented by a window of at most kWindow bytes taken from its
// middle (the middle of a PEM key or kubeconfig is its random part; the ends
// are shared boilerplate). The automaton finds window occurrences; each is
// verified against the whole pattern with one comparison. Nodes are bounded
// by kWindow per pattern.
namespace {
constexpr std::size_t kWindow = 32;
constexpr std::int32_t kNone = -1;

std::size_t WindowStart(std::size_t length) {
  return length <= kWindow ? 0 : (length - kWindow) / 2;
}
}  // namespace

struct KnownSecrets::Automaton {
  std::size_t first = 0;  // pattern ids [first, last)
  std::size_t last = 0;
  // Flat trie: node v's children are edge_byte/edge_target[begin[v],
  // begin[v+1]).
  std::vector<std::uint32_t> begin;
  std::vector<std::uint8_t> edge_byte;
  std::vector<std::int32_t> edge_target;
  std::vector<std::int32_t> fail;
  std::vector<std::int32_t> dict;  // nearest terminal node on the fail chain
  std::vector<std::int32_t> head;  // first pattern ending here, or kNone
  std::vector<std::int32_t>
      next;  // next pattern with the same window (by id - first)
  std::int32_t root_next[256];  // dense root transitions (kNone = stay at root)

  std::int32_t Child(std::int32_t v, std::uint8_t c) const {
    std::uint32_t lo = begin[static_cast<std::size_t>(v)];
    std::uint32_t hi = begin[static_cast<std::size_t>(v) + 1];
    if (hi - lo <= 8) {
      for (std::uint32_t i = lo; i < hi; ++i) {
        if (edge_byte[i] == c) return edge_target[i];
      }
      return kNone;
    }
    auto it =
        std::lower_bound(edge_byte.begin() + lo, edge_byte.begin() + hi, c);
    if (it != edge_byte.begin() + hi && *it == c) {
      return edge_target[static_cast<std::size_t>(it - edge_byte.begin())];
    }
    return kNone;
  }

  void Build(const std::vector<const std::string*>& patterns, std::size_t from,
             std::size_t to) {
    first = from;
    last = to;
    // Sort windows so that the trie is built with children in byte order.
    std::vector<std::pair<std::string_view, std::size_t>> windows;
    windows.reserve(to - from);
    for (std::size_t id = from; id < to; ++id) {
      const std::string& p = *patterns[id];
      std::size_t start = WindowStart(p.size());
      windows.emplace_back(std::string_view(p).substr(start, kWindow), id);
    }
    std::sort(windows.begin(), windows.end());
    // Linked trie first (children appended in sorted order), then flatten.
    struct Node {
      std::int32_t first_child = kNone;
      std::int32_t last_child = kNone;
      std::int32_t sibling = kNone;
      std::uint8_t byte = 0;
    };
    std::vector<Node> nodes(1);
    head.assign(1, kNone);
    next.assign(to - from, kNone);
    std::vector<std::int32_t> tail(1, kNone);
    for (const auto& [window, id] : windows) {
      std::int32_t v = 0;
      for (char ch : window) {
        const auto c = static_cast<unsigned char>(ch);
        Node& n = nodes[static_cast<std::size_t>(v)];
        std::int32_t child = n.last_child;
        if (child == kNone ||
            nodes[static_cast<std::size_t>(child)].byte != c) {
          auto fresh = static_cast<std::int32_t>(nodes.size());
          Node node;
          node.byte = c;
          nodes.push_back(node);
          head.push_back(kNone);
          tail.push_back(kNone);
          Node& parent = nodes[static_cast<std::size_t>(v)];
          if (parent.last_child == kNone) {
            parent.first_child = fresh;
          } else {
            nodes[static_cast<std::size_t>(parent.last_child)].sibling = fresh;
          }
          parent.last_child = fresh;
          child = fresh;
        }
        v = child;
      }
      auto rel = static_cast<std::int32_t>(id - from);
      auto vi = static_cast<std::size_t>(v);
      if (head[vi] == kNone) {
        head[vi] = rel;
      } else {
        next[static_cast<std::size_t>(tail[vi])] = rel;
      }
      tail[vi] = rel;
    }
    std::size_t n = nodes.size();
    begin.assign(n + 1, 0);
    edge_byte.clear();
    edge_target.clear();
    edge_byte.reserve(n);
    edge_target.reserve(n);
    for (std::size_t v = 0; v < n; ++v) {
      begin[v] = static_cast<std::uint32_t>(edge_byte.size());
      for (std::int32_t c = nodes[v].first_child; c != kNone;
           c = nodes[static_cast<std::size_t>(c)].sibling) {
        edge_byte.push_back(nodes[static_cast<std::size_t>(c)].byte);
        edge_target.push_back(c);
      }
    }
    begin[n] = static_cast<std::uint32_t>(edge_byte.size());
    nodes.clear();
    nodes.shrink_to_fit();
    // Failure and dictionary links, breadth first.
    fail.assign(n, 0);
    dict.assign(n, kNone);
    std::fill(std::begin(root_next), std::end(root_next), kNone);
    std::vector<std::int32_t> queue;
    queue.reserve(n);
    for (std::uint32_t i = begin[0]; i < begin[1]; ++i) {
      root_next[edge_byte[i]] = edge_target[i];
      queue.push_back(edge_target[i]);
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
      std::int32_t u = queue[q];
      auto ui = static_cast<std::size_t>(u);
      for (std::uint32_t i = begin[ui]; i < begin[ui + 1]; ++i) {
        std::uint8_t c = edge_byte[i];
        std::int32_t v = edge_target[i];
        auto vi = static_cast<std::size_t>(v);
        std::int32_t f = fail[ui];
        std::int32_t target = kNone;
        while (true) {
          target = f == 0 ? root_next[c] : Child(f, c);
          if (target != kNone || f == 0) break;
          f = fail[static_cast<std::size_t>(f)];
        }
        fail[vi] = target == kNone ? 0 : target;
        auto fi = static_cast<std::size_t>(fail[vi]);
        dict[vi] = head[fi] != kNone ? fail[vi] : dict[fi];
        queue.push_back(v);
      }
    }
  }

  // Calls on_match(id, begin) for each verified occurrence (may repeat
  // ids); stops when it returns false.
  template <typename F>
  void Search(std::string_view text,
              const std::vector<const std::string*>& patterns,
              F&& on_match) const {
    std::int32_t s = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size(); ++i) {
      unsigned char c = bytes[i];
      while (true) {
        std::int32_t t = s == 0 ? root_next[c] : Child(s, c);
        if (t != kNone) {
          s = t;
          break;
        }
        if (s == 0) break;
        s = fail[static_cast<std::size_t>(s)];
      }
      if (s == 0) continue;
      auto si = static_cast<std::size_t>(s);
      for (std::int32_t t = head[si] != kNone ? s : dict[si]; t != kNone;
           t = dict[static_cast<std::size_t>(t)]) {
        for (std::int32_t rel = head[static_cast<std::size_t>(t)]; rel != kNone;
             rel = next[static_cast<std::size_t>(rel)]) {
          std::size_t id = first + static_cast<std::size_t>(rel);
          const std::string& p = *patterns[id];
          std::size_t window = std::min(p.size(), kWindow);
          std::size_t window_begin = i + 1 - window;
          std::size_t start = WindowStart(p.size());
          if (window_begin < start) continue;
          std::size_t pos = window_begin - start;
          if (pos + p.size() > text.size()) continue;
          if (std::memcmp(text.data() + pos, p.data(), p.size()) == 0) {
            if (!on_match(id, pos)) return;
          }
        }
      }
    }
  }
};

KnownSecrets::KnownSecrets() = default;
KnownSecrets::~KnownSecrets() = default;

bool KnownSecrets::Add(std::string_view plaintext) {
  if (plaintext.size() < kMinKnownSecretLength ||
      state::IsPstatePlaceholder(plaintext)) {
    return false;
  }
  auto [it, inserted] = set_.emplace(std::string(plaintext), patterns_.size());
  if (!inserted) return false;  // strength depends on the text only
  bool strong = IsMatchableSecret(plaintext);
  patterns_.push_back(&it->first);
  searchable_.push_back(strong);
  if (strong) ++searchable_count_;
  return strong;
}

bool KnownSecrets::Contains(std::string_view text) const {
  auto it = set_.find(std::string(text));
  return it != set_.end() && searchable_[it->second];
}

template <typename F>
void KnownSecrets::ForEachMatch(std::string_view text, F&& on_match) const {
  if (patterns_.empty() || text.size() < kMinKnownSecretLength) return;
  Flush();
  for (const auto& automaton : automata_) {
    bool go_on = true;
    automaton->Search(text, patterns_, [&](std::size_t id, std::size_t pos) {
      go_on = on_match(id, pos);
      return go_on;
    });
    if (!go_on) return;
  }
}

std::string KnownSecrets::Mask(std::string_view text) const {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  ForEachMatch(text, [&](std::size_t id, std::size_t pos) {
    spans.emplace_back(pos, pos + patterns_[id]->size());
    return true;
  });
  if (spans.empty()) return std::string(text);
  std::sort(spans.begin(), spans.end());
  std::string out;
  std::size_t at = 0;
  for (std::size_t i = 0; i < spans.size();) {
    std::size_t begin = spans[i].first;
    std::size_t end = spans[i].second;
    for (++i; i < spans.size() && spans[i].first <= end; ++i) {
      end = std::max(end, spans[i].second);
    }
    if (begin < at) begin = at;
    out.append(text.substr(at, begin - at));
    out.append(kMaskedText);
    at = std::max(at, end);
  }
  out.append(text.substr(at));
  return out;
}

bool KnownSecrets::NeedsMask(std::string_view text) const {
  bool found = false;
  ForEachMatch(text, [&](std::size_t, std::size_t) {
    found = true;
    return false;
  });
  return found;
}

void KnownSecrets::Flush() const {
  if (built_ == patterns_.size()) return;
  auto fresh = std::make_unique<Automaton>();
  fresh->Build(patterns_, built_, patterns_.size());
  built_ = patterns_.size();
  automata_.push_back(std::move(fresh));
  // Merge while the previous automaton is not much larger than the last.
  while (automata_.size() >= 2) {
    const Automaton& a = *automata_[automata_.size() - 2];
    const Automaton& b = *automata_.back();
    if (a.last - a.first > 2 * (b.last - b.first)) break;
    auto merged = std::make_unique<Automaton>();
    merged->Build(patterns_, a.first, b.last);
    automata_.pop_back();
    automata_.back() = std::move(merged);
  }
}

void KnownSecrets::FindIn(std::string_view text, std::vector<std::size_t>* ids,
                          std::size_t limit) const {
  if (searchable_count_ == 0 || text.size() < kMinKnownSecretLength ||
      limit == 0) {
    return;
  }
  Flush();
  std::size_t found = 0;
  std::size_t base = ids->size();
  for (const auto& automaton : automata_) {
    automaton->Search(text, patterns_, [&](std::size_t id, std::size_t) {
      if (!searchable_[id]) return true;
      if (std::find(ids->begin() + static_cast<std::ptrdiff_t>(base),
                    ids->end(), id) != ids->end()) {
        return true;
      }
      ids->push_back(id);
      return ++found < limit;
    });
    if (found >= limit) return;
  }
}

// ---------------------------------------------------------------------------
// SecretCollector

namespace {

/// Nested payloads deeper than this are not decoded. Each level is a JSON
/// text inside a string of the level above, whose escaping at least doubles
/// per level, so real data never comes near it; it only bounds recursion.
constexpr int kMaxPayloadLevels = 64;

std::string_view Decoded(const json::Value& v, std::string* scratch) {
  if (!v.has_escapes) return v.raw();
  *scratch = v.Str();
  return *scratch;
}

/// For the "value" member of a name/value pair ({"name": "DB_PASSWORD",
/// "value": "..."}; Kubernetes env, ECS environment/secrets, Elastic
/// Beanstalk settings), the pair's name (the first, when it is not empty);
/// otherwise nullptr.
const json::Value* PairName(const json::Value& object, const json::Value& key) {
  if (!key.StrEquals("value") && !key.StrEquals("Value")) return nullptr;
  for (const json::Member& m : object.object()) {
    if ((m.key.StrEquals("name") || m.key.StrEquals("Name")) &&
        m.value.is_string()) {
      return m.value.size > 0 ? &m.value : nullptr;
    }
  }
  return nullptr;
}

}  // namespace

void SecretCollector::Collect(const json::Value& value) {
  // The conservative rule (state/secret_object.h): any signature member
  // saying "secret" makes one, whichever duplicate a reader keeps.
  struct Visitor {
    enum { kVisitScalars = false };  // secrets are objects
    SecretCollector& collector;
    state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&) {
      switch (node.kind) {
        case state::PropertyKind::kSecret:
          collector.AddSecretObject(*node.value, 0);
          return state::Step::kSkip;
        case state::PropertyKind::kArray:
        case state::PropertyKind::kObject: return state::Step::kDescend;
        default:
          // Other signature objects: their members may hold secrets.
          return node.is_signature() ? state::Step::kDescendRaw
                                     : state::Step::kSkip;
      }
    }
  } visitor{*this};
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;
  state::WalkProperties(value, visitor, options);
}

void SecretCollector::AddSecretObject(const json::Value& secret, int level) {
  if (level > kMaxPayloadLevels) return;
  // Every plaintext/ciphertext member: duplicates may hide one from a
  // first-wins reader, and Pulumi keeps the last.
  bool any = false;
  for (const json::Member& m : secret.object()) {
    if (!m.value.is_string()) continue;
    if (m.key.StrEquals("plaintext")) {
      AddPayloadAt(m.value.Str(), level + 1);
      any = true;
    }
  }
  if (any) return;
  for (const json::Member& m : secret.object()) {
    if (!m.key.StrEquals("ciphertext") || !m.value.is_string()) continue;
    if (level > 0) {
      // Inside a decrypted payload, nested secrets hold the plain JSON text
      // in `ciphertext` (serialized with a no-op encrypter).
      AddPayloadAt(m.value.Str(), level + 1);
      continue;
    }
    if (decrypt_ == nullptr || !*decrypt_) continue;
    std::optional<std::string> payload = (*decrypt_)(m.value.Str());
    if (!payload) {
      ++undecryptable_;
      continue;
    }
    AddPayloadAt(*payload, level + 1);
    // Wipe the decrypted copy; the plaintext kept in KnownSecrets is needed.
    Wipe(*payload);
  }
}

void SecretCollector::AddPayload(std::string_view json_text) {
  AddPayloadAt(json_text, 1);
}

void SecretCollector::AddPayloadAt(std::string_view json_text, int level) {
  json::Arena arena;
  json::Value tree;
  if (parser_.ParseDocument(json_text, 0, arena, &tree) !=
      json::ParseStatus::kOk) {
    known_->Add(json_text);  // not JSON: the text itself is the secret
    return;
  }
  switch (tree.type) {
    case json::Type::kString: {
      std::string scratch;
      known_->Add(Decoded(tree, &scratch));  // a scalar secret
      break;
    }
    case json::Type::kArray:
    case json::Type::kObject:
      if (state::IsSecret(tree, state::SecretRule::kAnySignature)) {
        AddSecretObject(tree, level);
      } else {
        AddStructured(tree, level);
      }
      break;
    default: break;  // numbers, booleans, null: never matchable
  }
}

void SecretCollector::AddStructured(const json::Value& value, int level) {
  struct Visitor {
    struct Level {
      /// The nearest member name, or for the "value" of a name/value pair
      /// the pair's name (a string Value; nullptr at the root).
      const json::Value* name = nullptr;
      const json::Value* object = nullptr;  ///< the enclosing object
    };
    SecretCollector& collector;
    int level;
    std::string scratch;

    state::Step Visit(const state::PropertyNode& node, state::PropertyCursor&,
                      Level& at) {
      if (node.key != nullptr) {
        const json::Value* pair = PairName(*at.object, *node.key);
        at.name = pair != nullptr ? pair : node.key;
      }
      switch (node.kind) {
        case state::PropertyKind::kString:
        case state::PropertyKind::kUnknown:
          if (at.name != nullptr) {
            std::string name_scratch;
            std::string_view name = Decoded(*at.name, &name_scratch);
            if (!name.empty() && detect::IsCredentialPropertyName(name)) {
              collector.known_->Add(Decoded(*node.value, &scratch));
            }
          }
          return state::Step::kSkip;
        case state::PropertyKind::kSecret:
          collector.AddSecretObject(*node.value, level);
          return state::Step::kSkip;
        case state::PropertyKind::kArray: return state::Step::kDescend;
        default:
          if (!node.value->is_object()) return state::Step::kSkip;
          at.object = node.value;
          return node.is_signature() ? state::Step::kDescendRaw
                                     : state::Step::kDescend;
      }
    }
  } visitor{*this, level, {}};
  state::WalkOptions options;
  options.secret_rule = state::SecretRule::kAnySignature;
  state::WalkProperties(value, visitor, options);
}

}  // namespace pstate::secrets
