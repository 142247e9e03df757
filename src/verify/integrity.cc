#include "verify/integrity.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "base/fingerprint.h"

namespace pstate::verify {

JournalText IntegrityJournal::Add(std::string_view text) {
  JournalText t{texts.size(), text.size()};
  texts.append(text);
  return t;
}

JournalText IntegrityJournal::AddUrn(std::string_view urn) {
  if (last_urn.size != urn.size() || View(last_urn) != urn) {
    last_urn = Add(urn);
  }
  return last_urn;
}

void IntegrityJournal::AddFinding(diag::Finding finding) {
  IntegrityEvent e;
  e.finding = findings.size();
  findings.push_back(std::move(finding));
  events.push_back(e);
}

namespace {

using RefKind = PendingReference::Kind;

diag::Finding MakeAt(diag::Code code, std::string message,
                     const FindingPlace& place) {
  diag::Finding f =
      diag::MakeFinding(code, std::move(message), std::string(place.pointer),
                        std::string(place.urn));
  f.line = place.at.line;
  f.column = place.at.column;
  f.char_column = place.at.char_column;
  return f;
}

}  // namespace

IntegrityEvent& IntegrityTracker::Record(IntegrityEvent::Kind kind,
                                         Reporter& reporter,
                                         std::uint64_t offset) {
  IntegrityEvent e;
  e.kind = kind;
  std::size_t before = journal_->texts.size();
  reporter.AppendPointer(&journal_->texts);
  e.pointer = {before, journal_->texts.size() - before};
  e.urn = journal_->AddUrn(reporter.urn());
  e.offset = offset;
  journal_->events.push_back(e);
  return journal_->events.back();
}

void IntegrityTracker::AddResource(std::string_view urn, bool deleted) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kResource;
    e.text = journal_->AddUrn(urn);
    e.deleted = deleted;
    journal_->events.push_back(e);
    return;
  }
  UrnCount& e = *urns_.Insert(FingerprintOf(urn)).first;
  ++e.count;
  if (deleted) ++e.deleted;
}

void IntegrityTracker::AddProvider(std::string_view reference) {
  if (journal_) {
    IntegrityEvent e;
    e.kind = IntegrityEvent::Kind::kProvider;
    e.text = journal_->Add(reference);
    journal_->events.push_back(e);
    return;
  }
  providers_.Insert(FingerprintOf(reference));
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::string_view field, bool in_secret,
                                 Reporter& reporter, std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kReference, reporter, offset);
    e.reference = kind;
    e.in_secret = in_secret;
    e.text = journal_->Add(target);
    e.extra = journal_->Add(field);
    return;
  }
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  std::string pointer = reporter.PointerString();
  Reference(
      kind, target, field, in_secret,
      FindingPlace{pointer, reporter.urn(), reporter.context().Locate(offset)});
}

void IntegrityTracker::Reference(RefKind kind, std::string_view target,
                                 std::string_view field, bool in_secret,
                                 const FindingPlace& place) {
  if (kind == RefKind::kProvider ? SeenProvider(target) : Seen(target)) return;
  // Finish makes the finding once it knows whether the target comes later
  // or not at all; until then only its parts are kept.
  PendingReference ref;
  ref.kind = kind;
  ref.in_secret = in_secret;
  std::tie(ref.block, ref.at) = Store({target, field, place.pointer});
  ref.target = static_cast<std::uint32_t>(target.size());
  ref.field = static_cast<std::uint32_t>(field.size());
  ref.pointer = static_cast<std::uint32_t>(place.pointer.size());
  const PendingReference* last = pending_.empty() ? nullptr : &pending_.back();
  if (last != nullptr && last->urn == place.urn.size() &&
      Text(last->urn_block, last->urn_at, last->urn) == place.urn) {
    ref.urn_block = last->urn_block;
    ref.urn_at = last->urn_at;
  } else {
    std::tie(ref.urn_block, ref.urn_at) = Store({place.urn});
  }
  ref.urn = static_cast<std::uint32_t>(place.urn.size());
  ref.place = place.at;
  pending_.push_back(ref);
}

std::pair<std::uint32_t, std::uint32_t> IntegrityTracker::Store(
    std::initializer_list<std::string_view> parts) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  if (blocks_.empty() ||
      blocks_.back().size() + size > blocks_.back().capacity()) {
    blocks_.emplace_back();
    blocks_.back().reserve(std::max(kBlock, size));
  }
  std::string& block = blocks_.back();
  auto at = static_cast<std::uint32_t>(block.size());
  for (std::string_view p : parts) block.append(p);
  return {static_cast<std::uint32_t>(blocks_.size() - 1), at};
}

void IntegrityTracker::Duplicate(std::string_view urn, Reporter& reporter,
                                 std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e =
        Record(IntegrityEvent::Kind::kDuplicate, reporter, offset);
    e.text = journal_->AddUrn(urn);
    e.urn = e.text;  // the finding names the repeated URN
    return;
  }
  if (!Seen(urn) || duplicates_.count(std::string(urn)) != 0) return;
  std::string pointer = reporter.PointerString();
  Duplicate(urn, FindingPlace{pointer, urn, reporter.context().Locate(offset)});
}

void IntegrityTracker::Duplicate(std::string_view urn,
                                 const FindingPlace& place) {
  if (!Seen(urn)) return;
  // The first repeat is kept.
  duplicates_.emplace(std::string(urn),
                      MakeAt(diag::Code::kUrnDuplicate, "", place));
}

bool IntegrityTracker::StackMismatch(std::string_view stack,
                                     std::string_view project) {
  if (!stack_) {
    stack_ = std::string(stack);
    project_ = std::string(project);
    return false;
  }
  if ((stack == *stack_ && project == *project_) || reported_stack_mismatch_) {
    return false;
  }
  reported_stack_mismatch_ = true;
  return true;
}

diag::Finding IntegrityTracker::StackFinding(std::string_view stack,
                                             std::string_view project,
                                             const FindingPlace& place) const {
  return MakeAt(diag::Code::kUrnStackMismatch,
                "URN is in stack \"" + std::string(stack) + "\" of project \"" +
                    std::string(project) +
                    "\", but earlier resources are in stack \"" + *stack_ +
                    "\" of project \"" + *project_ + "\"",
                place);
}

std::optional<diag::Finding> IntegrityTracker::NoteStack(
    std::string_view stack, std::string_view project, Reporter& reporter,
    std::uint64_t offset) {
  if (journal_) {
    IntegrityEvent& e = Record(IntegrityEvent::Kind::kStack, reporter, offset);
    e.text = journal_->Add(stack);
    e.extra = journal_->Add(project);
    return std::nullopt;
  }
  if (!StackMismatch(stack, project)) return std::nullopt;
  std::string pointer = reporter.PointerString();
  return StackFinding(
      stack, project,
      FindingPlace{pointer, reporter.urn(), reporter.context().Locate(offset)});
}

std::optional<diag::Finding> IntegrityTracker::NoteStack(
    std::string_view stack, std::string_view project,
    const FindingPlace& place) {
  if (!StackMismatch(stack, project)) return std::nullopt;
  return StackFinding(stack, project, place);
}

void IntegrityTracker::Replay(
    IntegrityJournal& journal, state::Context& context,
    const std::function<void(std::string_view)>& plaintext) {
  using Kind = IntegrityEvent::Kind;
  for (const IntegrityEvent& e : journal.events) {
    std::string_view text = journal.View(e.text);
    switch (e.kind) {
      case Kind::kFinding:
        context.ReportUnlocated(std::move(journal.findings[e.finding]));
        break;
      case Kind::kReference:
        // The usual case, a target seen already, needs no place.
        if (e.reference == RefKind::kProvider ? SeenProvider(text)
                                              : Seen(text)) {
          break;
        }
        Reference(e.reference, text, journal.View(e.extra), e.in_secret,
                  journal.Place(e, context));
        break;
      case Kind::kProvider: AddProvider(text); break;
      case Kind::kDuplicate:
        if (Seen(text) && duplicates_.count(std::string(text)) == 0) {
          Duplicate(text, journal.Place(e, context));
        }
        break;
      case Kind::kResource: AddResource(text, e.deleted); break;
      case Kind::kStack:
        if (StackMismatch(text, journal.View(e.extra))) {
          context.ReportUnlocated(StackFinding(text, journal.View(e.extra),
                                               journal.Place(e, context)));
        }
        break;
      case Kind::kPlaintext:
        if (plaintext) plaintext(text);
        break;
    }
  }
}

void IntegrityTracker::Reset() {
  urns_.Clear();
  providers_.Clear();
  duplicates_.clear();
  pending_.clear();
  blocks_.clear();
}

std::vector<diag::Finding> IntegrityTracker::Finish() {
  std::vector<diag::Finding> out;
  Finish([&](diag::Finding f) { out.push_back(std::move(f)); });
  return out;
}

void IntegrityTracker::Finish(const std::function<void(diag::Finding)>& emit) {
  for (const PendingReference& ref : pending_) {
    std::string_view target = Text(ref.block, ref.at, ref.target);
    std::string_view field = Text(ref.block, ref.at + ref.target, ref.field);
    FindingPlace place{
        Text(ref.block, ref.at + ref.target + ref.field, ref.pointer),
        Text(ref.urn_block, ref.urn_at, ref.urn), ref.place};
    bool later = ref.kind == PendingReference::Kind::kProvider
                     ? providers_.Contains(FingerprintOf(target))
                     : urns_.Contains(FingerprintOf(target));
    diag::Code code = diag::Code::kDependencyMissing;
    std::string message;
    switch (ref.kind) {
      case PendingReference::Kind::kDependency:
        code = later ? diag::Code::kDependencyOrder
                     : diag::Code::kDependencyMissing;
        message = std::string(field) + " refers to \"" + std::string(target) +
                  "\"" +
                  (later ? " which comes after it; Pulumi needs "
                           "dependencies to come first"
                         : " which is not in the state");
        break;
      case PendingReference::Kind::kProvider:
        code = diag::Code::kProviderUnknown;
        message = "provider reference \"" + std::string(target) + "\"" +
                  (later ? " names a provider resource that comes after "
                           "it; Pulumi needs providers to come first"
                         : " names no provider resource in the state with "
                           "that URN and id");
        break;
      case PendingReference::Kind::kResourceReference:
        if (later) continue;  // forward references are fine
        code = diag::Code::kResourceRefDangling;
        // Inside a secret's plaintext the URN is secret text: not quoted.
        message = ref.in_secret ? std::string(
                                      "resource reference inside a secret's "
                                      "plaintext names a URN")
                                : "resource reference names \"" +
                                      std::string(target) + "\"";
        message += " which is not in the state";
        break;
    }
    emit(MakeAt(code, std::move(message), place));
  }
  pending_.clear();
  blocks_.clear();
  for (auto& [urn, first] : duplicates_) {
    const UrnCount* e = urns_.Find(FingerprintOf(urn));
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
    emit(std::move(f));
  }
  duplicates_.clear();
}

}  // namespace pstate::verify
