#pragma once
// Environment variables (and the machine's host name and CPU count) behind an interface, so
// tools can be tested with a map.
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gatekit {

class Environment {
 public:
  virtual ~Environment() = default;
  virtual std::optional<std::string> get(std::string_view name) const = 0;
  // A set, non-empty value, else nullopt: the common "is it configured" question.
  std::optional<std::string> get_nonempty(std::string_view name) const {
    auto v = get(name);
    if (!v || v->empty()) return std::nullopt;
    return v;
  }
  // The machine's host name (gethostname); "" when it cannot be read.
  virtual std::string host_name() const = 0;
  // The CPUs this process may run on (platform::usable_cpus: its affinity mask, as `nproc`
  // counts them); at least 1.
  virtual int cpu_count() const = 0;
};

class SystemEnvironment final : public Environment {
 public:
  std::optional<std::string> get(std::string_view name) const override;
  std::string host_name() const override;
  int cpu_count() const override;
};

class MapEnvironment final : public Environment {
 public:
  MapEnvironment() = default;
  MapEnvironment(std::initializer_list<std::pair<const std::string, std::string>> values)
      : values_(values) {}
  explicit MapEnvironment(std::map<std::string, std::string, std::less<>> values)
      : values_(std::move(values)) {}
  void set(std::string name, std::string value) { values_[std::move(name)] = std::move(value); }
  void unset(std::string_view name) {
    if (auto it = values_.find(name); it != values_.end()) values_.erase(it);
  }
  std::optional<std::string> get(std::string_view name) const override {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  std::string host_name() const override { return host; }
  int cpu_count() const override { return cpus; }

  std::string host = "test-host";  // what host_name() answers
  int cpus = 2;                    // what cpu_count() answers

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace gatekit
