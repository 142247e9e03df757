// What an edit reports (its notes and its change list), held as typed,
// fixed-size records that name positions and string ids of the index, and
// rendered to text only when read. A repair that moves every resource of a
// long chain has a note and a change per resource: as records they cost 12
// bytes each, not a line of text and a vector of fields.
//
// A record either holds its value (a text, a change with its fields: what
// is rare, or cannot be told from the index) or is typed (Note::Kind,
// ChangeRecord::Kind) and is rendered from the index and plan its list is
// bound to (RecordList::Bind). The binding is shared ownership where the
// list outlives the edit (edit::Outcome) and a plain pointer inside it
// (Assembly); RecordList::Hold renders every record into a held value, for
// a list that must outlive its index.
#ifndef PSTATE_EDIT_RECORDS_H_
#define PSTATE_EDIT_RECORDS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "edit/index.h"
#include "pstate/pstate.h"

namespace pstate::edit {

struct Plan;

/// One changed field, the API's (pstate/pstate.h). `before`/`after` are
/// compact JSON ("" when absent); property maps (inputs, outputs, ...) are
/// never printed, only said to have changed, since they may hold secrets.
using FieldChange = ::pstate::EditFieldChange;
using ChangeKind = ::pstate::EditChangeKind;

/// A changed or removed resource (`what` is its URN) or pending operation
/// ("pending_operations[i] (<urn>)"), the API's.
using ElementChange = ::pstate::EditElementChange;

/// A note of a plan (Plan::notes, Outcome::notes). Positions are the
/// index's; `NewUrn` is the resource's URN under the plan.
struct Note {
  enum class Kind : std::uint8_t {
    kHeld,           ///< the list's held text `a`
    kClearedParent,  ///< "cleared the dangling parent P of URN" (`a`)
    kRenamed,        ///< "renamed URN to NEW" (`a`; NEW from the URN map)
    /// "removed the dangling <ref> entry <string b> of NewUrn" (`a`)
    kRemovedDangling,
    /// "cannot repair the provider reference P of NewUrn (no such
    /// provider)" (`a`)
    kNoProvider,
    /// "moved NewUrn up, before the first resource that needs it
    /// (position a -> b)"
    kMovedUp,
  };
  Kind kind = Kind::kHeld;
  RefKind ref = RefKind::kParent;  ///< kRemovedDangling
  std::uint32_t a = 0, b = 0;
  static Note Held(std::uint32_t at) { return {Kind::kHeld, {}, at, 0}; }
};

/// One entry of ChangeList::resources.
struct ChangeRecord {
  enum class Kind : std::uint8_t {
    kHeld,     ///< the list's held change `a`
    kRemoved,  ///< "- URN" of resource `a`
    /// "~ URN" of resource `a`, with the field "(position)" a -> b.
    kMoved,
  };
  Kind kind = Kind::kHeld;
  std::uint32_t a = 0, b = 0;
  static ChangeRecord Held(std::uint32_t at) { return {Kind::kHeld, at, 0}; }
};

/// The text of a typed note, the change of a typed change record.
std::string Render(const Note& note, const Index& index, const Plan& plan);
ElementChange Render(const ChangeRecord& change, const Index& index,
                     const Plan& plan);

/// A list of records (Note or ChangeRecord) read as values (`Value`:
/// std::string or ElementChange), each rendered when it is read.
template <typename Record, typename Value>
class RecordList {
 public:
  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  /// Appends a value held as it is.
  void push_back(Value value) {
    records_.push_back(Record::Held(static_cast<std::uint32_t>(held_.size())));
    held_.push_back(std::move(value));
  }
  /// Appends a typed record (rendered from the bound index and plan).
  void push_back(const Record& record) { records_.push_back(record); }
  Value operator[](std::size_t k) const {
    const Record& r = records_[k];
    if (r.kind == Record::Kind::kHeld) return held_[r.a];
    return Render(r, *index_, *plan_);
  }
  /// Binds the typed records to what they name; `index` and `plan` may
  /// share the ownership of what they point to, or own nothing.
  void Bind(std::shared_ptr<const Index> index,
            std::shared_ptr<const Plan> plan) {
    index_ = std::move(index);
    plan_ = std::move(plan);
  }
  /// Binds to `index` and `plan` without owning them (they must outlive
  /// the list's reads).
  void Bind(const Index& index, const Plan& plan) {
    Bind(std::shared_ptr<const Index>(std::shared_ptr<const Index>(), &index),
         std::shared_ptr<const Plan>(std::shared_ptr<const Plan>(), &plan));
  }
  /// Renders every typed record into a held value and drops the binding.
  void Hold() {
    for (std::size_t k = 0; k < records_.size(); ++k) {
      if (records_[k].kind == Record::Kind::kHeld) continue;
      Value v = (*this)[k];
      records_[k] = Record::Held(static_cast<std::uint32_t>(held_.size()));
      held_.push_back(std::move(v));
    }
    Bind(nullptr, nullptr);
  }
  /// Every value, in order.
  std::vector<Value> Values() const {
    std::vector<Value> out;
    out.reserve(records_.size());
    for (std::size_t k = 0; k < records_.size(); ++k) {
      out.push_back((*this)[k]);
    }
    return out;
  }
  /// Sorts the records from `from` on by their values, each rendered from
  /// `index` and `plan` (Value must have operator<).
  void SortFrom(std::size_t from, const Index& index, const Plan& plan) {
    auto value = [&](const Record& r) {
      return r.kind == Record::Kind::kHeld ? held_[r.a]
                                           : Render(r, index, plan);
    };
    std::stable_sort(
        records_.begin() + static_cast<std::ptrdiff_t>(from), records_.end(),
        [&](const Record& x, const Record& y) { return value(x) < value(y); });
  }
  /// The records (what is held per entry, without the held values).
  const std::vector<Record>& records() const { return records_; }
  /// How many values are held rather than rendered.
  std::size_t held() const { return held_.size(); }

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using reference = Value;
    using pointer = void;
    const_iterator(const RecordList* list, std::size_t k)
        : list_(list), k_(k) {}
    Value operator*() const { return (*list_)[k_]; }
    const_iterator& operator++() {
      ++k_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return k_ == o.k_; }

   private:
    const RecordList* list_;
    std::size_t k_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, records_.size()}; }

 private:
  std::vector<Record> records_;
  std::vector<Value> held_;
  std::shared_ptr<const Index> index_;
  std::shared_ptr<const Plan> plan_;
};

/// Plan notes (repair's list, --force warnings), one line each.
using Notes = RecordList<Note, std::string>;
/// The resources' changes of an edit, in the order they are printed.
using ElementChanges = RecordList<ChangeRecord, ElementChange>;

}  // namespace pstate::edit

#endif  // PSTATE_EDIT_RECORDS_H_
