// CliCommand and CliOption (gatekit/cli.hpp): the tools' option binding, each call the CLI11
// call of the same name. CLI11 is header only: its templates are instantiated here, once, for
// the field types the tools use, instead of in every tool's cli.cpp.
#include <CLI/CLI.hpp>

#include "gatekit/cli.hpp"

namespace gatekit {

CliOption& CliOption::required() {
  option_->required();
  return *this;
}

CliOption& CliOption::range(int min, int max) {
  option_->check(CLI::Range(min, max));
  return *this;
}

CliOption& CliOption::range(long min, long max) {
  option_->check(CLI::Range(min, max));
  return *this;
}

CliOption& CliOption::positive_number() {
  option_->check(CLI::PositiveNumber);
  return *this;
}

CliOption& CliOption::existing_file() {
  option_->check(CLI::ExistingFile);
  return *this;
}

CliOption& CliOption::is_member(const std::vector<std::string>& values, bool ignore_case) {
  if (ignore_case) {
    option_->check(CLI::IsMember(values, CLI::ignore_case));
  } else {
    option_->check(CLI::IsMember(values));
  }
  return *this;
}

CliOption& CliOption::check(const std::function<std::string(const std::string&)>& check,
                            const std::string& description) {
  option_->check(CLI::Validator([check](std::string& value) { return check(value); }, description));
  return *this;
}

CliOption& CliOption::transform(const std::function<std::string(std::string&)>& transform,
                                const std::string& description) {
  option_->transform(CLI::Validator(transform, description));
  return *this;
}

CliOption& CliOption::expected(int count) {
  option_->expected(count);
  return *this;
}

CliOption& CliOption::take_all() {
  option_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return *this;
}

CliOption& CliOption::allow_extra_args(bool allow) {
  option_->allow_extra_args(allow);
  return *this;
}

CliOption& CliOption::trigger_on_parse() {
  option_->trigger_on_parse();
  return *this;
}

CliOption& CliOption::group(const std::string& name) {
  option_->group(name);
  return *this;
}

CliOption& CliOption::excludes(const CliOption& other) {
  option_->excludes(other.option_);
  return *this;
}

std::size_t CliOption::count() const { return option_->count(); }

CliOption CliCommand::option(const std::string& name, std::string& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::vector<std::string>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, int& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, long& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, long long& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, double& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::optional<long>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::optional<double>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option_function(const std::string& name, const std::function<void(const std::string&)>& take,
                                      const std::string& help) {
  return CliOption(*app_->add_option_function<std::string>(name, take, help));
}

CliOption CliCommand::flag(const std::string& name, bool& into, const std::string& help) {
  return CliOption(*app_->add_flag(name, into, help));
}

void CliCommand::footer(const std::string& text) { app_->footer(text); }

}  // namespace gatekit
