#pragma once
// The partition proof: in each context, every test the context runs is selected by exactly
// one leg. Pure: node ids in, verdict out.
#include <cstddef>
#include <string>
#include <vector>

#include "selection.hpp"

namespace gatekit::suite_report {

// Contexts whose universe and leg expressions are all equal give the same answer: they are
// checked once, together.
struct ContextGroup {
  std::vector<std::string> contexts;
  std::string universe;                  // "" = every test
  std::vector<std::string> expressions;  // per leg, in Selection::legs order
  std::string label() const;             // "pr, main, gate"
};
std::vector<ContextGroup> group_contexts(const Selection& selection, const std::vector<std::string>& contexts);

struct Overlap {
  std::string node_id;
  std::vector<std::string> legs;
};

struct PartitionResult {
  std::string label;
  std::size_t universe = 0;
  std::vector<std::size_t> leg_counts;    // per leg
  std::vector<std::string> in_no_leg;     // sorted
  std::vector<Overlap> in_two_legs;       // sorted by node id
  std::vector<std::string> outside;       // selected by a leg, absent from the whole collection
  bool ok() const { return in_no_leg.empty() && in_two_legs.empty() && outside.empty(); }
};

PartitionResult decide_partition(const std::string& label, const std::vector<std::string>& universe,
                                 const std::vector<std::string>& leg_names,
                                 const std::vector<const std::vector<std::string>*>& legs);

}  // namespace gatekit::suite_report
