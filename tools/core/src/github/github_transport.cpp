// CurlTransport: one CURL easy handle for the client's lifetime, so consecutive requests
// reuse one kept-alive connection. TLS verification is always on; proxies come from the
// usual environment variables (libcurl's default); redirects stay on http(s).
//
// libcurl is loaded with dlopen on first use, not linked: its dependency tree (TLS, LDAP,
// Kerberos, SSH, ...) costs every gatekit process several milliseconds of start-up even
// when it never talks to GitHub. The headers are used for types and constants only.
#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include "gatekit/github.hpp"
#include "gatekit/platform.hpp"

namespace gatekit::github {

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() &&
        std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return value;
  }
  return std::nullopt;
}

namespace {

// The libcurl entry points the transport uses, resolved once per process.
struct CurlApi {
  CURLcode (*global_init)(long) = nullptr;
  CURL* (*easy_init)() = nullptr;
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...) = nullptr;
  CURLcode (*easy_perform)(CURL*) = nullptr;
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...) = nullptr;
  void (*easy_cleanup)(CURL*) = nullptr;
  void (*easy_reset)(CURL*) = nullptr;
  const char* (*easy_strerror)(CURLcode) = nullptr;
  curl_slist* (*slist_append)(curl_slist*, const char*) = nullptr;
  void (*slist_free_all)(curl_slist*) = nullptr;
};

template <class Fn>
bool resolve(void* handle, const char* name, Fn& out, std::string& error) {
  out = reinterpret_cast<Fn>(::dlsym(handle, name));
  if (out == nullptr && error.empty()) {
    const char* why = ::dlerror();
    error = why != nullptr ? why : std::string("missing symbol ") + name;
  }
  return out != nullptr;
}

struct LoadedCurl {
  CurlApi api;
  std::string error;  // empty when loaded
};

// Loads `library` and resolves the entry points; the error names the library when it fails.
LoadedCurl open_curl(const std::string& library) {
  LoadedCurl result;
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    result.error = library + " could not be loaded: " + std::string(why != nullptr ? why : "unknown error");
    return result;
  }
  std::string error;
  auto& a = result.api;
  bool ok = resolve(handle, "curl_global_init", a.global_init, error) &&
            resolve(handle, "curl_easy_init", a.easy_init, error) &&
            resolve(handle, "curl_easy_setopt", a.easy_setopt, error) &&
            resolve(handle, "curl_easy_perform", a.easy_perform, error) &&
            resolve(handle, "curl_easy_getinfo", a.easy_getinfo, error) &&
            resolve(handle, "curl_easy_cleanup", a.easy_cleanup, error) &&
            resolve(handle, "curl_easy_reset", a.easy_reset, error) &&
            resolve(handle, "curl_easy_strerror", a.easy_strerror, error) &&
            resolve(handle, "curl_slist_append", a.slist_append, error) &&
            resolve(handle, "curl_slist_free_all", a.slist_free_all, error);
  if (!ok) {
    result.error = library + " could not be loaded: " + error;
    return result;
  }
  if (CURLcode code = a.global_init(CURL_GLOBAL_DEFAULT); code != CURLE_OK)
    result.error = std::string("curl_global_init failed: ") + a.easy_strerror(code);
  return result;
}

// Loads a libcurl once per process and name, and runs curl_global_init once for it. The
// library stays loaded for the process's lifetime (libcurl's global state is not safe to
// tear down and reload).
const LoadedCurl& load_curl(const std::string& library) {
  static std::mutex mutex;
  static std::map<std::string, LoadedCurl> loaded;  // node-based: references stay valid
  std::lock_guard lock(mutex);
  auto it = loaded.find(library);
  if (it == loaded.end()) it = loaded.emplace(library, open_curl(library)).first;
  return it->second;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

// Header lines arrive one per call; a new status line (redirect, 100-continue) starts over.
std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
  std::string_view line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string key(line.substr(0, colon));
    std::transform(key.begin(), key.end(), key.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    auto value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    headers->emplace_back(std::move(key), std::string(value));
  }
  return size * count;
}

TransportErrorKind classify(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportErrorKind::connect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportErrorKind::timeout;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2_STREAM:
      return TransportErrorKind::dropped;
    default:
      return TransportErrorKind::other;  // TLS verification, bad URL, ...: not retried
  }
}

class CurlTransport final : public HttpTransport {
 public:
  explicit CurlTransport(std::string library) : library_(std::move(library)) {}
  ~CurlTransport() override {
    if (handle_ != nullptr) api_->easy_cleanup(handle_);
  }
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    if (handle_ == nullptr) {
      // First use: load libcurl (once per process) and open the easy handle.
      const LoadedCurl& curl = load_curl(library_);
      if (!curl.error.empty()) return TransportError{TransportErrorKind::other, curl.error};
      api_ = &curl.api;
      handle_ = api_->easy_init();
      if (handle_ == nullptr) return TransportError{TransportErrorKind::other, "curl_easy_init failed"};
    }
    const CurlApi& api = *api_;
    // Reset clears options but keeps the connection cache: the connection is reused.
    api.easy_reset(handle_);
    HttpResponse response;
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers) headers = api.slist_append(headers, (name + ": " + value).c_str());
    // No "Expect: 100-continue" round trip for larger bodies.
    headers = api.slist_append(headers, "Expect:");

    api.easy_setopt(handle_, CURLOPT_URL, request.url.c_str());
    api.easy_setopt(handle_, CURLOPT_HTTPHEADER, headers);
    api.easy_setopt(handle_, CURLOPT_ERRORBUFFER, error_buffer);
    api.easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(handle_, CURLOPT_SSL_VERIFYPEER, 1L);
    api.easy_setopt(handle_, CURLOPT_SSL_VERIFYHOST, 2L);
    api.easy_setopt(handle_, CURLOPT_PROTOCOLS_STR, "http,https");
    api.easy_setopt(handle_, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    api.easy_setopt(handle_, CURLOPT_FOLLOWLOCATION, 1L);
    api.easy_setopt(handle_, CURLOPT_MAXREDIRS, 5L);
    api.easy_setopt(handle_, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    api.easy_setopt(handle_, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::min<std::int64_t>(request.timeout.count(), 10'000)));
    api.easy_setopt(handle_, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
    api.easy_setopt(handle_, CURLOPT_WRITEFUNCTION, on_body);
    api.easy_setopt(handle_, CURLOPT_WRITEDATA, &response.body);
    api.easy_setopt(handle_, CURLOPT_HEADERFUNCTION, on_header);
    api.easy_setopt(handle_, CURLOPT_HEADERDATA, &response.headers);
    if (request.method == "GET") {
      api.easy_setopt(handle_, CURLOPT_HTTPGET, 1L);
    } else {
      api.easy_setopt(handle_, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      if (!request.body.empty() || request.method != "DELETE") {
        api.easy_setopt(handle_, CURLOPT_POSTFIELDS, request.body.c_str());
        api.easy_setopt(handle_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      }
    }

    CURLcode code = api.easy_perform(handle_);
    api.slist_free_all(headers);
    if (code != CURLE_OK) {
      std::string message = error_buffer[0] != '\0' ? error_buffer : api.easy_strerror(code);
      return TransportError{classify(code), message};
    }
    long status = 0;
    api.easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
    return response;
  }

 private:
  std::string library_;
  const CurlApi* api_ = nullptr;
  CURL* handle_ = nullptr;
};

}  // namespace

std::unique_ptr<HttpTransport> make_curl_transport(const Environment& env) {
  return std::make_unique<CurlTransport>(env.get_nonempty("GATEKIT_LIBCURL").value_or(platform::libcurl_name(platform::host_os())));
}

}  // namespace gatekit::github
