// Ref names and the record message (format and strict parse).
#include "record/record.hpp"

#include <array>
#include <charconv>

#include "gatekit/gpu_backends.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::size_t kMaxId = 64;

bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::size_t kRunHex = 12;

// 20261201T100000Z-0123456789ab: 8 digits, T, 6 digits, Z, -, 12 lower-case hex digits.
bool valid_run_id(std::string_view run) {
  if (run.size() != 17 + kRunHex || run[8] != 'T' || run[15] != 'Z' || run[16] != '-') return false;
  for (std::size_t i = 0; i < 15; ++i)
    if (i != 8 && !digit(run[i])) return false;
  for (char c : run.substr(17))
    if (!digit(c) && !(c >= 'a' && c <= 'f')) return false;
  return true;
}

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

bool without_gpu(const DeviceFacts& device) { return device.count == 0 || device.backend == kGpuNone; }

RefHalf half_for(const DeviceFacts& device, bool cpu_gate) {
  return without_gpu(device) && !cpu_gate ? RefHalf::no_gpu : RefHalf::mine;
}

std::string no_gpu_note(std::string_view ref) {
  return "recorded without a GPU: the result stays in this clone (" + std::string(ref) +
         "), is never pushed and never counts for gate/gpu (set cpu_gate: true in the configuration to let a CPU machine gate)";
}

std::string half_prefix(std::string_view ns, RefHalf half) {
  switch (half) {
    case RefHalf::mine: return "refs/" + std::string(ns) + "-mine/";
    case RefHalf::no_gpu: return "refs/" + std::string(ns) + "-nogpu/";
    case RefHalf::published: break;
  }
  return "refs/" + std::string(ns) + "/";
}
std::string mine_prefix(std::string_view ns) { return half_prefix(ns, RefHalf::mine); }
std::string published_prefix(std::string_view ns) { return half_prefix(ns, RefHalf::published); }
std::string no_gpu_prefix(std::string_view ns) { return half_prefix(ns, RefHalf::no_gpu); }

std::string run_id(std::int64_t time, std::string_view record_commit) {
  std::string stamp;
  for (char c : format_utc(time))
    if (c != '-' && c != ':') stamp += c;
  return stamp + "-" + std::string(record_commit.substr(0, kRunHex));
}

std::string result_ref(std::string_view ns, RefHalf half, std::string_view tree, std::string_view machine,
                       std::string_view run) {
  return half_prefix(ns, half) + std::string(tree) + "/" + std::string(machine) + (run.empty() ? "" : "@") +
         std::string(run);
}

std::string published_name(std::string_view ns, std::string_view mine_ref) {
  const auto mine = mine_prefix(ns);
  if (!mine_ref.starts_with(mine)) return std::string(mine_ref);
  return published_prefix(ns) + std::string(mine_ref.substr(mine.size()));
}

std::optional<RefParts> parse_ref_name(std::string_view ns, std::string_view ref) {
  RefParts parts;
  std::string_view rest;
  bool found = false;
  for (const auto half : {RefHalf::mine, RefHalf::no_gpu, RefHalf::published}) {
    if (const auto prefix = half_prefix(ns, half); ref.starts_with(prefix)) {
      parts.half = half;
      rest = ref.substr(prefix.size());
      found = true;
      break;
    }
  }
  if (!found) return std::nullopt;
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  parts.tree = std::string(rest.substr(0, slash));
  std::string_view last = rest.substr(slash + 1);
  if (const auto at = last.find('@'); at != std::string_view::npos) {
    parts.run = std::string(last.substr(at + 1));
    last = last.substr(0, at);
    if (!valid_run_id(parts.run)) return std::nullopt;
  }
  parts.machine = std::string(last);
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
  if (ns.ends_with("-nogpu"))
    return bad_input("the namespace " + quote_for_message(ns) +
                     " must not end in '-nogpu' (refs/<namespace>-nogpu/ holds results recorded without a GPU)");
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
  line("format", std::string(r.format == 1 ? kRecordFormatV1 : kRecordFormat));
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
  if (r.format != 1) line("config", r.config);
  return m;
}

}  // namespace gatekit::gpu_gate
