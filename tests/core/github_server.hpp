#pragma once
// Runs tests/github_api/server.py in script mode for an integration test: started on
// 127.0.0.1 with an ephemeral port, stopped through its control endpoint on destruction.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/json.hpp"
#include "gatekit/process.hpp"
#include "temp_dir.hpp"

namespace gatekit::testing {

class GitHubServer {
 public:
  // state: the server's state JSON (tests/github_api/README.md).
  explicit GitHubServer(const std::string& state, const std::string& token = "") {
    auto state_file = dir_ / "state.json";
    std::ofstream(state_file) << state;
    auto port_file = dir_ / "url";
    ProcessSpec spec;
    spec.argv = {"python3", server_script().string(), "--state", state_file.string(), "--port-file", port_file.string()};
    if (!token.empty()) spec.argv.insert(spec.argv.end(), {"--token", token});
    spec.timeout = std::chrono::minutes(5);  // a test that forgets to stop it still ends
    thread_ = std::thread([this, spec] {
      SystemProcessRunner runner;
      auto r = runner.run(spec);
      if (r.ok()) log_ = r->out + r->err;
    });
    for (int i = 0; i < 1000 && !std::filesystem::exists(port_file); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(port_file);
    std::getline(in, url_);
    if (url_.empty()) {
      stop();
      throw std::runtime_error("the GitHub test server did not start: " + log_);
    }
  }
  ~GitHubServer() { stop(); }
  GitHubServer(const GitHubServer&) = delete;
  GitHubServer& operator=(const GitHubServer&) = delete;

  const std::string& url() const { return url_; }

  // Adds faults (a JSON list, README.md) through the control endpoint.
  void add_faults(const std::string& faults_json) { control("POST", "/_fake/faults", faults_json); }
  // {connection_count, requests[], dispatches[], faults[]}
  boost::json::object stats() { return boost::json::parse(control("GET", "/_fake/stats", "")).as_object(); }

  static std::filesystem::path server_script() {
    return std::filesystem::path(GATEKIT_TEST_DATA).parent_path().parent_path() / "github_api" / "server.py";
  }

 private:
  std::string control(const std::string& method, const std::string& path, const std::string& body) {
    auto transport = github::make_curl_transport(SystemEnvironment{});  // its own connection, not counted as API traffic
    github::HttpRequest request;
    request.method = method;
    request.url = url_ + path;
    request.body = body;
    request.timeout = std::chrono::seconds(10);
    auto result = transport->send(request);
    auto* response = std::get_if<github::HttpResponse>(&result);
    if (response == nullptr || response->status >= 300) throw std::runtime_error("control request failed: " + path);
    return response->body;
  }
  void stop() {
    if (!url_.empty()) {
      try {
        control("POST", "/_fake/shutdown", "");
      } catch (const std::exception&) {
      }
      url_.clear();
    }
    if (thread_.joinable()) thread_.join();
  }

  TempDir dir_;
  std::thread thread_;
  std::string url_;
  std::string log_;
};

}  // namespace gatekit::testing
