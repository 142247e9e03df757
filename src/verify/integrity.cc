#include "verify/integrity.h"

#include <cstring>

#include "base/fingerprint.h"

namespace pstate::verify {

void FingerprintSet::Hash(std::string_view s, std::uint64_t* a,
                          std::uint64_t* b) {
  Fingerprint f = FingerprintOf(s);
  *a = f.hi;
  *b = f.lo;
}

std::size_t FingerprintSet::Slot(std::uint64_t a, std::uint64_t b) const {
  std::size_t mask = slots_.size() - 1;
  std::size_t i = static_cast<std::size_t>(a) & mask;
  while (slots_[i].a != 0 || slots_[i].b != 0) {
    if (slots_[i].a == a && slots_[i].b == b) return i;
    i = (i + 1) & mask;
  }
  return i;
}

void FingerprintSet::Grow() {
  std::vector<Entry> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Entry{});
  for (const Entry& e : old) {
    if (e.a == 0 && e.b == 0) continue;
    slots_[Slot(e.a, e.b)] = e;
  }
}

FingerprintSet::Entry& FingerprintSet::Add(std::string_view s) {
  if ((size_ + 1) * 10 > slots_.size() * 7) Grow();
  std::uint64_t a = 0, b = 0;
  Hash(s, &a, &b);
  Entry& e = slots_[Slot(a, b)];
  if (e.a == 0 && e.b == 0) {
    e.a = a;
    e.b = b;
    ++size_;
  }
  ++e.count;
  return e;
}

const FingerprintSet::Entry* FingerprintSet::Find(std::string_view s) const {
  if (slots_.empty()) return nullptr;
  std::uint64_t a = 0, b = 0;
  Hash(s, &a, &b);
  const Entry& e = slots_[Slot(a, b)];
  return (e.a == 0 && e.b == 0) ? nullptr : &e;
}

void IntegrityTracker::AddResource(std::string_view urn, bool deleted) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kResource;
    e.text = std::string(urn);
    e.deleted = deleted;
    journal_->push_back(std::move(e));
    return;
  }
  FingerprintSet::Entry& e = urns_.Add(urn);
  if (deleted) ++e.deleted;
}

void IntegrityTracker::AddProvider(std::string_view reference) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kProvider;
    e.text = std::string(reference);
    journal_->push_back(std::move(e));
    return;
  }
  providers_.Add(reference);
}

void IntegrityTracker::Defer(PendingReference ref) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kReference;
    e.text = std::move(ref.target);
    e.reference = ref.kind;
    e.finding = std::move(ref.finding);
    journal_->push_back(std::move(e));
    return;
  }
  pending_.push_back(std::move(ref));
}

void IntegrityTracker::NoteDuplicate(std::string_view urn, diag::Finding at) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kDuplicate;
    e.text = std::string(urn);
    e.finding = std::move(at);
    journal_->push_back(std::move(e));
    return;
  }
  duplicates_.emplace(std::string(urn), std::move(at));
}

std::optional<diag::Finding> IntegrityTracker::NoteStack(
    std::string_view stack, std::string_view project,
    const std::function<diag::Finding()>& at) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kStack;
    e.text = std::string(stack);
    e.project = std::string(project);
    e.finding = at();
    journal_->push_back(std::move(e));
    return std::nullopt;
  }
  if (!stack_) {
    stack_ = std::string(stack);
    project_ = std::string(project);
    return std::nullopt;
  }
  if ((stack == *stack_ && project == *project_) || reported_stack_mismatch_) {
    return std::nullopt;
  }
  reported_stack_mismatch_ = true;
  diag::Finding f = at();
  f.code = diag::Code::kUrnStackMismatch;
  f.severity = diag::Info(f.code).severity;
  f.message = "URN is in stack \"" + std::string(stack) + "\" of project \"" +
              std::string(project) +
              "\", but earlier resources are in stack \"" + *stack_ +
              "\" of project \"" + *project_ + "\"";
  return f;
}

void IntegrityTracker::Reset() {
  urns_ = FingerprintSet();
  providers_ = FingerprintSet();
  duplicates_.clear();
  pending_.clear();
}

std::vector<diag::Finding> IntegrityTracker::Finish() {
  std::vector<diag::Finding> out;
  for (PendingReference& ref : pending_) {
    diag::Finding f = std::move(ref.finding);
    bool later = ref.kind == PendingReference::Kind::kProvider
                     ? providers_.Find(ref.target) != nullptr
                     : urns_.Find(ref.target) != nullptr;
    switch (ref.kind) {
      case PendingReference::Kind::kDependency:
        f.code = later ? diag::Code::kDependencyOrder
                       : diag::Code::kDependencyMissing;
        f.message += later ? " which comes after it; Pulumi needs "
                             "dependencies to come first"
                           : " which is not in the state";
        break;
      case PendingReference::Kind::kProvider:
        f.code = diag::Code::kProviderUnknown;
        f.message += later ? " names a provider resource that comes after "
                             "it; Pulumi needs providers to come first"
                           : " names no provider resource in the state with "
                             "that URN and id";
        break;
      case PendingReference::Kind::kResourceReference:
        if (later) continue;  // forward references are fine
        f.code = diag::Code::kResourceRefDangling;
        f.message += " which is not in the state";
        break;
    }
    f.severity = diag::Info(f.code).severity;
    out.push_back(std::move(f));
  }
  pending_.clear();
  for (auto& [urn, first] : duplicates_) {
    const FingerprintSet::Entry* e = urns_.Find(urn);
    if (!e || e->count < 2) continue;
    // Pulumi allows n copies when n-1 or n of them are marked delete.
    if (e->deleted + 1 >= e->count) continue;
    diag::Finding f = std::move(first);
    f.code = diag::Code::kUrnDuplicate;
    f.severity = diag::Info(f.code).severity;
    f.message = "URN occurs " + std::to_string(e->count) + " times but only " +
                std::to_string(e->deleted) +
                " of them are marked \"delete\": true; all copies but one "
                "must be pending deletion";
    out.push_back(std::move(f));
  }
  duplicates_.clear();
  return out;
}

}  // namespace pstate::verify
