// Reading the records of a namespace: one listing, one size check and one read of the
// messages, whatever the number of refs (never one git process per ref).
#include <charconv>

#include "gatekit/text.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {
namespace {

using Listed = ResultRef;

// Result refs are listed by name and object only: the name says the tree, so nothing needs
// to be read for refs whose tree is not asked about.
Result<std::vector<Listed>> list_refs(Git& git, const std::string& ns, std::vector<std::string>* rejected) {
  if (auto ok = valid_namespace(ns); !ok) return ok.error();
  auto out = git.run(GitCommand{"for-each-ref", "--format=%(objectname) %(refname)"}
                         .argument("the ref pattern", "refs/" + ns)
                         .argument("the ref pattern", "refs/" + ns + "-mine")
                         .argument("the ref pattern", "refs/" + ns + "-nogpu"));
  if (!out) return out.error();
  std::vector<Listed> listed;
  for (const auto& line : split_lines(*out)) {
    const auto space = line.find(' ');
    if (space == std::string::npos) return could_not_evaluate("unexpected git for-each-ref line: " + quote_for_message(line));
    Listed entry{line.substr(space + 1), line.substr(0, space), {}};
    auto parts = parse_ref_name(ns, entry.ref);
    if (!parts) {
      if (rejected != nullptr) rejected->push_back(quote_for_message(entry.ref, kMaxRefShown) + ": not a result ref name (refs/" + ns + "/<tree>/<machine>@<run>)");
      continue;
    }
    entry.parts = std::move(*parts);
    listed.push_back(std::move(entry));
  }
  return listed;
}

std::string object_list(const std::vector<Listed>& listed) {
  std::string list;
  for (const auto& entry : listed) list += entry.object + "\n";
  return list;
}

// `<object> <type> <size>` for each; objects that are not small commits are rejected, so
// the read below never holds more than kMaxRecordBytes (plus headers) per record.
Result<std::vector<Listed>> keep_small_commits(Git& git, std::vector<Listed> listed, std::vector<std::string>* rejected) {
  auto out = git.run(GitCommand{"cat-file", "--batch-check"}.input(object_list(listed)));
  if (!out) return out.error();
  const auto lines = split_lines(*out);
  if (lines.size() != listed.size()) return could_not_evaluate("git cat-file --batch-check answered " + std::to_string(lines.size()) + " lines for " + std::to_string(listed.size()) + " objects");
  std::vector<Listed> kept;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const auto& line = lines[i];
    const std::string expect = listed[i].object + " commit ";
    std::size_t size = 0;
    const bool commit = line.starts_with(expect);
    const auto* begin = line.data() + (commit ? expect.size() : 0);
    auto [ptr, ec] = std::from_chars(begin, line.data() + line.size(), size);
    if (!commit || ec != std::errc() || size > kMaxRecordBytes + 4096) {
      if (rejected != nullptr) rejected->push_back(quote_for_message(listed[i].ref, kMaxRefShown) + ": does not point to a record commit");
      continue;
    }
    kept.push_back(std::move(listed[i]));
  }
  return kept;
}

Result<GateRecord> record_of(const Listed& entry, std::string_view object) {
  auto commit = parse_record_commit(object);
  if (!commit) return commit.error();
  auto record = parse_record(commit->message);
  if (!record) return record.error();
  if (record->tree != entry.parts.tree || commit->tree != entry.parts.tree)
    return bad_input("the record's tree is not the tree its ref names");
  if (record->machine != entry.parts.machine) return bad_input("the record's machine is not the machine its ref names");
  if (!entry.parts.run.empty() && entry.parts.run != run_id(record->time, entry.object))
    return bad_input("the ref's run id is not the record's time and commit (" + run_id(record->time, entry.object) + ")");
  record->ref = entry.ref;
  record->record_commit = entry.object;
  record->half = entry.parts.half;
  record->committer_time = commit->committer_time;
  return record;
}

Result<std::vector<GateRecord>> read_messages(Git& git, const std::vector<Listed>& listed, std::vector<std::string>* rejected) {
  auto out = git.run(GitCommand{"cat-file", "--batch"}.input(object_list(listed)));
  if (!out) return out.error();
  std::vector<GateRecord> records;
  std::string_view rest = *out;
  for (const auto& entry : listed) {
    const auto header_end = rest.find('\n');
    std::size_t size = 0;
    const auto space = rest.substr(0, header_end).rfind(' ');
    if (header_end == std::string_view::npos || space == std::string_view::npos ||
        std::from_chars(rest.data() + space + 1, rest.data() + header_end, size).ec != std::errc() ||
        rest.size() < header_end + 1 + size + 1)
      return could_not_evaluate("unexpected git cat-file --batch output for " + quote_for_message(entry.ref, kMaxRefShown));
    auto record = record_of(entry, rest.substr(header_end + 1, size));
    rest.remove_prefix(header_end + 1 + size + 1);
    if (record) records.push_back(std::move(*record));
    else if (rejected != nullptr) rejected->push_back(quote_for_message(entry.ref, kMaxRefShown) + ": " + record.error().message);
  }
  return records;
}

}  // namespace

Result<std::map<std::string, std::string>> read_commit_objects(const Git& git, const std::vector<std::string>& commits) {
  std::string list;
  for (const auto& commit : commits) {
    if (!is_object_name(commit)) return could_not_evaluate("not a commit object name: " + quote_for_message(commit));
    list += commit + "\n";
  }
  std::map<std::string, std::string> objects;
  if (commits.empty()) return objects;
  auto out = git.run(GitCommand{"cat-file", "--batch"}.input(list));
  if (!out) return out.error();
  std::string_view rest = *out;
  for (const auto& commit : commits) {
    const auto header_end = rest.find('\n');
    const std::string expect = commit + " commit ";
    std::size_t size = 0;
    if (header_end == std::string_view::npos || !rest.starts_with(expect) ||
        std::from_chars(rest.data() + expect.size(), rest.data() + header_end, size).ec != std::errc() ||
        size > kMaxRecordBytes + 4096 || rest.size() < header_end + 1 + size + 1)
      return could_not_evaluate("git cat-file --batch: " + commit + " is not a record commit");
    objects[commit] = std::string(rest.substr(header_end + 1, size));
    rest.remove_prefix(header_end + 1 + size + 1);
  }
  return objects;
}

Result<std::vector<ResultRef>> list_result_refs(Git& git, const std::string& ns, std::vector<std::string>* rejected) {
  return list_refs(git, ns, rejected);
}

Result<std::vector<GateRecord>> read_listed_records(Git& git, const std::vector<ResultRef>& refs,
                                                    std::vector<std::string>* rejected) {
  if (refs.empty()) return std::vector<GateRecord>{};
  auto small = keep_small_commits(git, refs, rejected);
  if (!small) return small.error();
  if (small->empty()) return std::vector<GateRecord>{};
  return read_messages(git, *small, rejected);
}

Result<std::vector<GateRecord>> read_records(Git& git, const std::string& ns, std::vector<std::string>* rejected) {
  auto listed = list_refs(git, ns, rejected);
  if (!listed) return listed.error();
  return read_listed_records(git, *listed, rejected);
}

Result<std::vector<GateRecord>> read_records_for_trees(Git& git, const std::string& ns,
                                                       const std::set<std::string>& trees,
                                                       std::vector<std::string>* rejected) {
  auto listed = list_refs(git, ns, rejected);
  if (!listed) return listed.error();
  std::erase_if(*listed, [&trees](const ResultRef& r) { return trees.count(r.parts.tree) == 0; });
  return read_listed_records(git, *listed, rejected);
}

}  // namespace gatekit::gpu_gate
