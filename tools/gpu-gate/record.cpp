// Ref names and the record message (format and strict parse).
#include "record.hpp"

#include <array>
#include <charconv>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::size_t kMaxId = 64;

bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// The shared rule of machine ids and namespaces; `what` names the value in the message.
// (Called for every result ref of a listing: no allocation unless the id is refused.)
Status valid_id(std::string_view what, std::string_view id) {
  auto refuse = [&](std::string_view problem) {
    return bad_input(std::string(what) + " " + quote_for_message(id) + " " + std::string(problem));
  };
  if (id.empty() || id.size() > kMaxId) return refuse("must be 1 to 64 characters long");
  if (!alnum(id.front())) return refuse("must start with a letter or digit");
  for (char c : id)
    if (!id_char(c)) return refuse("may hold only letters, digits, '.', '_' and '-'");
  if (id.find("..") != std::string_view::npos || id.back() == '.' || id.ends_with(".lock"))
    return refuse("is not a valid ref name component");
  return {};
}

}  // namespace

std::string_view to_string(Verdict verdict) { return verdict == Verdict::pass ? "pass" : "fail"; }

std::string mine_prefix(std::string_view ns) { return "refs/" + std::string(ns) + "-mine/"; }
std::string published_prefix(std::string_view ns) { return "refs/" + std::string(ns) + "/"; }

std::string mine_ref(std::string_view ns, std::string_view tree, std::string_view machine) {
  return mine_prefix(ns) + std::string(tree) + "/" + std::string(machine);
}
std::string published_ref(std::string_view ns, std::string_view tree, std::string_view machine) {
  return published_prefix(ns) + std::string(tree) + "/" + std::string(machine);
}

std::optional<RefParts> parse_ref_name(std::string_view ns, std::string_view ref) {
  RefParts parts;
  std::string_view rest;
  if (const auto mine = mine_prefix(ns); ref.starts_with(mine)) {
    parts.mine = true;
    rest = ref.substr(mine.size());
  } else if (const auto published = published_prefix(ns); ref.starts_with(published)) {
    rest = ref.substr(published.size());
  } else {
    return std::nullopt;
  }
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  parts.tree = std::string(rest.substr(0, slash));
  parts.machine = std::string(rest.substr(slash + 1));
  if (!is_object_name(parts.tree) || !valid_machine(parts.machine)) return std::nullopt;
  for (char c : parts.tree)
    if (c >= 'A' && c <= 'F') return std::nullopt;  // git spells object names in lower case
  return parts;
}

Status valid_machine(std::string_view machine) { return valid_id("the machine id", machine); }

Status valid_namespace(std::string_view ns) {
  if (auto ok = valid_id("the namespace", ns); !ok) return ok;
  if (ns.ends_with("-mine"))
    return bad_input("the namespace " + quote_for_message(ns) +
                     " must not end in '-mine' (refs/<namespace>-mine/ holds this machine's results)");
  return {};
}

std::string machine_id_from_host(std::string_view host_name) {
  std::string id;
  for (char c : host_name.substr(0, kMaxId)) id += id_char(c) ? c : '-';
  while (!id.empty() && !alnum(id.front())) id.erase(0, 1);
  while (!id.empty() && id.back() == '.') id.pop_back();
  for (auto at = id.find(".."); at != std::string::npos; at = id.find("..")) id[at] = '-';
  if (id.ends_with(".lock")) id.replace(id.size() - 5, 1, "-");
  return id.empty() ? "machine" : id;
}

std::string clean_fact(std::string_view text, std::size_t max_bytes) {
  std::string out;
  for (char c : text.substr(0, max_bytes)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u >= 0x7f) ? '?' : c;
  }
  return trim(out);
}

std::string format_record(const GateRecord& r) {
  std::string m = "gpu-gate: " + std::string(to_string(r.verdict)) + " in " + format_duration(r.duration) + " (" +
                  std::to_string(r.counts.passed) + " passed, " + std::to_string(r.counts.failed) + " failed, " +
                  std::to_string(r.counts.skipped) + " skipped, " + std::to_string(r.counts.errors) + " errors)\n\n";
  auto line = [&m](std::string_view key, const std::string& value) {
    m += std::string(key) + ": " + value + "\n";
  };
  line("format", std::string(kRecordFormat));
  line("verdict", std::string(to_string(r.verdict)));
  line("duration-ms", std::to_string(r.duration.count()));
  line("passed", std::to_string(r.counts.passed));
  line("failed", std::to_string(r.counts.failed));
  line("skipped", std::to_string(r.counts.skipped));
  line("errors", std::to_string(r.counts.errors));
  line("commit", r.commit);
  line("tree", r.tree);
  line("gatekit", r.gatekit_version);
  line("time", format_utc(r.time));
  line("machine", r.machine);
  line("gpu-backend", r.device.backend);
  line("gpu-count", std::to_string(r.device.count));
  for (const auto& gpu : r.device.gpus) line("gpu", gpu);
  if (!r.device.driver_version.empty()) line("driver", r.device.driver_version);
  if (!r.device.runtime_version.empty()) line("runtime", r.device.runtime_version);
  if (!r.device.visible_devices.empty()) line("visible-devices", r.device.visible_devices);
  line("scope", r.scope);
  line("stress", r.stress);
  return m;
}

}  // namespace gatekit::gpu_gate
